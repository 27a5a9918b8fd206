package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// members reads what encoding/json's tokenizer reads: the same keys
// (escapes resolved, invalid UTF-8 replaced), values and nesting, for any
// valid JSON object.
func FuzzMembers(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `"x"`, ` { "a" : 1 , "b":{ } }`,
		`{"type":"object","properties":{"a":{"type":"string","maxLength":3,"enum":["}",  "]\"{"]}}}`,
		`{"a\u00e9\"\\":[1,{"b":[2,[3]]},"]"],"c":-1.5e+3,"d":true,"e":null,"f":{"g":{"h":{}}}}`,
		"{\"k\xff\":\"v\",\"\t\":\t[ ]\n}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		raw = bytes.TrimSpace(raw)
		if got, want := members(raw), tokenMembers(t, raw); !reflect.DeepEqual(got, want) {
			t.Errorf("members(%q)\n = %#v\nwant %#v", raw, got, want)
		}
	})
}

// tokenMembers splits raw with encoding/json's tokenizer.
func tokenMembers(t *testing.T, raw []byte) []member {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var object func() []member
	object = func() []member {
		ms := make([]member, 0, 8)
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			start := int(dec.InputOffset())
			for raw[start] == ':' || raw[start] == ' ' || raw[start] == '\t' || raw[start] == '\n' || raw[start] == '\r' {
				start++
			}
			var obj []member
			if raw[start] == '{' {
				if _, err := dec.Token(); err != nil {
					t.Fatal(err)
				}
				obj = object()
			} else {
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
			ms = append(ms, member{key: tok.(string), val: raw[start:dec.InputOffset()], obj: obj})
		}
		if _, err := dec.Token(); err != nil {
			t.Fatal(err)
		}
		return ms
	}
	return object()
}
