package example

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/udtc/udtc/schema"
)

// scalar is the example of a string, number or boolean node: the first
// candidate that satisfies s, else the first candidate with a Need.
func (g *generator) scalar(s *schema.Schema, path string, variant int) Value {
	if s.Reference != nil {
		return g.reference(s, path)
	}
	if lo, _ := lengthBounds(s); lo > maxLength && len(s.Enum) == 0 {
		return Value{Literal: json.RawMessage(`"example"`), Note: g.need(path, fmt.Sprintf("a value of at least %d characters", lo))}
	}
	cands := g.candidates(s, variant)
	for _, c := range cands {
		if g.ok(s, c) {
			v := Value{Literal: c}
			if s.Sensitive {
				v.Note = sensitiveNote
			}
			return v
		}
	}
	what := "a value that satisfies: " + constraintText(s)
	if s.Pattern != "" {
		what = "a value matching " + s.Pattern
	}
	first := json.RawMessage(`"example"`)
	if len(cands) > 0 {
		first = cands[0]
	}
	return Value{Literal: first, Note: g.need(path, what)}
}

// reference is the ID of the example of the first type a reference names.
func (g *generator) reference(s *schema.Schema, path string) Value {
	target, note := genericTarget, "the ID of any resource"
	if len(s.Reference.Types) > 0 {
		target, note = s.Reference.Types[0], ""
		g.refer(target)
	}
	id := IDOfType(target)
	v := Value{Literal: quote(id), Note: note}
	if !g.ok(s, v.Literal) {
		v.Note = g.need(path, "the ID of a resource of "+target+" that satisfies: "+constraintText(s))
	}
	if s.Sensitive {
		v.Note = strings.TrimPrefix(v.Note+"; "+sensitiveNote, "; ")
	}
	return v
}

// candidates are the literals tried for s, best first.
func (g *generator) candidates(s *schema.Schema, variant int) []json.RawMessage {
	var out []json.RawMessage
	if len(s.Enum) > 0 {
		return []json.RawMessage{s.Enum[variant%len(s.Enum)].JSON}
	}
	if variant == 0 {
		for _, v := range []*schema.Value{s.Example, s.Default} {
			if v != nil && v.Kind == s.Kind {
				out = append(out, v.JSON)
			}
		}
	}
	switch s.Kind {
	case schema.String:
		for _, str := range g.stringCandidates(s, variant) {
			out = append(out, quote(str))
		}
	case schema.Integer, schema.Number:
		out = append(out, numbers(s, variant)...)
	case schema.Boolean:
		out = append(out, json.RawMessage([]string{"false", "true"}[variant%2]))
	}
	return out
}

// stringCandidates are the string candidates of s: a format's sample, a sample of
// its pattern, then "example" fitted to its lengths.
func (g *generator) stringCandidates(s *schema.Schema, variant int) []string {
	var out []string
	suffix := ""
	if variant > 0 {
		suffix = itoa(int64(variant + 1))
	}
	if f, ok := schema.LookupFormat(s.Format); ok && f.Sample != "" {
		out = append(out, variantOf(f, variant))
	}
	if s.Pattern != "" {
		lo, hi := lengthBounds(s)
		if p, ok := g.m.sample(s.Pattern, lo, hi, variant); ok {
			out = append(out, p)
		}
	}
	base := "example"
	if s.Sensitive {
		base = "example-secret-value"
	}
	return append(out, fit(base+suffix, s))
}

// variantOf is the sample of format f, different for each variant where
// the format allows a simple change.
func variantOf(f schema.Format, variant int) string {
	if variant == 0 {
		return f.Sample
	}
	n := itoa(int64(variant + 1))
	switch {
	case strings.HasPrefix(f.Sample, "https://"):
		return f.Sample + n
	case strings.Contains(f.Sample, "@"):
		return "someone" + n + "@example.com"
	case f.Sample == "example.com":
		return "host" + n + ".example.com"
	}
	return f.Sample // the check then finds the duplicate a need
}

// fit pads base with "-example" to s's minLength and cuts it to its
// maxLength.
func fit(base string, s *schema.Schema) string {
	lo, hi := lengthBounds(s)
	r := []rune(base)
	for int64(len(r)) < lo {
		r = append(r, []rune("-example")...)
	}
	if hi >= 0 && int64(len(r)) > hi {
		r = r[:hi]
	}
	return string(r)
}

