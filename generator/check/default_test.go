package check_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/check"
)

// A default must be a multiple of multipleOf by the subset's one rule
// (schema.MultipleOf), which admission applies to the same value: a large
// default that only floating point makes inexact is accepted, a genuine
// remainder is not.
func TestDefaultMultipleOf(t *testing.T) {
	for _, tc := range []struct {
		def, multipleOf string
		ok              bool
	}{
		{"0.3", "0.1", true},
		{"123456789.1", "0.1", true},
		{"0.33", "0.1", false},
		{"1000000000.25", "0.5", false},
	} {
		schema := `{"type":"object","properties":{"n":{"type":"number","multipleOf":` + tc.multipleOf + `,"default":` + tc.def + `}}}`
		_, diags := check.Schema("s.json", json.RawMessage(schema), nil)
		got := !diags.HasErrors()
		if got != tc.ok {
			t.Errorf("default %s, multipleOf %s: accepted %t, want %t: %v", tc.def, tc.multipleOf, got, tc.ok, diags)
		}
		if !tc.ok && (len(diags) != 1 || !strings.Contains(diags[0].Message, "is not a multiple of "+tc.multipleOf)) {
			t.Errorf("default %s, multipleOf %s: %v", tc.def, tc.multipleOf, diags)
		}
	}
}

// Defaults and bounds are judged exactly as written, by the same schema
// rules admission applies to documents (schema.ParseWhole,
// schema.IntegerWidth, schema.BelowMinimum, schema.AboveMaximum): float64
// rounding does not carry a value onto a bound or into a type.
func TestDefaultNumbersExact(t *testing.T) {
	for _, tc := range []struct {
		node, want string // want: "" for accepted, else part of the one diagnostic
	}{
		{`"type":"number","minimum":0,"default":-1e-400`, "is below the minimum 0"},
		{`"type":"number","maximum":100,"default":100.00000000000000001`, "is above the maximum 100"},
		{`"type":"number","maximum":100,"default":100`, ""},
		{`"type":"integer","format":"int32","default":2147483647.0000000001`, "is a number, not of type integer"},
		{`"type":"integer","format":"int32","default":2147483648`, "is outside the range of a 32-bit integer (-2147483648 to 2147483647)"},
		{`"type":"integer","format":"int32","default":2147483647`, ""},
		{`"type":"integer","default":9223372036854775807`, ""},
		{`"type":"integer","maximum":100.00000000000000001`, "must be a whole number"},
		{`"type":"integer","minimum":1e2,"default":99`, "is below the minimum 100"},
		{`"type":"number","minimum":100.00000000000000001,"maximum":100`, "maximum 100 is less than minimum 100.00000000000000001"},
	} {
		schema := `{"type":"object","properties":{"n":{` + tc.node + `}}}`
		_, diags := check.Schema("s.json", json.RawMessage(schema), nil)
		switch {
		case tc.want == "" && diags.HasErrors():
			t.Errorf("%s: %v", tc.node, diags)
		case tc.want != "" && (len(diags) != 1 || !strings.Contains(diags[0].Message, tc.want)):
			t.Errorf("%s: %v, want one diagnostic saying %q", tc.node, diags, tc.want)
		}
	}
}
