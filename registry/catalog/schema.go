package catalog

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/udtc/udtc/internal/jsonscan"
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

// node is one schema object of a registered schema: its keywords and its
// properties' schemas, each in the order they were written (the registry
// stores schemas with their key order). A key written twice keeps its last
// value, as encoding/json decodes it, but is listed twice.
type node struct {
	kw    []member
	props []member // the members of kw's "properties", when an object
}

// member is a key of a JSON object and its value exactly as written.
type member struct {
	key string
	val json.RawMessage
}

// lookup returns the value of key k among ms, the last when k repeats.
func lookup(ms []member, k string) (json.RawMessage, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == k {
			return ms[i].val, true
		}
	}
	return nil, false
}

// get returns the value of keyword k.
func (n node) get(k string) (json.RawMessage, bool) { return lookup(n.kw, k) }

// raw returns the value of keyword k, nil when it is absent.
func (n node) raw(k string) json.RawMessage {
	v, _ := lookup(n.kw, k)
	return v
}

// parseNode decodes a schema object; anything that is not an object is an
// empty node (the registry only stores schemas its checker accepted, so this
// is a safety net, not a code path). raw is checked to be JSON once here;
// the nodes below it (child, property) are parts of it and are split
// without checking again or copying.
func parseNode(raw json.RawMessage) node {
	if !json.Valid(raw) {
		return node{}
	}
	return splitNode(raw)
}

// splitNode is parseNode of raw known to be valid JSON.
func splitNode(raw json.RawMessage) node {
	n := node{kw: splitObject(raw)}
	if props, ok := n.get("properties"); ok {
		n.props = splitObject(props)
	}
	return n
}

// splitObject returns the members of the object raw (valid JSON) in
// document order, keys decoded and values exactly as written (parts of
// raw); nil when raw is not an object or is {}.
func splitObject(raw []byte) []member {
	var ms []member
	jsonscan.Members(raw, func(key, value []byte) bool {
		if ms == nil {
			ms = make([]member, 0, 8)
		}
		ms = append(ms, member{objectKey(key), value})
		return true
	})
	return ms
}

// objectKey decodes a key as jsonscan.Members gives it, sharing the string
// of a schema keyword rather than allocating one for each object.
func objectKey(k []byte) string {
	if jsonscan.Plain(k) {
		if kw, ok := keywords[string(k)]; ok {
			return kw
		}
	}
	return jsonscan.Unquote(k)
}

// keywords are the keys schema objects repeat, by themselves.
var keywords = func() map[string]string {
	m := map[string]string{}
	for _, k := range append([]string{
		"type", "description", "title", "properties", "required", "additionalProperties", "items",
		"readOnly", "writeOnly", "x-radius-sensitive", "deprecated", "nullable", "default", "example",
		"enum", "$ref", "x-resource-type",
	}, constraintKeywords...) {
		m[k] = k
	}
	return m
}()

// jsonString decodes the JSON string q (quotes included); "" for anything
// else.
func jsonString(q []byte) string {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return ""
	}
	return jsonscan.Unquote(q[1 : len(q)-1])
}

// plainString reports whether q is a JSON string of printable ASCII
// without escapes: it decodes to its bytes between the quotes, and
// encoding/json encodes those back to q.
func plainString(q []byte) bool {
	return len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' && jsonscan.Plain(q[1:len(q)-1])
}

func (n node) str(k string) string {
	raw, ok := n.get(k)
	if !ok {
		return ""
	}
	return jsonString(raw)
}

func (n node) flag(k string) bool { return string(n.raw(k)) == "true" }

func (n node) child(k string) (node, bool) {
	raw, ok := n.get(k)
	if !ok || !isObject(raw) {
		return node{}, false
	}
	return splitNode(raw), true
}

// property returns the schema of property name (its last when it repeats).
func (n node) property(name string) node {
	raw, _ := lookup(n.props, name)
	return splitNode(raw)
}

func (n node) required() map[string]bool {
	raw, ok := n.get("required")
	if !ok {
		return nil
	}
	var names []string
	_ = json.Unmarshal(raw, &names)
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
	_, hasProps := n.get("properties")
	ap, ok := n.get("additionalProperties")
	return !hasProps && ok && isObject(ap) && n.str("type") == "object"
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
	if plainString(raw) || plainLiteral(raw) {
		return string(raw) // encoding/json would write it back unchanged
	}
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

// plainLiteral reports whether raw is true, false, null or a JSON number,
// which compactJSON writes as written.
func plainLiteral(raw []byte) bool {
	switch string(raw) {
	case "true", "false", "null":
		return true
	}
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return false
	}
	return json.Valid(raw)
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
	if raw, ok := n.get("default"); ok {
		p.Default = compactJSON(raw)
	}
	if raw, ok := n.get("enum"); ok {
		var enum []json.RawMessage
		if err := json.Unmarshal(raw, &enum); err == nil {
			for _, e := range enum {
				p.Enum = append(p.Enum, compactJSON(e))
			}
		}
	}
	for _, k := range constraintKeywords {
		raw, ok := n.get(k)
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
	if raw, ok := n.get("x-resource-type"); ok && json.Unmarshal(raw, &refs) != nil {
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
			for _, m := range n.props {
				name := m.key
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
