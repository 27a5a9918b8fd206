// Package kin is the one conversion of the schema model (schema.Schema) to
// kin-openapi's OpenAPI 3 model, openapi3.Schema: admission validates
// resource documents with it, `udtc explain` reads it, and the tests use
// it to check that every schema the checker accepts is well-formed OpenAPI
// 3 for an independent implementation. It lives beside package schema,
// which imports the standard library only.
package kin

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/pattern"
)

// Schema converts a schema. Objects with declared properties are closed
// (additionalProperties: false), as the subset means them; maps carry
// their value schema; `any` has no type; built-in references are resolved
// (the model holds them resolved). Literals (enum members, defaults,
// examples) decode with numbers as json.Number, as admission decodes the
// documents it checks.
func Schema(s *schema.Schema) *openapi3.Schema {
	o := Keywords(s)
	children(o, s)
	return o
}

// Keywords converts s without what lies below it (properties, map values,
// items): its own keywords.
func Keywords(s *schema.Schema) *openapi3.Schema {
	o := &openapi3.Schema{
		Title: s.Title, Description: s.Description, Format: s.Format,
		Nullable: s.Nullable, ReadOnly: s.ReadOnly, WriteOnly: s.WriteOnly, Deprecated: s.Deprecated,
		Pattern: s.Pattern, UniqueItems: s.UniqueItems,
	}
	o.Type = Type(s.Kind)
	o.Min, o.Max, o.MultipleOf = float(s.Minimum), float(s.Maximum), float(s.MultipleOf)
	if s.ExclusiveMinimum {
		o.ExclusiveMin = openapi3.ExclusiveBound{Bool: &s.ExclusiveMinimum}
	}
	if s.ExclusiveMaximum {
		o.ExclusiveMax = openapi3.ExclusiveBound{Bool: &s.ExclusiveMaximum}
	}
	o.MinLength, o.MaxLength = lower(s.MinLength), unsigned(s.MaxLength)
	o.MinItems, o.MaxItems = lower(s.MinItems), unsigned(s.MaxItems)
	o.MinProps, o.MaxProps = lower(s.MinProperties), unsigned(s.MaxProperties)
	for _, v := range s.Enum {
		o.Enum = append(o.Enum, Value(v))
	}
	if s.Default != nil {
		o.Default = Value(*s.Default)
	}
	if s.Example != nil {
		o.Example = Value(*s.Example)
	}
	o.Extensions = extensions(s)
	return o
}

// Type is the OpenAPI type of a node of kind k: "object" for a Map, nil
// (untyped) for Any.
func Type(k schema.Kind) *openapi3.Types {
	if t := k.TypeName(); t != "" && k != schema.Any {
		return &openapi3.Types{t}
	}
	return nil
}

// children converts the properties, map values or items of s into o.
func children(o *openapi3.Schema, s *schema.Schema) {
	switch s.Kind {
	case schema.Array:
		o.Items = openapi3.NewSchemaRef("", Schema(s.Items))
	case schema.Object:
		o.Properties = openapi3.Schemas{}
		for _, p := range s.Properties {
			o.Properties[p.Name] = openapi3.NewSchemaRef("", Schema(p.Schema))
			if p.Required {
				o.Required = append(o.Required, p.Name)
			}
		}
		closed := false
		o.AdditionalProperties = openapi3.AdditionalProperties{Has: &closed}
	case schema.Map:
		o.AdditionalProperties = openapi3.AdditionalProperties{Schema: openapi3.NewSchemaRef("", Schema(s.AdditionalProperties))}
	}
}

// extensions are the x- keys of s: x-radius-sensitive when true, the
// canonical x-resource-type, and the others as written; nil for none.
func extensions(s *schema.Schema) map[string]any {
	if !s.Sensitive && s.Reference == nil && len(s.Extensions) == 0 {
		return nil
	}
	ext := map[string]any{}
	if s.Sensitive {
		ext[schema.ExtensionSensitive] = true
	}
	if s.Reference != nil {
		ext[schema.ExtensionResourceType] = schema.ReferenceValue(s.Reference.Types)
	}
	for _, e := range s.Extensions {
		ext[e.Name] = json.RawMessage(e.Value)
	}
	return ext
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

func lower(n *int64) uint64 {
	if n == nil {
		return 0
	}
	return uint64(*n)
}

// Value decodes a literal as admission decodes instances (numbers as
// json.Number), so enum membership compares like with like.
func Value(v schema.Value) any {
	dec := json.NewDecoder(bytes.NewReader(v.JSON))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil
	}
	return out
}

// ecmaRegex is a pattern compiled as the checker and admission compile it
// (pattern.Compile). kin-openapi keeps matchers in a process-wide cache, so
// one cannot hold a request's budget: each match gets a pattern.Budget of
// its own, and a value that cannot be matched within it does not match. Requests never reach here: admission matches
// patterns itself, under one budget per document.
type ecmaRegex struct{ re *pattern.Pattern }

func (r ecmaRegex) MatchString(s string) bool {
	ok, err := r.re.Match(nil, s)
	return err == nil && ok
}

func compile(expr string) (openapi3.RegexMatcher, error) {
	re, err := pattern.Compile(expr)
	if err != nil {
		return nil, err
	}
	return ecmaRegex{re}, nil
}

// Validate checks that the converted schema is well-formed OpenAPI 3.0,
// its patterns ECMA-262 and its defaults valid. For a schema the checker
// accepted it returns nil; anything else is a bug in the checker.
func Validate(ctx context.Context, s *schema.Schema) error {
	return Schema(s).Validate(ctx, openapi3.SetRegexCompiler(compile), openapi3.EnableSchemaDefaultsValidation())
}

// ValidateInstance validates a decoded JSON value (the `properties` of a
// resource; numbers as json.Number or float64) against the converted
// schema with kin-openapi alone and returns every violation. The tests use
// it to pin down what a schema of the subset means; the registry admits
// documents with registry/admission, which evaluates the structure itself.
func ValidateInstance(s *schema.Schema, instance any) error {
	return Schema(s).VisitJSON(instance, openapi3.MultiErrors(), openapi3.SetSchemaRegexCompiler(compile))
}
