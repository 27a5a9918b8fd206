package api

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/udtc/udtc/schema"
)

// References between resources. A string property of a resource type's
// schema may declare what it points at with the extension
//
//	x-resource-type: Contoso.Data/postgresDatabases        # a known reference
//	x-resource-type: [Contoso.Data/postgresDatabases, ...] # one of several types
//	x-resource-type: "*"                                   # a generic reference
//
// and its value is then a resource ID (ParseResourceID) of an allowed type.
// `udtc check` and the registry's admission read the extension with the same
// rules.

// ExtensionResourceType is the schema extension that declares a reference
// (schema.ExtensionResourceType).
const ExtensionResourceType = schema.ExtensionResourceType

// AnyResourceType is the x-resource-type value of a generic reference
// (schema.AnyResourceType).
const AnyResourceType = schema.AnyResourceType

// FullTypeNameProblem explains why t is not a full resource type name
// "Namespace/type" or "Namespace/type/child", or returns "".
func FullTypeNameProblem(t string) string {
	ns, name, ok := strings.Cut(t, "/")
	if !ok || name == "" {
		return "must be Namespace/type, like Contoso.Data/postgresDatabases"
	}
	if p := NamespaceProblem(ns); p != "" {
		return "has a namespace that " + p
	}
	if p := TypeNameProblem(name); p != "" {
		return "has a type name that " + p
	}
	return ""
}

// TypeRef names an API version of a resource type, or a property below its
// schema root: NAMESPACE/TYPE[@VERSION][.path], as `udtc validate` and
// `udtc explain` take it.
type TypeRef struct {
	Namespace, Type, Version string
	// Path is the property path below the schema root.
	Path []string
}

// String is NAMESPACE/TYPE[@VERSION], without the path.
func (r TypeRef) String() string {
	s := r.Namespace + "/" + r.Type
	if r.Version != "" {
		s += "@" + r.Version
	}
	return s
}

// ParseTypeRef reads NAMESPACE/TYPE[@VERSION][.path]. Namespaces contain
// dots, type names and API versions do not, so the path starts at the
// first dot after the type (or after the version). Each part must be a
// valid name (NamespaceProblem, TypeNameProblem, APIVersionProblem).
func ParseTypeRef(s string) (TypeRef, error) {
	var r TypeRef
	ns, rest, ok := strings.Cut(s, "/")
	if !ok || ns == "" || rest == "" {
		return r, fmt.Errorf("%q is not NAMESPACE/TYPE[@VERSION], e.g. Contoso.Data/postgresDatabases@2025-01-01", s)
	}
	r.Namespace = ns
	path := ""
	if t, v, ok := strings.Cut(rest, "@"); ok {
		r.Type = t
		r.Version, path, _ = strings.Cut(v, ".")
		if r.Version == "" {
			return r, fmt.Errorf("%q: empty API version after @", s)
		}
	} else {
		r.Type, path, _ = strings.Cut(rest, ".")
	}
	if path != "" {
		r.Path = strings.Split(path, ".")
		if slices.Contains(r.Path, "") {
			return r, fmt.Errorf("%q: empty property name in the path", s)
		}
	}
	if p := NamespaceProblem(r.Namespace); p != "" {
		return r, fmt.Errorf("namespace %q: %s", r.Namespace, p)
	}
	if p := TypeNameProblem(r.Type); p != "" {
		return r, fmt.Errorf("type %q: %s", r.Type, p)
	}
	if r.Version != "" {
		if p := APIVersionProblem(r.Version); p != "" {
			return r, fmt.Errorf("API version %q: %s", r.Version, p)
		}
	}
	return r, nil
}

// Resolve finds ref's type and API version in sum, ignoring case (the
// type's default version when ref names none). The returned ref has the
// registered spelling and the version filled in; the error names what is
// missing and what there is.
func (sum ProviderSummary) Resolve(ref TypeRef) (TypeRef, ResourceTypeSummary, error) {
	name, ok := LookupFold(sum.ResourceTypes, ref.Type)
	if !ok {
		return ref, ResourceTypeSummary{}, fmt.Errorf("type %s/%s is not declared (types of %s: %s)", sum.Name, ref.Type, sum.Name,
			strings.Join(slices.Sorted(maps.Keys(sum.ResourceTypes)), ", "))
	}
	t := sum.ResourceTypes[name]
	ref.Namespace, ref.Type = sum.Name, name
	v := ref.Version
	if v == "" {
		v = t.Default()
	}
	vname, ok := LookupFold(t.APIVersions, v)
	if !ok {
		return ref, ResourceTypeSummary{}, fmt.Errorf("%s/%s has no API version %q (versions: %s)", sum.Name, name, v, strings.Join(t.Versions(), ", "))
	}
	ref.Version = vname
	return ref, t, nil
}

// Default returns the type's default API version: the one it declares,
// else the one DefaultVersion derives from its versions. rad registers a
// type without defaultApiVersion when its manifest names none, and so does
// udtc publish, so readers of a registry derive it.
func (t ResourceTypeSummary) Default() string {
	if t.DefaultAPIVersion != "" {
		return t.DefaultAPIVersion
	}
	return DefaultVersion(t.Versions())
}

// Versions returns the names of the type's API versions, sorted.
func (t ResourceTypeSummary) Versions() []string { return slices.Sorted(maps.Keys(t.APIVersions)) }

// LookupFold finds key in m ignoring case; it returns the key as m spells it.
func LookupFold[V any](m map[string]V, key string) (string, bool) {
	for k := range m {
		if strings.EqualFold(k, key) {
			return k, true
		}
	}
	return "", false
}
