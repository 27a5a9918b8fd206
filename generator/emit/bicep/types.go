package bicep

import (
	"strconv"
	"strings"
)

// kind is the "$type" discriminator of a Bicep type.
type kind string

const (
	kindString        kind = "StringType"
	kindInteger       kind = "IntegerType"
	kindBoolean       kind = "BooleanType"
	kindAny           kind = "AnyType"
	kindStringLiteral kind = "StringLiteralType"
	kindUnion         kind = "UnionType"
	kindArray         kind = "ArrayType"
	kindObject        kind = "ObjectType"
	kindResource      kind = "ResourceType"
)

// Property flags (ObjectTypePropertyFlags in the reference library).
const (
	flagRequired           = 1
	flagReadOnly           = 2
	flagWriteOnly          = 4
	flagDeployTimeConstant = 8
	flagIdentifier         = 16
)

// ref is the index of a type in types.json ("#/N").
type ref int

// bt is one Bicep type. Only the fields of its kind are meaningful; absent
// optional fields are nil (or "" / false where the zero value is never
// written).
type bt struct {
	kind kind

	// StringType (sensitive, minLength, maxLength, pattern) and ArrayType
	// (minLength, maxLength); ObjectType uses sensitive.
	sensitive  bool
	minLength  *int64
	maxLength  *int64
	pattern    *string
	minValue   *int64 // IntegerType
	maxValue   *int64 // IntegerType
	value      string // StringLiteralType
	elements   []ref  // UnionType
	itemType   ref    // ArrayType
	name       string // ObjectType, ResourceType
	properties []prop // ObjectType, in insertion order
	additional *ref   // ObjectType additionalProperties
	body       ref    // ResourceType
}

// prop is one property of an ObjectType.
type prop struct {
	name        string
	typ         ref
	flags       int
	description string
}

// node renders t with the members in the order the reference library's
// TypeFactory creates them, "$type" first.
func (t *bt) node() obj {
	o := obj{{"$type", str(t.kind)}}
	add := func(k string, v node) { o = append(o, member{k, v}) }
	addInt := func(k string, v *int64) {
		if v != nil {
			add(k, num(*v))
		}
	}
	switch t.kind {
	case kindString:
		if t.sensitive {
			add("sensitive", boolean(true))
		}
		addInt("minLength", t.minLength)
		addInt("maxLength", t.maxLength)
		if t.pattern != nil {
			add("pattern", str(*t.pattern))
		}
	case kindInteger:
		addInt("minValue", t.minValue)
		addInt("maxValue", t.maxValue)
	case kindStringLiteral:
		add("value", str(t.value))
	case kindUnion:
		els := make(arr, len(t.elements))
		for i, e := range t.elements {
			els[i] = refNode(e)
		}
		add("elements", els)
	case kindArray:
		add("itemType", refNode(t.itemType))
		addInt("minLength", t.minLength)
		addInt("maxLength", t.maxLength)
	case kindObject:
		add("name", str(t.name))
		props := make(obj, 0, len(t.properties))
		for _, p := range t.properties {
			po := obj{{"type", refNode(p.typ)}, {"flags", num(p.flags)}}
			if p.description != "" {
				po = append(po, member{"description", str(p.description)})
			}
			props = append(props, member{p.name, po})
		}
		add("properties", props)
		if t.additional != nil {
			add("additionalProperties", refNode(*t.additional))
		}
		if t.sensitive {
			add("sensitive", boolean(true))
		}
	case kindResource:
		add("name", str(t.name))
		add("body", refNode(t.body))
		add("readableScopes", num(0))
		add("writableScopes", num(0))
	}
	return o
}

func refNode(r ref) obj { return obj{{"$ref", str("#/" + strconv.Itoa(int(r)))}} }

// table is the types.json array under construction. Structurally identical
// types are stored once: add hash-conses on the rendered element, which is
// canonical because every element is rendered at the same depth and refers
// to its children by their (already canonical) indices.
type table struct {
	types    []*bt
	rendered []string
	index    map[string]ref
}

func newTable() *table { return &table{index: map[string]ref{}} }

// add returns the reference of t, adding it if no identical type exists.
// Children must be added first: types.json lists types in the order of a
// deterministic post-order walk.
func (tb *table) add(t *bt) ref {
	var b strings.Builder
	writeJSON(&b, t.node(), 1)
	key := b.String()
	if r, ok := tb.index[key]; ok {
		return r
	}
	r := ref(len(tb.types))
	tb.types = append(tb.types, t)
	tb.rendered = append(tb.rendered, key)
	tb.index[key] = r
	return r
}

// get returns the type r refers to.
func (tb *table) get(r ref) *bt { return tb.types[r] }

// json renders types.json: what writeTypesJson produces, without a
// trailing newline.
func (tb *table) json() []byte {
	if len(tb.rendered) == 0 {
		return []byte("[]")
	}
	var b strings.Builder
	b.WriteString("[")
	for i, s := range tb.rendered {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n  ")
		b.WriteString(s)
	}
	b.WriteString("\n]")
	return []byte(b.String())
}
