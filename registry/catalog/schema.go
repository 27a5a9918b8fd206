package catalog

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Property is one row of a type page's property table: a property, a map's
// values ("tags.*") or an array's items ("ports[]").
type Property struct {
	// Path is dotted from the properties root: "status.binding.hostname",
	// with ".*" for a map's values and "[]" for an array's items.
	Path  string `json:"path"`
	Depth int    `json:"depth"`
	// Type in words: "string", "array of object", "map of integer",
	// "object (RecipeStatus)".
	Type       string `json:"type"`
	Required   bool   `json:"required,omitempty"`
	ReadOnly   bool   `json:"readOnly,omitempty"`
	WriteOnly  bool   `json:"writeOnly,omitempty"`
	Sensitive  bool   `json:"sensitive,omitempty"`
	Deprecated bool   `json:"deprecated,omitempty"`
	Nullable   bool   `json:"nullable,omitempty"`
	// Default and Enum are JSON literals as written ("\"S\"", "2").
	Default string   `json:"default,omitempty"`
	Enum    []string `json:"enum,omitempty"`
	// Constraints are the validation keywords with their values, in a fixed
	// order: minLength, maxLength, pattern, format, minimum, maximum, ...
	Constraints []Constraint `json:"constraints,omitempty"`
	Description string       `json:"description,omitempty"`
	// Ref is the name of a built-in $ref schema ("RecipeStatus").
	Ref string `json:"ref,omitempty"`
	// References is the x-resource-type annotation: the types whose IDs
	// the value may hold ("Contoso.Data/postgresDatabases", or "*" for any
	// type), each with its page when the type is registered.
	References []Reference `json:"references,omitempty"`
}

// Reference is a type a property refers to.
type Reference struct {
	Type string `json:"type"`
	Page string `json:"page,omitempty"`
}

// Constraint is a validation keyword and its value as written.
type Constraint struct {
	Keyword string `json:"keyword"`
	Value   string `json:"value"`
}

// constraintKeywords are shown in this order.
var constraintKeywords = []string{
	"minLength", "maxLength", "pattern", "format",
	"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
}

// node is one schema object of a registered schema: its keywords, and the
// names of its properties in the order they were written (the registry
// stores schemas with their key order).
type node struct {
	kw    map[string]json.RawMessage
	order []string
	props map[string]json.RawMessage // the properties' schemas, by name
}

// parseNode decodes a schema object; anything that is not an object is an
// empty node (the registry only stores schemas its checker accepted, so this
// is a safety net, not a code path).
func parseNode(raw json.RawMessage) node {
	n := node{kw: map[string]json.RawMessage{}}
	if err := json.Unmarshal(raw, &n.kw); err != nil || n.kw == nil {
		n.kw = map[string]json.RawMessage{}
	}
	if props, ok := n.kw["properties"]; ok {
		n.order, n.props = objectMembers(props)
	}
	return n
}

// objectMembers returns the keys of a JSON object in document order and
// its members by key (a repeated key keeps its last value).
func objectMembers(raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	var keys []string
	members := map[string]json.RawMessage{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return keys, members
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return keys, members
		}
		members[k] = v
	}
	return keys, members
}

