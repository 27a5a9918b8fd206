package schema

import (
	"strconv"
	"strings"
)

// Constraint is one thing a schema node says besides its kind, title,
// description, flags and children, as one sentence.
type Constraint struct {
	// Keywords are the schema keywords the sentence states, e.g.
	// ["minLength", "maxLength"] for "Must be 3 to 24 characters long.".
	Keywords []string
	// Text is one sentence ending in a period.
	Text string
}

// Constraints returns what s requires or declares beyond its kind, one
// sentence each, in a fixed order: reference (x-resource-type), enum,
// lengths, pattern, bounds,
// multipleOf, item or entry counts, uniqueItems, format, nullable, default,
// example; the default is left out when the description already states
// it (saysDefault). It is the one wording of constraints: the Go client's doc
// comments, the Bicep descriptions and the docs pages all show these
// sentences, and each emitter only chooses which to leave out (one its
// target's types already express). lit renders values (enum members, the
// default, the example) in the target's syntax; nil means JSON.
func Constraints(s *Schema, lit func(Value) string) []Constraint {
	if lit == nil {
		lit = func(v Value) string { return string(v.JSON) }
	}
	var out []Constraint
	add := func(keywords []string, text string) {
		out = append(out, Constraint{Keywords: keywords, Text: text})
	}
	if r := s.Reference; r != nil {
		if len(r.Types) == 0 {
			add([]string{"x-resource-type"}, "Resource ID of the referenced resource (any type).")
		} else {
			add([]string{"x-resource-type"}, "Resource ID of the referenced resource (type "+strings.Join(r.Types, " or ")+").")
		}
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = lit(v)
		}
		add([]string{"enum"}, "Allowed values: "+strings.Join(vals, ", ")+".")
	}
	counted(&out, s.MinLength, s.MaxLength, "minLength", "maxLength", "Must be ", " long.", "character")
	if s.Pattern != "" {
		add([]string{"pattern"}, "Must match the regular expression `"+s.Pattern+"`.")
	}
	if s.Minimum != nil {
		if s.ExclusiveMinimum {
			add([]string{"minimum", "exclusiveMinimum"}, "Must be greater than "+string(*s.Minimum)+".")
		} else {
			add([]string{"minimum"}, "Must be at least "+string(*s.Minimum)+".")
		}
	}
	if s.Maximum != nil {
		if s.ExclusiveMaximum {
			add([]string{"maximum", "exclusiveMaximum"}, "Must be less than "+string(*s.Maximum)+".")
		} else {
			add([]string{"maximum"}, "Must be at most "+string(*s.Maximum)+".")
		}
	}
	if s.MultipleOf != nil {
		add([]string{"multipleOf"}, "Must be a multiple of "+string(*s.MultipleOf)+".")
	}
	counted(&out, s.MinItems, s.MaxItems, "minItems", "maxItems", "Must have ", ".", "item")
	counted(&out, s.MinProperties, s.MaxProperties, "minProperties", "maxProperties", "Must have ", ".", "entry")
	if s.UniqueItems {
		add([]string{"uniqueItems"}, "Items must be unique.")
	}
	if s.Format != "" {
		add([]string{"format"}, "Format: "+s.Format+".")
	}
	if s.Nullable {
		add([]string{"nullable"}, "May be null.")
	}
	if s.Default != nil && !saysDefault(s.Description, *s.Default) {
		add([]string{"default"}, "Defaults to "+lit(*s.Default)+".")
	}
	if s.Example != nil {
		add([]string{"example"}, "Example: "+lit(*s.Example)+".")
	}
	return out
}

// saysDefault reports whether a description already states the default v,
// as the Radius manifests do ("Defaults to `S` if not provided."): one of
// its sentences speaks of a default and holds v's text in backticks or
// quotes, or as a whole word (of two characters or more).
func saysDefault(description string, v Value) bool {
	text := v.Str
	if v.Kind != String {
		text = string(v.JSON)
	}
	if text == "" {
		return false
	}
	for _, sentence := range strings.FieldsFunc(description, func(r rune) bool { return r == '\n' }) {
		for _, sentence := range strings.Split(sentence, ". ") {
			if !strings.Contains(strings.ToLower(sentence), "default") {
				continue
			}
			for _, q := range []string{"`" + text + "`", "'" + text + "'", `"` + text + `"`} {
				if strings.Contains(sentence, q) {
					return true
				}
			}
			if len(text) >= 2 && wholeWord(sentence, text) {
				return true
			}
		}
	}
	return false
}

// wholeWord reports whether w occurs in s between characters that are not
// letters, digits, '_' or '-'.
func wholeWord(s, w string) bool {
	word := func(b byte) bool {
		return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' || b == '-'
	}
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(w)
		if (start == 0 || !word(s[start-1])) && (end == len(s) || !word(s[end])) {
			return true
		}
		i = start + 1
	}
}

// counted adds the sentence for a min/max count pair: before, then "3 to
// 24 items", "at least 1 item" or "at most 24 items" (unit is singular),
// then after.
func counted(out *[]Constraint, lo, hi *int64, loName, hiName, before, after, unit string) {
	var n string
	var keywords []string
	last := int64(0)
	switch {
	case lo != nil && hi != nil:
		n, keywords, last = strconv.FormatInt(*lo, 10)+" to "+strconv.FormatInt(*hi, 10), []string{loName, hiName}, *hi
	case lo != nil:
		n, keywords, last = "at least "+strconv.FormatInt(*lo, 10), []string{loName}, *lo
	case hi != nil:
		n, keywords, last = "at most "+strconv.FormatInt(*hi, 10), []string{hiName}, *hi
	default:
		return
	}
	*out = append(*out, Constraint{Keywords: keywords, Text: before + n + " " + plural(last, unit) + after})
}

// plural returns unit for a count of 1 and its plural otherwise.
func plural(n int64, unit string) string {
	switch {
	case n == 1:
		return unit
	case strings.HasSuffix(unit, "y"):
		return strings.TrimSuffix(unit, "y") + "ies"
	}
	return unit + "s"
}
