package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

func TestLoadJSON(t *testing.T) {
	doc, diags := LoadJSON("s.json", []byte("{\"b\": 1,\n  \"a\\/x\": \"\\ud83d\\ude00\", \"b\": [true, null, 2.5]}"))
	if doc == nil || len(diags) > 0 {
		t.Fatalf("diags %v", diags)
	}
	r := doc.Root
	if r.Kind != yaml.MappingNode || len(r.Content) != 6 {
		t.Fatalf("root %+v", r)
	}
	// Keys in order, duplicates kept (the checker reports them).
	var keys []string
	for i := 0; i < len(r.Content); i += 2 {
		keys = append(keys, r.Content[i].Value)
	}
	if strings.Join(keys, ",") != "b,a/x,b" {
		t.Errorf("keys %q", keys)
	}
	if v := r.Content[3]; v.Value != "\U0001F600" || v.Tag != "!!str" || v.Line != 2 || v.Column != 11 {
		t.Errorf("escaped value %q %s at %d:%d, want U+1F600 at 2:11", v.Value, v.Tag, v.Line, v.Column)
	}
	if k := r.Content[2]; k.Line != 2 || k.Column != 3 {
		t.Errorf("key at %d:%d, want 2:3", k.Line, k.Column)
	}
	list := r.Content[5]
	if tags := []string{list.Content[0].Tag, list.Content[1].Tag, list.Content[2].Tag, r.Content[1].Tag}; strings.Join(tags, " ") != "!!bool !!null !!float !!int" {
		t.Errorf("scalar tags %v", tags)
	}
	for _, c := range []struct{ in, rule string }{
		{`{"a":`, RuleJSONSyntax},
		{`{"a":1} x`, RuleJSONSyntax},
		{"type: object", RuleJSONSyntax},
		{"{\"a\":\"\xff\"}", RuleJSONSyntax},
		{strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1), RuleYAMLLimit},
	} {
		doc, diags := LoadJSON("s.json", []byte(c.in))
		if doc != nil || len(diags) != 1 || diags[0].Rule != c.rule || diags[0].Span.Line < 1 {
			t.Errorf("LoadJSON(%.20q) = %v, want one %s", c.in, diags, c.rule)
		}
		for _, d := range diags {
			if strings.Contains(d.Message, "json: ") || strings.Contains(d.Message, "Go ") {
				t.Errorf("message %q names Go internals", d.Message)
			}
		}
	}
	// Where each problem shows: the limits too.
	for _, c := range []struct{ in, want string }{
		{"{\"a\":\n  [1,]}", "s.json:2:6: json-syntax: invalid character ']' looking for beginning of value"},
		{"{\"a\": \"é\"", "s.json:1:10: json-syntax: unexpected end of the JSON text"},
		{strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1), "s.json:1:258: yaml-limit: document nests deeper than 256 levels"},
		{`{"a":[` + strings.Repeat("[", MaxNesting) + "1" + strings.Repeat("]", MaxNesting) + "]}", "s.json:1:262: yaml-limit: document nests deeper than 256 levels"},
	} {
		_, diags := LoadJSON("s.json", []byte(c.in))
		if len(diags) != 1 {
			t.Errorf("LoadJSON(%.20q) = %v", c.in, diags)
			continue
		}
		d := diags[0]
		if got := fmt.Sprintf("%s:%d:%d: %s: %s", d.Span.File, d.Span.Line, d.Span.Column, d.Rule, d.Message); got != c.want {
			t.Errorf("LoadJSON(%.20q) = %s, want %s", c.in, got, c.want)
		}
	}
	if doc, diags := LoadJSON("s.json", []byte("  \n")); doc == nil || doc.Root != nil || len(diags) > 0 {
		t.Errorf("empty text: %v %v", doc, diags)
	}
}

// jsonSamples are documents whose trees must say what JSON says: escapes,
// numbers, nesting, duplicate keys, positions after multi-byte runes.
var jsonSamples = []string{
	`{}`, `[]`, `"x"`, `0`, `-1.5e+3`, `true`, `false`, `null`,
	"{\"b\": 1,\n  \"a\\/x\": \"\\ud83d\\ude00\", \"b\": [true, null, 2.5]}",
	`{"é": "ü", "k": ["\"q\"", "\\", "\u2028", "tab\t"], "n": {"m": [[], {}, [1, [2, [3]]]]}}`,
	" \r\n\t{ \"a\" : [ 1 , 2 ] , \"b\" :{\"c\":\"d\"} } \n",
	`{"type":"object","properties":{"port":{"type":"integer","minimum":1,"maximum":65535},"name":{"type":"string","pattern":"^[a-z]+$"}},"required":["port"]}`,
}

