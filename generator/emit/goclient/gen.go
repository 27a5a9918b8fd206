package goclient

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/udtc/udtc/generator/model"
)

func isTime(s *model.Schema) bool {
	return s.Kind == model.String && s.Format == "date-time" && len(s.Enum) == 0
}

// refTarget is the type a reference names when it names exactly one type
// generated in this run; nil for other references (and non-references).
func (p *pkgPlan) refTarget(s *model.Schema) *typeNames {
	if s.Kind != model.String || s.Reference == nil || len(s.Reference.Types) != 1 {
		return nil
	}
	return p.ns.known[strings.ToLower(s.Reference.Types[0])]
}

// goType is the Go type of a value of s (never a pointer). A reference is
// the ID type of its target (a known reference) or ResourceID.
func (p *pkgPlan) goType(s *model.Schema) *jen.Statement {
	if s.Kind == model.String && s.Reference != nil {
		if t := p.refTarget(s); t != nil {
			return jen.Qual(t.ns.ids, t.idName)
		}
		return jen.Id("ResourceID")
	}
	if e := p.enumOf[s]; e != nil {
		return jen.Id(e.name)
	}
	switch s.Kind {
	case model.String:
		if isTime(s) {
			return jen.Qual("time", "Time")
		}
		return jen.String()
	case model.Integer:
		if s.Format == "int32" {
			return jen.Int32()
		}
		return jen.Int64()
	case model.Number:
		return jen.Float64()
	case model.Boolean:
		return jen.Bool()
	case model.Object:
		return jen.Id(p.structOf[s].name)
	case model.Map:
		return jen.Map(jen.String()).Add(p.goType(s.AdditionalProperties))
	case model.Array:
		return jen.Index().Add(p.goType(s.Items))
	}
	return jen.Any()
}

// fieldType is the Go type and JSON tag of a property. Required or not, a
// field is nil when the property is absent: scalars and objects are
// pointers, maps, slices and any are nil. omitzero keeps an explicitly
// empty map or array on a round trip.
func (p *pkgPlan) fieldType(prop *model.Property) (*jen.Statement, string) {
	s := prop.Schema
	switch s.Kind {
	case model.Map, model.Array:
		return p.goType(s), prop.Name + ",omitzero"
	case model.Any:
		return p.goType(s), prop.Name + ",omitempty"
	}
	return jen.Op("*").Add(p.goType(s)), prop.Name + ",omitempty"
}

// fieldKeywords are the keywords of a property's udtc struct tag: what
// Validate checks (udtc.ValidateResource documents them).
func (p *pkgPlan) fieldKeywords(prop *model.Property) []string {
	var kws []string
	if prop.Required {
		kws = append(kws, "required")
	}
	return p.keywords(kws, prop.Schema)
}

// keywords appends to out the checked keywords of a value of s and, after
// "items" or "values", those of its elements. Objects check their own
// fields; references and times are checked when they are parsed; a pattern
// Go cannot run is left out (the go-pattern-unsupported warning and the
// field's comment say so).
func (p *pkgPlan) keywords(out []string, s *model.Schema) []string {
	if s.Kind == model.String && (s.Reference != nil || isTime(s)) {
		return out
	}
	kw := func(k, v string) { out = append(out, k+"="+v) }
	count := func(k string, n *int64) {
		if n != nil {
			kw(k, strconv.FormatInt(*n, 10))
		}
	}
	// elem appends the keywords of the elements after word, or nothing
	// when they have none.
	elem := func(word string, e *model.Schema) {
		n := len(out)
		if out = p.keywords(append(out, word), e); len(out) == n+1 {
			out = out[:n]
		}
	}
	if len(s.Enum) > 0 {
		var b strings.Builder
		b.WriteByte('[')
		for i, v := range s.Enum {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(v.JSON)
		}
		b.WriteByte(']')
		kw("enum", b.String())
	}
	switch s.Kind {
	case model.Integer, model.Number:
		if s.Minimum != nil {
			kw(ifElse(s.ExclusiveMinimum, "exclusiveMinimum", "minimum"), s.Minimum.String())
		}
		if s.Maximum != nil {
			kw(ifElse(s.ExclusiveMaximum, "exclusiveMaximum", "maximum"), s.Maximum.String())
		}
		if s.MultipleOf != nil {
			kw("multipleOf", s.MultipleOf.String())
		}
	case model.String:
		count("minLength", s.MinLength)
		count("maxLength", s.MaxLength)
		if s.Pattern != "" {
			if re := p.pattern(s); re != "" {
				kw("pattern", re) // last: it runs to the end of the tag
			}
		}
	case model.Map:
		count("minProperties", s.MinProperties)
		count("maxProperties", s.MaxProperties)
		elem("values", s.AdditionalProperties)
	case model.Array:
		count("minItems", s.MinItems)
		count("maxItems", s.MaxItems)
		if s.UniqueItems {
			out = append(out, "uniqueItems")
		}
		elem("items", s.Items)
	}
	return out
}

func ifElse(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
