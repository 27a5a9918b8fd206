package docs

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/model"
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
		b.WriteString(indent + bicepKey(p.Name) + ": " + value(p.Schema, depth) + "\n")
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
	return bicepJSON(v.JSON)
}

// bicepJSON converts a JSON value to a Bicep expression: strings quoted
// with single quotes, non-integer numbers through json(), objects and
// arrays on one line.
func bicepJSON(raw json.RawMessage) string {
	var v any
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "null"
	}
	return bicepValue(v)
}

func bicepValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return x.String()
		}
		return "json('" + x.String() + "')"
	case string:
		return bicepString(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = bicepValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = bicepKey(k) + ": " + bicepValue(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return "null"
}

// bicepString quotes s as a Bicep string literal.
func bicepString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "${", `\${`)
	return "'" + r.Replace(s) + "'"
}

// bicepKey writes an object key: bare when it is an identifier.
func bicepKey(k string) string {
	for i, r := range k {
		if !(r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')) {
			return bicepString(k)
		}
	}
	if k == "" {
		return "''"
	}
	return k
}
