package pattern

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ECMA-262 character sets RE2 spells differently (inside a class, without
// the brackets).
const (
	// lineTerminators are what `.` does not match.
	lineTerminators = `\n\r\x{2028}\x{2029}`
	// space is `\s`: WhiteSpace and LineTerminator.
	space = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`
)

// translate rewrites an ECMA-262 pattern (no flags; it compiled with
// regexp2) into RE2 syntax with the same meaning, or returns false when it
// uses something RE2 cannot run or this reader does not know. It reads
// one token at a time; it does not judge the syntax (RE2 compiling the
// result and regexp2 having compiled the source do).
func translate(src string) (string, bool) {
	var out strings.Builder
	for i := 0; i < len(src); {
		var tok string
		var n int
		switch c := src[i]; c {
		case '\\':
			tok, n = escape(src[i:], false)
		case '[':
			tok, n = class(src[i:])
		case '(':
			tok, n = group(src[i:])
		case '{':
			tok, n = brace(src[i:])
		case '.':
			tok, n = "[^"+lineTerminators+"]", 1
		case '}', ']':
			tok, n = `\`+string(c), 1
		case '^', '$', '|', ')', '*', '+', '?':
			tok, n = string(c), 1
		default:
			r, size := utf8.DecodeRuneInString(src[i:])
			tok, n = literal(r, false), size
		}
		if n == 0 || tok == "" {
			return "", false
		}
		out.WriteString(tok)
		i += n
	}
	return out.String(), true
}

// literal spells one character for RE2, in or out of a class: as itself
// when it is printable, escaped when RE2 gives it a meaning there, and as
// a code point otherwise.
func literal(r rune, inClass bool) string {
	meta := `\.+*?()|[]{}^$`
	if inClass {
		meta = `\[]^-`
	}
	switch {
	case r == utf8.RuneError:
		return "" // invalid UTF-8 or U+FFFD as written: leave it to regexp2
	case r < utf8.RuneSelf && strings.ContainsRune(meta, r):
		return `\` + string(r)
	case unicode.IsPrint(r):
		return string(r)
	}
	return fmt.Sprintf(`\x{%x}`, r)
}

// group reads the start of a group: capturing, non-capturing or named
// (the name does not change what matches). Lookaround and inline flags
// return 0.
func group(s string) (string, int) {
	switch {
	case strings.HasPrefix(s, "(?:"):
		return "(?:", 3
	case strings.HasPrefix(s, "(?<") && !strings.HasPrefix(s, "(?<=") && !strings.HasPrefix(s, "(?<!"):
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return "", 0
		}
		return "(", end + 1
	case strings.HasPrefix(s, "(?"):
		return "", 0
	}
	return "(", 1
}

// brace reads a `{`: a quantifier {n}, {n,} or {n,m} with its numbers
// without leading zeros (RE2 reads {00} as text, ECMA-262 as {0}), else a
// literal brace (Annex B).
func brace(s string) (string, int) {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return `\{`, 1
	}
	lo, hi, comma := strings.Cut(s[1:end], ",")
	if !digits(lo) || comma && hi != "" && !digits(hi) {
		return `\{`, 1
	}
	q := "{" + number(lo)
	if comma {
		q += ","
		if hi != "" {
			q += number(hi)
		}
	}
	return q + "}", end + 1
}

// number is a decimal number without its leading zeros.
func number(d string) string {
	if t := strings.TrimLeft(d, "0"); t != "" {
		return t
	}
	return "0"
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// class reads a character class. `[]` matches nothing, `[^]` anything.
func class(s string) (string, int) {
	i, neg := 1, false
	if strings.HasPrefix(s, "[^") {
		i, neg = 2, true
	}
	var out strings.Builder
	set := false // the last token was a set (\d, \s...) or a '-'
	for ; i < len(s) && s[i] != ']'; i++ {
		var tok string
		var n int
		switch s[i] {
		case '\\':
			tok, n = escape(s[i:], true)
			if isSet(s[i:]) {
				if set {
					return "", 0
				}
				set = true
				break
			}
			set = false
		case '-':
			// Annex B reads a '-' next to a set as a literal; RE2 would
			// read a range of the set's last member.
			if set {
				return "", 0
			}
			tok, n, set = "-", 1, true
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			tok, n, set = literal(r, true), size, false
		}
		if n == 0 || tok == "" {
			return "", 0
		}
		out.WriteString(tok)
		i += n - 1
	}
	if i >= len(s) {
		return "", 0
	}
	body := out.String()
	switch {
	case body == "" && neg:
		return `[\x{0}-\x{10ffff}]`, i + 1
	case body == "":
		return `[^\x{0}-\x{10ffff}]`, i + 1
	case neg:
		return "[^" + body + "]", i + 1
	}
	return "[" + body + "]", i + 1
}

// isSet reports whether the escape at the start of s is a class of
// characters rather than one.
func isSet(s string) bool {
	return len(s) > 1 && strings.IndexByte("dDwWsS", s[1]) >= 0
}

// escape reads an escape sequence, in a class or not; 0 when it has no
// RE2 spelling of the same meaning (backreferences, \k, \p, octal, \S in
// a class).
func escape(s string, inClass bool) (string, int) {
	if len(s) < 2 {
		return "", 0
	}
	switch c := s[1]; c {
	case 'd', 'D', 'w', 'W':
		return s[:2], 2
	case 'b':
		if inClass {
			return `\x{8}`, 2
		}
		return s[:2], 2
	case 'B':
		if !inClass {
			return s[:2], 2
		}
		// In a class, a letter: identityLetter, below.
	case 's':
		if inClass {
			return space, 2
		}
		return "[" + space + "]", 2
	case 'S':
		if inClass {
			return "", 0
		}
		return "[^" + space + "]", 2
	case 't', 'n', 'v', 'f', 'r':
		return s[:2], 2
	case '0':
		if len(s) > 2 && s[2] >= '0' && s[2] <= '9' {
			return "", 0 // octal (Annex B)
		}
		return `\x{0}`, 2
	case 'x':
		return hexEscape(s, 2)
	case 'u':
		return hexEscape(s, 4)
	case 'c':
		if len(s) > 2 && isLetter(s[2]) {
			return fmt.Sprintf(`\x{%x}`, s[2]%32), 3
		}
		return "", 0
	}
	if identityLetter(s, inClass) {
		return s[1:2], 2
	}
	r, size := utf8.DecodeRuneInString(s[1:])
	if r < utf8.RuneSelf && strings.ContainsRune(`^$\.*+?()[]{}|/-`, r) {
		return literal(r, inClass), 1 + size
	}
	return "", 0
}

// hexEscape reads \x with 2 or \u with 4 hex digits; surrogates stay with
// regexp2.
func hexEscape(s string, width int) (string, int) {
	if !hexDigits(s[2:], width) {
		return "", 0
	}
	v, _ := strconv.ParseUint(s[2:2+width], 16, 32)
	if v >= 0xd800 && v <= 0xdfff {
		return "", 0
	}
	return fmt.Sprintf(`\x{%x}`, v), 2 + width
}

// hexDigits reports whether s starts with n hex digits.
func hexDigits(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for i := range n {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
