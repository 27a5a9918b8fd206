package pattern_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/schema/pattern"
)

// Plain patterns run on RE2, and mean what ECMA-262 says.
func TestRE2Meaning(t *testing.T) {
	for _, c := range []struct {
		pattern string
		yes, no []string
	}{
		{`^[a-z][a-z0-9-]*$`, []string{"a", "my-app1"}, []string{"", "1a", "A", "a_b", "a\n"}},
		{`^(a+)+$`, []string{"a", strings.Repeat("a", 40)}, []string{strings.Repeat("a", 30) + "!"}},
		{`^\d{3}$`, []string{"123"}, []string{"12", "١٢٣", "1234"}},
		{`^\w+$`, []string{"a_1"}, []string{"é", "a-b"}},
		{`^.$`, []string{"a", "😀", "\t"}, []string{"\n", "\r", "\u2028", "\u2029", ""}},
		{`^\s$`, []string{" ", "\v", "\u00a0", "\ufeff", "\u3000", "\u2028"}, []string{"a", "\u200b"}},
		{`^\S+$`, []string{"ab"}, []string{"a b", "a\u00a0b"}},
		{`^[\s,]+$`, []string{" ,\u00a0"}, []string{"a"}},
		{`a$`, []string{"ba"}, []string{"a\n"}},
		{`^[]a]$`, nil, []string{"a]", "a", "]"}},
		{`^[^]$`, []string{"x", "\n"}, []string{"", "xy"}},
		{`^[[:alpha:]]$`, []string{"a]", ":]", "[]"}, []string{"a", "b]"}},
		{`^\x41\u0042\cJ\0$`, []string{"AB\n\x00"}, []string{"AB"}},
		{`^a{,2}$`, []string{"a{,2}"}, []string{"aa"}},
		{`^a{2}}$`, []string{"aa}"}, []string{"aa"}},
		{`^a{2,}$`, []string{"aa", "aaa"}, []string{"a"}},
		{`^[\b]$`, []string{"\b"}, []string{"b"}},
		{`\bword\b`, []string{"a word."}, []string{"swords"}},
		{`^\/\.\-$`, []string{"/.-"}, []string{"a.-"}},
		{`^(?:ab|cd)(?<x>e)?$`, []string{"ab", "cde"}, []string{"abcd"}},
		{`^[a-c-]$`, []string{"b", "-"}, []string{"d"}},
		{`^.*?x$`, []string{"abx"}, []string{"ab"}},
		{`^[0-[]]$`, []string{"0]", "[]"}, []string{"0", "]"}},
		{`^\A\e[\B\y]\z$`, []string{"AeBz", "Aeyz"}, []string{"e", "Ae\x1bz"}},
	} {
		p, err := pattern.Compile(c.pattern)
		if err != nil {
			t.Fatalf("%s: %v", c.pattern, err)
		}
		if p.Backtracks() {
			t.Errorf("%s runs on the backtracking engine, want RE2", c.pattern)
		}
		matches(t, p, c.yes, c.no)
	}
}

// matches checks that p matches each of yes and none of no.
func matches(t *testing.T, p *pattern.Pattern, yes, no []string) {
	t.Helper()
	for _, s := range yes {
		if ok, err := p.Match(nil, s); !ok || err != nil {
			t.Errorf("%s on %q: %v, %v; want a match", p, s, ok, err)
		}
	}
	for _, s := range no {
		if ok, err := p.Match(nil, s); ok || err != nil {
			t.Errorf("%s on %q: %v, %v; want no match", p, s, ok, err)
		}
	}
}

// The RE2 spelling, which the Go client's tags carry, is the pattern as
// written when RE2 reads it the same way, as it does the usual patterns.
func TestRE2SpellingIsAsWritten(t *testing.T) {
	for _, src := range []string{`^[a-zA-Z0-9._-]+$`, `^[a-z][a-z0-9-]*$`, `^/`, `^[a-z]+("[a-z]+")?$`, `^\d{3}-\d{4}$`, `^[$*+?(){}|]é$`} {
		p, err := pattern.Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.RE2(); got != src {
			t.Errorf("RE2() of %s = %s", src, got)
		}
	}
}

