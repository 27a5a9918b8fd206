// Package manifest owns the manifest file format: the wire structs that
// define its keys (and, through invopop/jsonschema, its JSON Schema), and the
// strict YAML/JSON loader that keeps source positions and enforces the input
// limits. The checker (generator/check) walks what Load returns.
package manifest

import (
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
)

// File is the wire form of one manifest file. It is never filled by
// decoding: it defines the keys the checker accepts and the published JSON
// Schema, so the two cannot drift apart.
type File struct {
	Namespace string              `json:"namespace,omitempty" jsonschema:"description=Resource provider namespace (Radius spelling)\\, e.g. Contoso.Data. Give either namespace or name."`
	Name      string              `json:"name,omitempty" jsonschema:"description=Resource provider namespace (the design's spelling). Give either namespace or name."`
	Location  map[string]string   `json:"location,omitempty" jsonschema:"description=Location name to resource provider address (an absolute http or https URL)."`
	Types     map[string]TypeDecl `json:"types" jsonschema:"required,description=Resource types by name; child types are named parent/child."`
}

// TypeDecl is the wire form of one resource type.
type TypeDecl struct {
	Description       string                 `json:"description,omitempty" jsonschema:"description=What the resource type is for (Markdown)."`
	Capabilities      []string               `json:"capabilities,omitempty" jsonschema:"description=Capabilities in PascalCase\\, e.g. SupportsRecipes."`
	DefaultAPIVersion string                 `json:"defaultApiVersion,omitempty" jsonschema:"description=One of apiVersions; defaults to the newest stable version\\, else the newest preview."`
	APIVersions       map[string]VersionDecl `json:"apiVersions" jsonschema:"required,description=API versions by name: YYYY-MM-DD or YYYY-MM-DD-preview."`
}

// VersionDecl is the wire form of one API version.
type VersionDecl struct {
	Schema *Schema `json:"schema" jsonschema:"required,description=Schema of the resource's properties: type object\\, or {} for no declared schema."`
}

// Schema is the wire form of the supported schema subset. Keywords outside it
// are diagnostics; see docs/schema-subset.md.
type Schema struct {
	Type        string `json:"type,omitempty"` // one of model.TypeNames (see JSONSchema)
	Ref         string `json:"$ref,omitempty" jsonschema:"description=Only built-in schemas: https://radapp.io/schemas/v1#RecipeStatus"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Format      string `json:"format,omitempty"`
	Enum        []any  `json:"enum,omitempty"`
	Default     any    `json:"default,omitempty"`
	Example     any    `json:"example,omitempty"`
	Nullable    bool   `json:"nullable,omitempty"`
	ReadOnly    bool   `json:"readOnly,omitempty"`
	WriteOnly   bool   `json:"writeOnly,omitempty"`
	Deprecated  bool   `json:"deprecated,omitempty"`
	Sensitive   bool   `json:"x-radius-sensitive,omitempty" jsonschema:"description=The value is a secret: never shown in logs or outputs."`

	MinLength *int64  `json:"minLength,omitempty" jsonschema:"minimum=0"`
	MaxLength *int64  `json:"maxLength,omitempty" jsonschema:"minimum=0"`
	Pattern   string  `json:"pattern,omitempty" jsonschema:"description=ECMA-262 regular expression."`
	Minimum   float64 `json:"minimum,omitempty"`
	Maximum   float64 `json:"maximum,omitempty"`
	// ExclusiveMinimum and ExclusiveMaximum are OpenAPI 3.0 booleans.
	ExclusiveMinimum bool    `json:"exclusiveMinimum,omitempty"`
	ExclusiveMaximum bool    `json:"exclusiveMaximum,omitempty"`
	MultipleOf       float64 `json:"multipleOf,omitempty" jsonschema:"exclusiveMinimum=0"`

	Items       *Schema `json:"items,omitempty"`
	MinItems    *int64  `json:"minItems,omitempty" jsonschema:"minimum=0"`
	MaxItems    *int64  `json:"maxItems,omitempty" jsonschema:"minimum=0"`
	UniqueItems bool    `json:"uniqueItems,omitempty"`

	Properties           map[string]*Schema    `json:"properties,omitempty"`
	Required             []string              `json:"required,omitempty"`
	AdditionalProperties *AdditionalProperties `json:"additionalProperties,omitempty"`
	MinProperties        *int64                `json:"minProperties,omitempty" jsonschema:"minimum=0"`
	MaxProperties        *int64                `json:"maxProperties,omitempty" jsonschema:"minimum=0"`
}

// AdditionalProperties is a typed value schema (a map) or false (closed).
type AdditionalProperties struct{}

// JSONSchema describes additionalProperties: a schema or false.
func (AdditionalProperties) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{
		{Ref: "#/$defs/Schema"},
		{Type: "boolean", Const: false},
	}}
}

// Keys returns the JSON keys of a wire struct, in declaration order.
func Keys(v any) []string {
	t := reflect.TypeOf(v)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}
