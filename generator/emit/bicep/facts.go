package bicep

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"

	"github.com/udtc/udtc/generator/model"
)

// Fact is one constraint or property of a schema node, in words.
type Fact struct {
	// Text is a short sentence, e.g. "Defaults to 'M'." or "Must be greater than 0.".
	Text string
	// Bicep reports whether the Bicep type the emitter builds for the node
	// already expresses the fact (a string pattern, integer bounds, an
	// enum of strings). Facts it cannot express are appended to the
	// property description in types.json.
	Bicep bool
	// Mapping reports a fact about how Bicep sees the node rather than
	// about the schema ("Type: number (Bicep has no floating-point
	// type)."); documentation of the schema itself leaves it out.
	Mapping bool
}

// maxSafe is Number.MAX_SAFE_INTEGER: JavaScript tools (and the reference
// library) read types.json as doubles, so larger bounds cannot round-trip.
const maxSafe = 1<<53 - 1

func safe(v int64) bool { return v >= -maxSafe && v <= maxSafe }

// Facts returns everything the schema node s says besides its kind, title,
// description, flags (read-only, write-only, sensitive) and children, in a
// fixed order: the sentences of model.Constraints (values as Bicep
// literals; the example is left out), then deprecation. The docs emitter
// shows all of them; the Bicep emitter appends the ones whose Bicep field
// is false to the description.
func Facts(s *model.Schema) []Fact {
	var fs []Fact
	if s.Kind == model.Number {
		fs = append(fs, Fact{Text: "Type: number (Bicep has no floating-point type).", Mapping: true})
	}
	lo, hi := integerBounds(s)
	for _, c := range model.Constraints(s, literal) {
		if c.Keywords[0] == "example" {
			continue
		}
		bicep := true
		for _, k := range c.Keywords {
			bicep = bicep && expresses(s, k, lo, hi)
		}
		fs = append(fs, Fact{Text: c.Text, Bicep: bicep})
	}
	if s.Deprecated {
		fs = append(fs, Fact{Text: "Deprecated."})
	}
	return fs
}

// expresses reports whether the Bicep type built for s (integer bounds lo
// and hi) already carries the schema keyword.
func expresses(s *model.Schema, keyword string, lo, hi *int64) bool {
	switch keyword {
	case "format":
		return s.Kind == model.Integer && s.Format == "int32"
	case "enum":
		return s.Kind == model.String
	case "minLength":
		return s.Kind == model.String && safe(*s.MinLength)
	case "maxLength":
		return s.Kind == model.String && safe(*s.MaxLength)
	case "pattern":
		return s.Kind == model.String
	case "minimum", "exclusiveMinimum":
		return s.Kind == model.Integer && lo != nil
	case "maximum", "exclusiveMaximum":
		return s.Kind == model.Integer && hi != nil
	case "minItems":
		return safe(*s.MinItems)
	case "maxItems":
		return safe(*s.MaxItems)
	}
	return false // multipleOf, uniqueItems, property counts, nullable, default
}

// literal writes a schema literal as Bicep would: strings in single
// quotes, everything else as JSON.
func literal(v model.Value) string {
	if v.Kind == model.String {
		return "'" + strings.ReplaceAll(v.Str, "'", `\'`) + "'"
	}
	return string(v.JSON)
}

// integerBounds returns the IntegerType minValue and maxValue for an
// integer node: exclusive bounds move by one, an enum narrows the range to
// its smallest and largest member, format int32 to the int32 range. A
// bound JavaScript cannot hold exactly is nil (and stays in words).
func integerBounds(s *model.Schema) (lo, hi *int64) {
	if s.Kind != model.Integer {
		return nil, nil
	}
	var min, max *big.Int
	if s.Minimum != nil {
		if r, ok := rat(*s.Minimum); ok {
			min = ceil(r)
			if s.ExclusiveMinimum && r.IsInt() {
				min.Add(min, big.NewInt(1))
			}
		}
	}
	if s.Maximum != nil {
		if r, ok := rat(*s.Maximum); ok {
			max = floor(r)
			if s.ExclusiveMaximum && r.IsInt() {
				max.Sub(max, big.NewInt(1))
			}
		}
	}
	narrow := func(l, h *big.Int) {
		if min == nil || l.Cmp(min) > 0 {
			min = l
		}
		if max == nil || h.Cmp(max) < 0 {
			max = h
		}
	}
	if s.Format == "int32" {
		narrow(big.NewInt(-1<<31), big.NewInt(1<<31-1))
	}
	if len(s.Enum) > 0 {
		var l, h *big.Int
		for _, v := range s.Enum {
			r, ok := rat(v.Num)
			if !ok || !r.IsInt() {
				continue
			}
			n := r.Num()
			if l == nil || n.Cmp(l) < 0 {
				l = n
			}
			if h == nil || n.Cmp(h) > 0 {
				h = n
			}
		}
		if l != nil {
			narrow(l, h)
		}
	}
	return safeInt(min), safeInt(max)
}

func safeInt(b *big.Int) *int64 {
	if b == nil || !b.IsInt64() || !safe(b.Int64()) {
		return nil
	}
	v := b.Int64()
	return &v
}

func rat(n json.Number) (*big.Rat, bool) {
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return new(big.Rat).SetInt64(i), true // most bounds: no decimal scan
	}
	return new(big.Rat).SetString(string(n))
}

func floor(r *big.Rat) *big.Int {
	q, m := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	_ = m // DivMod is Euclidean: with a positive denominator q is the floor.
	return q
}

func ceil(r *big.Rat) *big.Int {
	q := floor(r)
	if !r.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// describe joins a description with the facts Bicep cannot express,
// including those of array items and map values, which have no
// description of their own in types.json.
func describe(s *model.Schema) string {
	text := s.Description
	if text == "" {
		text = s.Title
	}
	var extra []string
	for _, f := range Facts(s) {
		if !f.Bicep {
			extra = append(extra, f.Text)
		}
	}
	if s.Kind == model.Array {
		if d := describe(s.Items); d != "" {
			extra = append(extra, "Each item: "+d)
		}
	}
	if s.Kind == model.Map && s.AdditionalProperties != nil {
		if d := describe(s.AdditionalProperties); d != "" {
			extra = append(extra, "Each value: "+d)
		}
	}
	return joinSentences(text, strings.Join(extra, " "))
}

// joinSentences appends b to a as a new sentence (or paragraph, when a
// spans several lines).
func joinSentences(a, b string) string {
	a = strings.TrimRight(a, " \t\n")
	switch {
	case b == "":
		return a
	case a == "":
		return b
	case strings.Contains(a, "\n"):
		return a + "\n\n" + b
	case strings.HasSuffix(a, ".") || strings.HasSuffix(a, "!") || strings.HasSuffix(a, "?") || strings.HasSuffix(a, ":"):
		return a + " " + b
	default:
		return a + ". " + b
	}
}
