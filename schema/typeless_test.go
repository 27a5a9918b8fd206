package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestImplyObjectTypes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// rad's schema: {} merged with its base properties.
		{`{"properties":{"environment":{"type":"string"}},"required":["environment"]}`,
			`{"type":"object","properties":{"environment":{"type":"string"}},"required":["environment"]}`},
		// At any depth: properties, additionalProperties, items.
		{`{"type":"object","properties":{"a":{"properties":{"b":{"type":"string"}}},"m":{"additionalProperties":{"properties":{}}},"l":{"type":"array","items":{"properties":{}}}}}`,
			`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}},"m":{"type":"object","additionalProperties":{"type":"object","properties":{}}},"l":{"type":"array","items":{"type":"object","properties":{}}}}}`},
		// A property named "properties" is a name, not a keyword.
		{`{"type":"object","properties":{"properties":{"type":"string"}}}`, ``},
		// Not schema positions: examples, defaults, enums keep their text.
		{`{"type":"object","properties":{"x":{"type":"object","default":{"properties":{}},"example":{"additionalProperties":1}}}}`, ``},
		// Typed nodes and nodes with only items are left alone.
		{`{"type":"string"}`, ``},
		{`{"items":{"type":"string"}}`, ``},
		{`{}`, ``},
		// Numbers, escapes and white space are kept.
		{"{ \"properties\" : {\"n\":{\"type\":\"number\",\"maximum\":1.50e3,\"description\":\"\\u00e9\"}} }",
			"{\"type\":\"object\", \"properties\" : {\"n\":{\"type\":\"number\",\"maximum\":1.50e3,\"description\":\"\\u00e9\"}} }"},
		// Keys are read as JSON reads them: escapes, quotes inside.
		{`{"\u0070roperties":{"a\"b":{"additionalProperties":false}}}`,
			`{"type":"object","\u0070roperties":{"a\"b":{"type":"object","additionalProperties":false}}}`},
		{`{"type\u0000":"x","properties":{}}`, `{"type":"object","type\u0000":"x","properties":{}}`},
		// Arrays, in schema positions and not, with white space.
		{"{\"items\": [ {\"properties\":{}} , 1 ],\"allOf\":[{\"properties\":{\"x\":{\"items\":{\"additionalProperties\":{}}}}}]}",
			"{\"items\": [ {\"properties\":{}} , 1 ],\"allOf\":[{\"properties\":{\"x\":{\"items\":{\"additionalProperties\":{}}}}}]}"},
		{`{"properties":{"l":{"items":{"properties":{"n":{"type":"integer","enum":[1,-2.5e-3,null,true]}}}}}}`,
			`{"type":"object","properties":{"l":{"items":{"type":"object","properties":{"n":{"type":"integer","enum":[1,-2.5e-3,null,true]}}}}}}`},
		// Not JSON: returned as it is, for the checker to refuse.
		{`{"properties":`, ``},
	} {
		want := tc.want
		if want == "" {
			want = tc.in
		}
		got := string(ImplyObjectTypes(json.RawMessage(tc.in)))
		if got != want {
			t.Errorf("ImplyObjectTypes(%s)\n got %s\nwant %s", tc.in, got, want)
		}
		if tc.want != "" && !json.Valid([]byte(got)) {
			t.Errorf("ImplyObjectTypes(%s) is not JSON: %s", tc.in, got)
		}
	}
}

// FuzzImplyObjectTypes: any text, never a panic; JSON stays JSON and
// changes only by inserted "type":"object" members; other text is kept.
func FuzzImplyObjectTypes(f *testing.F) {
	for _, s := range []string{`{"properties":{"a":{"items":{"additionalProperties":{}}}}}`, ` [ {"x" : "\"}"} ] `, `{"\u0074ype":1}`, `1e5`, `{"properties":`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := string(ImplyObjectTypes(json.RawMessage(in)))
		if !json.Valid([]byte(in)) {
			if got != in {
				t.Fatalf("not JSON, yet changed: %q -> %q", in, got)
			}
			return
		}
		const member = `"type":"object",`
		if !json.Valid([]byte(got)) || strings.ReplaceAll(got, member, "") != strings.ReplaceAll(in, member, "") {
			t.Fatalf("ImplyObjectTypes(%q) = %q", in, got)
		}
	})
}
