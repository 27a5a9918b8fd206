package schema

import (
	"encoding/json"
	"slices"
	"strings"
)

// Span is a 1-based source range of the text a schema was read from: the
// checker's manifests (generator/diag.Span has the same fields, so the
// checker converts with diag.Span(s.Span)). Schemas read by Decode have
// none.
type Span struct {
	File      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
}

// Schema is one schema node. The checker builds it from a manifest (every
// invariant documented here holds then); Decode reads it from the JSON the
// registry stores, which may break them (Decode says where).
type Schema struct {
	Kind Kind
	// Ref names the built-in schema this node was resolved from
	// ("RecipeStatus"), or "". Nodes with the same Ref are identical.
	Ref string
	// Path is the JSON pointer of this node in its manifest (or, for Decode,
	// in its JSON document).
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
	// ExclusiveMinimum/Maximum refer to Minimum/Maximum (OpenAPI 3.0
	// boolean form); UniqueItems is an Array constraint. They sit with the
	// other flags so that all of them take one word: the checker builds a
	// Schema for every node of every manifest.
	ExclusiveMinimum bool
	ExclusiveMaximum bool
	UniqueItems      bool
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

	// Integer and Number constraints (and ExclusiveMinimum/Maximum above).
	Minimum *json.Number
	Maximum *json.Number
	// MultipleOf is > 0 when set.
	MultipleOf *json.Number

	// Array: Items is never nil for Array (and UniqueItems above).
	Items    *Schema
	MinItems *int64
	MaxItems *int64

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
	Span       Span

	// src is the node as Decode read it; nil for nodes built otherwise (a
	// pointer, so that the checker's many nodes pay one word for it).
	src *source
}

// source is a node as Decode read it: the whole object and its members in
// document order, each value as written.
type source struct {
	raw     json.RawMessage
	members []member
}

// written returns the members of s as read; none for nodes built
// otherwise.
func (s *Schema) written() []member {
	if s == nil || s.src == nil {
		return nil
	}
	return s.src.members
}

// member is a key of a JSON object and its value exactly as written; obj
// holds the value's members when it is an object.
type member struct {
	key string
	val json.RawMessage
	obj []member
}

// Property is a named property of an Object schema.
type Property struct {
	Name     string
	Required bool
	Schema   *Schema
	Span     Span
}

// Property returns the named property or nil.
func (s *Schema) Property(name string) *Property {
	if i := slices.IndexFunc(s.Properties, func(p *Property) bool { return p.Name == name }); i >= 0 {
		return s.Properties[i]
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
	Span      Span
	TypeSpans []Span
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
	// Num holds Integer and Number literals exactly as written (normalised
	// by the checker).
	Num  json.Number
	Bool bool
	// JSON is the literal's JSON encoding; always set.
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

// Written returns the value of keyword k as the JSON Decode read s from
// (the last one when k is written twice), and whether s was written with
// k. Nodes not read by Decode have no written keywords.
func (s *Schema) Written(k string) (json.RawMessage, bool) {
	ms := s.written()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == k {
			return ms[i].val, true
		}
	}
	return nil, false
}

// JSON returns the node as Decode read it, or nil for a node built
// otherwise (or a nil node).
func (s *Schema) JSON() json.RawMessage {
	if s == nil || s.src == nil {
		return nil
	}
	return s.src.raw
}

// TypeWords is s's type in words, as the docs and the catalog show it:
// "string", "map of integer", "array of object", "object (RecipeStatus)".
func (s *Schema) TypeWords() string {
	var name string
	switch s.Kind {
	case Map:
		name = "map of " + s.AdditionalProperties.TypeWords()
	case Array:
		name = "array of " + s.Items.TypeWords()
	default:
		name = s.Kind.String()
	}
	if s.Ref != "" {
		name += " (" + s.Ref + ")"
	}
	return name
}

// ReferenceValue is the canonical x-resource-type value for the allowed
// types: "*" for none (any type), the name for one, else the list.
func ReferenceValue(types []string) any {
	switch len(types) {
	case 0:
		return AnyResourceType
	case 1:
		return types[0]
	}
	return types
}

// The extension keywords of the subset.
const (
	// ExtensionResourceType marks a reference-valued string.
	ExtensionResourceType = "x-resource-type"
	// ExtensionSensitive marks a secret.
	ExtensionSensitive = "x-radius-sensitive"
	// AnyResourceType is the x-resource-type value of a generic reference.
	AnyResourceType = "*"
)

// KnownExtensions returns the extension keywords the subset gives a
// meaning; any other x- keyword is an open extension, kept as written.
func KnownExtensions() []string { return []string{ExtensionResourceType, ExtensionSensitive} }

// SecurityKeywords returns the keywords whose absence leaves a secret
// exposed: a near-miss of one (`x-radius-sensitve`) is an error, not an
// open extension, because the value it meant to protect would be stored in
// clear, returned by GET and not `@secure` in Bicep.
func SecurityKeywords() []string { return []string{ExtensionSensitive} }

// IsExtension reports whether keyword k is an x- extension.
func IsExtension(k string) bool { return strings.HasPrefix(k, "x-") }
