package schema

import (
	"slices"
	"strings"
)

// BuiltinPrefix is the URL prefix of the built-in schemas `$ref` may name.
const BuiltinPrefix = "https://radapp.io/schemas/v1#"

// builtins is the table of built-in schemas, by name. Each entry builds a
// fresh tree so callers may set positions on it.
var builtins = map[string]func() *Schema{
	"RecipeStatus": func() *Schema {
		str := func(name, desc string) *Property {
			return &Property{Name: name, Schema: &Schema{Kind: String, ReadOnly: true, Description: desc}}
		}
		return &Schema{
			Kind:        Object,
			ReadOnly:    true,
			Description: "The status of the recipe that deployed the resource.",
			Properties: []*Property{
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

// Builtin returns a fresh tree of the built-in schema a `$ref` value names
// (BuiltinPrefix + name), its Ref set to the name, without paths or spans;
// nil when ref names no built-in.
func Builtin(ref string) *Schema {
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
	return s
}
