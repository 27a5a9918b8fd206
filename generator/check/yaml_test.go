package check

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestWriteStringRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "tab\tnew\nline\rcr", "\x00\x01\x1f\x7f", "<a href=\"x\">&amp;</a>", "héllo wörld ✓ \u2028 𝄞"} {
		var b bytes.Buffer
		writeString(&b, s)
		var got string
		if err := json.Unmarshal(b.Bytes(), &got); err != nil || got != s {
			t.Errorf("writeString(%q) = %s: decodes to %q, %v", s, b.Bytes(), got, err)
		}
	}
}
