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
}

// full is the expression of the whole path.
func (l loc) full(p *pkgPlan) jen.Code {
	if l.name == "" {
		return l.path
	}
	return jen.Id("join").Call(l.path, jen.Lit(l.name))
}

// check is `v.check(cond, path, name, msg)`.
func (l loc) check(cond jen.Code, msg string) jen.Code {
	return jen.Id("v").Dot("check").Call(cond, l.path, jen.Lit(l.name), jen.Lit(msg))
}

func isTime(s *model.Schema) bool {
	return s.Kind == model.String && s.Format == "date-time" && len(s.Enum) == 0
}

// isNilable reports kinds whose Go type is nil-able without a pointer.
func isNilable(s *model.Schema) bool {
	return s.Kind == model.Map || s.Kind == model.Array || s.Kind == model.Any
}

// goType is the Go type of a value of s (never a pointer).
func (p *pkgPlan) goType(s *model.Schema) *jen.Statement {
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

// fieldType is the Go type and JSON tag of a property.
func (p *pkgPlan) fieldType(prop *model.Property) (*jen.Statement, string) {
	s := prop.Schema
	switch {
	case prop.Required:
		return p.goType(s), prop.Name
	case s.Kind == model.Map || s.Kind == model.Array:
		// omitzero keeps an explicitly empty map or array on a round trip.
		return p.goType(s), prop.Name + ",omitzero"
	case s.Kind == model.Any:
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
		r = r || !isTime(s) && (s.MinLength != nil || s.MaxLength != nil || s.Pattern != "" && p.pattern(s).ok)
	case model.Integer, model.Number:
		r = r || s.Minimum != nil || s.Maximum != nil || s.MultipleOf != nil
	case model.Object:
		for _, prop := range s.Properties {
			if prop.Required && zeroTest(prop.Schema, jen.Id("x")) != nil || p.needs(prop.Schema) {
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

// zeroTest is the condition under which a required value of s counts as
// missing, or nil when its zero value is a legitimate value (numbers,
// booleans, objects).
func zeroTest(s *model.Schema, x *jen.Statement) *jen.Statement {
	switch {
	case isTime(s):
		return x.Clone().Dot("IsZero").Call()
	case s.Kind == model.String:
		return x.Clone().Op("==").Lit("")
	case isNilable(s):
		return x.Clone().Op("==").Nil()
	}
	return nil
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
	switch {
	case f.prop.Required:
		body := p.valueChecks(s, x, l, 0)
		if zero := zeroTest(s, x); zero != nil {
			st := jen.If(zero).Block(l.check(jen.False(), "is required"))
			if len(body) > 0 {
				st.Else().Block(body...)
			}
			g.Add(st)
		} else {
			for _, c := range body {
				g.Add(c) // one statement each: g.Add(body...) would join them
			}
		}
	case isNilable(s):
		if body := p.valueChecks(s, x, l, 0); len(body) > 0 {
			g.If(x.Clone().Op("!=").Nil()).Block(body...)
		}
	case s.Kind == model.Object:
		if p.needs(s) {
			g.If(x.Clone().Op("!=").Nil()).Block(x.Clone().Dot("validate").Call(jen.Id("v"), l.full(p)))
		}
	default:
		if body := p.valueChecks(s, jen.Id("x"), l, 0); len(body) > 0 {
			g.If(x.Clone().Op("!=").Nil()).Block(append([]jen.Code{jen.Id("x").Op(":=").Op("*").Add(x.Clone())}, body...)...)
		}
	}
	if l.name != "" && p.needs(s) {
		p.helpers["join"] = true
	}
}

// valueChecks returns the checks of a non-pointer value x of s at l.
func (p *pkgPlan) valueChecks(s *model.Schema, x *jen.Statement, l loc, depth int) []jen.Code {
	if !p.needs(s) {
		return nil
	}
	var out []jen.Code
	check := func(cond jen.Code, msg string) { out = append(out, l.check(cond, msg)) }
	if e := p.enumOf[s]; e != nil {
		check(x.Clone().Dot("IsValid").Call(), "must be one of "+enumList(s))
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
		str := x
		if p.enumOf[s] != nil {
			str = jen.String().Call(x)
		}
		count := func() *jen.Statement { return jen.Qual("unicode/utf8", "RuneCountInString").Call(str.Clone()) }
		if s.MinLength != nil {
			check(count().Op(">=").Lit(int(*s.MinLength)), fmt.Sprintf("must be at least %d characters long", *s.MinLength))
		}
		if s.MaxLength != nil {
			check(count().Op("<=").Lit(int(*s.MaxLength)), fmt.Sprintf("must be at most %d characters long", *s.MaxLength))
		}
		if s.Pattern != "" {
			// A pattern Go cannot compile is noted by fieldChecks instead.
			if pp := p.pattern(s); pp.ok {
				check(jen.Id(pp.varName).Dot("MatchString").Call(str.Clone()), "must match the pattern "+s.Pattern)
			}
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
				p.helpers["multipleOf"] = true
				v := x.Clone()
				if s.Kind == model.Integer {
					v = jen.Float64().Call(x.Clone())
				}
				check(jen.Id("multipleOf").Call(v, jen.Op(numberText(m))), "must be a multiple of "+m.String())
			}
		}
	case model.Object:
		out = append(out, x.Clone().Dot("validate").Call(jen.Id("v"), l.full(p)))
	case model.Map:
		count(s.MinProperties, ">=", "must have at least %d entries")(check, x)
		count(s.MaxProperties, "<=", "must have at most %d entries")(check, x)
		if p.needs(s.AdditionalProperties) {
			p.helpers["sortedKeys"], p.helpers["key"] = true, true
			k, e, pv := fmt.Sprintf("k%d", depth), fmt.Sprintf("e%d", depth), fmt.Sprintf("p%d", depth)
			body := []jen.Code{
				jen.Id(e).Op(":=").Add(x.Clone()).Index(jen.Id(k)),
				jen.Id(pv).Op(":=").Id("key").Call(l.full(p), jen.Id(k)),
			}
			body = append(body, p.valueChecks(s.AdditionalProperties, jen.Id(e), loc{path: jen.Id(pv)}, depth+1)...)
			out = append(out, jen.For(jen.List(jen.Id("_"), jen.Id(k)).Op(":=").Range().Id("sortedKeys").Call(x.Clone())).Block(body...))
		}
	case model.Array:
		count(s.MinItems, ">=", "must have at least %d items")(check, x)
		count(s.MaxItems, "<=", "must have at most %d items")(check, x)
		if s.UniqueItems {
			fn := "uniqueJSON"
			switch s.Items.Kind {
			case model.String, model.Integer, model.Number, model.Boolean:
				if !isTime(s.Items) {
					fn = "uniqueItems"
				}
			}
			p.helpers[fn] = true
			check(jen.Id(fn).Call(x.Clone()), "must not contain duplicate items")
		}
		if p.needs(s.Items) {
			p.helpers["index"] = true
			i, e, pv := fmt.Sprintf("i%d", depth), fmt.Sprintf("e%d", depth), fmt.Sprintf("p%d", depth)
			body := []jen.Code{jen.Id(pv).Op(":=").Id("index").Call(l.full(p), jen.Id(i))}
			body = append(body, p.valueChecks(s.Items, jen.Id(e), loc{path: jen.Id(pv)}, depth+1)...)
			out = append(out, jen.For(jen.List(jen.Id(i), jen.Id(e)).Op(":=").Range().Add(x.Clone())).Block(body...))
		}
	}
	if l.name != "" && len(out) > 0 {
		p.helpers["join"] = true
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
