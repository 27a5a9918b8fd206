package goclient

import (
	"bytes"
	"fmt"
	"go/format"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// gofmt formats a file to the same bytes as go/format.Source: imports
// sorted, doc comments reformatted, number literals normalised, fields
// aligned.
func TestGofmtIsFormatSource(t *testing.T) {
	for _, src := range []string{
		"package p\n",
		"// Package p is here.\npackage p\nimport (\n\"strings\"\n\"bytes\"\n\n\"fmt\"\n)\nvar _ = strings.ToLower\nvar _ = bytes.Equal\nvar _ = fmt.Sprint\n",
		"package p\nimport \"os\"\nimport \"io\"\nvar _, _ = os.Stdin, io.EOF\n",
		"package p\nconst (\na = 0X1F\nb = 1E+06\nc = 0B101\nd = 0O17\ne = 0x1P-2\nf = 1_000i\ng = 012\n)\n",
		"package p\n// T is a thing.\n//A heading-like line\n//   indented code\n// - a list item\ntype T struct {\n// A is short.\nA int `json:\"a\"`\nLongerName   string `json:\"longerName,omitempty\"`\n}\nfunc (t *T) M() error {\nif t==nil {return nil}\nreturn nil}\n",
	} {
		want, err := format.Source([]byte(src))
		if err != nil {
			t.Fatalf("format.Source(%q): %v", src, err)
		}
		var got bytes.Buffer
		if err := gofmt(&got, []byte(src)); err != nil {
			t.Fatalf("gofmt(%q): %v", src, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("gofmt(%q) =\n%s\nformat.Source:\n%s", src, got.Bytes(), want)
		}
	}
	if err := gofmt(new(bytes.Buffer), []byte("package p\nfunc {")); err == nil {
		t.Error("gofmt of broken Go: no error")
	}
}

// indentComments indents the comments gofmt would not change and leaves the
// rest, so gofmt's output stays go/format.Source's: comments inside
// literals, comments gofmt reformats (code, lists, headings, link
// definitions, curly quotes, blank lines at either end), and comments
// before declarations.
func TestIndentCommentsKeepsGofmt(t *testing.T) {
	for _, tc := range []struct {
		src      string
		indented []string // comment lines that get a tab
	}{
		{"package p\n// T is a thing.\ntype T struct {\n// A is short.\nA int\n// B has two paragraphs,\n// the first of two lines.\n//\n// The second (after a blank line).\nB int\n}\n",
			[]string{"// A is short.", "// B has two paragraphs,", "// the first of two lines.", "//", "// The second (after a blank line)."}},
		{"package p\nconst (\n// A is a constant.\nA = 1\n)\nfunc F() {\n// Say why.\nx := 1\n_ = x\n}\n",
			[]string{"// A is a constant.", "// Say why."}},
		// Left to gofmt: each is reformatted, or might be.
		{"package p\ntype T struct {\n// A heading\nA int\n// # Heading\n//\n// Text.\nB int\n// Code:\n//    indented\nC int\n// [link]: https://example.com\nD int\n//\n// Blank first.\nE int\n// Quotes ``like this''.\nF int\n// Tab\there.\nG int\n// Trailing space. \nH int\n}\n", nil},
		// Not comments: in strings, runes, raw strings and block comments.
		{"package p\nvar s = \"//x\\\" // y\"\nvar r = '/'\nvar q = `\n// not a comment.\n`\n/*\n// inside a block comment.\n*/\nvar _ = s + string(r) + q\n", nil},
	} {
		src := []byte(tc.src)
		want, err := format.Source(src)
		if err != nil {
			t.Fatalf("format.Source(%q): %v", tc.src, err)
		}
		var got bytes.Buffer
		if err := gofmt(&got, src); err != nil {
			t.Fatalf("gofmt(%q): %v", tc.src, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("gofmt(%q) =\n%s\nformat.Source:\n%s", tc.src, got.Bytes(), want)
		}
		var indented []string
		for line := range strings.Lines(string(indentComments(src, new(bytes.Buffer)))) {
			if strings.HasPrefix(line, "\t//") {
				indented = append(indented, strings.TrimSuffix(line[1:], "\n"))
			}
		}
		if !slices.Equal(indented, tc.indented) {
			t.Errorf("indentComments(%q) indented %q, want %q", tc.src, indented, tc.indented)
		}
	}
}

// Random comments from lines that gofmt's doc comment formatting treats
// differently, in structs, const blocks and function bodies, unindented as
// jen writes them: gofmt's output is always go/format.Source's.
func TestIndentCommentsRandom(t *testing.T) {
	lines := []string{"//", "// Text", "// Text.", "// more text (with parens)", "// - item", "// 1. item", "//   - indented item",
		"//\tcode", "//    code", "// # Heading", "// [x]: https://example.com", "// See [x] and https://example.com.", "// ``quoted''",
		"// Deprecated: use B.", "//go:generate x", "// A Heading", "// tab\tinside", "// trailing ", "// }", "// {", "// \"standard\".", "// (Required) Text."}
	rng := rand.New(rand.NewPCG(1, 2))
	group := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(5) {
			b.WriteString(lines[rng.IntN(len(lines))] + "\n")
		}
		return b.String()
	}
	for i := range 2000 {
		var b strings.Builder
		b.WriteString("package p\n" + group() + "type T struct {\n")
		for j := range 1 + rng.IntN(3) {
			fmt.Fprintf(&b, "%sF%d int\n", group(), j)
		}
		b.WriteString("}\nconst (\n" + group() + "C = 1\n)\nfunc F() {\n" + group() + "_ = 1\n" + group() + "}\n")
		src := []byte(b.String())
		want, err := format.Source(src)
		if err != nil {
			t.Fatalf("case %d: format.Source: %v\n%s", i, err, src)
		}
		var got bytes.Buffer
		if err := gofmt(&got, src); err != nil {
			t.Fatalf("case %d: gofmt: %v", i, err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("case %d: gofmt of\n%s\n=\n%s\nformat.Source:\n%s", i, src, got.Bytes(), want)
		}
	}
}
