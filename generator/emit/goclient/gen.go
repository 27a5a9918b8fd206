package goclient

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/udtc/udtc/generator/model"
)

// loc is where a value sits: a path expression plus the property name
// appended to it ("" for a map value or array item whose path is complete).
type loc struct {
	path jen.Code
	name string
	// ptr is set when the value is a scalar field's pointer: checks are
	// then guarded by "ptr == nil ||" and need no if statement.
	ptr *jen.Statement
}

// full is the expression of the whole path.
func (l loc) full(p *pkgPlan) jen.Code {
	if l.name == "" {
		return l.path
	}
	return p.rt("Join").Call(l.path, jen.Lit(l.name))
}

// check is `v.Check(cond, path, name, msg)`.
func (l loc) check(cond jen.Code, msg string) jen.Code {
	if l.ptr != nil {
		cond = l.ptr.Clone().Op("==").Nil().Op("||").Add(cond)
	}
	return jen.Id("v").Dot("Check").Call(cond, l.path, jen.Lit(l.name), jen.Lit(msg))
}

// missing is `v.Missing(path, name)`.
func (l loc) missing() jen.Code {
	return jen.Id("v").Dot("Missing").Call(l.path, jen.Lit(l.name))
}

func isTime(s *model.Schema) bool {
	return s.Kind == model.String && s.Format == "date-time" && len(s.Enum) == 0
}

