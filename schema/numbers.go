package schema

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"
)

// Numbers are compared exactly, as the decimals their JSON text writes,
// never through float64: 100.00000000000000001 is above a maximum of 100
// and -1e-400 below a minimum of 0, although float64 rounds both onto the
// bound. The one exception is multipleOf (MultipleOf), which allows for a
// client's floating-point arithmetic on fractional values.

// maxExponent bounds the exponent a number may be written with (1e999999999
// is read, 1e1000000000 is not), so that no comparison ever meets an
// exponent it cannot hold; such numbers are far outside float64 either way.
const maxExponent = 999_999_999

// decimal is a JSON number read exactly: (-1)^neg × 0.digits × 10^exp,
// digits without leading or trailing zeros ("" for zero, which is never
// negative).
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// parseDecimal reads a JSON number (RFC 8259 grammar); false for any other
// text, and for an exponent beyond ±maxExponent.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	intPart, s := leadingDigits(s)
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return decimal{}, false
	}
	var frac string
	if strings.HasPrefix(s, ".") {
		if frac, s = leadingDigits(s[1:]); frac == "" {
			return decimal{}, false
		}
	}
	var exp int64
	if s != "" {
		if s[0] != 'e' && s[0] != 'E' {
			return decimal{}, false
		}
		s = s[1:]
		negExp := strings.HasPrefix(s, "-")
		if negExp || strings.HasPrefix(s, "+") {
			s = s[1:]
		}
		digits, rest := leadingDigits(s)
		e, err := strconv.ParseInt(digits, 10, 64)
		if digits == "" || rest != "" || err != nil || e > maxExponent {
			return decimal{}, false
		}
		exp = e
		if negExp {
			exp = -e
		}
	}
	all := intPart + frac
	trimmed := strings.TrimLeft(all, "0")
	d.exp = exp + int64(len(intPart)) - int64(len(all)-len(trimmed))
	d.digits = strings.TrimRight(trimmed, "0")
	if d.digits == "" {
		return decimal{}, true // zero, whatever its sign or exponent
	}
	return d, true
}

// leadingDigits splits s after its leading ASCII digits.
func leadingDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// compare compares d with e: -1, 0 or +1.
func (d decimal) compare(e decimal) int {
	switch {
	case d.sign() != e.sign():
		return cmp.Compare(d.sign(), e.sign())
	case d.digits == "":
		return 0 // both zero
	}
	c := cmp.Compare(d.exp, e.exp)
	if c == 0 {
		// Same magnitude: the digit strings compare as the fractions
		// 0.d1d2… do (no trailing zeros, so a prefix is the smaller).
		c = strings.Compare(d.digits, e.digits)
	}
	if d.neg {
		return -c
	}
	return c
}

func (d decimal) sign() int64 {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// CompareNumbers compares two JSON numbers exactly: -1 when a < b, 0 when
// they are equal (1, 1.0 and 1e0 are), +1 when a > b. ok is false when
// either is not a JSON number or has an exponent beyond ±999999999.
func CompareNumbers(a, b json.Number) (c int, ok bool) {
	da, okA := parseDecimal(string(a))
	db, okB := parseDecimal(string(b))
	if !okA || !okB {
		return 0, false
	}
	return da.compare(db), true
}

// Errors of ParseWhole.
var (
	ErrNotNumber = errors.New("not a JSON number with an exponent within ±999999999")
	ErrFraction  = errors.New("not a whole number")
	ErrRange     = errors.New("outside the 64-bit integer range")
)

// ParseWhole returns the JSON number x as an int64 when it is a whole
// number: 100, 1e2, 100.0 and 10000e-2 are all 100, and -0 is 0. It returns
// ErrFraction for a number with a fractional part (however small:
// 2147483647.0000000001 is one), ErrRange for a whole number outside
// int64, and ErrNotNumber for text that is not a JSON number. Plain integer
// form is strconv.FormatInt of the result.
func ParseWhole(x json.Number) (int64, error) {
	d, ok := parseDecimal(string(x))
	switch {
	case !ok:
		return 0, ErrNotNumber
	case d.digits == "":
		return 0, nil
	case d.exp < int64(len(d.digits)):
		return 0, ErrFraction
	case d.exp > 19: // |x| ≥ 10^19 > 2^63
		return 0, ErrRange
	}
	text := d.digits + strings.Repeat("0", int(d.exp)-len(d.digits))
	if d.neg {
		text = "-" + text
	}
	i, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, ErrRange
	}
	return i, nil
}

// IntegerWidth is the range of an Integer node's values: its format's
// (int32 or int64), else int64's, the width of the generated Go client's
// field (the format Name is then "").
func IntegerWidth(s *Schema) Format {
	if f, ok := LookupFormat(s.Format); ok && f.Kind == Integer {
		return f
	}
	return Format{Kind: Integer, Means: "a 64-bit integer", Min: math.MinInt64, Max: math.MaxInt64}
}

// Finite reports whether x is a JSON number float64 can hold (an
// exponent within ±999999999, a magnitude up to math.MaxFloat64; a tiny
// one such as 1e-400 rounds to zero), the numbers the registry stores.
func Finite(x json.Number) bool {
	if _, ok := parseDecimal(string(x)); !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(x), 64)
	return err == nil && !math.IsInf(f, 0)
}
