package catalog

import (
	"encoding/json"
	"testing"
)

// str, flag and compactJSON read a schema's keywords as written
// (schema.Decode keeps them); they must agree with their encoding/json
// definitions on keys (escapes, repeats, non-ASCII) and values, and
// compactJSON's fast paths with its slow one.
func TestWrittenValuesAgreeWithEncodingJSON(t *testing.T) {
	for _, raw := range []string{
		`{}`, `[]`, `null`, `"s"`, `{"a":1`, ``,
		`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","minimum":-1.50e3}}}`,
		` { "type" : "object" , "properties" : { "x" : { "enum" : [ "a" , "b\"}" ] } , "x" : {"default": {"z":1,"a":[1,2]}} } } `,
		`{"k\u00e9y":"v\u2028","caf\u00e9":"a\\b","tab\t":"<&>","":true,"n":null,"f":false,"t":true}`,
		"{\"é\":\"ü\",\"description\":\"line\\nnext\",\"readOnly\":true,\"writeOnly\":\"true\"}",
		`{"properties":[1,2],"title":"{not an object}","pattern":"^[a-z]{1,3}$"}`,
	} {
		s := parse(json.RawMessage(raw))
		want := map[string]json.RawMessage{}
		if err := json.Unmarshal([]byte(raw), &want); err != nil || want == nil {
			want = map[string]json.RawMessage{}
		}
		for k, v := range want {
			var str_ string
			_ = json.Unmarshal(v, &str_)
			var b bool
			_ = json.Unmarshal(v, &b)
			if got := str(s, k); got != str_ {
				t.Errorf("%s: str(%q) = %q, want %q", raw, k, got, str_)
			}
			if got := flag(s, k); got != b {
				t.Errorf("%s: flag(%q) = %t, want %t", raw, k, got, b)
			}
			if got, want := compactJSON(v), slowCompactJSON(v); got != want {
				t.Errorf("%s: compactJSON(%s) = %s, want %s", raw, v, got, want)
			}
		}
	}
}

// slowCompactJSON is compactJSON without its fast paths.
func slowCompactJSON(raw json.RawMessage) string {
	return compactJSON(append(json.RawMessage(" "), raw...))
}
