package docs

import (
	"encoding/json"
	"strings"

	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/bicepsyntax"
)

// example is a Bicep declaration of one API version of t that sets every
// required writable property, with the example, default or first allowed
// value where the schema has one and a placeholder otherwise.
func example(t *model.ResourceType, v *model.APIVersion) string {
	var b strings.Builder
	b.WriteString("resource example '" + t.FullName() + "@" + v.Name + "' = {\n")
	// A child type declared at the top level names its parent too.
	name := strings.TrimSuffix(strings.Repeat("example/", len(t.Segments())), "/")
	b.WriteString("  name: '" + name + "'\n")
	if props := required(v.Schema, 2); props != "" {
		b.WriteString("  properties: {\n" + props + "  }\n")
	}
	b.WriteString("}")
	return b.String()
}

// required renders the required writable properties of an object node,
// one per line, at the given indentation depth.
func required(s *model.Schema, depth int) string {
	if s.Kind != model.Object {
		return ""
	}
	var b strings.Builder
	indent := strings.Repeat("  ", depth)
	for _, p := range s.Properties {
		if !p.Required || p.Schema.ReadOnly {
			continue
		}
		b.WriteString(indent + bicepsyntax.Key(p.Name) + ": " + value(p.Schema, depth) + "\n")
	}
	return b.String()
}

// value is an example value of a node in Bicep syntax.
func value(s *model.Schema, depth int) string {
	for _, v := range []*model.Value{s.Example, s.Default} {
		if v != nil {
			return literal(*v)
		}
	}
	if len(s.Enum) > 0 {
		return literal(s.Enum[0])
	}
	switch s.Kind {
	case model.String:
		return "'value'"
	case model.Integer:
		if lo := s.Minimum; lo != nil {
			if n, err := lo.Int64(); err == nil {
				if s.ExclusiveMinimum {
					n++
				}
				return itoa(n)
			}
		}
		return "0"
	case model.Number:
		return "json('0.0')"
	case model.Boolean:
		return "false"
	case model.Array:
		return "[]"
	case model.Object:
		inner := required(s, depth+1)
		if inner == "" {
			return "{}"
		}
		return "{\n" + inner + strings.Repeat("  ", depth) + "}"
	}
	return "{}"
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// literal renders a schema literal as a Bicep expression.
func literal(v model.Value) string {
	return bicepsyntax.JSON(v.JSON)
}
