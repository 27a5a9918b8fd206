package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/catalog"
	"github.com/udtc/udtc/registry/client"
)

// typeRef is NAMESPACE/TYPE[@VERSION][.path] as validate and explain take it.
type typeRef struct {
	namespace, typ, version string
	path                    []string // property path below the schema root
}

func (r typeRef) String() string {
	s := r.namespace + "/" + r.typ
	if r.version != "" {
		s += "@" + r.version
	}
	return s
}

// parseTypeRef reads NAMESPACE/TYPE[@VERSION][.path]. Namespaces contain
// dots, type names and API versions do not, so the path starts at the
// first dot after the type (or after the version).
func parseTypeRef(s string) (typeRef, error) {
	var r typeRef
	ns, rest, ok := strings.Cut(s, "/")
	if !ok || ns == "" || rest == "" {
		return r, fmt.Errorf("%q is not NAMESPACE/TYPE[@VERSION], e.g. Contoso.Data/postgresDatabases@2025-01-01", s)
	}
	r.namespace = ns
	path := ""
	if t, v, ok := strings.Cut(rest, "@"); ok {
		r.typ = t
		r.version, path, _ = strings.Cut(v, ".")
		if r.version == "" {
			return r, fmt.Errorf("%q: empty API version after @", s)
		}
	} else {
		r.typ, path, _ = strings.Cut(rest, ".")
	}
	if path != "" {
		r.path = strings.Split(path, ".")
		if slices.Contains(r.path, "") {
			return r, fmt.Errorf("%q: empty property name in the path", s)
		}
	}
	if p := api.NamespaceProblem(r.namespace); p != "" {
		return r, fmt.Errorf("namespace %q: %s", r.namespace, p)
	}
	if p := api.TypeNameProblem(r.typ); p != "" {
		return r, fmt.Errorf("type %q: %s", r.typ, p)
	}
	if r.version != "" {
		if p := api.APIVersionProblem(r.version); p != "" {
			return r, fmt.Errorf("API version %q: %s", r.version, p)
		}
	}
	return r, nil
}

// typeSourceFlags choose where validate and explain read a type's schemas:
// compiled local manifests (--manifests) or a registry (--server).
type typeSourceFlags struct {
	manifests cli.StringSlice
	compile   compileFlags
	server    serverFlags
}

func (f *typeSourceFlags) flags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringSliceFlag{Name: "manifests", Aliases: []string{"m"}, Usage: "read the types from these manifest files or directories", Destination: &f.manifests},
	}, f.server.flags()...)
}

// resolved is one API version of a type, with the type's summary.
type resolved struct {
	ref     typeRef // with the registered casing and the version filled in
	summary api.ResourceTypeSummary
	schema  []byte
}

// lookup finds ref's type and API version (the default version when ref has
// none) in the manifests or on the server. Errors are exit errors.
func (f *typeSourceFlags) lookup(c *cli.Context, e *env, ref typeRef) (resolved, error) {
	sum, err := f.provider(c, e, ref.namespace)
	if err != nil {
		return resolved{}, err
	}
	name, ok := lookupFold(sum.ResourceTypes, ref.typ)
	if !ok {
		return resolved{}, fail(exitFail, fmt.Errorf("type %s/%s is not declared (types of %s: %s)", sum.Name, ref.typ, sum.Name,
			strings.Join(slices.Sorted(maps.Keys(sum.ResourceTypes)), ", ")))
	}
	t := sum.ResourceTypes[name]
	out := resolved{ref: ref, summary: t}
	out.ref.namespace, out.ref.typ = sum.Name, name
	v := ref.version
	if v == "" {
		v = t.DefaultAPIVersion
	}
	vname, ok := lookupFold(t.APIVersions, v)
	if !ok {
		return resolved{}, fail(exitFail, fmt.Errorf("%s/%s has no API version %q (versions: %s)", sum.Name, name, v, strings.Join(versions(t), ", ")))
	}
	out.ref.version = vname
	out.schema = t.APIVersions[vname].Schema
	return out, nil
}

func (f *typeSourceFlags) provider(c *cli.Context, e *env, namespace string) (api.ProviderSummary, error) {
	if len(f.manifests.Value()) > 0 {
		if c.IsSet("server") {
			return api.ProviderSummary{}, usageErrorf("give either --manifests or --server, not both")
		}
		cat, err := f.compile.compile(c, e, f.manifests.Value(), false)
		if err != nil {
			return api.ProviderSummary{}, err
		}
		sums := catalog.FromRegistrations(registration.Registrations(cat, registration.Options{}))
		var names []string
		for _, s := range sums {
			if strings.EqualFold(s.Name, namespace) {
				return s, nil
			}
			names = append(names, s.Name)
		}
		return api.ProviderSummary{}, fail(exitFail, fmt.Errorf("namespace %s is not declared in %s (namespaces: %s)",
			namespace, strings.Join(f.manifests.Value(), ", "), strings.Join(names, ", ")))
	}
	if !c.IsSet("server") {
		return api.ProviderSummary{}, usageErrorf("give --manifests PATH (local manifests) or --server URL (a registry)")
	}
	reg, err := f.server.client()
	if err != nil {
		return api.ProviderSummary{}, err
	}
	ctx, cancel, err := f.server.connect(c.Context, reg)
	if err != nil {
		return api.ProviderSummary{}, err
	}
	defer cancel()
	s, err := reg.ProviderSummary(ctx, namespace)
	if client.IsNotFound(err) {
		return api.ProviderSummary{}, fail(exitFail, fmt.Errorf("namespace %s is not registered at %s", namespace, f.server.server))
	}
	if err != nil {
		return api.ProviderSummary{}, fail(exitFail, err)
	}
	return s, nil
}
