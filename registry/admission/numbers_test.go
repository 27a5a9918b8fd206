package admission_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// numbersSchema has an int32, a plain integer (int64), an integer with a
// maximum, a number with a minimum and one with exclusive bounds, an
// integer map and array, and an integer default written 1e1.
const numbersSchema = `{"type":"object","properties":{
	"i32":{"type":"integer","format":"int32"},
	"i64":{"type":"integer"},
	"pct":{"type":"integer","maximum":100},
	"max":{"type":"number","maximum":100},
	"min":{"type":"number","minimum":0},
	"open":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":1,"exclusiveMaximum":true},
	"counts":{"type":"object","additionalProperties":{"type":"integer","format":"int32"}},
	"list":{"type":"array","items":{"type":"integer"}},
	"dflt":{"type":"integer","default":1e1}}}`

// TestNumbersExact: numbers are compared as the decimals they write, not as
// float64, and integers are stored in plain integer form, so that every
// admitted integer decodes into the Go client's int32 or int64.
func TestNumbersExact(t *testing.T) {
	s := mustCompile(t, numbersSchema)
	for _, tc := range []struct {
		doc, stored string   // stored: the admitted document, when there is no violation
		want        []string // violations
	}{
		{doc: `{"i32":1e2}`, stored: `{"dflt":10,"i32":100}`},
		{doc: `{"i32":1.0}`, stored: `{"dflt":10,"i32":1}`},
		{doc: `{"i32":-0.000}`, stored: `{"dflt":10,"i32":0}`},
		{doc: `{"i32":2147483647,"i64":-9223372036854775808}`, stored: `{"dflt":10,"i32":2147483647,"i64":-9223372036854775808}`},
		{doc: `{"i64":9.223372036854775807e18}`, stored: `{"dflt":10,"i64":9223372036854775807}`},
		{doc: `{"counts":{"a":2E1},"list":[3.00,4e0]}`, stored: `{"counts":{"a":20},"dflt":10,"list":[3,4]}`},
		{doc: `{"pct":1e2,"max":100.000,"min":1e-400}`, stored: `{"dflt":10,"max":100.000,"min":1e-400,"pct":100}`},
		{doc: `{"i32":2147483647.0000000001}`, want: []string{"properties.i32 InvalidType"}},
		{doc: `{"i32":1e-400}`, want: []string{"properties.i32 InvalidType"}},
		{doc: `{"i32":2147483648}`, want: []string{"properties.i32 InvalidFormat"}},
		{doc: `{"i32":-2.147483649e9}`, want: []string{"properties.i32 InvalidFormat"}},
		{doc: `{"i64":9223372036854775808}`, want: []string{"properties.i64 OutOfRange"}},
		{doc: `{"i64":1e300}`, want: []string{"properties.i64 OutOfRange"}},
		{doc: `{"pct":100.00000000000000001}`, want: []string{"properties.pct InvalidType"}},
		{doc: `{"pct":101}`, want: []string{"properties.pct OutOfRange"}},
		{doc: `{"max":100.00000000000000001}`, want: []string{"properties.max OutOfRange"}},
		{doc: `{"min":-1e-400}`, want: []string{"properties.min OutOfRange"}},
		{doc: `{"open":0.0}`, want: []string{"properties.open OutOfRange"}},
		{doc: `{"open":1e-400}`, stored: `{"dflt":10,"open":1e-400}`},
		{doc: `{"open":0.99999999999999999999}`, stored: `{"dflt":10,"open":0.99999999999999999999}`},
		{doc: `{"open":1.0}`, want: []string{"properties.open OutOfRange"}},
		{doc: `{"max":1e400,"min":1e-1000000000}`, want: []string{"properties.max OutOfRange", "properties.min OutOfRange"}},
	} {
		out, vs := s.Admit(json.RawMessage(tc.doc))
		if diff := cmp.Diff(tc.want, codes(vs)); diff != "" {
			t.Errorf("%s violations (-want +got):\n%s", tc.doc, diff)
			continue
		}
		if tc.want == nil && string(out) != tc.stored {
			t.Errorf("%s admitted as %s, want %s", tc.doc, out, tc.stored)
		}
	}
}

// TestNumberEnumExact: a number is in an enum when it equals a member
// exactly, however it is written.
func TestNumberEnumExact(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"i":{"type":"integer","enum":[1,2]},"n":{"type":"number","enum":[2.5,3]}}}`)
	for doc, want := range map[string][]string{
		`{"i":1.0,"n":2.50}`:          nil,
		`{"i":2e0,"n":3.0}`:           nil,
		`{"n":25e-1}`:                 nil,
		`{"n":2.5000000000000000001}`: {"properties.n InvalidEnum"},
		`{"n":2.9999999999999999999}`: {"properties.n InvalidEnum"},
		`{"i":3}`:                     {"properties.i InvalidEnum"},
		`{"i":1.0000000000000000001}`: {"properties.i InvalidType"},
	} {
		_, vs := s.Admit(json.RawMessage(doc))
		if diff := cmp.Diff(want, codes(vs)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", doc, diff)
		}
	}
}

// TestNumberMessages: the messages say what is expected, with the bound as
// the schema writes it.
func TestNumberMessages(t *testing.T) {
	s := mustCompile(t, numbersSchema)
	_, vs := s.Admit(json.RawMessage(`{"i32":2147483648,"pct":1.5,"max":100.00000000000000001,"min":-1e-400,"open":0}`))
	var got []string
	for _, v := range vs {
		got = append(got, v.Target+": "+v.Message)
	}
	want := []string{
		"properties.i32: must be a 32-bit integer, from -2147483648 to 2147483647",
		"properties.max: must be at most 100",
		"properties.min: must be at least 0",
		"properties.open: must be greater than 0",
		"properties.pct: must be an integer, not a fractional number",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, v := range vs {
		if strings.Contains(v.Message, "e-400") || strings.Contains(v.Message, "2147483648,") {
			t.Errorf("message echoes the value: %s", v.Message)
		}
	}
}
