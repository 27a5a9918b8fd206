package pattern

import (
	"regexp/syntax"
	"unicode/utf8"

	regexp2syntax "github.com/dlclark/regexp2/syntax"
)

// Cost is what matching a pattern costs, in steps, as a Budget counts
// them: a function of the pattern and of the value's length alone, never
// of the machine.
//
// On RE2 a step is one instruction of the compiled program at one
// character of the value: Go's regexp runs each character through at most
// every instruction once, so a match of a value of n characters takes at
// most (n+1) × PerChar steps. A bounded repetition is compiled as that
// many copies of what it repeats, so `a{0,999}` alone makes about 2,000
// instructions: PerChar grows with the repetition's count. A pattern
// anchored at the start (`^...`) whose matches have at most Longest
// characters looks at no more than Longest+1 characters of any value, so
// only those are counted.
//
// On the backtracking engine PerChar is the size of its compiled code, a
// linear estimate: backtracking can take longer, which the Budget's time
// backstop bounds.
type Cost struct {
	// PerChar is the steps per character of the value.
	PerChar int64
	// Longest, when not negative, is the most characters a match of a
	// pattern anchored at the start can span; -1 when a match can look at
	// the whole value.
	Longest int64
}

// Cost returns what matching p costs.
func (p *Pattern) Cost() Cost { return p.cost }

// CostliestRepeat returns the bounded repetition (`{n,m}`) of a pattern
// on RE2 that makes most of its Cost's PerChar, as RE2 spells it, and its
// share of PerChar; "" and 0 when there is none, or on the backtracking
// engine. It compiles each repetition anew, which can cost more than
// compiling the pattern: call it to explain a cost, not on every compile.
func (p *Pattern) CostliestRepeat() (string, int64) {
	if p.re2 == nil {
		return "", 0
	}
	re, err := syntax.Parse(p.re2.String(), syntax.Perl)
	if err != nil { // not reachable: regexp.Compile accepted it
		return "", 0
	}
	return costliestRepeat(re)
}

// Steps returns what matching s against p costs: (n+1) × PerChar, where n
// is the number of characters of s, or Longest+1 when s is longer and the
// pattern is anchored at the start with matches of at most Longest
// characters.
func (p *Pattern) Steps(s string) int64 { return p.cost.steps(s) }

func (c Cost) steps(s string) int64 {
	var n int64
	if c.Longest < 0 {
		n = int64(utf8.RuneCountInString(s))
	} else {
		for range s {
			if n > c.Longest {
				break
			}
			n++
		}
	}
	return (n + 1) * c.PerChar
}

// Refuses returns the fewest characters of a value whose match costs more
// than budget, and false when no value does (a pattern anchored at the
// start whose matches are short).
func (c Cost) Refuses(budget Steps) (int64, bool) {
	if c.PerChar <= 0 {
		return 0, false
	}
	n := int64(budget) / c.PerChar // the value of n-1 characters fits
	if c.Longest >= 0 && c.Longest+1 < n {
		return 0, false
	}
	return n, true
}

// re2Cost is the Cost of an RE2 expression that compiles: the program
// Go's regexp builds for it (regexp.Compile parses with syntax.Perl and
// simplifies before compiling).
func re2Cost(expr string) Cost {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil { // not reachable: regexp.Compile accepted expr
		return Cost{PerChar: int64(len(expr)) + 1, Longest: -1}
	}
	simple := re.Simplify()
	prog, err := syntax.Compile(simple)
	if err != nil { // not reachable, likewise
		return Cost{PerChar: int64(len(expr)) + 1, Longest: -1}
	}
	c := Cost{PerChar: int64(len(prog.Inst)), Longest: -1}
	if prog.StartCond()&syntax.EmptyBeginText != 0 {
		if w, ok := longest(simple); ok {
			c.Longest = w
		}
	}
	return c
}

// longest returns the most characters a match of a simplified expression
// spans, and false when that is unbounded.
func longest(re *syntax.Regexp) (int64, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return int64(len(re.Rune)), true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1, true
	case syntax.OpCapture, syntax.OpQuest:
		return longest(re.Sub[0])
	case syntax.OpStar, syntax.OpPlus:
		w, ok := longest(re.Sub[0])
		return 0, ok && w == 0
	case syntax.OpRepeat: // simplified away, except {0,-1} forms
		w, ok := longest(re.Sub[0])
		if !ok || re.Max < 0 && w > 0 {
			return 0, false
		}
		return w * int64(max(re.Max, 0)), true
	case syntax.OpConcat, syntax.OpAlternate:
		var total int64
		for _, sub := range re.Sub {
			w, ok := longest(sub)
			if !ok {
				return 0, false
			}
			if re.Op == syntax.OpConcat {
				total += w
			} else {
				total = max(total, w)
			}
		}
		return total, true
	}
	return 0, true // empty-width operators and OpNoMatch
}

// costliestRepeat finds the bounded repetition of a parsed expression
// whose compiled copies make the most instructions: its text and its
// instruction count (0 when there is no bounded repetition).
func costliestRepeat(re *syntax.Regexp) (string, int64) {
	text, most := "", int64(0)
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpRepeat && max(re.Min, re.Max) > 1 {
			if prog, err := syntax.Compile(re.Simplify()); err == nil {
				// A program has a fail and a match instruction of its own.
				if n := int64(len(prog.Inst)) - 2; n > most {
					text, most = re.String(), n
				}
			}
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(re)
	return text, most
}

// regexp2Cost is the Cost of a pattern on the backtracking engine: the
// size of its compiled code per character, the whole value always.
func regexp2Cost(spelled string) Cost {
	c := Cost{PerChar: int64(len(spelled)) + 1, Longest: -1}
	tree, err := regexp2syntax.Parse(spelled, regexp2syntax.ECMAScript)
	if err != nil { // not reachable: it compiled in Compile
		return c
	}
	if code, err := regexp2syntax.Write(tree); err == nil {
		c.PerChar = max(int64(len(code.Codes)), 1)
	}
	return c
}
