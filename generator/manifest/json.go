package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
)

// RuleJSONSyntax is reported by LoadJSON for text that is not JSON.
const RuleJSONSyntax = "json-syntax"

// LoadJSON parses data as one JSON value (the registry's request bodies)
// into the same node tree Load builds, so that one checker serves manifests
// and registry requests alike. Unlike Load it reads JSON as JSON: every
// escape JSON allows ("\ud83d\ude00", "a\/b") means what JSON says, which
// YAML's reading of the same text does not always. Mapping keys keep their
// order (duplicates included, for the checker to report) and every node
// carries its line and column in data. The limits of Load apply.
//
// encoding/json decides what is JSON (json.Valid), what each escaped string
// holds, and where and why a text is not JSON (its decoder's tokens). The
// tree of a valid text is built by tree, in one pass: building it from the
// decoder's tokens costs almost three times as much, and it is most of the
// schema check of a registry PUT.
func LoadJSON(file string, data []byte) (*Document, diag.List) {
	var diags diag.List
	if len(data) > MaxFileSize {
		diags.Add(diag.Diagnostic{Span: point(file, 1, 1), Rule: RuleFileTooLarge,
			Message: fmt.Sprintf("document is larger than the %d-byte (10 MiB) limit", MaxFileSize)})
		return nil, diags
	}
	if !utf8.Valid(data) {
		line, col := invalidUTF8(data)
		diags.Add(diag.Diagnostic{Span: point(file, line, col), Rule: RuleJSONSyntax, Message: "document is not valid UTF-8"})
		return nil, diags
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &Document{File: file}, nil
	}
	if json.Valid(data) {
		// tree gives up (nil) only past a limit, which firstProblem reports.
		if root := tree(data); root != nil {
			return &Document{File: file, Root: root}, nil
		}
	}
	p := firstProblem(data)
	line, col := position(data, int(min(max(p.off, 0), int64(len(data)))))
	rule := RuleJSONSyntax
	if p.limit {
		rule = RuleYAMLLimit
	}
	diags.Add(diag.Diagnostic{Span: point(file, line, col), Rule: rule, Message: jsonMessage(p.msg)})
	return nil, diags
}

// jsonProblem is why a text is not a JSON document LoadJSON takes, and the
// byte offset where that shows.
type jsonProblem struct {
	off   int64
	msg   string
	limit bool // past MaxNodes or MaxNesting
}

func (e *jsonProblem) Error() string { return e.msg }

// firstProblem reads data with encoding/json's tokens, counting values and
// depth as tree does, and returns the first problem: a limit passed, or
// what the decoder says is not JSON.
func firstProblem(data []byte) *jsonProblem {
	w := &tokenWalk{dec: json.NewDecoder(bytes.NewReader(data))}
	err := w.value(1)
	if err == nil {
		if _, err = w.dec.Token(); err == io.EOF {
			return &jsonProblem{off: w.dec.InputOffset(), msg: "the text is not one JSON value"} // json.Valid said so
		} else if err == nil {
			err = &jsonProblem{off: w.dec.InputOffset(), msg: "unexpected data after the JSON value"}
		}
	}
	var p *jsonProblem
	var se *json.SyntaxError
	switch {
	case errors.As(err, &p):
		return p
	case errors.As(err, &se):
		return &jsonProblem{off: se.Offset, msg: se.Error()}
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &jsonProblem{off: int64(len(data)), msg: "unexpected end of the JSON text"}
	}
	return &jsonProblem{off: w.dec.InputOffset(), msg: err.Error()}
}

var goJSONPrefix = regexp.MustCompile(`^(json: )?`)

// jsonMessage drops the Go package prefix from a decoder message.
func jsonMessage(msg string) string { return goJSONPrefix.ReplaceAllString(msg, "") }

// tokenWalk reads one JSON value token by token.
type tokenWalk struct {
	dec   *json.Decoder
	nodes int
}

// value reads one JSON value at depth.
func (w *tokenWalk) value(depth int) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	return w.token(tok, depth)
}