func (n node) str(k string) string {
	var s string
	if raw, ok := n.kw[k]; ok {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

func (n node) flag(k string) bool {
	var b bool
	if raw, ok := n.kw[k]; ok {
		_ = json.Unmarshal(raw, &b)
	}
	return b
}

func (n node) child(k string) (node, bool) {
	raw, ok := n.kw[k]
	if !ok || !isObject(raw) {
		return node{}, false
	}
	return parseNode(raw), true
}

func (n node) property(name string) node { return parseNode(n.props[name]) }

func (n node) required() map[string]bool {
	var names []string
	_ = json.Unmarshal(n.kw["required"], &names)
	out := map[string]bool{}
	for _, r := range names {
		out[r] = true
	}
	return out
}

// ref is the name of a $ref ("RecipeStatus" of ".../v1#RecipeStatus").
func (n node) ref() string {
	r := n.str("$ref")
	if i := strings.LastIndexByte(r, '#'); i >= 0 {
		return strings.TrimLeft(r[i+1:], "/")
	}
	return r
}

// isMap reports whether n is an object with typed values and no properties.
func (n node) isMap() bool {
	_, hasProps := n.kw["properties"]
	_, ok := n.child("additionalProperties")
	return n.str("type") == "object" && ok && !hasProps
}

// typeWords is n's type in words.
func (n node) typeWords() string {
	var out string
	switch {
	case n.str("$ref") != "":
		out = "object"
	case n.isMap():
		v, _ := n.child("additionalProperties")
		out = "map of " + v.typeWords()
	case n.str("type") == "array":
		items, _ := n.child("items")
		out = "array of " + items.typeWords()
	case n.str("type") != "":
		out = n.str("type")
	default:
		out = "any"
	}
	if r := n.ref(); r != "" {
		out += " (" + r + ")"
	}
	return out
}

// compactJSON writes a JSON value on one line as a person would: without
// the \u003c escapes of HTML-safe encoders (the page escapes for HTML), and
// with numbers exactly as written (object keys sorted).
func compactJSON(raw json.RawMessage) string {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return string(raw)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return string(raw)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// row is the table row of n at path.
func (c *Catalog) row(path string, depth int, n node, required bool) Property {
	p := Property{
		Path:        path,
		Depth:       depth,
		Type:        n.typeWords(),
		Required:    required,
		ReadOnly:    n.flag("readOnly"),
		WriteOnly:   n.flag("writeOnly"),
		Sensitive:   n.flag("x-radius-sensitive"),
		Deprecated:  n.flag("deprecated"),
		Nullable:    n.flag("nullable"),
		Description: strings.TrimSpace(n.str("description")),
		Ref:         n.ref(),
	}
	if p.Description == "" {
		p.Description = strings.TrimSpace(n.str("title"))
	}
	if raw, ok := n.kw["default"]; ok {
		p.Default = compactJSON(raw)
	}
	var enum []json.RawMessage
	if err := json.Unmarshal(n.kw["enum"], &enum); err == nil {
		for _, e := range enum {
			p.Enum = append(p.Enum, compactJSON(e))
		}
	}
	for _, k := range constraintKeywords {
		raw, ok := n.kw[k]
		if !ok {
			continue
		}
		v := compactJSON(raw)
		if k == "pattern" || k == "format" {
			v = n.str(k)
		}
		p.Constraints = append(p.Constraints, Constraint{Keyword: k, Value: v})
	}
	var refs []string
	if raw, ok := n.kw["x-resource-type"]; ok && json.Unmarshal(raw, &refs) != nil {
		refs = []string{n.str("x-resource-type")}
	}
	for _, ref := range refs {
		r := Reference{Type: ref}
		if ns, name, ok := strings.Cut(ref, "/"); ok {
			if t := c.Lookup(ns, name); t != nil {
				r.Page = t.Page
			}
		}
		p.References = append(p.References, r)
	}
	return p
}

// properties flattens the schema root into table rows, depth first in the
// order the properties were written.
func (c *Catalog) properties(root node) []Property {
	var out []Property
	var walk func(prefix string, depth int, n node)
	walk = func(prefix string, depth int, n node) {
		switch {
		case n.isMap():
			v, _ := n.child("additionalProperties")
			c.value(&out, prefix+".*", depth, v, walk)
		case n.str("type") == "array":
			items, _ := n.child("items")
			c.value(&out, prefix+"[]", depth, items, walk)
		default:
			req := n.required()
			for _, name := range n.order {
				path := name
				if prefix != "" {
					path = prefix + "." + name
				}
				pn := n.property(name)
				out = append(out, c.row(path, depth, pn, req[name]))
				walk(path, depth+1, pn)
			}
		}
	}
	walk("", 0, root)
	return out
}

// value adds a row for a map's values or an array's items when it carries
// more than its type (which its container's row already shows) and
// descends into it.
func (c *Catalog) value(out *[]Property, path string, depth int, n node, walk func(string, int, node)) {
	r := c.row(path, depth, n, false)
	if r.Description != "" || r.ReadOnly || r.WriteOnly || r.Sensitive || len(r.Enum) > 0 || len(r.Constraints) > 0 || len(r.References) > 0 {
		*out = append(*out, r)
		depth++
	}
	walk(path, depth, n)
}