// isNilable reports kinds whose Go type is nil-able without a pointer.
func isNilable(s *model.Schema) bool {
	return s.Kind == model.Map || s.Kind == model.Array || s.Kind == model.Any
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

// needs reports whether Validate has anything to check at or below s.
func (p *pkgPlan) needs(s *model.Schema) bool {
	if r, ok := p.needMemo[s]; ok {
		return r
	}
	p.needMemo[s] = false // schemas are trees; this only guards against bugs
	r := len(s.Enum) > 0
	switch s.Kind {
	case model.String:
		if s.Reference != nil {
			// Parsing the ID on unmarshal is the check.
			r = false
			break
		}
		r = r || !isTime(s) && (s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" && p.pattern(s).ok)
	case model.Integer, model.Number:
		r = r || s.Minimum != nil || s.Maximum != nil || s.MultipleOf != nil
	case model.Object:
		for _, prop := range s.Properties {
			if prop.Required || p.needs(prop.Schema) {
				r = true
			}
		}
	case model.Map:
		r = r || s.MinProperties != nil || s.MaxProperties != nil || p.needs(s.AdditionalProperties)
	case model.Array:
		r = r || s.MinItems != nil || s.MaxItems != nil || s.UniqueItems || p.needs(s.Items)
	}
	p.needMemo[s] = r
	return r
}

// fieldChecks appends the checks of one struct field.
func (p *pkgPlan) fieldChecks(g *jen.Group, f *fieldPlan) {
	s := f.prop.Schema
	x := jen.Id("o").Dot(f.name)
	l := loc{path: jen.Id("path"), name: f.prop.Name}
	// Patterns Go cannot compile, here or in the items and values below
	// (nested objects note their own).
	model.Walk(s, func(n *model.Schema) bool {
		if n.Pattern != "" && !p.pattern(n).ok {
			g.Comment(fmt.Sprintf("// %s: the pattern %q is not supported by Go's regexp package; not checked.", f.prop.Name, n.Pattern))
		}
		return n == s || n.Kind != model.Object
	})
	present := x.Clone().Op("!=").Nil()
	if !isNilable(s) && s.Kind != model.Object {
		// A scalar: one guarded line per check.
		if f.prop.Required {
			g.Id("v").Dot("Required").Call(present, l.path, jen.Lit(l.name))
		}
		lp := l
		lp.ptr = x
		for _, c := range p.valueChecks(s, jen.Op("*").Add(x.Clone()), lp, 0) {
			g.Add(c)
		}
		return
	}
	var body []jen.Code
	if isNilable(s) {
		body = p.valueChecks(s, x, l, 0)
	} else if p.needs(s) {
		body = []jen.Code{x.Clone().Dot("validate").Call(jen.Id("v"), l.full(p))}
	}
	switch {
	case f.prop.Required && len(body) == 0:
		g.Id("v").Dot("Required").Call(present, l.path, jen.Lit(l.name))
	case f.prop.Required:
		g.If(x.Clone().Op("==").Nil()).Block(l.missing()).Else().Block(body...)
	case len(body) > 0:
		g.If(present).Block(body...)
	}
}

// valueChecks returns the checks of a non-pointer value x of s at l.
func (p *pkgPlan) valueChecks(s *model.Schema, x *jen.Statement, l loc, depth int) []jen.Code {
	if !p.needs(s) {
		return nil
	}
	var out []jen.Code
	check := func(cond jen.Code, msg string) { out = append(out, l.check(cond, msg)) }
	recv := x
	if l.ptr != nil {
		recv = l.ptr
	}
	if e := p.enumOf[s]; e != nil {
		check(recv.Clone().Dot("IsValid").Call(), "must be one of "+enumList(s))
	} else if len(s.Enum) > 0 {
		vals := make([]jen.Code, len(s.Enum))
		for i, v := range s.Enum {
			if v.Kind == model.Boolean {
				vals[i] = jen.Lit(v.Bool)
			} else {
				vals[i] = jen.Op(numberText(v.Num))
			}
		}
		check(jen.Qual("slices", "Contains").Call(jen.Index().Add(p.goType(s)).Values(vals...), x), "must be one of "+enumList(s))
	}
	switch s.Kind {
	case model.String:
		if isTime(s) {
			break
		}
		str := jen.Op("&").Add(x.Clone())
		if l.ptr != nil {
			str = l.ptr.Clone()
		}
		if p.enumOf[s] != nil {
			str = jen.Parens(jen.Op("*").String()).Call(str)
		}
		lo, hi := jen.Lit(-1), jen.Lit(-1)
		if s.MinLength != nil {
			lo = jen.Lit(int(*s.MinLength))
		}
		if s.MaxLength != nil {
			hi = jen.Lit(int(*s.MaxLength))
		}
		// A pattern Go cannot compile is noted by fieldChecks instead.
		re := jen.Nil()
		if s.Pattern != "" && p.pattern(s).ok {
			re = jen.Id(p.pattern(s).varName)
		}
		if s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" && p.pattern(s).ok {
			out = append(out, jen.Id("v").Dot("String").Call(str, l.path, jen.Lit(l.name), lo, hi, re))
		}
	case model.Integer, model.Number:
		if s.Minimum != nil {
			op, word := ">=", "must be >= "
			if s.ExclusiveMinimum {
				op, word = ">", "must be > "
			}
			check(p.compare(s, x, op, *s.Minimum), word+s.Minimum.String())
		}
		if s.Maximum != nil {
			op, word := "<=", "must be <= "
			if s.ExclusiveMaximum {
				op, word = "<", "must be < "
			}
			check(p.compare(s, x, op, *s.Maximum), word+s.Maximum.String())
		}
		if s.MultipleOf != nil {
			m := *s.MultipleOf
			if n, ok := fitsInt(s, m); ok {
				check(x.Clone().Op("%").Op(n).Op("==").Lit(0), "must be a multiple of "+m.String())
			} else {
				v := x.Clone()
				if s.Kind == model.Integer {
					v = jen.Float64().Call(x.Clone())
				}
				check(p.rt("MultipleOf").Call(v, jen.Op(numberText(m))), "must be a multiple of "+m.String())
			}
		}
	case model.Object:
		out = append(out, x.Clone().Dot("validate").Call(jen.Id("v"), l.full(p)))
	case model.Map:
		count(s.MinProperties, ">=", "must have at least %d entries")(check, x)
		count(s.MaxProperties, "<=", "must have at most %d entries")(check, x)
		if p.needs(s.AdditionalProperties) {
			k, e, pv := fmt.Sprintf("k%d", depth), fmt.Sprintf("e%d", depth), fmt.Sprintf("p%d", depth)
			body := []jen.Code{
				jen.Id(e).Op(":=").Add(x.Clone()).Index(jen.Id(k)),
				jen.Id(pv).Op(":=").Add(p.rt("Key")).Call(l.full(p), jen.Id(k)),
			}
			body = append(body, p.valueChecks(s.AdditionalProperties, jen.Id(e), loc{path: jen.Id(pv)}, depth+1)...)
			out = append(out, jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Add(p.rt("SortedKeys")).Call(x.Clone())).Block(body...))
		}
	case model.Array:
		count(s.MinItems, ">=", "must have at least %d items")(check, x)
		count(s.MaxItems, "<=", "must have at most %d items")(check, x)
		if s.UniqueItems {
			fn := "UniqueJSON"
			switch s.Items.Kind {
			case model.String, model.Integer, model.Number, model.Boolean:
				// time.Time and ResourceID are not comparable (or not by value).
				if !isTime(s.Items) && s.Items.Reference == nil {
					fn = "UniqueItems"
				}
			}
			check(p.rt(fn).Call(x.Clone()), "must not contain duplicate items")
		}
		if p.needs(s.Items) {
			i, e, pv := fmt.Sprintf("i%d", depth), fmt.Sprintf("e%d", depth), fmt.Sprintf("p%d", depth)
			body := []jen.Code{jen.Id(pv).Op(":=").Add(p.rt("Index")).Call(l.full(p), jen.Id(i))}
			body = append(body, p.valueChecks(s.Items, jen.Id(e), loc{path: jen.Id(pv)}, depth+1)...)
			out = append(out, jen.For(jen.List(jen.Id(i), jen.Id(e)).Op(":=").Range().Add(x.Clone())).Block(body...))
		}
	}
	return out
}