// token reads the rest of the value tok starts: a container's members.
func (w *tokenWalk) token(tok json.Token, depth int) error {
	w.nodes++
	if w.nodes > MaxNodes {
		return &jsonProblem{off: w.dec.InputOffset(), limit: true, msg: fmt.Sprintf("document has more than %d values", MaxNodes)}
	}
	if depth > MaxNesting {
		return &jsonProblem{off: w.dec.InputOffset(), limit: true, msg: fmt.Sprintf("document nests deeper than %d levels", MaxNesting)}
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if d != '{' && d != '[' {
		return &jsonProblem{off: w.dec.InputOffset(), msg: fmt.Sprintf("unexpected %q", rune(d))}
	}
	for w.dec.More() {
		if d == '{' { // the key, a value of its own
			if err := w.value(depth + 1); err != nil {
				return err
			}
		}
		if err := w.value(depth + 1); err != nil {
			return err
		}
	}
	_, err := w.dec.Token() // the closing delimiter
	return err
}

// cursor tracks the line and rune column of a byte offset incrementally:
// offsets only grow, so a document costs one pass however many positions
// are asked for.
type cursor struct {
	off       int // line and col are those of the byte at off
	line, col int
}

func newCursor() cursor { return cursor{line: 1, col: 1} }

// to returns the line and column of offset off (not before the last one
// asked for) in data.
func (c *cursor) to(data []byte, off int) (int, int) {
	for ; c.off < off; c.off++ {
		switch b := data[c.off]; {
		case b == '\n':
			c.line, c.col = c.line+1, 1
		case b&0xC0 != 0x80: // not a UTF-8 continuation byte: a new rune
			c.col++
		}
	}
	return c.line, c.col
}

var integerRE = regexp.MustCompile(`^-?[0-9]+$`)

// tree builds the node tree of data, which json.Valid accepted, in one pass
// over its bytes; nil past a limit. A map or sequence is in flow style, a
// string double-quoted; numbers are !!int or !!float as they are written.
// FuzzLoadJSON holds its trees to what encoding/json decodes and its
// positions to the text.
func tree(data []byte) *yaml.Node {
	f := &fastJSON{data: data, at: newCursor()}
	return f.value(1)
}

// fastJSON is tree's reader.
type fastJSON struct {
	data  []byte
	i     int // next byte
	nodes int
	at    cursor
}

// skip moves past whitespace, commas and colons.
func (f *fastJSON) skip() {
	for f.i < len(f.data) {
		switch f.data[f.i] {
		case ' ', '\t', '\n', '\r', ',', ':':
			f.i++
		default:
			return
		}
	}
}

// value reads the value at f.i; nil when a limit is exceeded.
func (f *fastJSON) value(depth int) *yaml.Node {
	f.skip()
	f.nodes++
	if f.nodes > MaxNodes || depth > MaxNesting {
		return nil
	}
	line, col := f.at.to(f.data, f.i)
	n := &yaml.Node{Line: line, Column: col}
	switch c := f.data[f.i]; c {
	case '{', '[':
		f.i++
		n.Kind, n.Tag, n.Style = yaml.SequenceNode, "!!seq", yaml.FlowStyle
		end := byte(']')
		if c == '{' {
			n.Kind, n.Tag, end = yaml.MappingNode, "!!map", '}'
		}
		for {
			f.skip()
			if f.data[f.i] == end {
				f.i++
				return n
			}
			v := f.value(depth + 1)
			if v == nil {
				return nil
			}
			n.Content = append(n.Content, v)
			if c == '{' {
				if v = f.value(depth + 1); v == nil {
					return nil
				}
				n.Content = append(n.Content, v)
			}
		}
	case '"':
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", f.str(), yaml.DoubleQuotedStyle
	case 't', 'f', 'n':
		n.Kind = yaml.ScalarNode
		switch c {
		case 't':
			n.Tag, n.Value = "!!bool", "true"
		case 'f':
			n.Tag, n.Value = "!!bool", "false"
		default:
			n.Tag, n.Value = "!!null", "null"
		}
		f.i += len(n.Value)
	default: // a number
		start := f.i
		for f.i < len(f.data) && strings.IndexByte("+-0123456789.eE", f.data[f.i]) >= 0 {
			f.i++
		}
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!float", string(f.data[start:f.i])
		if integerRE.MatchString(n.Value) {
			n.Tag = "!!int"
		}
	}
	return n
}

// str reads the string at f.i. Strings without escapes are their bytes;
// the others are unquoted by encoding/json, as the decoder does.
func (f *fastJSON) str() string {
	start, escaped := f.i, false
	for f.i++; f.data[f.i] != '"'; f.i++ {
		if f.data[f.i] == '\\' {
			escaped = true
			f.i++
		}
	}
	f.i++
	if !escaped {
		return string(f.data[start+1 : f.i-1])
	}
	var v string
	_ = json.Unmarshal(f.data[start:f.i], &v) // valid: json.Valid accepted the document
	return v
}
