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
//
// Schema nodes are package schema's model, the one model of the supported
// subset that the registry reads too; the aliases below keep the IR in one
// import for the emitters.
package model

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
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
	// Icon is the type's icon, an SVG document (udtc.yaml's icons), or "".
	Icon string
	// DefaultAPIVersion is always one of APIVersions: the declared default,
	// else the newest stable version, else the newest preview.
	DefaultAPIVersion string
	// DefaultDeclared reports whether the manifest named the default.
	DefaultDeclared bool
	// APIVersions sorted oldest first (see api.CompareVersions).
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
	if i := slices.IndexFunc(t.APIVersions, func(v *APIVersion) bool { return v.Name == name }); i >= 0 {
		return t.APIVersions[i]
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
	// Lifecycle is the version's deprecation and sunset from udtc.yaml
	// (checked: the replacement is a newer version of the type), nil for
	// none. Every emitter shows it; registration sends it.
	Lifecycle *Lifecycle
	Span      diag.Span
}

// Lifecycle is an API version's deprecation and sunset (api.Lifecycle,
// the one home of its rules and of the sentence every output shows).
type Lifecycle = api.Lifecycle

// The schema nodes the IR holds (package schema; the checker builds them
// with schema's own types).
type (
	// Schema is one checked schema node.
	Schema = schema.Schema
	// Property is a named property of an Object schema.
	Property = schema.Property
	// Value is a literal from a schema (an enum member, a default, an example).
	Value = schema.Value
)

// Schema kinds (see schema.Kind).
const (
	String  = schema.String
	Integer = schema.Integer
	Number  = schema.Number
	Boolean = schema.Boolean
	Object  = schema.Object
	Map     = schema.Map
	Array   = schema.Array
	Any     = schema.Any
)

// TypeNames returns the values `type` may take, in documentation order
// (schema.TypeNames).
func TypeNames() []string { return schema.TypeNames() }

// Walk calls fn for s and every schema below it (schema.Walk).
func Walk(s *Schema, fn func(*Schema) bool) { schema.Walk(s, fn) }

// Constraints returns what s requires or declares beyond its kind, one
// sentence each (schema.Constraints).
func Constraints(s *Schema, lit func(Value) string) []schema.Constraint {
	return schema.Constraints(s, lit)
}
