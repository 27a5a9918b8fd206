package registry

import (
	"bytes"
	"encoding/json"
	"testing"
)

// apiVersionProps takes stored properties apart without decoding the
// schema when it can; its result is always what decoding gives.
func TestAPIVersionPropsMatchesDecoding(t *testing.T) {
	for _, stored := range []string{
		``,
		`{}`,
		`{"schema":{}}`,
		`{"schema":{"type":"object","properties":{"a":{"enum":["}","{"]}}}}`,
		`{"schema":null}`,
		`{"schema":{}} `,
		`{"schema":{"a":1}}}`,
		`{"schema":{},"schema":{"b":1}}`,
		`{"schema":{},"other":1}`,
		`{"Schema":{"c":2}}`,
	} {
		r := Resource{ID: APIVersionID("local", "Contoso.Data", "things", "2025-01-01"), Properties: json.RawMessage(stored)}
		var want APIVersionProperties
		wantErr := decodeProps(r, &want)
		got, err := apiVersionProps(r)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got.Schema, want.Schema) {
			t.Errorf("%s: got %s, %v; decoding gives %s, %v", stored, got.Schema, err, want.Schema, wantErr)
		}
	}
}
