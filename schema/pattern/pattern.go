// Package pattern compiles and matches the `pattern` of a schema: an
// ECMA-262 regular expression, matched unanchored. It is the one place that
// decides which engine runs a pattern; the checker, admission and the
// kin-openapi conversion all compile patterns here.
//
// A pattern whose meaning Go's regexp package (RE2, linear time in the
// input) can express is translated to RE2 syntax and runs there: it cannot
// backtrack. Only the rest — lookaround, backreferences and the escapes
// this package does not translate — runs on dlclark/regexp2's ECMAScript
// engine, which can backtrack exponentially.
//
// Every match, on either engine, is charged to a Budget: one request's
// work for all its matches together, counted in steps that depend only on
// the pattern and the value (see Budget), so that whether a value is
// refused for the budget is the same on every machine.
//
// The translation is a small ECMA-262 reader (see translate). It keeps the
// meaning of ECMA-262 without the u flag where RE2 reads the same text
// differently:
//
//   - `.` excludes the ECMA-262 line terminators (\n, \r, U+2028, U+2029),
//     not \n alone;
//   - `\s` and `\S` are the ECMA-262 white space and line terminators, not
//     RE2's ASCII set;
//   - `[]` matches nothing and `[^]` any character; `[` inside a class is
//     a literal (no POSIX classes);
//   - `\xHH`, `\uHHHH`, `\cX`, `\0` and `\b` inside a class (backspace) are
//     spelled as RE2 code points;
//   - an escaped letter ECMA-262 gives no meaning to is the letter (`\A`
//     is A; LetterEscapes names them);
//   - a `{` or `}` that is not a quantifier, and a `]` outside a class, are
//     literals (ECMA-262 Annex B).
//
// `\d`, `\w`, `\b`, `^`, `$` (end of input only, no multiline) and the
// quantifiers mean the same in both. Anything the reader does not know
// (inline flags, `\p`, `\k`, octal escapes, surrogate code units, a repeat
// count RE2 refuses) goes to regexp2, spelled so that regexp2 too gives it
// its ECMA-262 meaning (forRegexp2): a pattern never changes meaning by
// moving between the engines. Both engines read the input as Unicode code
// points, not UTF-16 code units, as lengths are counted (schema.Length).
package pattern

import (
	"errors"
	"regexp"

	"github.com/dlclark/regexp2"
	"github.com/dlclark/regexp2/syntax"
)

// Pattern is a compiled schema pattern. It is immutable and safe for
// concurrent use; matches that may backtrack take a Budget.
type Pattern struct {
	source string
	re2    *regexp.Regexp  // the translation, when RE2 can run the pattern
	ecma   *regexp2.Regexp // otherwise: the backtracking engine
	// letters are the escaped letters ECMA-262 reads as themselves.
	letters []string
	// cost is what a match costs per character of the value (Steps).
	cost Cost
}

// Compile compiles an ECMA-262 pattern. The error says why it does not
// compile as ECMA-262.
func Compile(source string) (*Pattern, error) {
	spelled, letters := forRegexp2(source)
	ecma, err := regexp2.Compile(spelled, regexp2.ECMAScript)
	if err != nil {
		var syn *syntax.Error
		if errors.As(err, &syn) {
			syn.Expr = source // the pattern as written, not as respelled
		}
		return nil, err
	}
	p := &Pattern{source: source, letters: letters}
	if expr, ok := translate(source); ok {
		if re, err := regexp.Compile(expr); err == nil {
			p.re2, p.cost = re, re2Cost(expr)
			return p, nil
		}
	}
	p.ecma, p.cost = ecma, regexp2Cost(spelled)
	return p, nil
}

// String returns the pattern as written.
func (p *Pattern) String() string { return p.source }

// RE2 returns the pattern in the syntax of Go's regexp package (RE2), with
// its ECMA-262 meaning, or "" when it needs the backtracking engine. It is
// the pattern as written unless RE2 reads some of it differently (`.`,
// `\s`, `[^]`...).
func (p *Pattern) RE2() string {
	if p.re2 == nil {
		return ""
	}
	return p.re2.String()
}

// LetterEscapes returns the escapes of letters ECMA-262 gives no meaning
// to, each once (`\A`, `\z`): they match the letters themselves, though
// other dialects read anchors or escapes there, and validators that use
// the u flag refuse them.
func (p *Pattern) LetterEscapes() []string { return p.letters }

// Backtracks reports whether the pattern runs on the backtracking engine
// (and so, besides its steps, under the Budget's time backstop).
func (p *Pattern) Backtracks() bool { return p.ecma != nil }
