// Package model is the checked intermediate representation of a set of
// manifests. The checker builds it once and the emitters (bicep, goclient,
// docs, registration) read it; none of them looks at YAML. `udtc publish`
// and the registry do not read the model: publish sends the api.Registration
// documents the registration emitter builds from it, and the registry only
// ever sees those documents. A Catalog only exists for input without
// errors, so readers may assume every invariant documented here.
//
// Everything is ordered: providers by namespace, types by name (a parent sorts
// before its children), API versions oldest first, properties in source order.
package model

import (
	"encoding/json"
	"strings"

	"github.com/udtc/udtc/generator/diag"
)

// Catalog is every provider declared by the compiled manifests.
type Catalog struct {
	Providers []*Provider
}

// Provider is one resource provider namespace, e.g. "Contoso.Data", merged
// from every file that declares it.
type Provider struct {
	// Namespace as written, e.g. "Contoso.Data".
	Namespace string
	// Locations sorted by name; empty when no file declares a location map.
	Locations []*Location
	// Types sorted by name; "parent" sorts before "parent/child".
	Types []*ResourceType
	// Files are the source files that declare this namespace, sorted.
	Files []string
	Span  diag.Span
}

// Location maps a location name to the address of the resource provider.
type Location struct {
	Name    string
	Address string
	Span    diag.Span
}

// ResourceType is one resource type of a provider.
type ResourceType struct {
	// Name is the type name within its namespace; child types are
	// "parent/child" (e.g. "contosoBuses/queues").
	Name string
	// Parent is the name of the parent type ("contosoBuses"), or "" for a
	// top-level type. The parent is always declared in the same provider.
	Parent      string
	Namespace   string
	Description string
	// Capabilities as written (PascalCase names).
	Capabilities []string
	// DefaultAPIVersion is always one of APIVersions: the declared default,
	// else the newest stable version, else the newest preview.
	DefaultAPIVersion string
	// DefaultDeclared reports whether the manifest named the default.
	DefaultDeclared bool
	// APIVersions sorted oldest first (see CompareVersions).
	APIVersions []*APIVersion
	Span        diag.Span
}

// FullName returns "Namespace/name", e.g. "Contoso.Bus/contosoBuses/queues".
func (t *ResourceType) FullName() string { return t.Namespace + "/" + t.Name }

// Segments returns the type name split at "/": ["contosoBuses", "queues"].
func (t *ResourceType) Segments() []string { return strings.Split(t.Name, "/") }

// Leaf returns the last segment of the type name ("queues").
func (t *ResourceType) Leaf() string {
	s := t.Segments()
	return s[len(s)-1]
}

