package catalog

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseNode splits objects itself; it must agree with encoding/json on
// keys (escapes, repeats, non-ASCII), values (exact bytes) and key order,
// and str, flag and compactJSON with their encoding/json definitions.
func TestParseNodeAgreesWithEncodingJSON(t *testing.T) {
	for _, raw := range []string{
		`{}`, `[]`, `null`, `"s"`, `{"a":1`, ``,
		`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer","minimum":-1.50e3}}}`,
		` { "type" : "object" , "properties" : { "x" : { "enum" : [ "a" , "b\"}" ] } , "x" : {"default": {"z":1,"a":[1,2]}} } } `,
		`{"k\u00e9y":"v\u2028","caf\u00e9":"a\\b","tab\t":"<&>","":true,"n":null,"f":false,"t":true}`,
		"{\"é\":\"ü\",\"description\":\"line\\nnext\",\"readOnly\":true,\"writeOnly\":\"true\"}",
		`{"properties":[1,2],"title":"{not an object}","pattern":"^[a-z]{1,3}$"}`,
	} {
		n := parseNode(json.RawMessage(raw))
		want := map[string]json.RawMessage{}
		if err := json.Unmarshal([]byte(raw), &want); err != nil || want == nil {
			want = map[string]json.RawMessage{}
		}
		if d := cmp.Diff(want, memberMap(n.kw)); d != "" {
			t.Errorf("%s: keywords (-encoding/json +parseNode):\n%s", raw, d)
		}
		if props, ok := want["properties"]; ok {
			order, members := decoderMembers(props)
			var gotOrder []string
			for _, m := range n.props {
				gotOrder = append(gotOrder, m.key)
			}
			if d := cmp.Diff(order, gotOrder); d != "" {
				t.Errorf("%s: property order (-decoder +parseNode):\n%s", raw, d)
			}
			if d := cmp.Diff(members, memberMap(n.props)); d != "" {
				t.Errorf("%s: properties (-decoder +parseNode):\n%s", raw, d)
			}
		}
		for k, v := range want {
			var s string
			_ = json.Unmarshal(v, &s)
			var b bool
			_ = json.Unmarshal(v, &b)
			if got := n.str(k); got != s {
				t.Errorf("%s: str(%q) = %q, want %q", raw, k, got, s)
			}
			if got := n.flag(k); got != b {
				t.Errorf("%s: flag(%q) = %t, want %t", raw, k, got, b)
			}
			if got, want := compactJSON(v), slowCompactJSON(v); got != want {
				t.Errorf("%s: compactJSON(%s) = %s, want %s", raw, v, got, want)
			}
		}
	}
}

// memberMap is ms as encoding/json decodes an object: each key's last
// value; never nil.
func memberMap(ms []member) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	for _, x := range ms {
		if v, _ := lookup(ms, x.key); v != nil {
			m[x.key] = v
		}
	}
	return m
}

// decoderMembers is the order and members of an object's keys, with
// json.Decoder; empty ones when raw is not an object.
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

// slowCompactJSON is compactJSON without its fast paths.
func slowCompactJSON(raw json.RawMessage) string {
	return compactJSON(append(json.RawMessage(" "), raw...))
}
