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
