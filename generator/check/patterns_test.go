package check

import (
	"encoding/json"
	"testing"
)

// TestPatternsBounded: a Patterns with a Max keeps at most Max compiled
// patterns, however many distinct ones it sees, and checks every schema
// the same with and without it.
func TestPatternsBounded(t *testing.T) {
	p := &Patterns{Max: 2}
	schema := func(pat string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string", "pattern": pat}}})
		return b
	}
	for _, pat := range []string{"^a$", "^b$", "^c$", "^a$", "^d$", "(?<=x)y", "[z"} {
		s1, d1 := Schema("s.json", schema(pat), p)
		s2, d2 := Schema("s.json", schema(pat), nil)
		if (s1 == nil) != (s2 == nil) || len(d1) != len(d2) {
			t.Errorf("pattern %q: cached check %v %v, uncached %v %v", pat, s1 != nil, d1, s2 != nil, d2)
		}
	}
	kept := 0
	p.m.Range(func(_, _ any) bool { kept++; return true })
	if kept != 2 {
		t.Errorf("kept %d patterns, want Max = 2", kept)
	}
	if _, d := Schema("s.json", schema("[z"), p); !d.HasErrors() {
		t.Error("an invalid pattern passed with a cache")
	}
}
