package example

import (
	"regexp/syntax"
	"strings"
	"time"
	"unicode"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/udtc/udtc/schema/pattern"
)

// Pattern returns a string matching the ECMA-262 regular expression expr
// with between lo and hi characters (hi < 0: no maximum), and whether it
// found one. variant > 0 asks for a longer string, so that the samples of
// distinct variants differ. It covers the common shapes of patterns:
// literals, character classes, repetitions, alternatives (the first),
// groups and anchors; lookarounds are left out of the sample and checked
// on it. The sample is checked against expr compiled as admission compiles
// it, so a returned string always matches.
func Pattern(expr string, lo, hi int64, variant int) (string, bool) {
	return newMatcher().sample(expr, lo, hi, variant)
}

// sample is Pattern, matching with m.
func (m *matcher) sample(expr string, lo, hi int64, variant int) (string, bool) {
	// The pattern as RE2 runs it, with its ECMA-262 meaning, when it can
	// (`[^]`, `\u0041`, `\cJ` are not Go syntax); else as written, without
	// its lookarounds.
	src := withoutLookarounds(expr)
	if p := compile(expr); p != nil && p.RE2() != "" {
		src = p.RE2()
	}
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return "", false
	}
	re = re.Simplify()
	s := &sampler{}
	first, okFirst := s.sample(re)
	if !okFirst {
		return "", false
	}
	s.budget = int(lo) - len([]rune(first)) + variant
	out, _ := s.sample(re)
	n := int64(len([]rune(out)))
	if n < lo { // an expression not anchored at its end takes any suffix
		out += strings.Repeat("a", int(lo-n))
		n = lo
	}
	if n < lo || hi >= 0 && n > hi || !m.matches(expr, out) {
		return "", false
	}
	return out, true
}

// matchBackstop is the time one example may spend matching patterns that
// need the backtracking engine (schema/pattern), all together; its matches
// share pattern.DefaultBudget steps.
const matchBackstop = 250 * time.Millisecond

// matcher matches the patterns of one example under one budget, each
// compiled by schema/pattern, as admission compiles them (compiled).
type matcher struct {
	budget *pattern.Budget
}

// answers keeps the answers of costly matches of every example: the
// registry's catalog makes a type page's example on every view, and an
// example matches the same values each time (pattern.Verdicts).
var answers = pattern.NewVerdicts(maxValues)

func newMatcher() *matcher {
	b := pattern.NewBudget(pattern.DefaultBudget).WithBackstop(matchBackstop).WithVerdicts(answers)
	return &matcher{budget: b}
}

// matches reports whether s matches the pattern expr; false when expr does
// not compile or the budget ran out.
func (m *matcher) matches(expr, s string) bool {
	p := compile(expr)
	if p == nil {
		return false
	}
	ok, err := p.Match(m.budget, s)
	return err == nil && ok
}

// compile returns expr compiled; nil when it does not compile.
func compile(expr string) *pattern.Pattern {
	p, ok := compiled.Get(expr)
	if !ok {
		p, _ = pattern.Compile(expr)
		compiled.Add(expr, p)
	}
	return p
}

// compiled keeps the patterns compiled last, by source: a catalog's
// examples repeat a few patterns, and every example of a version is made
// by the Go client, the docs and the catalog page alike (a gen of the
// 1,000-type catalog compiled patterns 0.2 s of its CPU, once per example
// before). A pattern is immutable and safe for concurrent use.
var compiled, _ = lru.New[string, *pattern.Pattern](maxPatterns) // errs only on a size < 1

// maxPatterns bounds compiled: a server's catalog pages make examples of
// whatever was registered.
const maxPatterns = 1024

// withoutLookarounds removes the lookaround groups (?=...), (?!...),
// (?<=...) and (?<!...) from expr, which Go's parser does not read.
func withoutLookarounds(expr string) string {
	var b strings.Builder
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		if c == '\\' && i+1 < len(expr) {
			b.WriteString(expr[i : i+2])
			i++
			continue
		}
		rest := expr[i:]
		if strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!") || strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!") {
			i = groupEnd(expr, i)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// groupEnd is the index of the ')' closing the group opened at i (the last
// index when it is not closed).
func groupEnd(expr string, i int) int {
	depth, inClass := 0, false
	for ; i < len(expr); i++ {
		switch c := expr[i]; {
		case c == '\\':
			i++
		case inClass:
			inClass = c != ']'
		case c == '[':
			inClass = true
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(expr) - 1
}

// sampler writes a string a parsed expression matches; budget is how many
// more characters its repetitions may add beyond their minimum.
type sampler struct {
	budget int
}

func (s *sampler) sample(re *syntax.Regexp) (string, bool) {
	var b strings.Builder
	ok := s.write(&b, re)
	return b.String(), ok
}

func (s *sampler) write(b *strings.Builder, re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpNoMatch:
		return false
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		r, ok := pick(re.Rune)
		if !ok {
			return false
		}
		b.WriteRune(r)
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
	case syntax.OpCapture:
		return s.write(b, re.Sub[0])
	case syntax.OpAlternate:
		return s.write(b, re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !s.write(b, sub) {
				return false
			}
		}
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return s.repeat(b, re)
	}
	return true // the empty-width operators
}

// repeat writes the minimum number of copies of a repetition, then more
// while the budget lasts.
func (s *sampler) repeat(b *strings.Builder, re *syntax.Regexp) bool {
	lo, hi := re.Min, re.Max
	switch re.Op {
	case syntax.OpStar:
		lo, hi = 0, -1
	case syntax.OpPlus:
		lo, hi = 1, -1
	case syntax.OpQuest:
		lo, hi = 0, 1
	}
	for i := 0; i < lo; i++ {
		if !s.write(b, re.Sub[0]) {
			return false
		}
	}
	for n := lo; s.budget > 0 && (hi < 0 || n < hi); n++ {
		var one strings.Builder
		if !s.write(&one, re.Sub[0]) || one.Len() == 0 {
			break
		}
		b.WriteString(one.String())
		s.budget -= len([]rune(one.String()))
	}
	return true
}

// pick chooses a character of a class (pairs of range bounds): a
// lower-case letter, else an upper-case one, a digit, the first printable
// character, or a space.
func pick(ranges []rune) (rune, bool) {
	for _, want := range [][2]rune{{'a', 'z'}, {'A', 'Z'}, {'0', '9'}} {
		for i := 0; i+1 < len(ranges); i += 2 {
			lo, hi := max(ranges[i], want[0]), min(ranges[i+1], want[1])
			if lo <= hi {
				return lo, true
			}
		}
	}
	for _, space := range []bool{false, true} {
		for i := 0; i+1 < len(ranges); i += 2 {
			for r := ranges[i]; r <= ranges[i+1] && r < ranges[i]+256; r++ {
				if unicode.IsPrint(r) && (r == ' ') == space {
					return r, true
				}
			}
		}
	}
	return 0, false
}