// lengthBounds are s's minLength (0 when unset) and maxLength (-1 when
// unset).
func lengthBounds(s *schema.Schema) (lo, hi int64) {
	lo, hi = 0, -1
	if s.MinLength != nil {
		lo = *s.MinLength
	}
	if s.MaxLength != nil {
		hi = *s.MaxLength
	}
	return lo, hi
}

// numbers are the number candidates of s: the least multiples of
// multipleOf at or above the lower bound (or 0), then the bounds.
func numbers(s *schema.Schema, variant int) []json.RawMessage {
	lo, hi := math.Inf(-1), math.Inf(1)
	if s.Minimum != nil {
		lo, _ = s.Minimum.Float64()
	}
	if s.Maximum != nil {
		hi, _ = s.Maximum.Float64()
	}
	if s.Kind == schema.Integer {
		w := schema.IntegerWidth(s)
		lo, hi = math.Max(lo, float64(w.Min)), math.Min(hi, float64(w.Max))
	}
	start := min(max(0, lo), hi) // 0 when the bounds allow it, else the nearer bound
	step, decimals := 1.0, 0
	if s.MultipleOf != nil {
		step, _ = s.MultipleOf.Float64()
		decimals = decimalsOf(string(*s.MultipleOf))
	} else if s.Kind == schema.Number && s.ExclusiveMinimum {
		step, decimals = 0.5, 1
	}
	if s.Kind == schema.Integer {
		decimals = 0
	}
	k := math.Ceil(start / step)
	var out []json.RawMessage
	for i := 0; i < 4; i++ {
		out = append(out, number(step*(k+float64(variant+i)), decimals))
	}
	if !math.IsInf(hi, 0) {
		out = append(out, number(step*math.Floor(hi/step), decimals))
	}
	return out
}

// decimalsOf is the number of digits after the point in the number text n
// (without an exponent); 15 when it has an exponent.
func decimalsOf(n string) int {
	if strings.ContainsAny(n, "eE") {
		return 15
	}
	if _, frac, ok := strings.Cut(n, "."); ok {
		return len(frac)
	}
	return 0
}

// number writes x with at most decimals digits after the point, without
// trailing zeros.
func number(x float64, decimals int) json.RawMessage {
	t := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Contains(t, ".") {
		t = strings.TrimRight(strings.TrimRight(t, "0"), ".")
	}
	if t == "-0" {
		t = "0"
	}
	return json.RawMessage(t)
}

// ok reports whether the literal c satisfies s's own constraints (those
// admission checks on a scalar).
func (g *generator) ok(s *schema.Schema, c json.RawMessage) bool {
	var v any
	d := json.NewDecoder(strings.NewReader(string(c)))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return false
	}
	switch x := v.(type) {
	case string:
		return s.Kind == schema.String && g.stringOK(s, x)
	case json.Number:
		return numberOK(s, x)
	case bool:
		return s.Kind == schema.Boolean
	}
	return false
}

func (g *generator) stringOK(s *schema.Schema, x string) bool {
	lo, hi := lengthBounds(s)
	if n := schema.Length(x); n < lo || hi >= 0 && n > hi {
		return false
	}
	if f, ok := schema.LookupFormat(s.Format); ok && f.Valid != nil && !f.Valid(x) {
		return false
	}
	if s.Pattern != "" && !g.m.matches(s.Pattern, x) {
		return false
	}
	return len(s.Enum) == 0 || inEnum(s, x)
}

func inEnum(s *schema.Schema, x string) bool {
	for _, e := range s.Enum {
		if e.Str == x {
			return true
		}
	}
	return false
}

func numberOK(s *schema.Schema, x json.Number) bool {
	if !schema.Finite(x) || s.Kind != schema.Integer && s.Kind != schema.Number {
		return false
	}
	if s.Kind == schema.Integer {
		i, err := schema.ParseWhole(x)
		if w := schema.IntegerWidth(s); err != nil || i < w.Min || i > w.Max {
			return false
		}
	}
	if schema.BelowMinimum(s, x) || schema.AboveMaximum(s, x) || !schema.NumberInEnum(s, x) {
		return false
	}
	return s.MultipleOf == nil || schema.MultipleOf(x, *s.MultipleOf)
}

// constraintText is s's constraints as one line of sentences.
func constraintText(s *schema.Schema) string {
	var parts []string
	for _, c := range schema.Constraints(s, nil) {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, " ")
}

func quote(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
