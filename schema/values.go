package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"
)

// MultipleOfSlack is how close, relative to the value, a value must lie to
// a whole multiple of multipleOf when either is fractional: 2^-51, a couple
// of units in the last place of a float64, which absorbs the rounding of a
// client's own arithmetic (0.1+0.2 is 0.30000000000000004) while a genuine
// remainder never fits. Measured against the value, not the quotient, the
// window does not grow with the quotient, so no value passes merely by
// being large.
const MultipleOfSlack = 51

// MultipleOf reports whether the number x is a multiple of m (m > 0). This
// is the one rule of the subset, applied by the checker (to defaults), by
// admission and by the generated Go client's runtime: when both are
// integers (int64) the test is exact; otherwise some whole multiple k·m
// must lie within |x|·2^-MultipleOfSlack of x, computed exactly from the
// float64 values of x and m.
func MultipleOf(x, m json.Number) bool {
	if a, err := strconv.ParseInt(string(x), 10, 64); err == nil {
		if b, err := strconv.ParseInt(string(m), 10, 64); err == nil && b != 0 {
			return a%b == 0
		}
	}
	fx, err1 := strconv.ParseFloat(string(x), 64)
	fm, err2 := strconv.ParseFloat(string(m), 64)
	if err1 != nil || err2 != nil || fm <= 0 || math.IsInf(fm, 0) || math.IsInf(fx, 0) {
		return false
	}
	return nearMultiple(fx, fm)
}

// nearMultiple is MultipleOf's test for float64 values.
func nearMultiple(x, m float64) bool {
	ex, em := new(big.Rat).SetFloat64(x), new(big.Rat).SetFloat64(m)
	q := new(big.Rat).Quo(ex, em)
	if q.IsInt() {
		return true
	}
	floor := new(big.Int).Div(q.Num(), q.Denom())
	slack := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), MultipleOfSlack))
	tolerance := new(big.Rat).Mul(new(big.Rat).Abs(ex), slack)
	for _, k := range []*big.Int{floor, new(big.Int).Add(floor, big.NewInt(1))} {
		gap := new(big.Rat).Sub(ex, new(big.Rat).Mul(new(big.Rat).SetInt(k), em))
		if gap.Abs(gap).Cmp(tolerance) <= 0 {
			return true
		}
	}
	return false
}

// Length is the length of a string as minLength and maxLength count it: in
// characters (Unicode code points), not bytes or UTF-16 units.
func Length(s string) int64 { return int64(utf8.RuneCountInString(s)) }

// BelowMinimum reports whether the number x breaks s's minimum (and
// exclusiveMinimum); AboveMaximum likewise for the maximum. Numbers
// compare exactly (CompareNumbers): -1e-400 is below a minimum of 0. A
// bound or an x that is not a JSON number is not broken.
func BelowMinimum(s *Schema, x json.Number) bool {
	if s.Minimum == nil {
		return false
	}
	c, ok := CompareNumbers(x, *s.Minimum)
	return ok && (c < 0 || s.ExclusiveMinimum && c == 0)
}

// AboveMaximum reports whether x breaks s's maximum (and exclusiveMaximum).
func AboveMaximum(s *Schema, x json.Number) bool {
	if s.Maximum == nil {
		return false
	}
	c, ok := CompareNumbers(x, *s.Maximum)
	return ok && (c > 0 || s.ExclusiveMaximum && c == 0)
}

// NumberInEnum reports whether the number x equals one of s's enum
// values, exactly (2.5000000000000000001 is not 2.5; 2.50 is); true when s
// has no enum.
func NumberInEnum(s *Schema, x json.Number) bool {
	if len(s.Enum) == 0 {
		return true
	}
	for _, e := range s.Enum {
		if c, ok := CompareNumbers(x, e.Num); ok && c == 0 {
			return true
		}
	}
	return false
}
