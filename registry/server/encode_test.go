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
