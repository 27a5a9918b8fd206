package check

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/diag"
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
// mismatch when RE2 runs the pattern, and as a violation naming the
// backstop when the backtracking engine runs out of time (it used to
// pass). The schema's defaults share one backstop, so many such defaults
// stop soon.
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
		case strings.Contains(d.Message, "time backstop of 1s") && strings.HasPrefix(d.Path, "/properties/p"):
			budget++
		case d.Path == "/properties/plain/default" && strings.Contains(d.Message, "does not match pattern ^(a+)+$"):
			mismatch++
		}
	}
	if budget != 20 || mismatch != 1 {
		t.Fatalf("%d defaults refused for the budget (want 20), %d plain mismatches (want 1): %v", budget, mismatch, diags)
	}
}

// A default whose match costs more steps than the schema's budget is
// refused without matching (a 1 MB default cost 10 s at registration),
// naming the budget; the verdict does not depend on the machine.
func TestDefaultPatternStepsAreBounded(t *testing.T) {
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "string", "pattern": "a{0,999}b", "default": strings.Repeat("a", 1<<20)},
	}})
	_, diags := Schema("s.json", raw, nil)
	want := `" cannot be matched against pattern a{0,999}b: matching it costs 2,098,202,577 steps, over the budget of 100,000,000 steps per request`
	found := false
	var got []string
	for _, d := range diags {
		found = found || d.Rule == RuleDefault && d.Path == "/properties/a/default" && strings.HasSuffix(d.Message, want)
		got = append(got, d.Rule+" "+d.Path+" ..."+d.Message[max(len(d.Message)-120, 0):])
	}
	if !found {
		t.Fatalf("diagnostics %q, want a default refused with %q", got, want)
	}
}

// A schema checked again with the same Patterns (a server's catalog pages
// after registration) takes its defaults' costly match answers from there
// instead of matching again, and checks the same.
func TestDefaultVerdictsAreKept(t *testing.T) {
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "string", "pattern": "a{0,999}b", "default": strings.Repeat("a", 40_000) + "b"},
		"c": map[string]any{"type": "string", "pattern": "a{0,999}c", "default": strings.Repeat("a", 1000)},
	}})
	p := &Patterns{Max: 16}
	var first []string
	for i := range 3 {
		_, diags := Schema("s.json", raw, p)
		var got []string
		for _, d := range diags {
			got = append(got, d.Rule+" "+d.Path)
		}
		if i == 0 {
			first = got
		} else if strings.Join(got, "\n") != strings.Join(first, "\n") {
			t.Fatalf("check %d: %v, first %v", i, got, first)
		}
		if hits := p.Answers().Hits(); hits != int64(2*i) {
			t.Fatalf("check %d: %d answers from the cache, want %d", i, hits, 2*i)
		}
	}
	if want := "pattern-cost /properties/a/pattern,default /properties/c/default,pattern-cost /properties/c/pattern"; strings.Join(first, ",") != want {
		t.Fatalf("diagnostics %q, want %s", first, want)
	}
}

// `udtc check` warns about a pattern whose steps per character come from a
// bounded repetition and make the registry refuse values under 1 MiB,
// naming the repetition and the cost; not when the pattern is anchored and
// short, or maxLength keeps long values out.
func TestPatternCostWarning(t *testing.T) {
	for _, c := range []struct {
		pattern   string
		maxLength int
		want      string
	}{
		{`a{0,999}b`, 0, "matching this pattern costs 2,001 steps per character of the value, 1,998 of them for the bounded repetition a{0,999}: a 1 MiB value costs 2,098,202,577 steps, and the registry refuses values of 49,975 characters or more (its budget is 100,000,000 steps per request)"},
		{`[a-z0-9-]{1,63}\.`, 0, "the bounded repetition [\\-0-9a-z]{1,63}"},
		{`a{0,999}b`, 49_975, "the bounded repetition a{0,999}"},
		{`a{0,999}b`, 49_974, ""},
		{`^a{0,999}b`, 0, ""},
		{`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`, 0, ""},
		{`\d{1,5}`, 0, ""},
		{`^(?=x)a{0,999}`, 0, ""}, // the backtracking engine: pattern-backtracking
	} {
		prop := map[string]any{"type": "string", "pattern": c.pattern}
		if c.maxLength > 0 {
			prop["maxLength"] = c.maxLength
		}
		raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"a": prop}})
		_, diags := Schema("s.json", raw, nil)
		got := ""
		for _, d := range diags {
			if d.Rule == RulePatternCost && d.Path == "/properties/a/pattern" {
				got = d.Message
			}
		}
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s (maxLength %d): pattern-cost %q, want %q", c.pattern, c.maxLength, got, c.want)
		}
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
		"x-resource-types":   "x-resource-type",
		"x-resource-typ":     "x-resource-type",
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

// A near-miss of a keyword that protects a secret is an error with its
// did-you-mean, not a warning CI lets through: the secret would otherwise be
// stored in clear and returned by GET.
func TestSecurityKeywordTypoIsError(t *testing.T) {
	for _, key := range []string{"x-radius-sensitve", "x-radius-sensitiv", "X-Radius-Sensitive", "radius-sensitive", "x-radius-sensitives"} {
		raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"password": map[string]any{"type": "string", key: true}}})
		_, diags := Schema("s.json", raw, nil)
		var found []diag.Diagnostic
		for _, d := range diags {
			if d.Path == "/properties/password/"+key {
				found = append(found, d)
			}
		}
		if len(found) != 1 || found[0].Rule != RuleSecurityKeywordTypo || found[0].Severity != diag.Error ||
			found[0].Hint != "did you mean `x-radius-sensitive`?" {
			t.Errorf("%s: got %v, want one %s error with the did-you-mean", key, found, RuleSecurityKeywordTypo)
		}
	}
	raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"password": map[string]any{"type": "string", "x-radius-sensitive": true}}})
	if _, diags := Schema("s.json", raw, nil); len(diags) != 0 {
		t.Errorf("the keyword itself: %v", diags)
	}
	// Another vendor's extension is no typo: at most unknown-keyword's warning.
	for _, key := range []string{"x-ms-sensitive", "x-azure-sensitive"} {
		raw, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"password": map[string]any{"type": "string", key: true}}})
		if _, diags := Schema("s.json", raw, nil); diags.HasErrors() {
			t.Errorf("%s: %v", key, diags)
		}
	}
}
