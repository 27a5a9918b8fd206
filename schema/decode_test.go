package schema_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/schema"
)

// Decode keeps a schema's members as written: it must agree with
// encoding/json on keys (escapes, repeats, non-ASCII), values (exact bytes,
// the last of a repeated key) and key order, for the keywords (Keywords,
// Written) and the properties.
func TestDecodeKeepsMembersAsWritten(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","minimum":-1.50e3}}}`,
		` { "type" : "object" , "properties" : { "x" : { "enum" : [ "a" , "b\"}" ] } , "x" : {"default": {"z":1,"a":[1,2]}} } } `,
		`{"k\u00e9y":"v\u2028","caf\u00e9":"a\\b","tab\t":"<&>","":true,"n":null,"f":false,"t":true}`,
		"{\"é\":\"ü\",\"description\":\"line\\nnext\",\"readOnly\":true,\"writeOnly\":\"true\"}",
		`{"properties":[1,2],"title":"{not an object}","pattern":"^[a-z]{1,3}$"}`,
	} {
		s, _ := schema.Decode(json.RawMessage(raw))
		if s == nil {
			t.Fatalf("%s: no schema", raw)
		}
		order, want := decoderMembers(json.RawMessage(raw))
		if d := cmp.Diff(order, s.Keywords()); d != "" {
			t.Errorf("%s: keyword order (-decoder +Decode):\n%s", raw, d)
		}
		got := map[string]json.RawMessage{}
		for _, k := range s.Keywords() {
			got[k], _ = s.Written(k)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: keywords (-encoding/json +Decode):\n%s", raw, d)
		}
		props, ok := want["properties"]
		if !ok || props[0] != '{' {
			continue
		}
		order, members := decoderMembers(props)
		var gotOrder []string
		for _, p := range s.Properties {
			gotOrder = append(gotOrder, p.Name)
			if w := members[p.Name]; !bytes.Equal(p.Schema.JSON(), w) {
				t.Errorf("%s: property %s is %s, want %s", raw, p.Name, p.Schema.JSON(), w)
			}
		}
		if d := cmp.Diff(uniq(order), gotOrder); d != "" {
			t.Errorf("%s: property order (-decoder +Decode):\n%s", raw, d)
		}
	}
}

// decoderMembers is the order and members of an object's keys (the last
// value of a repeated key), with json.Decoder.
func decoderMembers(raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, map[string]json.RawMessage{}
	}
	var keys []string
	members := map[string]json.RawMessage{}
	for d.More() {
		t, _ := d.Token()
		k, _ := t.(string)
		keys = append(keys, k)
		var v json.RawMessage
		_ = d.Decode(&v)
		members[k] = v
	}
	return keys, members
}

// uniq keeps the first of each repeated name.
func uniq(names []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}