// What RE2 cannot run, or the reader does not know, stays with regexp2.
func TestBacktrackingPatterns(t *testing.T) {
	for _, src := range []string{
		`^(?!admin$).*`, `(?<=a)b`, `^(a)\1$`, `^(?<x>a)\k<x>$`, `(?i)a`, `\p{L}`, `\k`, `[\S]`, `[\d-z]`, `\1`, `a{1001}`,
	} {
		p, err := pattern.Compile(src)
		if err != nil {
			continue // not ECMA-262 at all; Compile's error is the checker's
		}
		if !p.Backtracks() {
			t.Errorf("%s runs on RE2, want the backtracking engine", src)
		}
	}
	p, _ := pattern.Compile(`^(?!admin$)[a-z]+$`)
	if ok, _ := p.Match(nil, "admin"); ok {
		t.Error("the lookahead did not refuse admin")
	}
	if ok, _ := p.Match(nil, "bob"); !ok {
		t.Error("the lookahead refused bob")
	}
	if _, err := pattern.Compile(`(`); err == nil {
		t.Error("an unclosed group compiled")
	}
}

// A pattern that runs on regexp2 keeps its ECMA-262 meaning where
// regexp2's own reading differs: `.`, `\b`, `\B`, `[` in a class (read as
// .NET class subtraction or a POSIX class), escaped letters ECMA-262 reads
// as themselves (.NET's \A, \e, \G, \z...) and `\c` without a letter.
// The answers are those of node's RegExp.
func TestRegexp2Meaning(t *testing.T) {
	for _, c := range []struct {
		pattern string
		yes, no []string
	}{
		{`^(?!z).$`, []string{"a"}, []string{"\u2028", "\u2029", "\r", "\n"}},
		{`^(?!z)\b`, []string{"a"}, []string{"\u05ad", "é"}},
		{`^(?!z)\B`, []string{"é"}, []string{"a"}},
		{`^(?!z)a\Bb$`, []string{"ab"}, []string{"a b"}},
		{`^(?=.)[a-z-[aeiou]]$`, []string{"b]", "-]", "[]"}, []string{"b", "a"}},
		{`^(?!z)[^-[]$`, []string{"a"}, []string{"-", "["}},
		{`^(?!z)[[:alpha:]]$`, []string{"a]", ":]", "[]"}, []string{"a", "b]"}},
		{`^(?!z)\\b\.$`, []string{"\\b."}, []string{"\\bx"}},
		{`^(?!z)\A\e\G\z$`, []string{"AeGz"}, []string{"", "\x1b"}},
		{`^(?!z)[\c1\B]$`, []string{"\x11", "B"}, []string{"1", "\\"}},
		{`^(?!z)\c1$`, []string{"\\c1"}, []string{"\x11"}},
	} {
		p, err := pattern.Compile(c.pattern)
		if err != nil || !p.Backtracks() {
			t.Fatalf("%s: want a backtracking pattern: %v", c.pattern, err)
		}
		matches(t, p, c.yes, c.no)
	}
	// ECMA-262 refuses the range [a-[; the error shows the pattern as written.
	if _, err := pattern.Compile(`[a-[b]]`); err == nil || !strings.Contains(err.Error(), "in `[a-[b]]`") {
		t.Errorf("[a-[b]]: %v", err)
	}
}

// LetterEscapes names the escaped letters ECMA-262 reads as themselves,
// each once, and only those.
func TestLetterEscapes(t *testing.T) {
	for src, want := range map[string]string{
		`^\Aabc\z$`:                 `\A \z`,
		`\z\Z\z[\z\B]\x4\u12`:       `\z \Z \B \x \u`,
		`^\d\w\s\b\B[\b]\cJ\x41\t$`: "",
		`^(?=a)\e\k\p{L}\\q$`:       `\e`,
		`[`:                         "",
	} {
		p, err := pattern.Compile(src)
		if err != nil {
			if want != "" {
				t.Errorf("%s: %v", src, err)
			}
			continue
		}
		if got := strings.Join(p.LetterEscapes(), " "); got != want {
			t.Errorf("%s: LetterEscapes() = %q, want %q", src, got, want)
		}
	}
}

// One backstop bounds all of a request's backtracking matches: 1,000
// violating strings against an exponential pattern end soon after it is
// spent, every one refused (ErrBudget is a refusal, not a pass).
func TestBackstopIsPerRequest(t *testing.T) {
	p, err := pattern.Compile(`^(?=a)(a+)+$`)
	if err != nil || !p.Backtracks() {
		t.Fatalf("want a backtracking pattern: %v", err)
	}
	b := pattern.NewBudget(pattern.DefaultBudget)
	evil := strings.Repeat("a", 32) + "!"
	start := time.Now()
	refused := 0
	for range 1000 {
		ok, err := p.Match(b, evil)
		if ok {
			t.Fatal("a violating string matched")
		}
		var be *pattern.BudgetError
		if errors.As(err, &be) && be.Backstop && errors.Is(err, pattern.ErrBudget) {
			refused++
		}
	}
	// A stall guard, not a speed bound: without a shared backstop this
	// takes 1,000 timeouts (minutes).
	if d := time.Since(start); d > 30*time.Second {
		t.Fatalf("1,000 matches took %v: the backstop is not shared", d)
	}
	if refused == 0 {
		t.Fatal("no match was refused for the backstop")
	}
	// A spent backstop refuses at once, even what would match.
	if ok, err := p.Match(b, "aaa"); ok || !errors.Is(err, pattern.ErrBudget) {
		t.Fatalf("spent backstop: %v, %v", ok, err)
	}
	// RE2 patterns do not meet it.
	plain, _ := pattern.Compile(`^a+$`)
	if ok, err := plain.Match(b, "aaa"); !ok || err != nil {
		t.Fatalf("RE2 pattern under a spent backstop: %v, %v", ok, err)
	}
}

