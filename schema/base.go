package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// Radius's base resource manifest (radius-project/radius #12252, mid-2026):
// every API version's schema inherits four properties, merged in by `rad`
// before it validates and registers a manifest, and by manifest-to-bicep
// before it builds the Bicep types. base.json is udtc's statement of them:
// the names, types, keywords, `required` and the descriptions are those
// Radius registers (pkg/schema/baseresource/base.yaml, a set Radius calls
// frozen), word for word: a registration written by rad and one written by
// udtc must be the same bytes, or a team using both tools would see every
// type's schema change at each publish.
//
// The merge is per-type-wins: a property the author declares keeps the
// author's declaration, and the base's required names are added to the
// schema's `required`. MergeBase merges into the model, MergeBaseJSON into
// the schema as written; the checker calls both where it builds the model,
// so every emitter and publish see the same effective schema.
//
//go:embed base.json
var baseJSON []byte

// base is base.json read once: its properties as model nodes (in file
// order), each as compact JSON, and its required names.
type base struct {
	props    []*Property
	raw      map[string]json.RawMessage
	required []string
}

var loadBase = sync.OnceValue(func() *base {
	var compact bytes.Buffer
	if err := json.Compact(&compact, baseJSON); err != nil {
		panic(fmt.Sprintf("schema: base.json: %v", err)) // embedded: a build-time constant
	}
	root, err := Decode(compact.Bytes())
	if err != nil || root.Kind != Object {
		panic(fmt.Sprintf("schema: base.json is not an object schema: %v", err))
	}
	b := &base{raw: map[string]json.RawMessage{}}
	for _, m := range members(compact.Bytes()) {
		switch m.key {
		case "properties":
			for _, p := range m.obj {
				b.raw[p.key] = p.val
			}
		case "required":
			if err := json.Unmarshal(m.val, &b.required); err != nil {
				panic(fmt.Sprintf("schema: base.json: required: %v", err))
			}
		}
	}
	for _, p := range root.Properties {
		p.Schema = forget(p.Schema, "")
		b.props = append(b.props, p)
	}
	return b
})

// forget returns a copy of s (and everything below it) as if built by the
// checker: without the JSON Decode read it from, with its paths below at.
func forget(s *Schema, at string) *Schema {
	if s == nil {
		return nil
	}
	c := *s
	c.src, c.Path, c.Span = nil, at, Span{}
	c.Properties = make([]*Property, len(s.Properties))
	for i, p := range s.Properties {
		c.Properties[i] = &Property{Name: p.Name, Required: p.Required, Schema: forget(p.Schema, AppendPointer(AppendPointer(at, "properties"), p.Name))}
	}
	c.AdditionalProperties = forget(s.AdditionalProperties, AppendPointer(at, "additionalProperties"))
	c.Items = forget(s.Items, AppendPointer(at, "items"))
	return &c
}

// BaseNames returns the names of the base properties, in base.json's order:
// application, environment, connections, codeReference.
func BaseNames() []string {
	b := loadBase()
	out := make([]string, len(b.props))
	for i, p := range b.props {
		out[i] = p.Name
	}
	return out
}

// BaseProperty returns the base property of that name (a copy, below path
// at), or nil when name is not one.
func BaseProperty(name, at string) *Property {
	for _, p := range loadBase().props {
		if p.Name == name {
			return &Property{Name: p.Name, Required: p.Required, Schema: forget(p.Schema, at)}
		}
	}
	return nil
}

// BaseRequired reports whether the base manifest requires name.
func BaseRequired(name string) bool { return slices.Contains(loadBase().required, name) }

// CanMergeBase reports whether root can take the base properties: an
// object, or an undeclared schema (`schema: {}`, a map of anything). A map
// with a declared value schema cannot: merged, it would have both
// properties and additionalProperties, which Radius refuses.
func CanMergeBase(root *Schema) bool {
	return root != nil && (root.Kind == Object || undeclared(root))
}

// undeclared reports the model of `schema: {}`: a map of anything.
func undeclared(s *Schema) bool {
	return s.Kind == Map && s.AdditionalProperties != nil && s.AdditionalProperties.Kind == Any && len(s.Properties) == 0
}

