package schema

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// MultipleOfTolerance is how far from a whole number the quotient x/m may
// be, relative to the quotient (and at least absolutely), for MultipleOf to
// hold when x or m is fractional: binary floating point cannot represent
// 0.1, so 0.3/0.1 is 2.9999999999999996.
const MultipleOfTolerance = 1e-9

// MultipleOf reports whether the number x is a multiple of m (m > 0). This
// is the one rule of the subset, applied by the checker (to defaults), by
// admission and by the generated Go client's runtime: when both are
// integers (int64) the test is exact; otherwise x/m must lie within
// MultipleOfTolerance·max(1, |x/m|) of a whole number.
func MultipleOf(x, m json.Number) bool {
	if a, err := strconv.ParseInt(string(x), 10, 64); err == nil {
		if b, err := strconv.ParseInt(string(m), 10, 64); err == nil && b != 0 {
			return a%b == 0
		}
	}
	fx, err1 := strconv.ParseFloat(string(x), 64)
	fm, err2 := strconv.ParseFloat(string(m), 64)
	if err1 != nil || err2 != nil || fm == 0 {
		return false
	}
	q := fx / fm
	return math.Abs(q-math.Round(q)) <= MultipleOfTolerance*math.Max(1, math.Abs(q))
}

// Length is the length of a string as minLength and maxLength count it: in
// characters (Unicode code points), not bytes or UTF-16 units.
func Length(s string) int64 { return int64(utf8.RuneCountInString(s)) }

// BelowMinimum reports whether x breaks s's minimum (and
// exclusiveMinimum); AboveMaximum likewise for the maximum. Numbers
// compare as float64.
func BelowMinimum(s *Schema, x float64) bool {
	if s.Minimum == nil {
		return false
	}
	lo, _ := s.Minimum.Float64()
	return x < lo || s.ExclusiveMinimum && x == lo
}

// AboveMaximum reports whether x breaks s's maximum (and exclusiveMaximum).
func AboveMaximum(s *Schema, x float64) bool {
	if s.Maximum == nil {
		return false
	}
	hi, _ := s.Maximum.Float64()
	return x > hi || s.ExclusiveMaximum && x == hi
}
