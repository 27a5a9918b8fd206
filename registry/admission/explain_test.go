package admission

import (
	"strings"
	"testing"
)

// Explain (udtc explain, udtc registry show) shows writeOnly and deprecated
// as the catalog, the docs and the Go comments do, and says of a sensitive
// value exactly where it is not returned: listSecrets returns it.
func TestExplainFlags(t *testing.T) {
	s, err := Compile([]byte(`{"type":"object","properties":{
		"token":{"type":"string","writeOnly":true},
		"old":{"type":"string","deprecated":true},
		"password":{"type":"string","x-radius-sensitive":true}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, fields, err := s.Explain(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range fields {
		got[f.Name] = strings.Join(f.Constraints, "; ")
	}
	want := map[string]string{
		"token":    "write-only",
		"old":      "deprecated",
		"password": "sensitive: encrypted at rest, never returned by GET or LIST",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: constraints %q, want %q", name, got[name], w)
		}
	}
}
