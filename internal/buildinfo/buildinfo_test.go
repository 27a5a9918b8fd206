package buildinfo

import "testing"

// Pin is what go install takes to install the same udtc again, or "".
func TestPin(t *testing.T) {
	for _, tc := range []struct {
		info Info
		want string
	}{
		{Info{Version: "v0.4.0", Commit: "abc"}, "v0.4.0"},
		{Info{Version: "v0.0.0-20261201120000-0123456789ab"}, "v0.0.0-20261201120000-0123456789ab"},
		{Info{Version: "(devel)", Commit: "0123456789abcdef"}, "0123456789abcdef"},
		{Info{Version: "(devel)", Commit: "0123456789abcdef", Modified: true}, ""},
		{Info{Version: "(devel)"}, ""},
	} {
		if got := tc.info.Pin(); got != tc.want {
			t.Errorf("%+v: Pin %q, want %q", tc.info, got, tc.want)
		}
	}
}
