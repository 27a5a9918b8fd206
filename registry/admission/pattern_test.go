package admission_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/admission"
)

// manyStrings is a document of n copies of s in the array `names`.
func manyStrings(n int, s string) string {
	items := make([]string, n)
	for i := range items {
		items[i] = `"` + s + `"`
	}
	return `{"names":[` + strings.Join(items, ",") + `]}`
}

// stallGuard fails a test that ran far longer than any budget: a guard
// against exponential blow-up, not a speed bound.
func stallGuard(t *testing.T, start time.Time) {
	t.Helper()
	if d := time.Since(start); d > 60*time.Second {
		t.Fatalf("admission took %v: backtracking is not bounded per request", d)
	}
}

// A nested quantifier RE2 can run is matched in linear time: 1,000
// violating strings are each refused as a mismatch, not as a timeout (each
// took a 100 ms timeout on the backtracking engine before).
func TestExponentialPatternRunsOnRE2(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"names":{"type":"array","items":{"type":"string","pattern":"^(a+)+$"}}}}`)
	start := time.Now()
	_, vs := s.Admit(json.RawMessage(manyStrings(1000, strings.Repeat("a", 30)+"!")))
	stallGuard(t, start)
	if len(vs) != 1000 {
		t.Fatalf("%d violations, want 1000", len(vs))
	}
	for _, v := range vs {
		if v.Code != admission.CodePatternMismatch || !strings.Contains(v.Message, "must match the pattern") {
			t.Fatalf("%s: %s %s, want a plain mismatch", v.Target, v.Code, v.Message)
		}
	}
}

// A pattern that needs the backtracking engine shares one budget per
// document: once it is spent, every further value is refused at once, each
// violation naming its property and the budget; a timeout is never a pass.
func TestBacktrackingBudgetPerDocument(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"names":{"type":"array","items":{"type":"string","pattern":"^(?=a)(a+)+$"}}}}`)
	start := time.Now()
	_, vs := s.Admit(json.RawMessage(manyStrings(1000, strings.Repeat("a", 40)+"!")))
	stallGuard(t, start)
	if len(vs) != 1000 {
		t.Fatalf("%d violations, want 1000 (a timed-out match passed)", len(vs))
	}
	timedOut := 0
	for _, v := range vs {
		if v.Code != admission.CodePatternMismatch || !strings.HasPrefix(v.Target, "properties.names[") {
			t.Fatalf("%s %s %s", v.Target, v.Code, v.Message)
		}
		if strings.Contains(v.Message, "exceeded its time budget") {
			timedOut++
		}
	}
	// Every value past the first few is refused without running.
	if timedOut < 990 {
		t.Fatalf("%d of 1000 refused for the budget, want nearly all: %+v", timedOut, vs[0])
	}
	// The next document has a budget of its own.
	if _, vs := s.Admit(json.RawMessage(`{"names":["aaa"]}`)); len(vs) != 0 {
		t.Fatalf("a matching value after a spent document: %+v", vs)
	}
}

// BenchmarkAdmitHostilePatterns is the load probe of a 1,000-string PUT
// against an exponential pattern: on RE2 (^(a+)+$) it costs microseconds
// per value; with a lookahead it is bounded by one PatternBudget per
// document.
func BenchmarkAdmitHostilePatterns(b *testing.B) {
	doc := json.RawMessage(manyStrings(1000, strings.Repeat("a", 30)+"!"))
	for _, p := range []string{`^(a+)+$`, `^(?=a)(a+)+$`} {
		s := mustCompile(b, `{"type":"object","properties":{"names":{"type":"array","items":{"type":"string","pattern":"`+p+`"}}}}`)
		b.Run(p, func(b *testing.B) {
			for b.Loop() {
				if _, vs := s.Admit(doc); len(vs) != 1000 {
					b.Fatalf("%d violations, want 1000", len(vs))
				}
			}
		})
	}
}