// Version returns the named API version or nil.
func (t *ResourceType) Version(name string) *APIVersion {
	for _, v := range t.APIVersions {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// APIVersion is one API version of a resource type with its schema.
type APIVersion struct {
	// Name is "YYYY-MM-DD" or "YYYY-MM-DD-preview".
	Name    string
	Preview bool
	// Schema describes the resource's "properties". It is never nil: for an
	// undeclared schema (`schema: {}`) it is a Map of Any.
	Schema *Schema
	// Undeclared reports `schema: {}`: the type has no declared schema.
	Undeclared bool
	// Source is the schema exactly as written, converted to JSON with keys in
	// source order. Publish registers it and the registry stores it verbatim.
	Source json.RawMessage
	Span   diag.Span
}

// Kind is the kind of a schema node.
type Kind int

// Schema kinds. An object with a typed additionalProperties schema and no
// properties is a Map; `type: any` is Any.
const (
	String Kind = iota + 1
	Integer
	Number
	Boolean
	Object
	Map
	Array
	Any
)

var kindNames = [...]string{"", "string", "integer", "number", "boolean", "object", "map", "array", "any"}

// typeKinds are the values `type` takes in a schema of the supported subset,
// in the order the docs list them, with the kind each one gives (an object
// with a typed additionalProperties becomes a Map later). This is the one
// list: the checker, its hints and the manifest's JSON Schema use it.
var typeKinds = []struct {
	name string
	kind Kind
}{
	{"string", String}, {"integer", Integer}, {"number", Number}, {"boolean", Boolean},
	{"object", Object}, {"array", Array}, {"any", Any},
}

// TypeNames returns the values `type` may take, in documentation order.
func TypeNames() []string {
	out := make([]string, len(typeKinds))
	for i, t := range typeKinds {
		out[i] = t.name
	}
	return out
}

// KindOfType returns the kind a `type` value gives, and false when the
// value is not a type of the subset.
func KindOfType(name string) (Kind, bool) {
	for _, t := range typeKinds {
		if t.name == name {
			return t.kind, true
		}
	}
	return 0, false
}

// String returns the kind's lower-case name ("map" for Map).
func (k Kind) String() string {
	if k <= 0 || int(k) >= len(kindNames) {
		return "invalid"
	}
	return kindNames[k]
}

// Schema is one checked schema node.
type Schema struct {
	Kind Kind
	// Ref names the built-in schema this node was resolved from
	// ("RecipeStatus"), or "". Nodes with the same Ref are identical.
	Ref string
	// Path is the JSON pointer of this node in its manifest.
	Path string

	Title       string
	Description string
	// Format as written (e.g. "date-time", "int32", "uuid"); always fits Kind.
	Format     string
	ReadOnly   bool
	WriteOnly  bool
	Nullable   bool
	Deprecated bool
	// Sensitive is x-radius-sensitive; only on String and Object/Map nodes.
	Sensitive bool
	// Default value, of this node's kind, inside Enum and the bounds; or nil.
	Default *Value
	// Example as written, or nil.
	Example *Value
	// Enum values (String, Integer, Number or Boolean kinds), in source
	// order, unique, each of this node's kind; empty when unconstrained.
	Enum []Value

	// String constraints.
	MinLength *int64
	MaxLength *int64
	// Pattern is an ECMA-262 regular expression that compiles.
	Pattern string

	// Integer and Number constraints. ExclusiveMinimum/Maximum refer to
	// Minimum/Maximum (OpenAPI 3.0 boolean form).
	Minimum          *json.Number
	Maximum          *json.Number
	ExclusiveMinimum bool
	ExclusiveMaximum bool
	// MultipleOf is > 0 when set.
	MultipleOf *json.Number

	// Array: Items is never nil for Array.
	Items       *Schema
	MinItems    *int64
	MaxItems    *int64
	UniqueItems bool

	// Object: Properties in source order (possibly none: an empty closed
	// object). Map: AdditionalProperties is the value schema and Properties
	// is empty. Object and Map may also carry MinProperties/MaxProperties.
	Properties           []*Property
	AdditionalProperties *Schema
	MinProperties        *int64
	MaxProperties        *int64

	// Reference is x-resource-type (String nodes only): the value is the
	// resource ID of a resource of one of Reference.Types; nil when the node
	// is no reference.
	Reference *Reference

	// Extensions are the x- keys other than x-radius-sensitive and
	// x-resource-type, in source order.
	Extensions []Extension
	Span       diag.Span
}

// Property is a named property of an Object schema.
type Property struct {
	Name     string
	Required bool
	Schema   *Schema
	Span     diag.Span
}

// Property returns the named property or nil.
func (s *Schema) Property(name string) *Property {
	for _, p := range s.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Reference is what a reference-valued string points at.
type Reference struct {
	// Types are full resource type names ("Contoso.Data/postgresDatabases"),
	// each once; empty for a generic reference (x-resource-type: "*").
	Types []string
	// Span is the position of the x-resource-type value, TypeSpans that of
	// each of Types.
	Span      diag.Span
	TypeSpans []diag.Span
}

// Extension is an x- annotation kept for emitters that want it.
type Extension struct {
	Name  string
	Value json.RawMessage
}

// Value is a literal from a schema (an enum member, a default, an example).
type Value struct {
	// Kind of the literal: String, Integer, Number, Boolean, Object (a JSON
	// object), Array, or Any for null.
	Kind Kind
	Str  string
	// Num holds Integer and Number literals exactly as written (normalised).
	Num  json.Number
	Bool bool
	// JSON is the literal's canonical JSON encoding; always set.
	JSON json.RawMessage
}

// Walk calls fn for s and every schema below it, depth first, in source
// order (properties, then additionalProperties, then items). It stops
// descending below a node when fn returns false.
func Walk(s *Schema, fn func(*Schema) bool) {
	if s == nil || !fn(s) {
		return
	}
	for _, p := range s.Properties {
		Walk(p.Schema, fn)
	}
	Walk(s.AdditionalProperties, fn)
	Walk(s.Items, fn)
}