// MergeBase merges the base properties into root, the schema of an API
// version, in place, and returns it: each base property the schema does not
// declare is appended (below root.Path, with no span: the author did not
// write it), and the base's required names become required. An undeclared
// schema (`schema: {}`) becomes an object of the base properties, as Radius
// types it. A root CanMergeBase refuses is returned unchanged.
func MergeBase(root *Schema) *Schema {
	if !CanMergeBase(root) {
		return root
	}
	if undeclared(root) {
		root.Kind, root.AdditionalProperties = Object, nil
	}
	for _, bp := range loadBase().props {
		p := root.Property(bp.Name)
		if p == nil {
			p = BaseProperty(bp.Name, AppendPointer(AppendPointer(root.Path, "properties"), bp.Name))
			root.Properties = append(root.Properties, p)
		}
		if BaseRequired(bp.Name) {
			p.Required = true
		}
	}
	return root
}

// MergeBaseJSON merges the base properties into raw, the JSON of an API
// version's schema as written, as `rad` does before it registers it: each
// base property absent from "properties" is added to it (and "properties"
// to the schema when it has none), and each base required name absent from
// "required" is appended to it (and "required" added when it has none).
// Nothing else changes: no "type" is added, and every other byte stays as
// written. raw must be a JSON object whose "properties" (when present) is
// an object and whose "required" (when present) is an array of strings.
func MergeBaseJSON(raw json.RawMessage) (json.RawMessage, error) {
	if !json.Valid(raw) {
		return nil, fmt.Errorf("a schema must be a JSON object")
	}
	return MergeBaseValidJSON(raw)
}

// MergeBaseValidJSON is MergeBaseJSON of raw known to be valid JSON, such
// as the checker's own conversion of a manifest's YAML: it skips the
// validation, which costs as much as the merge.
func MergeBaseValidJSON(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if !isObject(raw) {
		return nil, fmt.Errorf("a schema must be a JSON object")
	}
	b := loadBase()
	type insert struct {
		at   int
		text []byte
	}
	var ins []insert
	// closing returns the offset of the last byte (} or ]) of v, a part of raw.
	closing := func(v json.RawMessage) int { return cap(raw) - cap(v) + len(v) - 1 }
	// add appends members to the object or array whose closing byte is at.
	add := func(at int, empty bool, items [][]byte) {
		if len(items) == 0 {
			return
		}
		text := bytes.Join(items, []byte(","))
		if !empty {
			text = append([]byte(","), text...)
		}
		ins = append(ins, insert{at, text})
	}
	// One level of the schema, and of its properties: a schema can be large.
	var props, req *member
	root := shallowMembers(raw)
	for i := range root {
		switch root[i].key {
		case "properties":
			props = &root[i]
			if isObject(props.val) {
				props.obj = shallowMembers(props.val)
			}
		case "required":
			req = &root[i]
		}
	}
	var newProps [][]byte
	for _, p := range b.props {
		if props != nil && slices.ContainsFunc(props.obj, func(m member) bool { return m.key == p.Name }) {
			continue
		}
		newProps = append(newProps, append(quote(p.Name), append([]byte(":"), b.raw[p.Name]...)...))
	}
	var have []string
	if req != nil {
		if err := json.Unmarshal(req.val, &have); err != nil {
			return nil, fmt.Errorf("\"required\" must be a list of property names")
		}
	}
	var newReq [][]byte
	for _, name := range b.required {
		if !slices.Contains(have, name) {
			newReq = append(newReq, quote(name))
		}
	}
	var rootAdds [][]byte
	switch {
	case props == nil:
		if len(newProps) > 0 {
			rootAdds = append(rootAdds, []byte(`"properties":{`+string(bytes.Join(newProps, []byte(",")))+`}`))
		}
	case props.obj == nil && !isObject(props.val):
		return nil, fmt.Errorf("\"properties\" must be an object")
	default:
		add(closing(props.val), len(props.obj) == 0, newProps)
	}
	switch {
	case req == nil:
		if len(newReq) > 0 {
			rootAdds = append(rootAdds, []byte(`"required":[`+string(bytes.Join(newReq, []byte(",")))+`]`))
		}
	default:
		add(closing(req.val), len(have) == 0, newReq)
	}
	add(len(raw)-1, len(root) == 0, rootAdds)
	if len(ins) == 0 {
		return raw, nil
	}
	slices.SortFunc(ins, func(a, b insert) int { return a.at - b.at })
	size := len(raw)
	for _, in := range ins {
		size += len(in.text)
	}
	out := make([]byte, 0, size)
	prev := 0
	for _, in := range ins {
		out = append(out, raw[prev:in.at]...)
		out = append(out, in.text...)
		prev = in.at
	}
	return append(out, raw[prev:]...), nil
}

// quote returns s as a JSON string, without escaping HTML characters.
func quote(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimRight(buf.Bytes(), "\n")
}
