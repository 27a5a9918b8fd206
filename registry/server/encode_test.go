package server

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
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
		if got, _ := registry.StoredSchema(props); !bytes.Equal(got, compact.Bytes()) {
			t.Errorf("StoredSchema = %s, want %s", got, compact.Bytes())
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

// quickEnvelope decodes the usual PUT bodies without decodeStrict; when it
// does, the envelope is decodeStrict's.
func TestQuickEnvelopeMatchesDecodeStrict(t *testing.T) {
	for _, c := range []struct {
		body string
		fast bool
	}{
		{`{}`, true},
		{`{"properties":{"schema":{"a":"}"}}}`, true},
		{` {"id":"x","name":1,"type":[],"systemData":{"a":1},"etag":null,"location":"global","tags":{"a":"1","b":""},"properties":null} `, true},
		{`{"location":null,"tags":null}`, true},
		{`{"location":"caf\u00e9","tags":{}}`, true},
		{`{"tags":{"a":"1"},"tags":{"b":"2"}}`, false},
		{`{"Location":"x"}`, false},
		{`{"location":1}`, false},
		{`{"tags":{"a":1}}`, false},
		{`{"extra":1}`, false},
		{`{"properties":{}} x`, false},
		{`[]`, false},
	} {
		got, ok := quickEnvelope([]byte(c.body), false)
		if ok != c.fast {
			t.Errorf("%s: ok = %v, want %v", c.body, ok, c.fast)
		}
		if ok {
			checkSameEnvelope(t, c.body, got)
		}
		// A body known to be valid JSON (a batch's write) decodes alike.
		if json.Valid([]byte(c.body)) {
			if got, ok := quickEnvelope([]byte(c.body), true); ok != c.fast {
				t.Errorf("%s: known valid: ok = %v, want %v", c.body, ok, c.fast)
			} else if ok {
				checkSameEnvelope(t, c.body, got)
			}
		}
	}
}

func checkSameEnvelope(t *testing.T, body string, got wireEnvelope) {
	t.Helper()
	var want wireEnvelope
	if err := decodeStrict([]byte(body), &want); err != nil {
		t.Errorf("%s: quickEnvelope took it, decodeStrict says %v", body, err)
		return
	}
	if got.Location != want.Location || !bytes.Equal(got.Properties, want.Properties) || !reflect.DeepEqual(got.Tags, want.Tags) {
		t.Errorf("%s: quickEnvelope %+v, decodeStrict %+v", body, got, want)
	}
}

func FuzzQuickEnvelope(f *testing.F) {
	for _, s := range []string{`{}`, `{"location":"g","tags":{"a":"b"},"properties":{"schema":{}}}`, `{"id":null,"etag":"x","properties":[1]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if got, ok := quickEnvelope([]byte(body), false); ok {
			checkSameEnvelope(t, body, got)
		}
		if json.Valid([]byte(body)) {
			if got, ok := quickEnvelope([]byte(body), true); ok {
				checkSameEnvelope(t, body, got)
			}
		}
	})
}

// quickBatch decodes the usual batch documents without decodeStrict; when
// it does, the request is decodeStrict's.
func TestQuickBatchMatchesDecodeStrict(t *testing.T) {
	for _, c := range []struct {
		body string
		fast bool
	}{
		{`{}`, true},
		{`{"requests":null}`, true},
		{`{"requests":[]}`, true},
		{`{"requests":[{"method":"PUT","path":"/p","body":{"properties":{"a":"]"}}},{"method":"DELETE","path":"/q"},{}]}`, true},
		{`{"requests":[{"body":null,"path":"/\u0070"}]}`, true},
		{`{"requests":[null]}`, false},
		{`{"requests":[{"method":1}]}`, false},
		{`{"requests":[{"Method":"PUT"}]}`, false},
		{`{"requests":[{"method":"PUT","method":"DELETE"}]}`, false},
		{`{"requests":[],"requests":[]}`, false},
		{`{"requests":{}}`, false},
		{`{"other":1}`, false},
	} {
		got, ok := quickBatch([]byte(c.body))
		if ok != c.fast {
			t.Errorf("%s: ok = %v, want %v", c.body, ok, c.fast)
		}
		if ok {
			checkSameBatch(t, c.body, got)
		}
	}
}

func checkSameBatch(t *testing.T, body string, got api.BatchRequest) {
	t.Helper()
	var want api.BatchRequest
	if err := decodeStrict([]byte(body), &want); err != nil {
		t.Errorf("%s: quickBatch took it, decodeStrict says %v", body, err)
		return
	}
	if len(got.Requests) != len(want.Requests) || (got.Requests == nil) != (want.Requests == nil) {
		t.Errorf("%s: quickBatch %+v, decodeStrict %+v", body, got, want)
		return
	}
	for i := range got.Requests {
		g, w := got.Requests[i], want.Requests[i]
		if g.Method != w.Method || g.Path != w.Path || !bytes.Equal(g.Body, w.Body) {
			t.Errorf("%s: write %d: quickBatch %+v, decodeStrict %+v", body, i, g, w)
		}
	}
}

func FuzzQuickBatch(f *testing.F) {
	for _, s := range []string{`{"requests":[{"method":"PUT","path":"/p","body":{}}]}`, `{"requests":[{"method":"DELETE","path":"/q"},{}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if got, ok := quickBatch([]byte(body)); ok {
			checkSameBatch(t, body, got)
		}
	})
}
