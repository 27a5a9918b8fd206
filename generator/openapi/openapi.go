// Package openapi converts checked schemas (model.Schema) to kin-openapi's
// openapi3.Schema, the OpenAPI 3 model. Only tests use it: they check that
// every schema the checker accepts (fixtures, the Radius corpus, fuzzer
// inputs) is well-formed OpenAPI 3 according to an independent
// implementation, and that instances validate as the subset means them.
// Resource documents sent to the registry are validated by
// registry/admission, which starts from the registered schema's JSON and
// does not use this package. Patterns are ECMA-262 (dlclark/regexp2), as in
// the checker, not Go's RE2.
package openapi

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
)

// Schema converts a checked schema. Objects with declared properties are
// closed (additionalProperties: false), as the subset means them; maps
// carry their value schema; `any` has no type.
func Schema(s *model.Schema) *openapi3.Schema {
	o := &openapi3.Schema{
		Title: s.Title, Description: s.Description, Format: s.Format,
		Nullable: s.Nullable, ReadOnly: s.ReadOnly, WriteOnly: s.WriteOnly, Deprecated: s.Deprecated,
		Pattern: s.Pattern, UniqueItems: s.UniqueItems,
	}
	set := func(t string) { o.Type = &openapi3.Types{t} }
	switch s.Kind {
	case model.String:
		set(openapi3.TypeString)
	case model.Integer:
		set(openapi3.TypeInteger)
	case model.Number:
		set(openapi3.TypeNumber)
	case model.Boolean:
		set(openapi3.TypeBoolean)
	case model.Array:
		set(openapi3.TypeArray)
		o.Items = openapi3.NewSchemaRef("", Schema(s.Items))
	case model.Object:
		set(openapi3.TypeObject)
		o.Properties = openapi3.Schemas{}
		for _, p := range s.Properties {
			o.Properties[p.Name] = openapi3.NewSchemaRef("", Schema(p.Schema))
			if p.Required {
				o.Required = append(o.Required, p.Name)
			}
		}
		closed := false
		o.AdditionalProperties = openapi3.AdditionalProperties{Has: &closed}
	case model.Map:
		set(openapi3.TypeObject)
		o.AdditionalProperties = openapi3.AdditionalProperties{Schema: openapi3.NewSchemaRef("", Schema(s.AdditionalProperties))}
	}
	o.Min, o.Max, o.MultipleOf = float(s.Minimum), float(s.Maximum), float(s.MultipleOf)
	if s.ExclusiveMinimum {
		o.ExclusiveMin = openapi3.ExclusiveBound{Bool: &s.ExclusiveMinimum}
	}
	if s.ExclusiveMaximum {
		o.ExclusiveMax = openapi3.ExclusiveBound{Bool: &s.ExclusiveMaximum}
	}
	if s.MinLength != nil {
		o.MinLength = uint64(*s.MinLength)
	}
	o.MaxLength = unsigned(s.MaxLength)
	if s.MinItems != nil {
		o.MinItems = uint64(*s.MinItems)
	}
	o.MaxItems = unsigned(s.MaxItems)
	if s.MinProperties != nil {
		o.MinProps = uint64(*s.MinProperties)
	}
	o.MaxProps = unsigned(s.MaxProperties)
	for _, v := range s.Enum {
		o.Enum = append(o.Enum, value(v))
	}
	if s.Default != nil {
		o.Default = value(*s.Default)
	}
	if s.Example != nil {
		o.Example = value(*s.Example)
	}
	if s.Sensitive || s.Reference != nil || len(s.Extensions) > 0 {
		o.Extensions = map[string]any{}
		if s.Sensitive {
			o.Extensions["x-radius-sensitive"] = true
		}
		if s.Reference != nil {
			o.Extensions[api.ExtensionResourceType] = ReferenceValue(s.Reference.Types)
		}
		for _, e := range s.Extensions {
			o.Extensions[e.Name] = json.RawMessage(e.Value)
		}
	}
	return o
}

// ReferenceValue is the canonical x-resource-type value for the allowed
// types: "*" for none (any type), the name for one, else the list.
func ReferenceValue(types []string) any {
	switch len(types) {
	case 0:
		return api.AnyResourceType
	case 1:
		return types[0]
	}
	return types
}

func float(n *json.Number) *float64 {
	if n == nil {
		return nil
	}
	f, err := strconv.ParseFloat(string(*n), 64)
	if err != nil {
		return nil
	}
	return &f
}

func unsigned(n *int64) *uint64 {
	if n == nil {
		return nil
	}
	u := uint64(*n)
	return &u
}

// value decodes a literal the way encoding/json decodes instances, so enum
// membership compares like with like.
func value(v model.Value) any {
	var out any
	if err := json.Unmarshal(v.JSON, &out); err != nil {
		return nil
	}
	return out
}

// ecmaRegex compiles patterns as ECMA-262, like the checker.
type ecmaRegex struct{ re *regexp2.Regexp }

func (r ecmaRegex) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return err == nil && ok
}

func compile(expr string) (openapi3.RegexMatcher, error) {
	re, err := regexp2.Compile(expr, regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = time.Second
	return ecmaRegex{re}, nil
}

// Validate checks that the converted schema is a well-formed OpenAPI 3.0
// schema. For a schema the checker accepted it returns nil; anything else is
// a bug in the checker.
func Validate(ctx context.Context, s *model.Schema) error {
	return Schema(s).Validate(ctx, openapi3.SetRegexCompiler(compile), openapi3.EnableSchemaDefaultsValidation())
}

// ValidateInstance validates a decoded JSON value (the `properties` of a
// resource) against the converted schema and returns every violation. The
// tests use it to pin down what a schema of the subset means; the registry
// validates with registry/admission instead.
func ValidateInstance(s *model.Schema, instance any) error {
	return Schema(s).VisitJSON(instance, openapi3.MultiErrors(), openapi3.SetSchemaRegexCompiler(compile))
}
