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
func LoadJSON(file string, data []byte) (*Document, diag.List) {
	var diags diag.List
	at := func(line, col int) diag.Span {
		return diag.Span{File: file, Line: line, Column: col, EndLine: line, EndColumn: col}
	}
	if len(data) > MaxFileSize {
		diags.Add(diag.Diagnostic{Span: at(1, 1), Rule: RuleFileTooLarge,
			Message: fmt.Sprintf("document is larger than the %d-byte (10 MiB) limit", MaxFileSize)})
		return nil, diags
	}
	if !utf8.Valid(data) {
		line, col := invalidUTF8(data)
		diags.Add(diag.Diagnostic{Span: at(line, col), Rule: RuleJSONSyntax, Message: "document is not valid UTF-8"})
		return nil, diags
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return &Document{File: file}, nil
	}
	if json.Valid(data) {
		// The common case: one pass that builds the nodes. It gives up
		// (nil) only past a limit, which the decoder below reports.
		if root := fastTree(data); root != nil {
			return &Document{File: file, Root: root}, nil
		}
	}
	root, p, err := decoderTree(data)
	if err != nil {
		var je *jsonError
		var se *json.SyntaxError
		off, msg := p.dec.InputOffset(), err.Error()
		switch {
		case errors.As(err, &je):
			off, msg = je.off, je.msg
		case errors.As(err, &se):
			off, msg = se.Offset, se.Error()
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			off, msg = int64(len(data)), "unexpected end of the JSON text"
		}
		line, col := position(data, int(min(max(off, 0), int64(len(data)))))
		rule := RuleJSONSyntax
		if je != nil && je.limit {
			rule = RuleYAMLLimit
		}
		diags.Add(diag.Diagnostic{Span: at(line, col), Rule: rule, Message: jsonMessage(msg)})
		return nil, diags
	}
	return &Document{File: file, Root: root}, nil
}

// decoderTree builds the node tree with encoding/json's tokens, which
// report where and why a text is not JSON.
func decoderTree(data []byte) (*yaml.Node, *jsonParser, error) {
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), at: newCursor()}
	p.dec.UseNumber()
	root, err := p.value(1)
	if err == nil {
		if _, err = p.dec.Token(); err == io.EOF {
			err = nil
		} else if err == nil {
			err = &jsonError{off: p.dec.InputOffset(), msg: "unexpected data after the JSON value"}
		}
	}
	return root, p, err
}

// fastTree builds the node tree of data, which must be valid JSON (see
// fastJSON); nil when it exceeds a limit.
func fastTree(data []byte) *yaml.Node {
	f := &fastJSON{data: data, at: newCursor()}
	return f.value(1)
}

// jsonError is a problem found at a byte offset.
type jsonError struct {
	off   int64
	msg   string
	limit bool
}

func (e *jsonError) Error() string { return e.msg }

var goJSONPrefix = regexp.MustCompile(`^(json: )?`)

// jsonMessage drops the Go package prefix from a decoder message.
func jsonMessage(msg string) string { return goJSONPrefix.ReplaceAllString(msg, "") }

// jsonParser builds yaml.Nodes from JSON tokens, with positions from a
// cursor.
type jsonParser struct {
	data  []byte
	dec   *json.Decoder
	nodes int
	at    cursor
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

// next returns the next token and the line and column where it starts.
func (p *jsonParser) next() (json.Token, int, int, error) {
	start := int(p.dec.InputOffset())
	for start < len(p.data) {
		c := p.data[start]
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != ',' && c != ':' {
			break
		}
		start++
	}
	tok, err := p.dec.Token()
	if err != nil {
		return nil, 0, 0, err
	}
	line, col := p.at.to(p.data, start)
	return tok, line, col, nil
}

// value reads one JSON value at depth.
func (p *jsonParser) value(depth int) (*yaml.Node, error) {
	tok, line, col, err := p.next()
	if err != nil {
		return nil, err
	}
	return p.node(tok, line, col, depth)
}

func (p *jsonParser) node(tok json.Token, line, col, depth int) (*yaml.Node, error) {
	p.nodes++
	if p.nodes > MaxNodes {
		return nil, &jsonError{off: p.dec.InputOffset(), limit: true, msg: fmt.Sprintf("document has more than %d values", MaxNodes)}
	}
	if depth > MaxNesting {
		return nil, &jsonError{off: p.dec.InputOffset(), limit: true, msg: fmt.Sprintf("document nests deeper than %d levels", MaxNesting)}
	}
	n := &yaml.Node{Line: line, Column: col}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n.Kind, n.Tag, n.Style = yaml.MappingNode, "!!map", yaml.FlowStyle
			for p.dec.More() {
				ktok, kl, kc, err := p.next()
				if err != nil {
					return nil, err
				}
				k, err := p.node(ktok, kl, kc, depth+1)
				if err != nil {
					return nil, err
				}
				v, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, k, v)
			}
		case '[':
			n.Kind, n.Tag, n.Style = yaml.SequenceNode, "!!seq", yaml.FlowStyle
			for p.dec.More() {
				v, err := p.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.Content = append(n.Content, v)
			}
		default:
			return nil, &jsonError{off: p.dec.InputOffset(), msg: fmt.Sprintf("unexpected %q", rune(t))}
		}
		if _, err := p.dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		n.Kind, n.Tag, n.Value, n.Style = yaml.ScalarNode, "!!str", t, yaml.DoubleQuotedStyle
	case json.Number:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!float", string(t)
		if integerRE.MatchString(string(t)) {
			n.Tag = "!!int"
		}
	case bool:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!bool", fmt.Sprint(t)
	case nil:
		n.Kind, n.Tag, n.Value = yaml.ScalarNode, "!!null", "null"
	}
	return n, nil
}

var integerRE = regexp.MustCompile(`^-?[0-9]+$`)

// fastJSON builds the node tree of a document json.Valid accepted, in one
// pass over its bytes and without the decoder's token machinery (which
// allocates per token and was half the cost of a registry PUT's schema
// check). The nodes, positions included, are those jsonParser builds:
// FuzzLoadJSON and TestLoadJSONFastMatchesDecoder hold the two together.
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
