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

// A pattern that needs the backtracking engine shares one time backstop
// per document: once it is spent, every further value is refused at once,
// each violation naming its property and the backstop; a timeout is never
// a pass.
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
		if strings.Contains(v.Message, "ran past the request's time backstop of 1s") {
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
// per value; with a lookahead it is bounded by one time backstop per
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

// evilSchema is a property `name` whose pattern costs some 2,000 steps per
// character of the value on RE2 (a{0,999} compiles to 999 copies of a),
// with more keywords of the property.
func evilSchema(t *testing.T, more string) *admission.Schema {
	return mustCompile(t, `{"type":"object","properties":{"name":{"type":"string","pattern":"a{0,999}b"`+more+`},"names":{"type":"array","items":{"type":"string","pattern":"a{0,999}b"}}}}`)
}

// A value whose match costs more steps than the document's budget is
// refused without matching (a 3 MiB value took about 40 s of CPU), the
// violation naming the pattern, the steps and the budget.
func TestPatternStepsBoundAValue(t *testing.T) {
	s := evilSchema(t, "")
	_, vs := s.Admit(json.RawMessage(`{"name":"` + strings.Repeat("a", 3<<20) + `"}`))
	want := "could not be matched against the pattern a{0,999}b: matching it costs 6,294,603,729 steps, over the budget of 100,000,000 steps per request"
	if len(vs) != 1 || vs[0].Target != "properties.name" || vs[0].Code != admission.CodePatternMismatch || vs[0].Message != want {
		t.Fatalf("violations %+v, want one: %s", vs, want)
	}
}

// One document's values share the budget: 1,000 values of 3.9 KB against
// a{0,999}b are matched until the steps run out and the rest refused, the
// same number on every machine (it took 41 s).
func TestPatternStepsPerDocument(t *testing.T) {
	s := evilSchema(t, "")
	value := strings.Repeat("a", 3900)
	_, vs := s.Admit(json.RawMessage(manyStrings(1000, value)))
	mismatch, budget := 0, 0
	for _, v := range vs {
		switch {
		case v.Code != admission.CodePatternMismatch:
			t.Fatalf("%+v", v)
		case strings.Contains(v.Message, "over the budget"), strings.Contains(v.Message, "of the budget of 100,000,000 steps per request are left"):
			budget++
		case strings.Contains(v.Message, "must match the pattern"):
			mismatch++
		}
	}
	matched := int(100_000_000 / (3901 * 2001)) // steps of each value: (3,900+1) × 2,001
	if mismatch != matched || budget != 1000-matched {
		t.Fatalf("%d plain mismatches and %d refused for the budget, want %d and %d", mismatch, budget, matched, 1000-matched)
	}
}

// The cheap checks come first: a value refused for its length or its enum
// is not matched against the pattern (it used to be, for 53 s with
// maxLength: 64), so its only violation is the cheap one.
func TestRefusedValueIsNotMatched(t *testing.T) {
	long := strings.Repeat("a", 100_000)
	for more, code := range map[string]string{
		`,"maxLength":64`:      admission.CodeInvalidLength,
		`,"minLength":200000`:  admission.CodeInvalidLength,
		`,"enum":["ab","aab"]`: admission.CodeInvalidEnum,
		`,"format":"uuid"`:     admission.CodeInvalidFormat,
	} {
		s := evilSchema(t, more)
		_, vs := s.Admit(json.RawMessage(`{"name":"` + long + `"}`))
		if len(vs) != 1 || vs[0].Code != code {
			t.Errorf("%s: violations %+v, want only %s", more, vs, code)
		}
		// A value the cheap checks accept is still matched.
		if _, vs := s.Admit(json.RawMessage(`{"name":"aab"}`)); len(vs) != 0 && more != `,"minLength":200000` && more != `,"format":"uuid"` {
			t.Errorf("%s: aab refused: %+v", more, vs)
		}
	}
	s := evilSchema(t, `,"maxLength":64`)
	if _, vs := s.Admit(json.RawMessage(`{"name":"aaa"}`)); len(vs) != 1 || vs[0].Code != admission.CodePatternMismatch {
		t.Errorf("a short value without b: %+v, want a pattern mismatch", vs)
	}
}

// BenchmarkAdmitCostlyRepetition is the load probe of the finding's
// 1,000 strings of 3.9 KB against a{0,999}b (41 s of CPU before): one
// document now does at most the step budget's work (some 0.7 s of one
// idle core), refusing the same values on every machine.
func BenchmarkAdmitCostlyRepetition(b *testing.B) {
	s := mustCompile(b, `{"type":"object","properties":{"names":{"type":"array","items":{"type":"string","pattern":"a{0,999}b"}}}}`)
	doc := json.RawMessage(manyStrings(1000, strings.Repeat("a", 3900)))
	for b.Loop() {
		if _, vs := s.Admit(doc); len(vs) != 1000 {
			b.Fatalf("%d violations, want 1000", len(vs))
		}
	}
}
