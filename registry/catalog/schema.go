package catalog

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/udtc/udtc/schema"
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

	// place is the row's node in its schema, which Changes pairs.
	place schema.Path
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

// plainString reports whether q is a JSON string of printable ASCII
// without escapes: encoding/json would write it back unchanged.
func plainString(q []byte) bool {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return false
	}
	for _, c := range q[1 : len(q)-1] {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
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

// parse reads a registered schema (schema.Decode); the catalog shows what
// it can read of a schema outside the subset, and nothing of one that is
// not a JSON object.
func parse(raw json.RawMessage) *schema.Schema {
	s, _ := schema.Decode(raw)
	if s == nil {
		s = &schema.Schema{}
	}
	return s
}

// str is keyword k of s as written, when a JSON string; "" otherwise.
func str(s *schema.Schema, k string) string { return s.WrittenString(k) }

// flag is whether keyword k of s is written true.
func flag(s *schema.Schema, k string) bool {
	raw, _ := s.Written(k)
	return string(raw) == "true"
}

// isMap reports whether s is written as a map: an object with typed values
// and no properties.
func isMap(s *schema.Schema) bool {
	_, hasProps := s.Written("properties")
	return s.Kind == schema.Map && !hasProps && str(s, "type") == "object"
}

// properties returns the properties of s the catalog lists: those written
// under `properties` (a built-in `$ref`'s are its own).
func properties(s *schema.Schema) []*schema.Property {
	if s.Ref != "" || s.Kind != schema.Object {
		return nil
	}
	return s.Properties
}

// typeWords is s's type in words, as written: "string", "array of
// object", "map of integer", "object (RecipeStatus)"; "any" without a
// `type`.
func typeWords(s *schema.Schema) string {
	var out string
	switch {
	case s == nil:
		return "any"
	case s.Ref != "":
		out = "object (" + s.Ref + ")"
	case isMap(s):
		out = "map of " + typeWords(s.AdditionalProperties)
	case str(s, "type") == "array":
		out = "array of " + typeWords(s.Items)
	case str(s, "type") != "":
		out = str(s, "type")
	default:
		out = "any"
	}
	return out
}

// row is the table row of s at path, its place in the schema at place.
func (c *Catalog) row(path string, place schema.Path, depth int, s *schema.Schema, required bool) Property {
	p := Property{
		Path:        path,
		Depth:       depth,
		Type:        typeWords(s),
		Required:    required,
		ReadOnly:    flag(s, "readOnly"),
		WriteOnly:   flag(s, "writeOnly"),
		Sensitive:   flag(s, schema.ExtensionSensitive),
		Deprecated:  flag(s, "deprecated"),
		Nullable:    flag(s, "nullable"),
		Description: strings.TrimSpace(str(s, "description")),
		Ref:         s.Ref,
		place:       place,
	}
	if p.Description == "" {
		p.Description = strings.TrimSpace(str(s, "title"))
	}
	if raw, ok := s.Written("default"); ok {
		p.Default = compactJSON(raw)
	}
	if raw, ok := s.Written("enum"); ok {
		var enum []json.RawMessage
		if err := json.Unmarshal(raw, &enum); err == nil {
			for _, e := range enum {
				p.Enum = append(p.Enum, compactJSON(e))
			}
		}
	}
	p.Constraints = constraints(s)
	p.References = c.references(s)
	return p
}

// constraintKeywords are schema.ConstraintKeywords, read once.
var constraintKeywords = schema.ConstraintKeywords()

// constraints are the validation keywords of s with their values as
// written, in schema.ConstraintKeywords order.
func constraints(s *schema.Schema) []Constraint {
	var out []Constraint
	for _, k := range constraintKeywords {
		raw, ok := s.Written(k)
		if !ok {
			continue
		}
		v := compactJSON(raw)
		if k == "pattern" || k == "format" {
			v = str(s, k)
		}
		out = append(out, Constraint{Keyword: k, Value: v})
	}
	return out
}

// references are the types x-resource-type names, each with its page when
// the type is registered.
func (c *Catalog) references(s *schema.Schema) []Reference {
	raw, ok := s.Written(schema.ExtensionResourceType)
	if !ok {
		return nil
	}
	var refs []string
	if json.Unmarshal(raw, &refs) != nil {
		refs = []string{str(s, schema.ExtensionResourceType)}
	}
	var out []Reference
	for _, ref := range refs {
		r := Reference{Type: ref}
		if ns, name, ok := strings.Cut(ref, "/"); ok {
			if t := c.Lookup(ns, name); t != nil {
				r.Page = t.Page
			}
		}
		out = append(out, r)
	}
	return out
}

// properties flattens the schema root into table rows, depth first in the
// order the properties were written.
func (c *Catalog) properties(root *schema.Schema) []Property {
	var out []Property
	var walk func(prefix string, place schema.Path, depth int, s *schema.Schema)
	walk = func(prefix string, place schema.Path, depth int, s *schema.Schema) {
		switch {
		case isMap(s):
			c.value(&out, prefix+".*", place.Child(schema.Step{Kind: schema.ValuesStep}), depth, s.AdditionalProperties, walk)
		case str(s, "type") == "array":
			c.value(&out, prefix+"[]", place.Child(schema.Step{Kind: schema.ItemsStep}), depth, s.Items, walk)
		default:
			for _, p := range properties(s) {
				path := p.Name
				if prefix != "" {
					path = prefix + "." + p.Name
				}
				at := place.Child(schema.Step{Kind: schema.PropertyStep, Name: p.Name})
				out = append(out, c.row(path, at, depth, p.Schema, p.Required))
				walk(path, at, depth+1, p.Schema)
			}
		}
	}
	walk("", nil, 0, root)
	return out
}

// value adds a row for a map's values or an array's items when it carries
// more than its type (which its container's row already shows) and
// descends into it.
func (c *Catalog) value(out *[]Property, path string, place schema.Path, depth int, s *schema.Schema, walk func(string, schema.Path, int, *schema.Schema)) {
	if s == nil {
		s = &schema.Schema{}
	}
	r := c.row(path, place, depth, s, false)
	if r.Description != "" || r.ReadOnly || r.WriteOnly || r.Sensitive || len(r.Enum) > 0 || len(r.Constraints) > 0 || len(r.References) > 0 {
		*out = append(*out, r)
		depth++
	}
	walk(path, place, depth, s)
}
