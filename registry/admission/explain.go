package admission

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/kin"
)

// Field describes one place of a schema as `udtc explain` shows it, like
// kubectl explain: its kind (<string>, <[]Object>, <map[string]integer>),
// whether it is required, its constraints in words and its description.
type Field struct {
	Name        string   `json:"name,omitempty"`
	Kind        string   `json:"kind"`
	Required    bool     `json:"required,omitempty"`
	Constraints []string `json:"constraints,omitempty"`
	Description string   `json:"description,omitempty"`
}

// PathError is Explain's error for a property the schema does not have.
type PathError struct {
	Name string   // the property asked for
	At   []string // the path to the place it was looked for
	// Properties are the names of the properties there, sorted.
	Properties []string
}

func (e *PathError) Error() string {
	at := strings.Join(append([]string{Root}, e.At...), ".")
	if len(e.Properties) == 0 {
		return fmt.Sprintf("no property %q at %s (it has no properties)", e.Name, at)
	}
	return fmt.Sprintf("no property %q at %s (properties: %s)", e.Name, at, strings.Join(e.Properties, ", "))
}

// ItemsStep and ValuesStep name, in an Explain path, the items of an array
// and the values of a map (the schema keywords), where no property of that
// name is declared: `extensions.items` is the schema of each extension.
const (
	ItemsStep  = "items"
	ValuesStep = "additionalProperties"
)

// Explain describes the place at path below the root and the properties
// there, sorted by name. A step is a property name (matched
// case-insensitively, an exact match first; array items and map values are
// stepped into), or ItemsStep or ValuesStep on an array or map without a
// property of that name. A name the schema does not have is a *PathError.
func (s *Schema) Explain(path []string) (Field, []Field, error) {
	node, field := s.model, describe("", s.model, false)
	for i, name := range path {
		p := child(node, name)
		if p == nil {
			inner := element(node, name)
			if inner == nil {
				return Field{}, nil, &PathError{Name: name, At: path[:i], Properties: propertyNames(node)}
			}
			node, field = inner, describe(name, inner, false)
			continue
		}
		node, field = p.Schema, describe(name, p.Schema, p.Required)
	}
	var children []Field
	for _, p := range sortedProperties(node) {
		children = append(children, describe(p.Name, p.Schema, p.Required))
	}
	return field, children, nil
}

// container returns the node whose properties a path steps into: s itself,
// or its array items or map values, repeatedly.
func container(s *schema.Schema) *schema.Schema {
	for {
		switch s.Kind {
		case schema.Array:
			s = s.Items
		case schema.Map:
			s = s.AdditionalProperties
		default:
			return s
		}
	}
}

// element returns the items of array s for ItemsStep and the values of map
// s for ValuesStep, else nil.
func element(s *schema.Schema, step string) *schema.Schema {
	switch {
	case s.Kind == schema.Array && strings.EqualFold(step, ItemsStep):
		return s.Items
	case s.Kind == schema.Map && strings.EqualFold(step, ValuesStep):
		return s.AdditionalProperties
	}
	return nil
}

// child returns the property of s's container named name: the one spelled
// so, else the first whose name differs only in case.
func child(s *schema.Schema, name string) *schema.Property {
	c := container(s)
	if p := c.Property(name); p != nil {
		return p
	}
	for _, p := range c.Properties {
		if strings.EqualFold(p.Name, name) {
			return p
		}
	}
	return nil
}

func sortedProperties(s *schema.Schema) []*schema.Property {
	props := slices.Clone(container(s).Properties)
	slices.SortFunc(props, func(a, b *schema.Property) int { return strings.Compare(a.Name, b.Name) })
	return props
}

func propertyNames(s *schema.Schema) []string {
	var names []string
	for _, p := range sortedProperties(s) {
		names = append(names, p.Name)
	}
	return names
}

