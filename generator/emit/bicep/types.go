package bicep

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/udtc/udtc/internal/bufpool"
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
	sensitive bool
	minLength *int64
	maxLength *int64
	pattern   *string
	minValue  *int64 // IntegerType
	maxValue  *int64 // IntegerType
	value     string // StringLiteralType
	elements  []ref  // UnionType
	itemType  ref    // ArrayType
	name      string // ObjectType, ResourceType
	// uses are the name paths a schema ObjectType is used under; nil for
	// a resource body, whose name is fixed.
	uses       [][]string
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
// TypeFactory creates them, "$type" first; refs gives the node of a
// reference ({"$ref": "#/N"}, see refNodes).
func (t *bt) node(refs refNodes) obj {
	o := make(obj, 1, 5) // no type has more than 5 members
	o[0] = member{"$type", str(t.kind)}
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
			els[i] = refs.of(e)
		}
		add("elements", els)
	case kindArray:
		add("itemType", refs.of(t.itemType))
		addInt("minLength", t.minLength)
		addInt("maxLength", t.maxLength)
	case kindObject:
		add("name", str(t.name))
		props := make(obj, 0, len(t.properties))
		for _, p := range t.properties {
			po := append(make(obj, 0, 3), member{"type", refs.of(p.typ)}, member{"flags", num(p.flags)})
			if p.description != "" {
				po = append(po, member{"description", str(p.description)})
			}
			props = append(props, member{p.name, po})
		}
		add("properties", props)
		if t.additional != nil {
			add("additionalProperties", refs.of(*t.additional))
		}
		if t.sensitive {
			add("sensitive", boolean(true))
		}
	case kindResource:
		add("name", str(t.name))
		add("body", refs.of(t.body))
		add("readableScopes", num(0))
		add("writableScopes", num(0))
	}
	return o
}

// refNodes are the nodes of the references of one table, each made once
// and shared by every use (a table's few common types are used by
// thousands of properties).
type refNodes []node

func (rs refNodes) of(r ref) node {
	if rs[r] == nil {
		rs[r] = obj{{"$ref", str("#/" + strconv.Itoa(int(r)))}}
	}
	return rs[r]
}

// key is the identity of t for hash-consing: its kind and fields, with
// children by reference. Of the name of a schema ObjectType only the leaf
// of its path counts ("Tls" of RedisCachesPropertiesTls), so that one
// structure used under the same property name in several places is one
// type; names are chosen afterwards (see table.finish). A resource body
// keeps its full name.
func (t *bt) key() string {
	var b strings.Builder
	size := 64 + len(t.name)
	for _, p := range t.properties {
		size += 32 + len(p.name) + len(p.description)
	}
	b.Grow(size)
	b.WriteString(string(t.kind))
	// Each field is a tag, the value's length and the value: unambiguous
	// without escaping.
	field := func(tag byte, v string) {
		b.WriteByte(tag)
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte(':')
		b.WriteString(v)
	}
	opt := func(tag byte, v *int64) {
		if v != nil {
			field(tag, strconv.FormatInt(*v, 10))
		}
	}
	if t.sensitive {
		field('s', "")
	}
	opt('l', t.minLength)
	opt('L', t.maxLength)
	if t.pattern != nil {
		field('p', *t.pattern)
	}
	opt('v', t.minValue)
	opt('V', t.maxValue)
	switch t.kind {
	case kindStringLiteral:
		field('=', t.value)
	case kindUnion:
		for _, e := range t.elements {
			field('e', strconv.Itoa(int(e)))
		}
	case kindArray:
		field('i', strconv.Itoa(int(t.itemType)))
	case kindObject, kindResource:
		if t.kind == kindResource || t.uses == nil {
			field('n', t.name)
		} else {
			field('N', leaf(t.uses[0]))
		}
		for _, p := range t.properties {
			field('P', p.name)
			field('t', strconv.Itoa(int(p.typ)))
			field('f', strconv.Itoa(p.flags))
			field('d', p.description)
		}
		if t.additional != nil {
			field('a', strconv.Itoa(int(*t.additional)))
		}
		if t.kind == kindResource {
			field('b', strconv.Itoa(int(t.body)))
		}
	}
	return b.String()
}

