package check

import (
	"fmt"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
)

// RuleLifecycle is the rule of udtc.yaml's lifecycle entries.
const RuleLifecycle = "lifecycle"

// LifecycleDecl is one entry of udtc.yaml's `lifecycle`: the API version
// it names ("Contoso.Data/postgresDatabases@2025-01-01-preview"), its
// lifecycle, and the position of the key in udtc.yaml.
type LifecycleDecl struct {
	Key       string
	Lifecycle api.Lifecycle
	Span      diag.Span
}

// ApplyLifecycle checks decls against cat and attaches each lifecycle to
// the API version it names (model.APIVersion.Lifecycle). The version must
// be declared, the lifecycle hold on its own (api.Lifecycle.Problems) and
// the replacement be a newer version of the same type. partial is a
// catalog of some namespaces only (an incremental gen): entries of the
// others are left unchecked.
func ApplyLifecycle(cat *model.Catalog, decls []LifecycleDecl, partial bool) diag.List {
	var diags diag.List
	seen := map[*model.APIVersion]string{}
	for _, d := range decls {
		bad := func(format string, args ...any) {
			diags.Add(diag.Diagnostic{Span: d.Span, Severity: severityOf[RuleLifecycle], Rule: RuleLifecycle,
				Path:    "/lifecycle/" + strings.ReplaceAll(strings.ReplaceAll(d.Key, "~", "~0"), "/", "~1"),
				Message: fmt.Sprintf("lifecycle %q: ", d.Key) + fmt.Sprintf(format, args...)})
		}
		full, version, ok := strings.Cut(d.Key, "@")
		ns, typ, ok2 := strings.Cut(full, "/")
		if !ok || !ok2 || ns == "" || typ == "" || version == "" {
			bad("name an API version as Namespace/type@version (Contoso.Data/postgresDatabases@2025-01-01-preview)")
			continue
		}
		var p *model.Provider
		var names []string
		for _, q := range cat.Providers {
			names = append(names, q.Namespace)
			if strings.EqualFold(q.Namespace, ns) {
				p = q
			}
		}
		if p == nil {
			if !partial {
				bad("the manifests declare no namespace %s%s", ns, hint(ns, names))
			}
			continue
		}
		var t *model.ResourceType
		names = names[:0]
		for _, u := range p.Types {
			names = append(names, u.Name)
			if strings.EqualFold(u.Name, typ) {
				t = u
			}
		}
		if t == nil {
			bad("namespace %s declares no type %s%s", p.Namespace, typ, hint(typ, names))
			continue
		}
		v := t.Version(version)
		if v == nil {
			var vs []string
			for _, w := range t.APIVersions {
				vs = append(vs, w.Name)
			}
			bad("%s declares no API version %s; it declares %s", t.FullName(), version, strings.Join(vs, ", "))
			continue
		}
		if first, dup := seen[v]; dup {
			bad("the API version has a lifecycle already, as %q (names are matched ignoring case)", first)
			continue
		}
		seen[v] = d.Key
		l := d.Lifecycle
		problems := l.Problems()
		if r := l.Replacement; r != "" && api.APIVersionProblem(r) == "" {
			switch {
			case t.Version(r) == nil:
				problems = append(problems, fmt.Sprintf("replacement: %s declares no API version %s", t.FullName(), r))
			case api.CompareVersions(r, version) <= 0:
				problems = append(problems, fmt.Sprintf("replacement: %s is not newer than %s", r, version))
			}
		}
		if len(problems) > 0 {
			bad("%s", strings.Join(problems, "; "))
			continue
		}
		v.Lifecycle = &l
	}
	return diags
}

func hint(s string, candidates []string) string {
	if h := suggest(s, candidates); h != "" {
		return fmt.Sprintf(" (did you mean %s?)", h)
	}
	return ""
}
