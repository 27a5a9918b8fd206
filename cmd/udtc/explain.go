package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// explainFlags are the flags of `udtc explain`.
type explainFlags struct{ typeSourceFlags }

func explainCommand(e *env) *cli.Command {
	f := &explainFlags{}
	return &cli.Command{
		Name:      "explain",
		Usage:     "describe a resource type or one of its properties (like kubectl explain)",
		ArgsUsage: "NAMESPACE/TYPE[@VERSION][.path]",
		Description: "Describes a type's API version (the default one unless @VERSION is given) or a property below\n" +
			"it (.size, .status.recipe; array items and map values are stepped into): its type, constraints,\n" +
			"default, description and children, read from local manifests (--manifests) or a registry (--server).",
		Flags:  f.flags(),
		Action: func(c *cli.Context) error { return f.run(c, e) },
	}
}

// explained is `udtc explain --output json`.
type explained struct {
	Type        string           `json:"type"` // NAMESPACE/TYPE@VERSION
	Path        string           `json:"path,omitempty"`
	APIVersions []string         `json:"apiVersions"`
	Default     string           `json:"defaultApiVersion,omitempty"`
	Field       explainedField   `json:"field"`
	Children    []explainedField `json:"children,omitempty"`
}

type explainedField struct {
	Name        string   `json:"name,omitempty"`
	Kind        string   `json:"kind"`
	Required    bool     `json:"required,omitempty"`
	Constraints []string `json:"constraints,omitempty"`
	Description string   `json:"description,omitempty"`
}

func (f *explainFlags) run(c *cli.Context, e *env) error {
	if err := checkOutput(f.server.output); err != nil {
		return err
	}
	if c.Args().Len() != 1 {
		return usageErrorf("explain takes one argument: NAMESPACE/TYPE[@VERSION][.path]")
	}
	ref, err := api.ParseTypeRef(c.Args().First())
	if err != nil {
		return usageErrorf("%v", err)
	}
	res, err := f.lookup(c, e, ref)
	if err != nil {
		return err
	}
	schema, err := admission.Compile(res.schema)
	if err != nil {
		return fail(exitFail, fmt.Errorf("%s: the schema cannot be compiled: %w", res.ref, err))
	}
	s := schema.OpenAPI()
	out := explained{Type: res.ref.String(), APIVersions: res.summary.Versions(), Default: res.summary.DefaultAPIVersion,
		Path: strings.Join(ref.Path, ".")}
	out.Field = describe("", s, false)
	if len(ref.Path) == 0 {
		out.Field.Description = res.summary.Description
		if len(res.summary.Capabilities) > 0 {
			out.Field.Constraints = append(out.Field.Constraints, "capabilities: "+strings.Join(res.summary.Capabilities, ", "))
		}
	}
	for i, name := range ref.Path {
		next, required, ok := child(s, name)
		if !ok {
			return fail(exitFail, fmt.Errorf("%s has no property %q at %s (properties: %s)", res.ref, name,
				strings.Join(append([]string{"properties"}, ref.Path[:i]...), "."), strings.Join(childNames(s), ", ")))
		}
		s = next
		out.Field = describe(name, s, required)
	}
	for _, p := range properties(s) {
		out.Children = append(out.Children, describe(p.name, p.schema, p.required))
	}
	if f.server.output == "json" {
		return writeJSON(e.stdout, out)
	}
	printExplained(e.stdout, out)
	return nil
}

// container returns the schema whose properties a path steps into: the
// schema itself, or its array items or map values (repeatedly).
func container(s *openapi3.Schema) *openapi3.Schema {
	for s != nil {
		switch {
		case s.Items != nil && s.Items.Value != nil:
			s = s.Items.Value
		case len(s.Properties) == 0 && s.AdditionalProperties.Schema != nil && s.AdditionalProperties.Schema.Value != nil:
			s = s.AdditionalProperties.Schema.Value
		default:
			return s
		}
	}
	return s
}

func child(s *openapi3.Schema, name string) (*openapi3.Schema, bool, bool) {
	c := container(s)
	if c == nil {
		return nil, false, false
	}
	for k, ref := range c.Properties {
		if strings.EqualFold(k, name) && ref != nil && ref.Value != nil {
			return ref.Value, slices.Contains(c.Required, k), true
		}
	}
	return nil, false, false
}

// property is one property of the schema a path steps into.
type property struct {
	name     string
	schema   *openapi3.Schema
	required bool
}

// properties lists the properties of s's container (see container), by name.
func properties(s *openapi3.Schema) []property {
	c := container(s)
	if c == nil {
		return nil
	}
	var out []property
	for _, k := range slices.Sorted(maps.Keys(c.Properties)) {
		if ref := c.Properties[k]; ref != nil && ref.Value != nil {
			out = append(out, property{k, ref.Value, slices.Contains(c.Required, k)})
		}
	}
	return out
}

