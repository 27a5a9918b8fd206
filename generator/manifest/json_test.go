package manifest

import (
	"strings"
	"testing"

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
