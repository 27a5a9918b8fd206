package server

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
)

// The body of an API version PUT's response is written around the stored,
// compacted schema (encodeAPIVersion); it must be the bytes that encoding
// the value gives (Wire, Marshal), whatever the schema holds.
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
	for _, raw := range schemas {
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		props := json.RawMessage(registry.StoredSchemaHead + compact.String() + registry.StoredSchemaTail)
		for _, res := range resources {
			res.Properties = props
			w, err := res.Wire()
			if err != nil {
				t.Fatal(err)
			}
			want, err := service.Marshal(w)
			if err != nil {
				t.Fatal(err)
			}
			got, err := encodeAPIVersion(res)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("encodeAPIVersion of %s:\n got %s\nwant %s", res.ID, got, want)
			}
		}
	}
}

// batchLength counts the writes that decoding the batch document would
// decode: the most of any "requests" member, whatever its key's case or
// escapes; 0 when there are none or the body is not valid JSON.
func TestBatchLengthCountsWhatDecodingDecodes(t *testing.T) {
	for _, c := range []struct {
		body string
		want int
	}{
		{`{}`, 0},
		{`{"requests":null}`, 0},
		{`{"requests":[]}`, 0},
		{`{"requests":[{"method":"PUT","path":"/p","body":{"properties":{"a":"]"}}},{"method":"DELETE","path":"/q"},{}]}`, 3},
		{`{"requests":[null,1,"x",[{}],{"a":{"b":[]}}]}`, 5},
		{`{"Requests":[{},{}]}`, 2},
		{`{"requ\u0065sts":[{},{}]}`, 2},
		{`{"requests":[{},{},{}],"requests":[{}]}`, 3},
		{`{"requests":{}}`, 0},
		{`{"other":[{},{}]}`, 0},
		{`[{},{}]`, 0},
		{`{"requests":[{},{}]`, 0},
	} {
		if got := batchLength([]byte(c.body)); got != c.want {
			t.Errorf("batchLength(%s) = %d, want %d", c.body, got, c.want)
		}
		var req api.BatchRequest
		if c.want > 0 && service.DecodeStrict([]byte(c.body), &req) == nil && len(req.Requests) > c.want {
			t.Errorf("%s: decoding decodes %d writes, more than batchLength's %d", c.body, len(req.Requests), c.want)
		}
	}
}
