package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/udtc/udtc/schema"
)

// multipleOfCases pin down the one multipleOf rule; the generated Go
// runtime's copy is held to them too (goclient/udtc).
var multipleOfCases = []struct {
	x, m string
	want bool
}{
	{"10", "5", true},
	{"10", "3", false},
	{"0", "7", true},
	{"-15", "5", true},
	// Integers are exact beyond float64's 2^53.
	{"9007199254740993", "2", false},
	{"9007199254740994", "2", true},
	{"1.5", "0.5", true},
	{"-1.5", "0.5", true},
	{"2.5", "1", false},
	{"0.3", "0.1", true},
	{"0.30000000000000004", "0.1", true}, // 0.1+0.2 in binary floating point
	{"0.33", "0.1", false},
	{"0.7", "0.05", true},
	// Large values: within 2^-51 of the value, not of the quotient.
	{"123456789.1", "0.1", true},
	{"1000000000.25", "0.5", false},
	{"1e300", "3", true},
	{"5e-324", "1e-300", false},
}

func TestMultipleOf(t *testing.T) {
	for _, c := range multipleOfCases {
		if got := schema.MultipleOf(json.Number(c.x), json.Number(c.m)); got != c.want {
			t.Errorf("MultipleOf(%s, %s) = %t, want %t", c.x, c.m, got, c.want)
		}
	}
}

func TestLengthCountsCharacters(t *testing.T) {
	for s, want := range map[string]int64{"": 0, "abc": 3, "éé": 2, "😀😀": 2} {
		if got := schema.Length(s); got != want {
			t.Errorf("Length(%q) = %d, want %d", s, got, want)
		}
	}
}