// count returns a function adding `len(x) op n` when n is set.
func count(n *int64, op, msg string) func(func(jen.Code, string), *jen.Statement) {
	return func(check func(jen.Code, string), x *jen.Statement) {
		if n != nil {
			check(jen.Len(x.Clone()).Op(op).Lit(int(*n)), fmt.Sprintf(msg, *n))
		}
	}
}

// compare is `x op bound`, converting x to float64 when the bound does not
// fit x's integer type.
func (p *pkgPlan) compare(s *model.Schema, x *jen.Statement, op string, bound json.Number) jen.Code {
	if s.Kind == model.Integer {
		if n, ok := fitsInt(s, bound); ok {
			return x.Clone().Op(op).Op(n)
		}
		return jen.Float64().Call(x.Clone()).Op(op).Op(numberText(bound))
	}
	return x.Clone().Op(op).Op(numberText(bound))
}

// fitsInt returns n as an integer literal when s is an integer schema and n
// is an integer within the range of its Go type.
func fitsInt(s *model.Schema, n json.Number) (string, bool) {
	if s.Kind != model.Integer {
		return "", false
	}
	r, ok := new(big.Rat).SetString(n.String())
	if !ok || !r.IsInt() {
		return "", false
	}
	lo, hi := big.NewInt(math.MinInt64), big.NewInt(math.MaxInt64)
	if s.Format == "int32" {
		lo, hi = big.NewInt(math.MinInt32), big.NewInt(math.MaxInt32)
	}
	v := r.Num()
	if v.Cmp(lo) < 0 || v.Cmp(hi) > 0 {
		return "", false
	}
	return v.String(), true
}

// numberText is a JSON number as a Go constant; JSON numbers are valid Go
// untyped constants except for a leading "+", which JSON does not allow.
func numberText(n json.Number) string {
	s := n.String()
	if s == "" {
		return "0"
	}
	return strings.TrimPrefix(s, "+")
}
