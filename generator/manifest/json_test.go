package manifest

import (
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
	if doc, diags := LoadJSON("s.json", []byte("  \n")); doc == nil || doc.Root != nil || len(diags) > 0 {
		t.Errorf("empty text: %v %v", doc, diags)
	}
}

// jsonSamples are documents whose trees the fast path and the decoder must
// build alike: escapes, numbers, nesting, positions after multi-byte runes.
var jsonSamples = []string{
	`{}`, `[]`, `"x"`, `0`, `-1.5e+3`, `true`, `false`, `null`,
	"{\"b\": 1,\n  \"a\\/x\": \"\\ud83d\\ude00\", \"b\": [true, null, 2.5]}",
	`{"é": "ü", "k": ["\"q\"", "\\", "\u2028", "tab\t"], "n": {"m": [[], {}, [1, [2, [3]]]]}}`,
	" \r\n\t{ \"a\" : [ 1 , 2 ] , \"b\" :{\"c\":\"d\"} } \n",
	`{"type":"object","properties":{"port":{"type":"integer","minimum":1,"maximum":65535},"name":{"type":"string","pattern":"^[a-z]+$"}},"required":["port"]}`,
}

func TestLoadJSONFastMatchesDecoder(t *testing.T) {
	for _, in := range jsonSamples {
		fast := fastTree([]byte(in))
		slow, _, err := decoderTree([]byte(in))
		if err != nil || fast == nil {
			t.Fatalf("%q: decoder error %v, fast tree %v", in, err, fast)
		}
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Errorf("%q: trees differ (-decoder +fast):\n%s", in, diff)
		}
	}
	// Past a limit the fast path gives up and LoadJSON reports it as before.
	deep := strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1)
	if fastTree([]byte(deep)) != nil {
		t.Error("fastTree built a tree deeper than MaxNesting")
	}
	if _, diags := LoadJSON("d.json", []byte(deep)); len(diags) != 1 || diags[0].Rule != RuleYAMLLimit {
		t.Errorf("LoadJSON(deep) = %v, want one %s", diags, RuleYAMLLimit)
	}
}

func FuzzLoadJSON(f *testing.F) {
	for _, in := range jsonSamples {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) || !utf8.ValidString(in) {
			return // LoadJSON takes the fast path only for valid UTF-8 JSON
		}
		fast := fastTree([]byte(in))
		slow, _, err := decoderTree([]byte(in))
		if err != nil {
			if fast != nil {
				t.Fatalf("%q: the decoder refused it (%v) but the fast path built a tree", in, err)
			}
			return
		}
		if diff := cmp.Diff(slow, fast); fast != nil && diff != "" {
			t.Errorf("%q: trees differ (-decoder +fast):\n%s", in, diff)
		}
	})
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
