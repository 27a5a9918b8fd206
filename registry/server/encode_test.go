package server

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/udtc/udtc/registry"
)

// The stored properties of an API version and the body of its PUT
// response are written around the compacted schema (validSchema,
// encodeAPIVersion); they must be the bytes that encoding the values
// gives (marshal, toWire), whatever the schema holds.
func TestAPIVersionEncodingMatchesMarshal(t *testing.T) {
	schemas := []string{
		`{}`,
		` { "type" : "object",
		    "properties": { "a": {"type": "string", "pattern": "^<a&b>$"} } } `,
		`{"description":"line\u2028sep \u00e9 é \"q\" \\ /","enum":["<",">","&"],"x":[1,2.5e3,-0,true,null]}`,
		`{"properties":{"n":{"type":"object","properties":{"m":{"type":"array","items":{"type":"integer","minimum":-1}}}}}}`,
	}
	when := time.Date(2026, 11, 24, 22, 0, 0, 123456789, time.UTC)
	resources := []registry.Resource{
		{ID: registry.APIVersionID("local", "Contoso.Data", "things", "2025-01-01")},
		{ID: registry.APIVersionID("Local", "Contoso.Data", "things/parts", "2025-01-01-preview"), Location: "global",
			Tags:   map[string]string{"b": "<2>", "a": "1"},
			System: registry.SystemData{CreatedBy: "token:abcd", CreatedAt: when, LastModifiedBy: "token:ef01", LastModifiedAt: when.Add(time.Second)}},
	}
	s := &Server{checkSlots: make(chan struct{}, 1)}
	for _, raw := range schemas {
		props, err := s.validSchema(context.Background(), json.RawMessage(raw))
		if err != nil {
			t.Fatalf("validSchema(%s): %v", raw, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		want, err := marshal(registry.APIVersionProperties{Schema: compact.Bytes()})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(props, want) {
			t.Errorf("stored properties of %s:\n got %s\nwant %s", raw, props, want)
		}
		if got := storedSchema(props); !bytes.Equal(got, compact.Bytes()) {
			t.Errorf("storedSchema = %s, want %s", got, compact.Bytes())
		}
		for _, res := range resources {
			res.Properties = props
			w, err := toWire(res)
			if err != nil {
				t.Fatal(err)
			}
			want, err := marshal(w)
			if err != nil {
				t.Fatal(err)
			}
			got, err := encodeAPIVersion(res, props)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("encodeAPIVersion of %s:\n got %s\nwant %s", res.ID, got, want)
			}
		}
	}
}

// apiVersionSchema takes the usual properties of an API version PUT apart
// by hand; whenever it does, the schema is what decodeStrict gives.
func TestAPIVersionSchemaMatchesDecodeStrict(t *testing.T) {
	for _, c := range []struct {
		props string
		fast  bool
	}{
		{`{}`, true},
		{` { } `, true},
		{`{"schema":{}}`, true},
		{`{"schema":{"a":"}\"{[","b":[1,{"c":[]}],"d":-1.5e3,"e":true,"f":null}}`, true},
		{`{ "schema" : { "type" : "object" } , "provisioningState" : "Succeeded" }`, true},
		{`{"provisioningState":null,"schema":[1,2]}`, true},
		{`{"schema":{"a":1},"schema":{"b":2}}`, true},
		{`{"schema":"text"}`, true},
		{`{"schema":null}`, true},
		{`{"schema":12}`, true},
		{`{"Schema":{}}`, false},
		{`{"sch\u0065ma":{}}`, false},
		{`{"schema":{},"extra":1}`, false},
		{`{"provisioningState":1}`, false},
		{`{"provisioningState":{"a":1}}`, false},
	} {
		got, ok := apiVersionSchema(json.RawMessage(c.props))
		if ok != c.fast {
			t.Errorf("%s: ok = %v, want %v", c.props, ok, c.fast)
		}
		var p struct {
			Schema            json.RawMessage `json:"schema,omitempty"`
			ProvisioningState string          `json:"provisioningState,omitempty"`
		}
		err := decodeStrict([]byte(c.props), &p)
		if ok && (err != nil || !bytes.Equal(got, p.Schema)) {
			t.Errorf("%s: schema %s; decodeStrict gives %s, %v", c.props, got, p.Schema, err)
		}
	}
}

func FuzzAPIVersionSchema(f *testing.F) {
	for _, s := range []string{`{}`, `{"schema":{"a":"}\"{["}}`, `{"provisioningState":"x","schema":[1]}`, `{"schema":1,"schema":{}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, props string) {
		if !json.Valid([]byte(props)) {
			return // the envelope's decoding only passes valid JSON on
		}
		got, ok := apiVersionSchema(json.RawMessage(props))
		if !ok {
			return
		}
		var p struct {
			Schema            json.RawMessage `json:"schema,omitempty"`
			ProvisioningState string          `json:"provisioningState,omitempty"`
		}
		if err := decodeStrict([]byte(props), &p); err != nil || !bytes.Equal(got, p.Schema) {
			t.Errorf("%s: schema %s; decodeStrict gives %s, %v", props, got, p.Schema, err)
		}
	})
}