// A bounded repetition makes RE2's program, and so each character's steps,
// grow with its count; a match whose steps are more than the request has
// left is refused before it runs, and the budget keeps what it had. The
// verdicts are a function of the pattern and the values alone: 1,000
// values of 3.9 KB against a{0,999}b are matched until the steps run out,
// the same number on every machine (41 s of CPU before).
func TestStepsBoundRE2(t *testing.T) {
	p, err := pattern.Compile(`a{0,999}b`)
	if err != nil || p.Backtracks() {
		t.Fatalf("want an RE2 pattern: %v", err)
	}
	c := p.Cost()
	repeat, repeatSteps := p.CostliestRepeat()
	if c.PerChar < 2000 || c.Longest != -1 || repeat != "a{0,999}" || repeatSteps < 1998 {
		t.Fatalf("Cost() = %+v, CostliestRepeat() = %q %d, want about 2,000 steps a character from a{0,999}, the whole value", c, repeat, repeatSteps)
	}
	b := pattern.NewBudget(pattern.DefaultBudget)
	huge := strings.Repeat("a", 3<<20)
	ok, err := p.Match(b, huge)
	var be *pattern.BudgetError
	if ok || !errors.As(err, &be) || be.Steps != pattern.Steps(p.Steps(huge)) || be.Left != pattern.DefaultBudget {
		t.Fatalf("3 MiB against a{0,999}b: %v, %v; want refused for its steps", ok, err)
	}
	if want := "matching it costs 6,294,603,729 steps, over the budget of 100,000,000 steps per request"; err.Error() != want ||
		b.Left() != pattern.DefaultBudget {
		t.Fatalf("%q (left %s), want %q and the budget untouched", err, b.Left(), want)
	}
	value := strings.Repeat("a", 3900)
	each := p.Steps(value)
	if each != 3901*c.PerChar {
		t.Fatalf("Steps = %d, want (3,900+1) × %d", each, c.PerChar)
	}
	matched, refused := 0, 0
	for range 1000 {
		switch ok, err := p.Match(b, value); {
		case errors.Is(err, pattern.ErrBudget):
			refused++
		case ok:
			t.Fatal("a value without b matched")
		default:
			matched++
		}
	}
	if want := int(int64(pattern.DefaultBudget) / each); matched != want || refused != 1000-want {
		t.Fatalf("%d matched and %d refused, want %d and %d", matched, refused, want, 1000-want)
	}
	if n, ok := c.Refuses(pattern.DefaultBudget); !ok || n != int64(pattern.DefaultBudget)/c.PerChar {
		t.Fatalf("Refuses = %d, %v", n, ok)
	}
}

// A pattern anchored at the start whose matches are short looks at no
// more of a value than a match can span: its steps do not grow with the
// value, and no value is refused for the budget.
func TestStepsAnchored(t *testing.T) {
	for _, c := range []struct {
		src     string
		longest int64
	}{
		{`^[a-z0-9-]{1,63}$`, 63},
		{`^(?:ab|c)\d{2}`, 4},
		{`^a*`, -1},
		{`^a|b`, -1},
		{`[a-z]{1,63}$`, -1},
	} {
		p, err := pattern.Compile(c.src)
		if err != nil || p.Backtracks() {
			t.Fatalf("%s: %v", c.src, err)
		}
		cost := p.Cost()
		if cost.Longest != c.longest {
			t.Errorf("%s: Longest = %d, want %d", c.src, cost.Longest, c.longest)
			continue
		}
		huge := strings.Repeat("a", 4<<20)
		_, refuses := cost.Refuses(pattern.DefaultBudget)
		if c.longest >= 0 && (p.Steps(huge) != (c.longest+2)*cost.PerChar || refuses) {
			t.Errorf("%s: Steps(4 MiB) = %d, refuses %v; want (%d+2) × %d, none", c.src, p.Steps(huge), refuses, c.longest, cost.PerChar)
		}
	}
	p, _ := pattern.Compile(`^[a-z]{1,63}$`)
	if ok, err := p.Match(nil, strings.Repeat("a", 4<<20)); ok || err != nil {
		t.Fatalf("4 MiB against an anchored short pattern: %v, %v; want a plain mismatch", ok, err)
	}
}