// kindOf is a node's kind as kubectl explain writes it: string, []Object,
// map[string]integer, any.
func kindOf(s *schema.Schema) string {
	switch s.Kind {
	case schema.Array:
		return "[]" + kindOf(s.Items)
	case schema.Map:
		return "map[string]" + kindOf(s.AdditionalProperties)
	case schema.Object:
		return "Object"
	case schema.Any, 0:
		return "any"
	}
	return s.Kind.String()
}

// describe is the Field of s, the schema of property name.
func describe(name string, s *schema.Schema, required bool) Field {
	f := Field{Name: name, Kind: kindOf(s), Required: required, Description: s.Description}
	add := func(format string, args ...any) { f.Constraints = append(f.Constraints, fmt.Sprintf(format, args...)) }
	if s.ReadOnly {
		add("read-only")
	}
	if s.WriteOnly {
		add("write-only")
	}
	if s.Deprecated {
		add("deprecated")
	}
	if s.Sensitive {
		add("sensitive: encrypted at rest, never returned by GET or LIST")
	}
	if s.Reference != nil {
		add("reference to a resource of type %s", jsonText(schema.ReferenceValue(s.Reference.Types)))
	}
	if s.Nullable {
		add("nullable")
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = jsonText(kin.Value(v))
		}
		add("enum: %s", strings.Join(vals, ", "))
	}
	if s.Default != nil && s.Default.Kind != schema.Any { // a null default is none
		add("default: %s", jsonText(kin.Value(*s.Default)))
	}
	f.Constraints = append(f.Constraints, limits(s)...)
	if inner := elementConstraints(s); inner != "" {
		f.Constraints = append(f.Constraints, inner)
	}
	return f
}

// elementConstraints are the constraints of the items of array s or the
// values of map s (their enum, lengths, pattern...) in one line, "each
// item: enum: \"a\", \"b\"", or "" when they have none.
func elementConstraints(s *schema.Schema) string {
	what, inner := "each item", s.Items
	if s.Kind == schema.Map {
		what, inner = "each value", s.AdditionalProperties
	}
	if (s.Kind != schema.Array && s.Kind != schema.Map) || inner == nil {
		return ""
	}
	c := describe("", inner, false).Constraints
	if len(c) == 0 {
		return ""
	}
	return what + ": " + strings.Join(c, "; ")
}

// limits are s's bounds, multipleOf, lengths, counts, uniqueItems,
// pattern and format in words.
func limits(s *schema.Schema) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	number := func(n *json.Number) string {
		f, _ := strconv.ParseFloat(string(*n), 64)
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	if s.Minimum != nil {
		add("%s %s", comparison(">", s.ExclusiveMinimum), number(s.Minimum))
	}
	if s.Maximum != nil {
		add("%s %s", comparison("<", s.ExclusiveMaximum), number(s.Maximum))
	}
	if s.MultipleOf != nil {
		add("multiple of %s", number(s.MultipleOf))
	}
	for _, c := range []struct {
		what   string
		lo, hi *int64
	}{{"length", s.MinLength, s.MaxLength}, {"items", s.MinItems, s.MaxItems}, {"properties", s.MinProperties, s.MaxProperties}} {
		var lo int64
		if c.lo != nil {
			lo = *c.lo
		}
		switch {
		case c.hi != nil && lo > 0:
			add("%s %d to %d", c.what, lo, *c.hi)
		case c.hi != nil:
			add("%s at most %d", c.what, *c.hi)
		case lo > 0:
			add("%s at least %d", c.what, lo)
		}
	}
	if s.UniqueItems {
		add("unique items")
	}
	if s.Pattern != "" {
		add("pattern: %s", s.Pattern)
	}
	if s.Format != "" {
		add("format: %s", s.Format)
	}
	return out
}

// comparison is op for an exclusive bound, op= for an inclusive one.
func comparison(op string, exclusive bool) string {
	if exclusive {
		return op
	}
	return op + "="
}
