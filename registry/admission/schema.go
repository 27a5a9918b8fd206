package admission

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/kin"
	"github.com/udtc/udtc/schema/pattern"
)

// MaxSchemaDepth bounds the nesting of a schema Compile accepts (the checker
// allows less; this only guards against hostile documents).
const MaxSchemaDepth = schema.MaxDepth

// PatternBudget bounds the work one Admit spends matching patterns, all its
// values together, in steps that depend only on the patterns and the
// values (pattern.Budget, pattern.Cost). A value whose match costs more
// than is left is a violation, refused without running.
const PatternBudget = pattern.DefaultBudget

// node is one compiled schema node: what Admit needs of a schema.Schema,
// read once.
type node struct {
	kind      schema.Kind
	nullable  bool
	readOnly  bool
	sensitive bool

	// kin holds the keyword constraints kin-openapi evaluates on this node's
	// value alone (no children, no pattern, no lengths, no multipleOf);
	// nil when there are none.
	kin *openapi3.Schema

	enum []any
	// numeric is an Integer or Number node's schema, for its bounds
	// (schema.BelowMinimum, exact); width is an Integer node's range.
	numeric     *schema.Schema
	width       schema.Format
	multipleOf  *json.Number
	format      schema.Format // a format validated here, else the zero Format
	minLength   *int64
	maxLength   *int64
	pattern     *pattern.Pattern
	patternText string
	minItems    *int64
	maxItems    *int64
	minProps    *int64
	maxProps    *int64

	props    map[string]*node
	names    []string // property names, sorted
	required map[string]bool
	values   *node // map values
	items    *node // array items

	hasDefault bool
	def        any // decoded with UseNumber; deep-copied before use

	// References (x-resource-type on a string).
	reference bool
	refTypes  []string // allowed full type names; nil for "*"
}

// Schema is a compiled API version schema. It is immutable and safe for
// concurrent use.
type Schema struct {
	root         *node
	model        *schema.Schema
	openapi      *openapi3.Schema
	hasSensitive bool
	hasRefs      bool
	opts         []openapi3.SchemaValidationOption
}

// Compile compiles an API version's registered schema (the raw JSON the
// registry stores), read as schema.Decode reads it. `{}` (or null, or
// empty) declares no schema: any properties are accepted. It returns an
// error, naming the schema path, for a schema outside the supported
// subset: a root that is not an object, polymorphism, an unknown `$ref`, a
// pattern that does not compile, and so on.
func Compile(raw json.RawMessage) (*Schema, error) {
	s, err := schema.Decode(raw)
	if err != nil {
		return nil, err
	}
	if s.Kind != schema.Object && s.Kind != schema.Map {
		return nil, &schema.Problem{Message: "the root must be `type: object`, not " + kindWords(s.Kind)}
	}
	patterns, err := compilePatterns(s)
	if err != nil {
		return nil, err
	}
	full := kin.Schema(s)
	// Patterns were compiled above as ECMA-262; kin-openapi would compile
	// them again and keep them in its process-wide cache.
	if err := full.Validate(context.Background(), openapi3.DisableSchemaPatternValidation()); err != nil {
		return nil, fmt.Errorf("schema: not a well-formed OpenAPI 3 schema: %w", err)
	}
	c := &Schema{root: compile(s, patterns), model: s, openapi: full, opts: validationOptions()}
	schema.Walk(s, func(n *schema.Schema) bool {
		c.hasSensitive = c.hasSensitive || n.Sensitive
		c.hasRefs = c.hasRefs || n.Reference != nil
		return true
	})
	return c, nil
}

// OpenAPI returns the schema as kin-openapi's model (kin.Schema: objects
// closed with additionalProperties: false, built-in references resolved,
// `any` untyped). Callers must not modify it.
func (s *Schema) OpenAPI() *openapi3.Schema { return s.openapi }

// HasSensitive reports whether any property is x-radius-sensitive.
func (s *Schema) HasSensitive() bool { return s.hasSensitive }