// Verdicts answers a costly match again without running it, and still
// charges its steps, so a budget refuses the same with a warm cache.
func TestVerdictsChargeSteps(t *testing.T) {
	p, _ := pattern.Compile(`a{0,999}b`)
	v := pattern.NewVerdicts(8)
	value := strings.Repeat("a", 1000) + "b"
	for i := range 3 {
		b := pattern.NewBudget(pattern.DefaultBudget).WithVerdicts(v)
		ok, err := p.Match(b, value)
		if !ok || err != nil {
			t.Fatalf("round %d: %v, %v", i, ok, err)
		}
		if want := pattern.DefaultBudget - pattern.Steps(p.Steps(value)); b.Left() != want {
			t.Fatalf("round %d: left %s, want %s", i, b.Left(), want)
		}
		if v.Hits() != int64(i) {
			t.Fatalf("round %d: %d answers from the cache, want %d", i, v.Hits(), i)
		}
	}
	small := pattern.NewBudget(pattern.Steps(p.Steps(value) - 1)).WithVerdicts(v)
	if _, err := p.Match(small, value); !errors.Is(err, pattern.ErrBudget) {
		t.Fatalf("a cached answer bypassed the budget: %v", err)
	}
}

// TestMeaningIsNodes compares both engines with node's RegExp, the
// ECMA-262 reference at hand: every escaped ASCII letter in and out of a
// class, and the spellings where RE2 or regexp2 read ECMA-262 their own
// way, each on RE2 when it can run there and, behind a lookahead, on
// regexp2. A pattern node refuses is not compared (regexp2 is more
// lenient), nor are \p and \P, which are Unicode properties here.
func TestMeaningIsNodes(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; this comparison needs it (CI has it)")
	}
	values := []string{"", "a", "b", "A", "é", "\u05ad", "\u2028", "\r", "\n", "\x00", "\x11", "\x1f",
		`\`, "-", "[", "]", "0]", "b]", "[]", "ab", "a b", "aa}", "a{,2}", `\c1`, "J", "u004A", "x4a", "1"}
	var patterns []string
	for c := byte('A'); c <= 'z'; c++ {
		if c > 'Z' && c < 'a' || c == 'p' || c == 'P' {
			continue
		}
		l := string(c)
		patterns = append(patterns, `^\`+l+`$`, `^[\`+l+`]$`, `^a\`+l)
		values = append(values, l, `\`+l, string(c%32))
	}
	patterns = append(patterns, `^.$`, `^[^]$`, `^[]$`, `^[0-[]]$`, `^[a-z-[aeiou]]$`, `^[[:alpha:]]$`, `[[::]0.`, `^[a-\d]$`, `^[\s-\w]+$`, `^[\\d-z]$`, `^\u004\A$`, `^\x4\a$`, `^[\--A]$`, `^[--A]$`, `^[\d-a-z]$`, `\bé`, `^é\B`,
		`^a{,2}$`, `^a{2}}$`, `^]$`, `^\0$`, `^[\s]+$`, `^\S$`, `^[\c1]$`, `^\c1$`, `^[\c_-]+$`, `^\cJ$`,
		`^\x4$`, `^\u12$`, `^[\w-.]+$`, `^a{01}$`)
	for _, p := range patterns { // the range reads the list as it was
		patterns = append(patterns, `(?!~)`+p)
	}
	type pair struct{ P, S string }
	var cases []pair
	for _, p := range patterns {
		for _, s := range values {
			cases = append(cases, pair{p, s})
		}
	}
	in, _ := json.Marshal(cases)
	cmd := exec.Command(node, "-e", `let d="";process.stdin.on("data",c=>d+=c).on("end",()=>{
		console.log(JSON.stringify(JSON.parse(d).map(({P,S})=>{try{return new RegExp(P).test(S)}catch(e){return null}})))})`)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var want []*bool
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(cases) {
		t.Fatalf("node's answer: %v (%d of %d)", err, len(want), len(cases))
	}
	for i, c := range cases {
		if want[i] == nil {
			continue
		}
		p, err := pattern.Compile(c.P)
		if err != nil {
			t.Errorf("%s: node compiles it, Compile says %v", c.P, err)
			continue
		}
		if got, _ := p.Match(nil, c.S); got != *want[i] {
			t.Errorf("%s on %q: %v (backtracking %v), node %v", c.P, c.S, got, p.Backtracks(), *want[i])
		}
	}
}
