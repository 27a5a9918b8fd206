package check

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
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

// A default checked against an exponential pattern is refused: as a plain
// mismatch when RE2 runs the pattern, and as a violation naming the budget
// when the backtracking engine runs out of time (it used to pass). The
// schema's defaults share one budget, so many such defaults stop soon.
func TestDefaultPatternTimeoutIsAViolation(t *testing.T) {
	props := map[string]any{}
	for i := range 20 {
		props[fmt.Sprintf("p%02d", i)] = map[string]any{"type": "string", "pattern": "^(?=a)(a+)+$", "default": strings.Repeat("a", 40) + "!"}
	}
	props["plain"] = map[string]any{"type": "string", "pattern": "^(a+)+$", "default": strings.Repeat("a", 40) + "!"}
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
	start := time.Now()
	_, diags := Schema("s.json", raw, nil)
	if d := time.Since(start); d > 60*time.Second { // a stall guard, not a speed bound
		t.Fatalf("the check took %v: the budget is not shared", d)
	}
	budget, mismatch := 0, 0
	for _, d := range diags {
		switch {
		case d.Rule != RuleDefault:
		case strings.Contains(d.Message, "exceeded its time budget") && strings.HasPrefix(d.Path, "/properties/p"):
			budget++
		case d.Path == "/properties/plain/default" && strings.Contains(d.Message, "does not match pattern ^(a+)+$"):
			mismatch++
		}
	}
	if budget != 20 || mismatch != 1 {
		t.Fatalf("%d defaults refused for the budget (want 20), %d plain mismatches (want 1): %v", budget, mismatch, diags)
	}
}

// `udtc check` warns on a pattern that needs the backtracking engine, and
// only on one.
func TestPatternBacktrackingWarning(t *testing.T) {
	for pat, want := range map[string]bool{
		`^(?!admin$)[a-z]+$`: true, `^(a)\1$`: true, `^\p{L}$`: true,
		`^(a+)+$`: false, `^[a-z][a-z0-9-]*$`: false, `^\s*\S+$`: false, `^.{1,63}$`: false,
	} {
		raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string", "pattern": pat}}})
		_, diags := Schema("s.json", raw, nil)
		got := false
		for _, d := range diags {
			got = got || d.Rule == RulePatternBacktracking && d.Path == "/properties/a/pattern"
		}
		if got != want {
			t.Errorf("%s: pattern-backtracking %v, want %v: %v", pat, got, want, diags)
		}
	}
}

// An x- keyword one typo from a known extension gets a did-you-mean (it
// would otherwise store a secret in clear); others stay open extensions.
func TestNearExtensionSuggests(t *testing.T) {
	for key, want := range map[string]string{
		"x-radius-sensitve":  "x-radius-sensitive",
		"x-radius-sensitiv":  "x-radius-sensitive",
		"x-resource-types":   "x-resource-type",
		"x-radius-sensitive": "",
		"x-ms-secret":        "",
		"x-contoso-owner":    "",
	} {
		val := any(true)
		if strings.HasPrefix(key, "x-resource") {
			val = "Contoso.Data/things"
		}
		raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string", key: val}}})
		_, diags := Schema("s.json", raw, nil)
		got := ""
		for _, d := range diags {
			if d.Rule == RuleUnknownKeyword && d.Path == "/properties/a/"+key {
				got = strings.TrimSuffix(strings.TrimPrefix(d.Hint, "did you mean `"), "`?")
			}
		}
		if got != want {
			t.Errorf("%s: suggested %q, want %q: %v", key, got, want, diags)
		}
		if diags.HasErrors() {
			t.Errorf("%s: an open extension is an error: %v", key, diags)
		}
	}
}
