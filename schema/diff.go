package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
)

// Step is one step down a schema: into a property, a map's values or an
// array's items.
type Step struct {
	Kind StepKind
	Name string // the property's name (PropertyStep)
}

// StepKind says where a Step goes.
type StepKind int

// Steps.
const (
	PropertyStep StepKind = iota + 1
	ValuesStep
	ItemsStep
)

// Path is a place in a schema: the steps from the root.
type Path []Step

// Keys returns the JSON keys that lead to the place from the schema's
// root: ["properties", "ports", "items"] for ports' items.
func (p Path) Keys() []string {
	var keys []string
	for _, s := range p {
		switch s.Kind {
		case PropertyStep:
			keys = append(keys, "properties", s.Name)
		case ValuesStep:
			keys = append(keys, "additionalProperties")
		case ItemsStep:
			keys = append(keys, "items")
		}
	}
	return keys
}

// Child returns p with one more step (never sharing p's array).
func (p Path) Child(s Step) Path { return append(slices.Clip(p), s) }

// Pointer returns the JSON pointer of the place: "/properties/ports/items".
// Two places are the same place exactly when their pointers are equal.
func (p Path) Pointer() string {
	ptr := ""
	for _, k := range p.Keys() {
		ptr = AppendPointer(ptr, k)
	}
	return ptr
}

// Pair is one place of two schemas being compared: the node there in the
// old schema and in the new one; one of them is nil where only one schema
// has the place. Compare pairs two roots; Children pairs the places below.
// This is the one correspondence between two schemas: compat judges the
// pairs, the catalog shows their property rows, and Diff lists what
// differs between them as written.
type Pair struct {
	Path     Path
	Old, New *Schema
	// OldProperty and NewProperty are the properties whose schemas Old and
	// New are; nil at the root, at map values and at array items.
	OldProperty, NewProperty *Property
}

// Compare pairs the roots of two schemas.
func Compare(old, new *Schema) Pair { return Pair{Old: old, New: new} }

// Children returns the places right below p: the properties (the old
// schema's in its order, then those only the new one has, in its order),
// the map values, then the array items. A place only one side has is
// paired with nil, and so is every place below it.
func (p Pair) Children() []Pair {
	var out []Pair
	var oldProps, newProps []*Property
	if p.Old != nil {
		oldProps = p.Old.Properties
	}
	if p.New != nil {
		newProps = p.New.Properties
	}
	for _, op := range oldProps {
		c := Pair{Path: p.Path.Child(Step{Kind: PropertyStep, Name: op.Name}), Old: op.Schema, OldProperty: op}
		if np := p.New.propertyOrNil(op.Name); np != nil {
			c.New, c.NewProperty = np.Schema, np
		}
		out = append(out, c)
	}
	for _, np := range newProps {
		if p.Old.propertyOrNil(np.Name) == nil {
			out = append(out, Pair{Path: p.Path.Child(Step{Kind: PropertyStep, Name: np.Name}), New: np.Schema, NewProperty: np})
		}
	}
	if c := (Pair{Path: p.Path.Child(Step{Kind: ValuesStep}), Old: p.Old.values(), New: p.New.values()}); c.Old != nil || c.New != nil {
		out = append(out, c)
	}
	if c := (Pair{Path: p.Path.Child(Step{Kind: ItemsStep}), Old: p.Old.items(), New: p.New.items()}); c.Old != nil || c.New != nil {
		out = append(out, c)
	}
	return out
}

// propertyOrNil, values and items are Property, AdditionalProperties and
// Items of a node that may be nil.
func (s *Schema) propertyOrNil(name string) *Property {
	if s == nil {
		return nil
	}
	return s.Property(name)
}

func (s *Schema) values() *Schema {
	if s == nil {
		return nil
	}
	return s.AdditionalProperties
}

func (s *Schema) items() *Schema {
	if s == nil {
		return nil
	}
	return s.Items
}

// Change is one difference between two schemas as written.
type Change struct {
	// Path is the place of the difference.
	Path Path
	// Keys are the keyword at Path that differs and, inside a value that
	// is an object on both sides, the members down to the difference;
	// none when the place itself is only in one schema.
	Keys []string
	// Old and New are the values as written; nil where absent.
	Old, New json.RawMessage
}

// JSONKeys returns the JSON keys from the schema's root to the difference:
// Path's keys, then Keys.
func (c Change) JSONKeys() []string { return append(c.Path.Keys(), c.Keys...) }

