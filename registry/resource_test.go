package registry

import (
	"bytes"
	"encoding/json"
	"errors"
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

// A failed condition says which header failed and why, not only
// "precondition failed"; it still is ErrPrecondition (412).
func TestPreconditionSaysWhich(t *testing.T) {
	for _, tc := range []struct {
		p      Precondition
		exists bool
		etag   string
		want   string // "" for a condition that holds
	}{
		{Precondition{IfMatch: []string{"a"}}, true, "a", ""},
		{Precondition{IfMatch: []string{"*"}}, true, "b", ""},
		{Precondition{IfMatch: []string{"a"}}, true, "b", `precondition failed: If-Match "a", but the resource's ETag is "b" (it changed since it was read)`},
		{Precondition{IfMatch: []string{"*"}}, false, "", `precondition failed: If-Match "*", but the resource does not exist`},
		{Precondition{IfNoneMatch: []string{"*"}}, true, "b", `precondition failed: If-None-Match "*", but the resource exists`},
		{Precondition{IfNoneMatch: []string{"a", "b"}}, true, "b", `precondition failed: If-None-Match "a", "b", but the resource's ETag is "b"`},
		{Precondition{IfNoneMatch: []string{"*"}}, false, "", ""},
	} {
		err := tc.p.Check(tc.exists, tc.etag)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v exists=%t etag=%q: %v, want nil", tc.p, tc.exists, tc.etag, err)
		case tc.want != "" && (err == nil || err.Error() != tc.want || !errors.Is(err, ErrPrecondition)):
			t.Errorf("%+v exists=%t etag=%q: %v, want %q wrapping ErrPrecondition", tc.p, tc.exists, tc.etag, err, tc.want)
		}
	}
}
