package check

import (
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
)

// BuiltinPrefix is the URL prefix of the built-in schemas `$ref` may name.
const BuiltinPrefix = "https://radapp.io/schemas/v1#"

// builtins is the table of built-in schemas, by name. Each entry builds a
// fresh tree so callers may set positions on it.
var builtins = map[string]func() *model.Schema{
	"RecipeStatus": func() *model.Schema {
		str := func(name, desc string) *model.Property {
			return &model.Property{Name: name, Schema: &model.Schema{Kind: model.String, ReadOnly: true, Description: desc}}
		}
		return &model.Schema{
			Kind:        model.Object,
			ReadOnly:    true,
			Description: "The status of the recipe that deployed the resource.",
			Properties: []*model.Property{
				str("templateKind", "The kind of recipe template, e.g. bicep or terraform."),
				str("templatePath", "The path of the recipe template."),
				str("templateVersion", "The version of the recipe template."),
			},
		}
	},
}

// BuiltinNames returns the names of the built-in schemas, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtins))
	for n := range builtins {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// builtin returns the built-in schema for ref with every node's path and span
// set to the referencing node's, or nil when ref names no built-in.
func builtin(ref, path string, span diag.Span) *model.Schema {
	name, ok := strings.CutPrefix(ref, BuiltinPrefix)
	if !ok {
		return nil
	}
	build, ok := builtins[name]
	if !ok {
		return nil
	}
	s := build()
	s.Ref = name
	model.Walk(s, func(n *model.Schema) bool {
		n.Path, n.Span = path, span
		return true
	})
	for _, p := range s.Properties {
		p.Span = span
		p.Schema.Path = pointer(pointer(path, "properties"), p.Name)
	}
	return s
}
