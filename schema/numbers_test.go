package schema_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/udtc/udtc/schema"
)

func TestCompareNumbers(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"100.00000000000000001", "100", 1},
		{"-1e-400", "0", -1},
		{"1e-400", "0", 1},
		{"-0", "0", 0},
		{"-0.0e5", "0", 0},
		{"1e2", "100", 0},
		{"1.0", "1", 0},
		{"10000e-2", "100", 0},
		{"0.05", "5e-2", 0},
		{"2147483647.0000000001", "2147483647", 1},
		{"-2147483648.0000000001", "-2147483648", -1},
		{"12", "123", -1},
		{"-12", "-123", 1},
		{"0.5", "0.49999999999999999999", 1},
		{"9007199254740993", "9007199254740992", 1}, // one float64 apart from equal
		{"1e999999999", "1e999999998", 1},
		{"-1e-999999999", "-1e-999999998", 1},
	} {
		got, ok := schema.CompareNumbers(json.Number(c.a), json.Number(c.b))
		if !ok || got != c.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, %t; want %d", c.a, c.b, got, ok, c.want)
		}
		if back, _ := schema.CompareNumbers(json.Number(c.b), json.Number(c.a)); back != -c.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, want %d", c.b, c.a, back, -c.want)
		}
	}
	for _, bad := range []string{"", "-", "01", "1.", ".5", "+1", "1e", "1e+", "1e++5", "0x10", "1_000", "NaN", "Infinity", "1e1000000000", "1 ", "--1", "1.5.5", "1e5e5"} {
		if _, ok := schema.CompareNumbers(json.Number(bad), "0"); ok {
			t.Errorf("CompareNumbers(%q, 0) read it as a number", bad)
		}
	}
}

func TestParseWhole(t *testing.T) {
	for _, c := range []struct {
		x    string
		want int64
		err  error
	}{
		{"100", 100, nil},
		{"1e2", 100, nil},
		{"1.0", 1, nil},
		{"100.000", 100, nil},
		{"10000e-2", 100, nil},
		{"-0", 0, nil},
		{"0e-5", 0, nil},
		{"-9223372036854775808", math.MinInt64, nil},
		{"9223372036854775807", math.MaxInt64, nil},
		{"9.223372036854775807e18", math.MaxInt64, nil},
		{"9223372036854775808", 0, schema.ErrRange},
		{"-9223372036854775809", 0, schema.ErrRange},
		{"1e19", 0, schema.ErrRange},
		{"1e300", 0, schema.ErrRange},
		{"2147483647.0000000001", 0, schema.ErrFraction},
		{"1.5", 0, schema.ErrFraction},
		{"1e-400", 0, schema.ErrFraction},
		{"1e1000000000", 0, schema.ErrNotNumber},
		{"1.", 0, schema.ErrNotNumber},
	} {
		got, err := schema.ParseWhole(json.Number(c.x))
		if got != c.want || !errors.Is(err, c.err) {
			t.Errorf("ParseWhole(%s) = %d, %v; want %d, %v", c.x, got, err, c.want, c.err)
		}
	}
}

func TestBoundsAreExact(t *testing.T) {
	n := func(s string) *json.Number { v := json.Number(s); return &v }
	s := &schema.Schema{Kind: schema.Number, Minimum: n("0"), Maximum: n("100")}
	for x, want := range map[string][2]bool{
		"-1e-400": {true, false}, "0": {false, false}, "100": {false, false},
		"100.00000000000000001": {false, true}, "1e2": {false, false}, "-0": {false, false},
	} {
		if below, above := schema.BelowMinimum(s, json.Number(x)), schema.AboveMaximum(s, json.Number(x)); below != want[0] || above != want[1] {
			t.Errorf("%s: below, above = %t, %t; want %t, %t", x, below, above, want[0], want[1])
		}
	}
	s.ExclusiveMinimum, s.ExclusiveMaximum = true, true
	if !schema.BelowMinimum(s, "0.0") || !schema.AboveMaximum(s, "1e2") || schema.AboveMaximum(s, "99.99999999999999999") {
		t.Error("exclusive bounds are not exact")
	}
}

func TestNumberInEnum(t *testing.T) {
	s := &schema.Schema{Kind: schema.Number, Enum: []schema.Value{{Kind: schema.Number, Num: "2.5"}, {Kind: schema.Integer, Num: "3"}}}
	for x, want := range map[string]bool{"2.5": true, "2.50": true, "25e-1": true, "3.0": true, "2.5000000000000000001": false, "4": false} {
		if got := schema.NumberInEnum(s, json.Number(x)); got != want {
			t.Errorf("NumberInEnum(%s) = %t, want %t", x, got, want)
		}
	}
	if !schema.NumberInEnum(&schema.Schema{Kind: schema.Number}, "1") {
		t.Error("a number is outside an absent enum")
	}
}

func TestIntegerWidth(t *testing.T) {
	for format, want := range map[string][2]int64{
		"int32": {math.MinInt32, math.MaxInt32}, "int64": {math.MinInt64, math.MaxInt64},
		"": {math.MinInt64, math.MaxInt64}, "uuid": {math.MinInt64, math.MaxInt64},
	} {
		if w := schema.IntegerWidth(&schema.Schema{Kind: schema.Integer, Format: format}); w.Min != want[0] || w.Max != want[1] {
			t.Errorf("IntegerWidth(%q) = %d..%d", format, w.Min, w.Max)
		}
	}
}

// FuzzCompareNumbers holds CompareNumbers and ParseWhole to math/big on
// JSON numbers with modest exponents, and to antisymmetry on any text.
func FuzzCompareNumbers(f *testing.F) {
	for _, seed := range [][2]string{
		{"100.00000000000000001", "100"}, {"-1e-400", "0"}, {"1e2", "100"}, {"2147483647.0000000001", "2147483647"},
		{"-0", "0.0"}, {"0.30000000000000004", "0.3"}, {"9223372036854775807", "9.223372036854775807e18"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		c, ok := schema.CompareNumbers(json.Number(a), json.Number(b))
		back, okBack := schema.CompareNumbers(json.Number(b), json.Number(a))
		if ok != okBack || c != -back {
			t.Fatalf("CompareNumbers(%q, %q) = %d, %t but reversed %d, %t", a, b, c, ok, back, okBack)
		}
		ra, okA := exactly(a)
		rb, okB := exactly(b)
		if okA && okB {
			if !ok || c != ra.Cmp(rb) {
				t.Fatalf("CompareNumbers(%q, %q) = %d, %t; math/big says %d", a, b, c, ok, ra.Cmp(rb))
			}
		}
		if !okA {
			return
		}
		i, err := schema.ParseWhole(json.Number(a))
		switch {
		case !ra.IsInt():
			if !errors.Is(err, schema.ErrFraction) {
				t.Fatalf("ParseWhole(%q) = %d, %v; want ErrFraction", a, i, err)
			}
		case ra.Num().IsInt64():
			if err != nil || i != ra.Num().Int64() {
				t.Fatalf("ParseWhole(%q) = %d, %v; want %s", a, i, err, ra.Num())
			}
		default:
			if !errors.Is(err, schema.ErrRange) {
				t.Fatalf("ParseWhole(%q) = %d, %v; want ErrRange", a, i, err)
			}
		}
	})
}

// exactly reads s with math/big when it is a JSON number whose exponent
// lies within ±400 (math/big would expand larger ones).
func exactly(s string) (*big.Rat, bool) {
	if len(s) > 200 || !json.Valid([]byte(s)) || s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil || e > 400 || e < -400 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}
