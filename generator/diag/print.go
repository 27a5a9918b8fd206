package diag

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"sync"
	"unicode/utf8"
)

// Source returns the contents of a file for excerpts, or nil.
type Source func(file string) []byte

// FileSource reads excerpts from disk, caching each file.
func FileSource() Source {
	cache := map[string][]byte{}
	return func(file string) []byte {
		if b, ok := cache[file]; ok {
			return b
		}
		b, err := os.ReadFile(file)
		if err != nil {
			b = nil
		}
		cache[file] = b
		return b
	}
}

// TextOptions tune WriteText.
type TextOptions struct {
	// Color adds ANSI colours (only on a terminal, and not when NO_COLOR is set).
	Color bool
	// Source provides the excerpt lines; nil prints no excerpts.
	Source Source
	// Kept are excerpt lines kept as the files were checked; a line they
	// hold is not read from Source.
	Kept *Excerpts
}

const (
	red    = "\x1b[1;31m"
	yellow = "\x1b[1;33m"
	cyan   = "\x1b[1;36m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

// WriteText prints diagnostics as `file:line:col: error[rule]: message`,
// then the source line with a caret under the span, then `hint: ...`.
func WriteText(w io.Writer, l List, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !opts.Color {
			return s
		}
		return code + s + reset
	}
	excerpts := map[string]*lines{} // each file read and indexed once
	for _, d := range l {
		sevColor := red
		switch d.Severity {
		case Warning:
			sevColor = yellow
		case Note:
			sevColor = cyan
		}
		fmt.Fprintf(bw, "%s: %s: %s\n",
			paint(bold, position(d.Span)),
			paint(sevColor, fmt.Sprintf("%s[%s]", d.Severity, d.Rule)),
			d.Message)
		if opts.Source != nil && d.Span.Line > 0 {
			line, ok, kept := opts.Kept.line(d.Span.File, d.Span.Line)
			if !kept {
				src, read := excerpts[d.Span.File]
				if !read {
					src = indexLines(opts.Source(d.Span.File))
					excerpts[d.Span.File] = src
				}
				line, ok = src.line(d.Span.Line)
			}
			if ok {
				width := 1
				if d.Span.EndLine == d.Span.Line && d.Span.EndColumn > d.Span.Column {
					width = d.Span.EndColumn - d.Span.Column
				}
				fmt.Fprintf(bw, "%5d | %s\n", d.Span.Line, line)
				fmt.Fprintf(bw, "      | %s%s\n", caretIndent(line, d.Span.Column), paint(sevColor, strings.Repeat("^", width)))
			}
		}
		if d.Hint != "" {
			fmt.Fprintf(bw, "      = %s %s\n", paint(cyan, "hint:"), d.Hint)
		}
	}
	errs, warns, notes := l.Count()
	switch {
	case notes > 0:
		fmt.Fprintf(bw, "%s, %s, %s\n", plural(errs, "error"), plural(warns, "warning"), plural(notes, "note"))
	case errs+warns > 0:
		fmt.Fprintf(bw, "%s, %s\n", plural(errs, "error"), plural(warns, "warning"))
	}
	return bw.Flush()
}

// position is "file:line:col", shortened to what the span knows: "file:line",
// "file", or "udtc" for a diagnostic about the invocation (a flag value).
func position(s Span) string {
	switch {
	case s.File == "" && s.Line == 0:
		return "udtc"
	case s.Line == 0:
		return s.File
	case s.Column == 0:
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// lines is a file indexed by line, so that an excerpt costs the length of
// its line, not of the file before it.
type lines struct {
	src    []byte
	starts []int // the offset of each line's first byte
}

// indexLines indexes src; nil (no source) gives nil, which has no lines.
func indexLines(src []byte) *lines {
	if src == nil {
		return nil
	}
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return &lines{src: src, starts: starts}
}

// line returns line n (1-based) without its newline and trailing carriage
// returns, tabs kept; false when there is no such line or it is not UTF-8
// or too long to show.
func (l *lines) line(n int) (string, bool) {
	if l == nil || n < 1 || n > len(l.starts) {
		return "", false
	}
	end := len(l.src)
	if n < len(l.starts) {
		end = l.starts[n] - 1
	}
	line := bytes.TrimRight(l.src[l.starts[n-1]:end], "\r")
	if len(line) > 500 || !utf8.Valid(line) {
		return "", false
	}
	return string(line), true
}

// Excerpts are the lines of files that diagnostics point at, kept from the
// text the compiler checked (Keep) for WriteText (TextOptions.Kept): the
// printer then reads no file again for them, and shows what was checked
// even if the file has changed since. Keep may be called concurrently.
type Excerpts struct {
	mu    sync.Mutex
	files map[string]map[int]excerpt
}

type excerpt struct {
	text string
	ok   bool // the line exists and is showable (lines.line)
}

// Keep keeps, of src (the text of file), the lines the diagnostics of l
// that point into file show, with those kept of file before.
func (x *Excerpts) Keep(file string, src []byte, l List) {
	var idx *lines // src indexed at the first line wanted, outside the lock
	kept := map[int]excerpt{}
	for _, d := range l {
		if d.Span.File != file || d.Span.Line < 1 {
			continue
		}
		if idx == nil {
			idx = indexLines(src)
		}
		text, ok := idx.line(d.Span.Line)
		kept[d.Span.Line] = excerpt{text, ok}
	}
	if len(kept) == 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.files == nil {
		x.files = map[string]map[int]excerpt{}
	}
	if before := x.files[file]; before != nil {
		maps.Copy(before, kept)
		return
	}
	x.files[file] = kept
}

// line returns line n of file as Keep kept it (kept false: not kept).
func (x *Excerpts) line(file string, n int) (text string, ok, kept bool) {
	if x == nil {
		return "", false, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	e, kept := x.files[file][n]
	return e.text, e.ok, kept
}

// caretIndent returns the whitespace that puts a caret under column col,
// copying tabs so the caret lines up.
func caretIndent(line string, col int) string {
	var b strings.Builder
	i := 1
	for _, r := range line {
		if i >= col {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		i++
	}
	return b.String()
}

// jsonDiagnostic is the wire form of `udtc check --format json`.
type jsonDiagnostic struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Rule      string `json:"rule"`
	Path      string `json:"path"`
	Message   string `json:"message"`
	Hint      string `json:"hint,omitempty"`
}

// WriteJSON prints exactly one JSON object: {"diagnostics":[...]}.
func WriteJSON(w io.Writer, l List) error {
	out := struct {
		Diagnostics []jsonDiagnostic `json:"diagnostics"`
	}{Diagnostics: make([]jsonDiagnostic, 0, len(l))}
	for _, d := range l {
		out.Diagnostics = append(out.Diagnostics, jsonDiagnostic{
			File: d.Span.File, Line: d.Span.Line, Column: d.Span.Column,
			EndLine: d.Span.EndLine, EndColumn: d.Span.EndColumn,
			Severity: d.Severity.String(), Rule: d.Rule, Path: d.Path, Message: d.Message, Hint: d.Hint,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
