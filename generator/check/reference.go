package check

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// Rule ids of the x-resource-type extension (references between resources).
const (
	RuleResourceReference        = "resource-reference"
	RuleResourceReferenceType    = "resource-reference-type"
	RuleResourceReferenceUnknown = "resource-reference-unknown"
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
			s.Reference = &schema.Reference{Span: r.pos(v)}
			return
		}
		if c.referenceType(v, e.ptr(), v.Value) {
			s.Reference = &schema.Reference{Types: []string{v.Value}, Span: r.pos(v), TypeSpans: []schema.Span{r.pos(v)}}
		}
	case yaml.SequenceNode:
		if len(v.Content) == 0 {
			r.report(v, RuleResourceReference, e.ptr(), hint, "`%s` lists no type", api.ExtensionResourceType)
			return
		}
		ref := &schema.Reference{Span: r.pos(v)}
		ok := true
		seen := map[string]int{}
		for i, item := range v.Content {
			path := indexPointer(e.ptr(), i)
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
			ref.TypeSpans = append(ref.TypeSpans, r.pos(item))
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
		hint := ""
		if !strings.Contains(p, "like Contoso.Data/postgresDatabases") {
			hint = "a full type name is Namespace/type, like Contoso.Data/postgresDatabases"
		}
		c.r.report(n, RuleResourceReference, path, hint, "referenced type %q %s", name, p)
		return false
	}
	return true
}

// referenceTargets warns about references to a type of a namespace the
// catalog declares that the namespace does not declare: most likely a typo
// (the namespace is complete only when every file of it is checked
// together, hence a warning). refs are each version's referencing nodes
// (references), kept when the version's schema is not (Options.Outline).
func referenceTargets(cat *model.Catalog, refs map[*model.APIVersion][]*model.Schema) diag.List {
	declared := map[string]map[string]bool{} // lower-cased namespace → lower-cased type names
	for _, p := range cat.Providers {
		names := map[string]bool{}
		for _, t := range p.Types {
			names[strings.ToLower(t.Name)] = true
		}
		declared[strings.ToLower(p.Namespace)] = names
	}
	var out diag.List
	for _, p := range cat.Providers {
		for _, t := range p.Types {
			for _, v := range t.APIVersions {
				for _, s := range refs[v] {
					for i, full := range s.Reference.Types {
						ns, name, _ := strings.Cut(full, "/")
						types, ok := declared[strings.ToLower(ns)]
						if !ok || types[strings.ToLower(name)] {
							continue
						}
						hint := fmt.Sprintf("declare %s in namespace %s, or check the spelling", name, ns)
						if sug := suggest(name, providerTypes(cat, ns)); sug != "" {
							hint = fmt.Sprintf("did you mean `%s/%s`?", ns, sug)
						}
						out.Add(diag.Diagnostic{Span: diag.Span(s.Reference.TypeSpans[i]), Severity: severityOf[RuleResourceReferenceUnknown],
							Rule: RuleResourceReferenceUnknown, Path: referencePath(s, i), Hint: hint,
							Message: fmt.Sprintf("referenced type %s is not declared: namespace %s declares no type %q", full, ns, name)})
					}
				}
			}
		}
	}
	return out
}

// references returns the nodes of s that reference other types
// (x-resource-type), in walk order.
func references(s *model.Schema) []*model.Schema {
	var refs []*model.Schema
	model.Walk(s, func(n *model.Schema) bool {
		if n.Reference != nil {
			refs = append(refs, n)
		}
		return true
	})
	return refs
}

// providerTypes lists the type names of namespace ns (case-insensitive).
func providerTypes(cat *model.Catalog, ns string) []string {
	for _, p := range cat.Providers {
		if strings.EqualFold(p.Namespace, ns) {
			names := make([]string, len(p.Types))
			for i, t := range p.Types {
				names[i] = t.Name
			}
			return names
		}
	}
	return nil
}

// referencePath is the JSON pointer of the i-th referenced type of s.
func referencePath(s *model.Schema, i int) string {
	p := pointer(s.Path, api.ExtensionResourceType)
	if len(s.Reference.Types) > 1 {
		p = indexPointer(p, i)
	}
	return p
}