// compilePatterns compiles every pattern of s (pattern.Compile) and checks the
// type names of its references, the parts of the subset schema.Decode
// leaves to the registry.
func compilePatterns(s *schema.Schema) (map[*schema.Schema]*pattern.Pattern, error) {
	patterns := map[*schema.Schema]*pattern.Pattern{}
	var err error
	schema.Walk(s, func(n *schema.Schema) bool {
		if err != nil {
			return false
		}
		if r := n.Reference; r != nil {
			for _, t := range r.Types {
				if p := api.FullTypeNameProblem(t); p != "" {
					err = &schema.Problem{Path: n.Path, Message: fmt.Sprintf("`%s` type %q %s", schema.ExtensionResourceType, t, p)}
					return false
				}
			}
		}
		if n.Pattern == "" || n.Kind != schema.String {
			return true
		}
		re, perr := pattern.Compile(n.Pattern)
		if perr != nil {
			err = &schema.Problem{Path: n.Path, Message: fmt.Sprintf("pattern does not compile as ECMA-262: %v", perr)}
			return false
		}
		patterns[n] = re
		return true
	})
	return patterns, err
}

// compile reads a decoded schema node into a node, its kin-openapi
// constraints built once.
func compile(s *schema.Schema, patterns map[*schema.Schema]*pattern.Pattern) *node {
	n := &node{
		kind: s.Kind, nullable: s.Nullable, readOnly: s.ReadOnly, sensitive: s.Sensitive,
		minLength: s.MinLength, maxLength: s.MaxLength, pattern: patterns[s], patternText: s.Pattern,
		minItems: s.MinItems, maxItems: s.MaxItems, minProps: s.MinProperties, maxProps: s.MaxProperties,
		multipleOf: s.MultipleOf,
	}
	if n.kind == 0 {
		n.kind = schema.Any
	}
	switch f, ok := schema.LookupFormat(s.Format); {
	case s.Kind == schema.Integer:
		n.numeric, n.width = s, schema.IntegerWidth(s)
	case s.Kind == schema.Number:
		n.numeric = s
	case ok && f.Kind == s.Kind && f.Validated():
		n.format = f
	}
	if s.Reference != nil {
		n.reference, n.refTypes = true, s.Reference.Types
	}
	if s.Default != nil {
		n.hasDefault, n.def = true, kin.Value(*s.Default)
	}
	n.children(s, patterns)
	n.kin = n.local(s)
	return n
}

// children compiles the properties, map values or array items of s.
func (n *node) children(s *schema.Schema, patterns map[*schema.Schema]*pattern.Pattern) {
	switch s.Kind {
	case schema.Object:
		n.props, n.required = map[string]*node{}, map[string]bool{}
		for _, p := range s.Properties {
			n.props[p.Name] = compile(p.Schema, patterns)
			n.names = append(n.names, p.Name)
			n.required[p.Name] = p.Required
		}
		slices.Sort(n.names)
	case schema.Map:
		n.values = compile(s.AdditionalProperties, patterns)
	case schema.Array:
		n.items = compile(s.Items, patterns)
	}
}

// local is the part of s's keywords kin-openapi checks on a node's value
// alone (enum, validated string formats, item and property counts), or
// nil when there is none: not what lies below, nor the lengths and the
// pattern (checked here, in characters and as ECMA-262), nor a number's
// enum, bounds and integer width (checked here, exactly, not as float64),
// nor multipleOf (schema.MultipleOf, the subset's rule), nor annotations.
// It keeps the enum, for messages, in n.enum.
func (n *node) local(s *schema.Schema) *openapi3.Schema {
	all := kin.Keywords(s)
	n.enum = all.Enum
	k := &openapi3.Schema{Type: all.Type, Nullable: all.Nullable, ReadOnly: all.ReadOnly, Enum: all.Enum, Format: n.format.Name}
	switch s.Kind {
	case schema.Integer, schema.Number:
		k.Enum = nil // compared exactly (schema.NumberInEnum), not as float64
	case schema.Array:
		k.UniqueItems, k.MinItems, k.MaxItems = all.UniqueItems, all.MinItems, all.MaxItems
	case schema.Object, schema.Map:
		k.MinProps, k.MaxProps = all.MinProps, all.MaxProps
	}
	if len(k.Enum) == 0 && k.Format == "" && !k.UniqueItems &&
		s.MinItems == nil && k.MaxItems == nil && s.MinProperties == nil && k.MaxProps == nil {
		return nil
	}
	return k
}

// kindWords names what a value of kind k is, for messages.
func kindWords(k schema.Kind) string {
	switch k {
	case schema.String:
		return "a string"
	case schema.Integer:
		return "an integer"
	case schema.Number:
		return "a number"
	case schema.Boolean:
		return "a boolean"
	case schema.Object, schema.Map:
		return "an object"
	case schema.Array:
		return "an array"
	}
	return "any value"
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
