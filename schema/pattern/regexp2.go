package pattern

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// ECMA-262 spellings of what regexp2's ECMAScript mode reads otherwise:
// its `.` also matches U+2028 and U+2029, and its `\b` and `\B` take
// non-ASCII letters and marks (é, U+05AD) for word characters, though its
// `\w` does not.
const (
	ecmaDot      = `[^\n\r\u2028\u2029]`
	ecmaBound    = `(?:(?<=\w)(?!\w)|(?<!\w)(?=\w))`
	ecmaNotBound = `(?:(?<=\w)(?=\w)|(?<!\w)(?!\w))`
)

// regexp2Spelling is a pattern spelled so that regexp2 gives it its
// ECMA-262 meaning: `.`, `\b` and `\B` as above, escapes as escape says,
// and classes as class does. It notes the escaped letters ECMA-262 reads
// as themselves on the way.
type regexp2Spelling struct {
	out     strings.Builder
	letters []string // each once, in order: `\A`, `\z`...
}

// forRegexp2 returns src spelled for regexp2, and the escaped letters
// ECMA-262 reads as themselves (LetterEscapes).
func forRegexp2(src string) (string, []string) {
	var sp regexp2Spelling
	for i := 0; i < len(src); {
		n := 1
		switch {
		case strings.HasPrefix(src[i:], `\b`):
			sp.out.WriteString(ecmaBound)
			n = 2
		case strings.HasPrefix(src[i:], `\B`):
			sp.out.WriteString(ecmaNotBound)
			n = 2
		case src[i] == '\\' && i+1 < len(src):
			n = sp.escape(src[i:], false)
		case src[i] == '.':
			sp.out.WriteString(ecmaDot)
		case src[i] == '[':
			n = sp.class(src[i:])
		default:
			sp.out.WriteByte(src[i])
		}
		i += n
	}
	return sp.out.String(), sp.letters
}

// class spells the class at the start of s, reading it as ECMA-262 does:
// atom by atom, a `-` between two atoms making a range, and ending at the
// first `]`. Every literal `[` and `-` is escaped: regexp2 reads
// `[a-z-[aeiou]]` as .NET class subtraction and skips `[:alpha:]` in a
// class. A range with a set at either end is the set, a `-` and the other
// atom (Annex B), which regexp2 refuses (`[a-\d]`). It returns the length
// of the class.
func (sp *regexp2Spelling) class(s string) int {
	i := 1
	if strings.HasPrefix(s, "[^") {
		i = 2
	}
	sp.out.WriteString(s[:i])
	for i < len(s) && s[i] != ']' {
		a, aSet := classAtom(s[i:])
		sp.atom(s[i : i+a])
		i += a
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			b, bSet := classAtom(s[i+1:])
			if aSet || bSet {
				sp.out.WriteString(`\x2d`)
			} else {
				sp.out.WriteByte('-')
			}
			sp.atom(s[i+1 : i+1+b])
			i += 1 + b
		}
	}
	if i < len(s) {
		sp.out.WriteByte(']')
		i++
	}
	return i
}

// classAtom returns the length of the class atom at the start of s, as
// ECMA-262 reads it (Annex B, no u flag), and whether it is a set (\d,
// \w, \s and their negations).
func classAtom(s string) (int, bool) {
	if s[0] != '\\' || len(s) < 2 {
		_, size := utf8.DecodeRuneInString(s)
		return size, false
	}
	switch c := s[1]; {
	case isSet(s):
		return 2, true
	case c == 'x' && hexDigits(s[2:], 2):
		return 4, false
	case c == 'u' && hexDigits(s[2:], 4):
		return 6, false
	case c == 'c' && len(s) > 2 && (isLetter(s[2]) || s[2] >= '0' && s[2] <= '9' || s[2] == '_'):
		return 3, false
	case c == 'c':
		return 1, false // a backslash; the c is the next atom
	case c >= '0' && c <= '7':
		// A legacy octal escape: up to three digits from \0 to \377.
		n := 2
		for n < len(s) && n < 4 && s[n] >= '0' && s[n] <= '7' && (n < 3 || c <= '3') {
			n++
		}
		return n, false
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size, false
}

// atom spells one class atom.
func (sp *regexp2Spelling) atom(a string) {
	switch {
	case a == "-", a == `\-`:
		sp.out.WriteString(`\x2d`) // regexp2 does not start a range at `\-`
	case a == "[", a == `\`:
		sp.out.WriteString(`\` + a)
	case len(a) > 1 && a[0] == '\\':
		n := sp.escape(a, true)
		sp.out.WriteString(a[n:])
	default:
		sp.out.WriteString(a)
	}
}

// escape spells the escape at the start of s and returns how much of s it
// read. ECMA-262 (Annex B, no u flag) reads an escaped letter it gives no
// meaning to as the letter itself (identityLetter), where regexp2 reads
// .NET's anchors and escapes (\A, \Z, \z, \G, \e, \a...); so are \x and \u
// without their hex digits. It reads `\c` not followed by a letter as a
// backslash and a `c`, except that in a class `\c` with a digit or `_` is
// a control character. `\p{...}` and `\P{...}` stay Unicode properties, as
// documented.
func (sp *regexp2Spelling) escape(s string, inClass bool) int {
	c := s[1]
	switch {
	case c == 'c' && len(s) > 2 && isLetter(s[2]):
		sp.out.WriteString(s[:3])
		return 3
	case c == 'c' && inClass && len(s) > 2 && (s[2] >= '0' && s[2] <= '9' || s[2] == '_'):
		fmt.Fprintf(&sp.out, `\x%02x`, s[2]%32)
		return 3
	case c == 'c':
		sp.out.WriteString(`\\c`)
	case identityLetter(s, inClass), c == 'x' && !hexDigits(s[2:], 2), c == 'u' && !hexDigits(s[2:], 4):
		// As a code point: a bare letter could complete an escape before
		// it that ECMA-262 reads as incomplete (\u004 then \A is not \u004A).
		fmt.Fprintf(&sp.out, `\x%02x`, c)
		if !slices.Contains(sp.letters, s[:2]) {
			sp.letters = append(sp.letters, s[:2])
		}
	default:
		sp.out.WriteString(s[:2])
	}
	return 2
}

// identityLetter reports whether s starts with an escaped letter ECMA-262
// gives no meaning to, and so reads as the letter itself: \A is A. In a
// class \b is a backspace and \B a letter. \k, \p and \P are not counted:
// \k is a named backreference where the pattern names groups, and \p{...}
// and \P{...} are read as Unicode properties.
func identityLetter(s string, inClass bool) bool {
	if len(s) < 2 || !isLetter(s[1]) {
		return false
	}
	meaningful := "bBcdDwWsSfnrtvxukpP"
	if inClass {
		meaningful = "bcdDwWsSfnrtvxukpP"
	}
	return !strings.ContainsRune(meaningful, rune(s[1]))
}
