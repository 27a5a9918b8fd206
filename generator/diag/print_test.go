package diag

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"strings"
	"testing"
)

// sources serves files from memory and counts how often each is asked for.
type sources struct {
	files map[string][]byte
	calls map[string]int
}

func (s *sources) source(file string) []byte {
	s.calls[file]++
	return s.files[file]
}

func TestWriteTextExcerpts(t *testing.T) {
	long := strings.Repeat("x", 501)
	src := &sources{calls: map[string]int{}, files: map[string][]byte{
		"a.yaml":  []byte("first: 1\n\tsecond: 2\r\nthird: é\r\r\n" + long + "\nbad: \xff\nlast"),
		"empty":   {},
		"newline": []byte("\n"),
	}}
	at := func(file string, line, col, endCol int) Diagnostic {
		return Diagnostic{Span: Span{File: file, Line: line, Column: col, EndLine: line, EndColumn: endCol}, Severity: Warning, Rule: "r", Message: fmt.Sprintf("%s %d", file, line)}
	}
	l := List{
		at("a.yaml", 1, 1, 6),  // a span of five
		at("a.yaml", 2, 2, 8),  // under a tab, CRLF dropped
		at("a.yaml", 3, 9, 9),  // after a two-byte rune, every trailing CR dropped
		at("a.yaml", 4, 1, 2),  // too long: no excerpt
		at("a.yaml", 5, 1, 2),  // not UTF-8: no excerpt
		at("a.yaml", 6, 2, 3),  // the last line has no newline
		at("a.yaml", 7, 1, 2),  // past the end
		at("a.yaml", 0, 0, 0),  // no line
		at("empty", 1, 1, 1),   // the one empty line of an empty file
		at("empty", 2, 1, 1),   // past it
		at("newline", 2, 1, 1), // the empty line after the last newline
		at("missing", 1, 1, 1), // no source
		at("a.yaml", 1, 1, 6),  // a second visit
		{Severity: Error, Rule: "e", Message: "no span", Hint: "a hint"},
	}
	var b bytes.Buffer
	if err := WriteText(&b, l, TextOptions{Source: src.source}); err != nil {
		t.Fatal(err)
	}
	want := `a.yaml:1:1: warning[r]: a.yaml 1
    1 | first: 1
      | ^^^^^
a.yaml:2:2: warning[r]: a.yaml 2
    2 | 	second: 2
      | 	^^^^^^
a.yaml:3:9: warning[r]: a.yaml 3
    3 | third: é
      |         ^
a.yaml:4:1: warning[r]: a.yaml 4
a.yaml:5:1: warning[r]: a.yaml 5
a.yaml:6:2: warning[r]: a.yaml 6
    6 | last
      |  ^
a.yaml:7:1: warning[r]: a.yaml 7
a.yaml: warning[r]: a.yaml 0
empty:1:1: warning[r]: empty 1
    1 | 
      | ^
empty:2:1: warning[r]: empty 2
newline:2:1: warning[r]: newline 2
    2 | 
      | ^
missing:1:1: warning[r]: missing 1
a.yaml:1:1: warning[r]: a.yaml 1
    1 | first: 1
      | ^^^^^
udtc: error[e]: no span
      = hint: a hint
1 error, 13 warnings
`
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// Each file is read once however many diagnostics point into it.
	for file, n := range src.calls {
		if n != 1 {
			t.Errorf("Source(%q) called %d times, want once", file, n)
		}
	}

	// The same lines kept as the files were checked: the same text, and
	// only the file not kept is read.
	var kept Excerpts
	for file, data := range src.files {
		kept.Keep(file, data, l)
	}
	src.calls = map[string]int{}
	b.Reset()
	if err := WriteText(&b, l, TextOptions{Source: src.source, Kept: &kept}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != want {
		t.Errorf("with kept excerpts, got:\n%s\nwant:\n%s", got, want)
	}
	if want := map[string]int{"missing": 1}; !maps.Equal(src.calls, want) {
		t.Errorf("with kept excerpts, Source called %v, want %v", src.calls, want)
	}
}

// manyWarnings is a file of lines lines and n warnings spread over it, the
// shape of a large catalog with one warning every few types.
func manyWarnings(lines, n int) (List, Source) {
	var src bytes.Buffer
	for i := range lines {
		fmt.Fprintf(&src, "      property%d: {type: string, default: \"value %d\"}\n", i, i)
	}
	data := src.Bytes()
	l := make(List, n)
	for i := range l {
		line := 1 + i*(lines/n)
		l[i] = Diagnostic{
			Span:     Span{File: "catalog.yaml", Line: line, Column: 7, EndLine: line, EndColumn: 15},
			Severity: Warning, Rule: "required-default", Path: fmt.Sprintf("/types/t/properties/property%d", line),
			Message: "property is required, so its default never applies", Hint: "drop the `default`",
		}
	}
	return l, func(string) []byte { return data }
}

// BenchmarkWrite prints 5,000 warnings in a 200,000-line file (11 MB), and
// twice both, in each format: the time must double, not quadruple.
func BenchmarkWrite(b *testing.B) {
	for _, size := range []struct{ lines, warnings int }{{200_000, 5_000}, {400_000, 10_000}} {
		l, src := manyWarnings(size.lines, size.warnings)
		for _, bc := range []struct {
			name  string
			write func(io.Writer) error
		}{
			{"text", func(w io.Writer) error { return WriteText(w, l, TextOptions{Source: src}) }},
			{"json", func(w io.Writer) error { return WriteJSON(w, l) }},
			{"sarif", func(w io.Writer) error {
				return WriteSARIF(w, l, []Rule{{ID: "required-default", Severity: Warning, Doc: "d"}}, "https://example.com/rules")
			}},
		} {
			b.Run(fmt.Sprintf("%s/%d", bc.name, size.warnings), func(b *testing.B) {
				for b.Loop() {
					if err := bc.write(io.Discard); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
