package goclient

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// indentComments returns jen's unformatted source with a tab before the
// comments gofmt would otherwise take for doc comments to reformat,
// though they are already in its form; gofmt's output is the same. The
// result is src, or written into out (empty) when a comment is indented.
//
// jen writes every line at column 1. go/printer reformats a comment that
// starts at column 1 and abuts the next token as a top-level doc comment
// (go/doc/comment's parser and printer), which it is in gofmt'd code only
// before a declaration: jen's field, constant and statement comments each
// went through it, a sixth of the formatting time of the Go client. A
// comment is indented only when it is certainly a fixed point of that
// reformatting (plainComment): one before a top-level keyword is left at
// column 1, and so is one that gofmt might change, so go/printer formats
// both exactly as before. TestIndentCommentsKeepsGofmt holds the output
// to go/format.Source's.
func indentComments(src []byte, out *bytes.Buffer) []byte {
	indented := false // out holds src[:done], with the tabs, once true
	done := 0
	for i := 0; i < len(src); {
		if (i == 0 || src[i-1] == '\n') && bytes.HasPrefix(src[i:], []byte("//")) {
			end := i
			for end < len(src) && bytes.HasPrefix(src[end:], []byte("//")) {
				end = lineEnd(src, end)
			}
			if !topLevel(src[end:]) && plainComment(src[i:end]) {
				if !indented {
					out.Grow(len(src) + len(src)/32)
					indented = true
				}
				out.Write(src[done:i])
				for line := range bytes.Lines(src[i:end]) {
					out.WriteByte('\t')
					out.Write(line)
				}
				done = end
			}
			i = end
			continue
		}
		i = skipToken(src, i)
	}
	if !indented {
		return src
	}
	out.Write(src[done:])
	return out.Bytes()
}

// skipToken returns the offset just past what starts at src[i]: a string,
// rune or raw string literal, a comment (a line comment with its newline),
// or else one byte. Runs of other bytes are skipped at once.
func skipToken(src []byte, i int) int {
	switch c := src[i]; c {
	case '"', '\'':
		for j := i + 1; j < len(src); j++ {
			switch src[j] {
			case '\\':
				j++
			case c:
				return j + 1
			case '\n':
				return j // not Go: the parser says so
			}
		}
		return len(src)
	case '`':
		if j := bytes.IndexByte(src[i+1:], '`'); j >= 0 {
			return i + j + 2
		}
		return len(src)
	case '/':
		switch {
		case bytes.HasPrefix(src[i:], []byte("//")):
			return lineEnd(src, i)
		case bytes.HasPrefix(src[i:], []byte("/*")):
			if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
				return i + j + 4
			}
			return len(src)
		}
	case '\n':
		return i + 1
	}
	j := i + 1
	for j < len(src) && !special[src[j]] {
		j++
	}
	return j
}

// special are the bytes skipToken stops at.
var special = [256]bool{'"': true, '\'': true, '`': true, '/': true, '\n': true}

// lineEnd is the offset just past the newline that ends the line at i, or
// len(src).
func lineEnd(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

// topLevel reports whether the line at the start of rest starts a
// declaration (top-level or local: either way its comment is left to
// gofmt).
func topLevel(rest []byte) bool {
	for _, kw := range [...]string{"package ", "import ", "import(", "type ", "type(", "func ", "func(", "var ", "var(", "const ", "const("} {
		if bytes.HasPrefix(rest, []byte(kw)) {
			return true
		}
	}
	return false
}

// plainComment reports whether comment lines are certainly unchanged by
// gofmt's doc comment reformatting (go/doc/comment's parser, then its
// printer): paragraphs of unindented text ("// " and text without a control
// character or a trailing space, and without two backquotes or two single
// quotes in a row, which become curly quotes), one "//" line between
// paragraphs and none at either end, no paragraph starting with # (a
// heading) or [ (link definitions), and no one-line paragraph ending in a
// letter or digit (an old-style heading, maybe). Anything else (code
// blocks, indented lists, directives, ...) is left to gofmt.
func plainComment(group []byte) bool {
	blank := true // the line before was "//", or there was none
	lines := 0    // lines of the paragraph so far
	var last []byte
	for line := range bytes.Lines(group) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if string(line) == "//" {
			if blank || !notHeading(lines, last) {
				return false
			}
			blank, lines = true, 0
			continue
		}
		text, ok := bytes.CutPrefix(line, []byte("// "))
		if !ok || len(text) == 0 || bytes.HasSuffix(text, []byte(" ")) || bytes.ContainsFunc(text, unicode.IsControl) {
			return false
		}
		if text[0] == ' ' || lines == 0 && (text[0] == '#' || text[0] == '[') ||
			bytes.Contains(text, []byte("``")) || bytes.Contains(text, []byte("''")) {
			return false
		}
		blank, last = false, text
		lines++
	}
	return !blank && notHeading(lines, last)
}

// notHeading reports whether a paragraph of lines, the last of them text,
// cannot be an old-style heading: it has several lines, or its one line
// ends in neither a letter nor a digit.
func notHeading(lines int, text []byte) bool {
	if lines > 1 {
		return true
	}
	r, _ := utf8.DecodeLastRune(text)
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}
