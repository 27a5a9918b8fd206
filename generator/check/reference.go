package check

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
)

// Rule ids of the x-resource-type extension (references between resources).
const (
	RuleResourceReference     = "resource-reference"
	RuleResourceReferenceType = "resource-reference-type"
)

// resourceReference checks an x-resource-type extension on s and records
// it in s.Reference.
func (c *schemaChecker) resourceReference(s *model.Schema, e *entry) {
	r := c.r
	if s.Kind != model.String {
		r.report(e.key, RuleResourceReferenceType, e.ptr(), "a reference holds a resource ID: declare the property `type: string`",
			"`%s` applies to strings, not %s", api.ExtensionResourceType, kindOfType(s.Kind))
		return
	}
	v := resolve(e.value)
	const hint = "for example: " + api.ExtensionResourceType + ": Contoso.Data/postgresDatabases (or a list of types, or \"*\" for any type)"
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag != "!!str" {
			r.report(v, RuleResourceReference, e.ptr(), hint, "`%s` must be a type name, a list of type names or \"*\", not %s", api.ExtensionResourceType, describe(v))
			return
		}
		if v.Value == api.AnyResourceType {
			s.Reference = &model.Reference{}
			return
		}
		if c.referenceType(v, e.ptr(), v.Value) {
			s.Reference = &model.Reference{Types: []string{v.Value}}
		}
	case yaml.SequenceNode:
		if len(v.Content) == 0 {
			r.report(v, RuleResourceReference, e.ptr(), hint, "`%s` lists no type", api.ExtensionResourceType)
			return
		}
		ref := &model.Reference{}
		ok := true
		seen := map[string]int{}
		for i, item := range v.Content {
			path := fmt.Sprintf("%s/%d", e.ptr(), i)
			item = resolve(item)
			if item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
				r.report(item, RuleResourceReference, path, "", "a referenced type must be a type name, not %s", describe(item))
				ok = false
				continue
			}
			if item.Value == api.AnyResourceType {
				r.report(item, RuleResourceReference, path, "write `"+api.ExtensionResourceType+": \"*\"` alone for a reference to any type",
					"\"*\" cannot be listed with other types")
				ok = false
				continue
			}
			if !c.referenceType(item, path, item.Value) {
				ok = false
				continue
			}
			if j, dup := seen[strings.ToLower(item.Value)]; dup {
				r.report(item, RuleResourceReference, path, "", "type %s is listed twice (first at index %d; type names compare case-insensitively)", item.Value, j)
				ok = false
				continue
			}
			seen[strings.ToLower(item.Value)] = i
			ref.Types = append(ref.Types, item.Value)
		}
		if ok {
			s.Reference = ref
		}
	default:
		r.report(v, RuleResourceReference, e.ptr(), hint, "`%s` must be a type name, a list of type names or \"*\", not %s", api.ExtensionResourceType, kindName(v))
	}
}

// referenceType checks one referenced type name.
func (c *schemaChecker) referenceType(n *yaml.Node, path, name string) bool {
	if p := api.FullTypeNameProblem(name); p != "" {
		c.r.report(n, RuleResourceReference, path, "a full type name is Namespace/type, like Contoso.Data/postgresDatabases",
			"referenced type %q %s", name, p)
		return false
	}
	return true
}