func TestLoadJSONSamples(t *testing.T) {
	for _, in := range jsonSamples {
		checkLoadJSON(t, in)
	}
}

// FuzzLoadJSON holds LoadJSON to encoding/json: text json.Valid accepts
// gives a tree of the same value, each node at the first byte of its
// value; other text gives one diagnostic with a position. Nothing panics.
func FuzzLoadJSON(f *testing.F) {
	for _, in := range jsonSamples {
		f.Add(in)
	}
	f.Fuzz(checkLoadJSON)
}

func checkLoadJSON(t *testing.T, in string) {
	data := []byte(in)
	doc, diags := LoadJSON("f.json", data)
	if !json.Valid(data) || !utf8.Valid(data) {
		if len(bytes.TrimSpace(data)) == 0 && utf8.Valid(data) {
			if doc == nil || doc.Root != nil || len(diags) > 0 {
				t.Fatalf("%q: blank text gives %v %v, want an empty document", in, doc, diags)
			}
			return
		}
		if doc != nil || len(diags) != 1 || diags[0].Span.Line < 1 || diags[0].Span.Column < 1 {
			t.Fatalf("%q is not JSON, but LoadJSON gives %v %v", in, doc, diags)
		}
		return
	}
	if len(diags) == 1 && diags[0].Rule == RuleYAMLLimit {
		return
	}
	if doc == nil || doc.Root == nil || len(diags) > 0 {
		t.Fatalf("%q: LoadJSON = %v %v", in, doc, diags)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, nodeValue(t, data, doc.Root)); diff != "" {
		t.Errorf("%q: tree differs from encoding/json (-want +got):\n%s", in, diff)
	}
}

// nodeValue is the value of a tree as encoding/json decodes it into an any
// (numbers as json.Number; a later duplicate key wins). It checks that each
// node's line and column point at the first byte of its value in data.
func nodeValue(t *testing.T, data []byte, n *yaml.Node) any {
	kind, style := yaml.ScalarNode, yaml.Style(0)
	switch n.Tag {
	case "!!map":
		kind, style = yaml.MappingNode, yaml.FlowStyle
	case "!!seq":
		kind, style = yaml.SequenceNode, yaml.FlowStyle
	case "!!str":
		style = yaml.DoubleQuotedStyle
	}
	if n.Kind != kind || n.Style != style {
		t.Fatalf("%s node %q: kind %v style %v, want %v %v", n.Tag, n.Value, n.Kind, n.Style, kind, style)
	}
	first := map[string]string{"!!map": "{", "!!seq": "[", "!!str": `"`, "!!bool": "tf", "!!null": "n", "!!int": "-0123456789", "!!float": "-0123456789"}[n.Tag]
	if off := offsetOf(data, n.Line, n.Column); off < 0 || off >= len(data) || first == "" || !strings.Contains(first, string(data[off])) {
		t.Fatalf("%s node %q at %d:%d does not start there", n.Tag, n.Value, n.Line, n.Column)
	}
	switch n.Tag {
	case "!!map":
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = nodeValue(t, data, n.Content[i+1])
			nodeValue(t, data, n.Content[i])
		}
		return m
	case "!!seq":
		s := []any{}
		for _, c := range n.Content {
			s = append(s, nodeValue(t, data, c))
		}
		return s
	case "!!bool":
		return n.Value == "true"
	case "!!null":
		return nil
	case "!!int", "!!float":
		return json.Number(n.Value)
	}
	return n.Value
}

// offsetOf returns the byte offset of a 1-based line and rune column.
func offsetOf(data []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(data) {
			return -1
		}
		_, size := utf8.DecodeRune(data[off:])
		off += size
	}
	return off
}

func BenchmarkLoadJSON(b *testing.B) {
	props := map[string]any{}
	for i := range 25 {
		props[fmt.Sprintf("prop%d", i)] = map[string]any{"type": "string", "description": "A property of the benchmark schema, long enough to be typical.", "maxLength": 63, "pattern": "^[a-z][a-z0-9-]*$"}
	}
	data, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": []string{"prop1"}})
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, diags := LoadJSON("b.json", data); len(diags) > 0 {
			b.Fatal(diags)
		}
	}
}