// table is the types.json array under construction. Structurally identical
// types are stored once: add hash-conses on key, which is canonical because
// children are added first and referred to by their indices.
type table struct {
	types []*bt
	index map[string]ref
}

func newTable() *table { return &table{index: map[string]ref{}} }

// add returns the reference of t, adding it if no identical type exists.
// Children must be added first: types.json lists types in the order of a
// deterministic post-order walk. For an ObjectType with uses (a schema
// object, not a resource body) the uses are merged into the existing type.
// t is taken by value, so that only a type not in the table yet is
// allocated: most nodes of a catalog are strings, integers and literals
// seen before.
func (tb *table) add(t bt) ref {
	key := t.key()
	if r, ok := tb.index[key]; ok {
		if t.uses != nil {
			tb.types[r].uses = append(tb.types[r].uses, t.uses...)
		}
		return r
	}
	r := ref(len(tb.types))
	stored := new(bt)
	*stored = t
	tb.types = append(tb.types, stored)
	tb.index[key] = r
	return r
}

// get returns the type r refers to.
func (tb *table) get(r ref) *bt { return tb.types[r] }

// finish names every schema ObjectType from the paths it is used under
// (see objectName). Call it once, after the last add.
func (tb *table) finish() {
	for _, t := range tb.types {
		if t.kind == kindObject && t.uses != nil {
			t.name = objectName(t.uses)
		}
	}
}

// json renders types.json: the array the reference library's
// writeTypesJson writes, as the same JSON value, but one type per line,
// each written as JSON.stringify writes it without indentation. Bicep and
// @azure/bicep-types read types.json with a JSON parser, to which the
// whitespace means nothing; the library's two-space indentation was a
// third of the file (8 of 25 MB on the 1,000-type benchmark catalog), and
// a line per type keeps a diff of types.json to the types that changed.
func (tb *table) json() []byte {
	if len(tb.types) == 0 {
		return []byte("[]")
	}
	b := bufpool.Get()
	defer bufpool.Put(b)
	refs := make(refNodes, len(tb.types))
	b.WriteString("[")
	for i, t := range tb.types {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
		writeCompact(b, t.node(refs))
	}
	b.WriteString("\n]")
	return bytes.Clone(b.Bytes())
}

// Name segments that say where a node sits rather than what it is.
var markers = map[string]bool{"Properties": true, "Item": true, "Value": true}

// leaf is the end of a name path from its last segment that is not a
// marker: "Tls" of [RedisCaches Properties Tls], "ConnectionsValue" of
// [Containers Properties Connections Value].
func leaf(path []string) string {
	i := len(path) - 1
	for i > 0 && markers[path[i]] {
		i--
	}
	return strings.Join(path[max(i, 0):], "")
}

// objectName names an object type from the paths of its uses, each a list
// of PascalCase segments (["RedisCaches", "Properties", "Tls"]). Used under
// one path, it is that path ("RedisCachesPropertiesTls"). Shared by several
// paths (which share their leaf), it is their longest common suffix without
// leading markers ("Tls").
func objectName(uses [][]string) string {
	first := uses[0]
	suffix := first
	same := true
	for _, u := range uses[1:] {
		if !slices.Equal(u, first) {
			same = false
		}
		n := 0
		for n < len(suffix) && n < len(u) && suffix[len(suffix)-1-n] == u[len(u)-1-n] {
			n++
		}
		suffix = suffix[len(suffix)-n:]
	}
	if same {
		return strings.Join(first, "")
	}
	for len(suffix) > 0 && markers[suffix[0]] {
		suffix = suffix[1:]
	}
	if len(suffix) > 0 {
		return strings.Join(suffix, "")
	}
	return strings.Join(first, "") // unreachable: uses share their leaf
}