func childNames(s *openapi3.Schema) []string {
	var names []string
	for _, p := range properties(s) {
		names = append(names, p.name)
	}
	return names
}

// kindOf is a schema's type as kubectl explain writes it: <string>,
// <[]Object>, <map[string]integer>.
func kindOf(s *openapi3.Schema) string {
	if s == nil {
		return "any"
	}
	if s.Items != nil && s.Items.Value != nil {
		return "[]" + kindOf(s.Items.Value)
	}
	if len(s.Properties) == 0 && s.AdditionalProperties.Schema != nil && s.AdditionalProperties.Schema.Value != nil {
		return "map[string]" + kindOf(s.AdditionalProperties.Schema.Value)
	}
	if s.Type == nil || len(s.Type.Slice()) == 0 {
		return "any"
	}
	t := strings.Join(s.Type.Slice(), "|")
	if t == "object" {
		return "Object"
	}
	return t
}

func describe(name string, s *openapi3.Schema, required bool) explainedField {
	f := explainedField{Name: name, Kind: kindOf(s), Required: required, Description: s.Description}
	add := func(format string, args ...any) { f.Constraints = append(f.Constraints, fmt.Sprintf(format, args...)) }
	if s.ReadOnly {
		add("read-only")
	}
	if sens, _ := s.Extensions["x-radius-sensitive"].(bool); sens {
		add("sensitive: encrypted at rest, never returned")
	}
	if t, ok := s.Extensions[api.ExtensionResourceType]; ok {
		add("reference to a resource of type %s", jsonText(t))
	}
	if s.Nullable {
		add("nullable")
	}
	if len(s.Enum) > 0 {
		vals := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			vals[i] = jsonText(v)
		}
		add("enum: %s", strings.Join(vals, ", "))
	}
	if s.Default != nil {
		add("default: %s", jsonText(s.Default))
	}
	bound := func(name string, v *float64, excl openapi3.ExclusiveBound) {
		if v != nil {
			op := ">="
			if name == "maximum" {
				op = "<="
			}
			if excl.Bool != nil && *excl.Bool {
				op = op[:1]
			}
			add("%s %s", op, strconv.FormatFloat(*v, 'g', -1, 64))
		}
	}
	bound("minimum", s.Min, s.ExclusiveMin)
	bound("maximum", s.Max, s.ExclusiveMax)
	if s.MultipleOf != nil {
		add("multiple of %s", strconv.FormatFloat(*s.MultipleOf, 'g', -1, 64))
	}
	lengths := func(what string, lo uint64, hi *uint64) {
		switch {
		case hi != nil && lo > 0:
			add("%s %d to %d", what, lo, *hi)
		case hi != nil:
			add("%s at most %d", what, *hi)
		case lo > 0:
			add("%s at least %d", what, lo)
		}
	}
	lengths("length", s.MinLength, s.MaxLength)
	lengths("items", s.MinItems, s.MaxItems)
	lengths("properties", s.MinProps, s.MaxProps)
	if s.UniqueItems {
		add("unique items")
	}
	if s.Pattern != "" {
		add("pattern: %s", s.Pattern)
	}
	if s.Format != "" {
		add("format: %s", s.Format)
	}
	return f
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func printExplained(w io.Writer, x explained) {
	fmt.Fprintf(w, "TYPE:     %s\n", x.Type)
	fmt.Fprintf(w, "VERSIONS: %s (default %s)\n", strings.Join(x.APIVersions, ", "), x.Default)
	if x.Path != "" {
		req := ""
		if x.Field.Required {
			req = " -required-"
		}
		fmt.Fprintf(w, "FIELD:    %s <%s>%s\n", x.Path, x.Field.Kind, req)
	}
	if x.Field.Description != "" {
		fmt.Fprintf(w, "\nDESCRIPTION:\n%s\n", indent(x.Field.Description, "  "))
	}
	if len(x.Field.Constraints) > 0 {
		fmt.Fprintf(w, "\nCONSTRAINTS:\n  %s\n", strings.Join(x.Field.Constraints, "\n  "))
	}
	if len(x.Children) > 0 {
		fmt.Fprintf(w, "\nFIELDS:\n")
		for _, c := range x.Children {
			req := ""
			if c.Required {
				req = "  -required-"
			}
			fmt.Fprintf(w, "  %s <%s>%s\n", c.Name, c.Kind, req)
			if len(c.Constraints) > 0 {
				fmt.Fprintf(w, "    (%s)\n", strings.Join(c.Constraints, "; "))
			}
			if c.Description != "" {
				fmt.Fprintf(w, "%s\n", indent(c.Description, "    "))
			}
		}
	}
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