// Diff lists every difference between two schemas as written (the JSON
// the registry stores), ordered by JSONKeys: keywords added, removed or
// changed at each place both have, and places (properties) only one has,
// whole. Key order and spacing are no difference; values compare as JSON
// values, numbers as written (1 and 1.0 differ); a value that is an
// object on both sides is compared member by member. A document that is
// not an object compares as one value; empty input is {}. Input that is
// not JSON is an error.
func Diff(old, new json.RawMessage) ([]Change, error) {
	old, new = emptyAsObject(old), emptyAsObject(new)
	for _, raw := range []json.RawMessage{old, new} {
		if !json.Valid(raw) {
			if err := oneObject(raw); err != nil {
				return nil, err // the decoder's description of the problem
			}
			return nil, errors.New("not one JSON value")
		}
	}
	var out []Change
	o, _ := Decode(old)
	n, _ := Decode(new)
	if !isObject(old) || !isObject(new) || o == nil || n == nil {
		diffValues(&out, nil, nil, old, new)
	} else {
		diffPlace(&out, Compare(o, n))
	}
	slices.SortStableFunc(out, func(a, b Change) int { return slices.Compare(a.JSONKeys(), b.JSONKeys()) })
	return out, nil
}

func emptyAsObject(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// diffPlace adds the differences of a place both schemas have: its
// keywords, and the places below it that Children pairs where both sides
// read them from the same keyword (otherwise the keyword's value differs
// as a whole, or as a value member by member).
func diffPlace(out *[]Change, p Pair) {
	o, n := p.Old, p.New
	below := map[string]bool{
		"properties":           o.Kind == Object && n.Kind == Object && readAsSchemas(o, n, "properties"),
		"additionalProperties": o.AdditionalProperties.read() && n.AdditionalProperties.read(),
		"items":                o.Items.read() && n.Items.read(),
	}
	for _, k := range writtenKeys(o, n) {
		if below[k] {
			continue
		}
		ov, _ := o.Written(k)
		nv, _ := n.Written(k)
		diffValues(out, p.Path, []string{k}, ov, nv)
	}
	for _, c := range p.Children() {
		switch last := c.Path[len(c.Path)-1].Kind; {
		case last == PropertyStep && !below["properties"], last == ValuesStep && !below["additionalProperties"], last == ItemsStep && !below["items"]:
		case c.Old == nil || c.New == nil:
			*out = append(*out, Change{Path: c.Path, Old: c.Old.JSON(), New: c.New.JSON()})
		default:
			diffPlace(out, c)
		}
	}
}

// read reports whether s was read from a written schema (not implied, as
// the items of an array without `items`).
func (s *Schema) read() bool { return s.JSON() != nil }

// readAsSchemas reports whether keyword k (`properties`) is written on
// both nodes as an object of schemas, each read into a property.
func readAsSchemas(o, n *Schema, k string) bool {
	for _, s := range []*Schema{o, n} {
		v, ok := s.Written(k)
		if !ok || !isObject(v) {
			return false
		}
		for _, m := range members(v) {
			if p := s.Property(m.key); p == nil || !p.Schema.read() {
				return false
			}
		}
	}
	return true
}

// writtenKeys is the sorted union of the keywords written on o and n.
func writtenKeys(o, n *Schema) []string {
	keys := append(o.Keywords(), n.Keywords()...)
	slices.Sort(keys)
	return slices.Compact(keys)
}

// diffValues adds the differences between two JSON values at path and
// keys: none when they are equal JSON values, member by member when both
// are objects, else one change. nil is absent.
func diffValues(out *[]Change, path Path, keys []string, a, b json.RawMessage) {
	if a != nil && b != nil && isObject(a) && isObject(b) {
		am, bm := lastMembers(a), lastMembers(b)
		names := make([]string, 0, len(am)+len(bm))
		for k := range am {
			names = append(names, k)
		}
		for k := range bm {
			if _, ok := am[k]; !ok {
				names = append(names, k)
			}
		}
		slices.Sort(names)
		for _, k := range names {
			diffValues(out, path, append(slices.Clip(keys), k), am[k], bm[k])
		}
		return
	}
	if a == nil || b == nil || !equalJSON(a, b) {
		*out = append(*out, Change{Path: path, Keys: keys, Old: a, New: b})
	}
}

// lastMembers maps each key of a JSON object to its (last) value.
func lastMembers(raw json.RawMessage) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	for _, x := range members(raw) {
		m[x.key] = x.val
	}
	return m
}

// equalJSON reports whether a and b are the same JSON value: objects
// regardless of key order, numbers as written.
func equalJSON(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	va, errA := decodeValue(a)
	vb, errB := decodeValue(b)
	return errA == nil && errB == nil && reflect.DeepEqual(va, vb)
}

func decodeValue(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}
