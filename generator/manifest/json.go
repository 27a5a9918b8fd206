package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
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
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), line: 1, col: 1}
	p.dec.UseNumber()
	root, err := p.value(1)
	if err == nil {
		if _, err = p.dec.Token(); err == io.EOF {
			err = nil
		} else if err == nil {
			err = &jsonError{off: p.dec.InputOffset(), msg: "unexpected data after the JSON value"}
		}
	}
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

// jsonParser builds yaml.Nodes from JSON tokens. Positions are tracked
// incrementally (line and col advance with off), so the whole document
// costs one pass however many nodes it has, even on one line.
type jsonParser struct {
	data      []byte
	dec       *json.Decoder
	nodes     int
	off       int // the line and rune column of the byte at off
	line, col int
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
	for ; p.off < start; p.off++ {
		switch c := p.data[p.off]; {
		case c == '\n':
			p.line, p.col = p.line+1, 1
		case c&0xC0 != 0x80: // not a UTF-8 continuation byte: a new rune
			p.col++
		}
	}
	return tok, p.line, p.col, nil
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
