package api

import (
	"reflect"
	"strings"
	"testing"
)

func TestFullTypeNameProblem(t *testing.T) {
	for _, ok := range []string{"Contoso.Data/postgresDatabases", "Applications.Core/environments", "Contoso.Platform/contosoBuses/queues", "A.B/c"} {
		if p := FullTypeNameProblem(ok); p != "" {
			t.Errorf("%s: %s", ok, p)
		}
	}
	for bad, want := range map[string]string{
		"postgresDatabases":               "must be Namespace/type",
		"Contoso.Data/":                   "must be Namespace/type",
		"Contoso/postgresDatabases":       "namespace",
		"Contoso.Data/postgres_databases": "type name",
		"Contoso.Data/buses//queues":      "empty segment",
		"*":                               "must be Namespace/type",
	} {
		if p := FullTypeNameProblem(bad); !strings.Contains(p, want) {
			t.Errorf("%s: %q, want it to contain %q", bad, p, want)
		}
	}
}

func TestParseTypeRef(t *testing.T) {
	for in, want := range map[string]TypeRef{
		"Contoso.Data/postgresDatabases":                      {Namespace: "Contoso.Data", Type: "postgresDatabases"},
		"Contoso.Data/postgresDatabases@2025-01-01":           {Namespace: "Contoso.Data", Type: "postgresDatabases", Version: "2025-01-01"},
		"Contoso.Data/postgresDatabases@2025-01-01.size":      {Namespace: "Contoso.Data", Type: "postgresDatabases", Version: "2025-01-01", Path: []string{"size"}},
		"Contoso.Data/postgresDatabases.status.recipe":        {Namespace: "Contoso.Data", Type: "postgresDatabases", Path: []string{"status", "recipe"}},
		"Contoso.Data/postgresDatabases@2025-01-01-preview.a": {Namespace: "Contoso.Data", Type: "postgresDatabases", Version: "2025-01-01-preview", Path: []string{"a"}},
	} {
		got, err := ParseTypeRef(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseTypeRef(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		"postgresDatabases":                     "is not NAMESPACE/TYPE",
		"Contoso.Data/":                         "is not NAMESPACE/TYPE",
		"Contoso.Data/postgresDatabases@":       "empty API version",
		"Contoso.Data/postgresDatabases..size":  "empty property name",
		"Contoso/postgresDatabases":             `namespace "Contoso"`,
		"Contoso.Data/postgres_databases":       `type "postgres_databases"`,
		"Contoso.Data/postgresDatabases@latest": `API version "latest"`,
	} {
		if _, err := ParseTypeRef(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTypeRef(%q): %v; want an error with %q", in, err, want)
		}
	}
}

func TestResolve(t *testing.T) {
	sum := ProviderSummary{Name: "Contoso.Data", ResourceTypes: map[string]ResourceTypeSummary{
		"postgresDatabases": {DefaultAPIVersion: "2025-06-01", APIVersions: map[string]APIVersionSummary{"2025-06-01": {}, "2025-01-01-preview": {}}},
	}}
	ref, _, err := sum.Resolve(TypeRef{Namespace: "contoso.data", Type: "POSTGRESDATABASES", Path: []string{"size"}})
	if want := (TypeRef{Namespace: "Contoso.Data", Type: "postgresDatabases", Version: "2025-06-01", Path: []string{"size"}}); err != nil || !reflect.DeepEqual(ref, want) {
		t.Errorf("Resolve = %+v, %v; want %+v", ref, err, want)
	}
	if _, _, err := sum.Resolve(TypeRef{Type: "caches"}); err == nil || !strings.Contains(err.Error(), "type Contoso.Data/caches is not declared (types of Contoso.Data: postgresDatabases)") {
		t.Errorf("an unknown type: %v", err)
	}
	if _, _, err := sum.Resolve(TypeRef{Type: "postgresDatabases", Version: "2024-01-01"}); err == nil ||
		!strings.Contains(err.Error(), `has no API version "2024-01-01" (versions: 2025-01-01-preview, 2025-06-01)`) {
		t.Errorf("an unknown version: %v", err)
	}
}

// TestDefaultIsDerived: a type registered without defaultApiVersion, as rad
// registers a manifest that declares none, resolves to the default readers
// derive (the newest stable version, else the newest preview).
func TestDefaultIsDerived(t *testing.T) {
	sum := ProviderSummary{Name: "Radius.Data", ResourceTypes: map[string]ResourceTypeSummary{
		"redisCaches": {APIVersions: map[string]APIVersionSummary{"2025-08-01-preview": {}, "2025-01-01": {}, "2026-01-01-preview": {}}},
		"previews":    {APIVersions: map[string]APIVersionSummary{"2025-08-01-preview": {}, "2025-09-01-preview": {}}},
		"declared":    {DefaultAPIVersion: "2025-08-01-preview", APIVersions: map[string]APIVersionSummary{"2025-08-01-preview": {}, "2025-09-01": {}}},
	}}
	for typ, want := range map[string]string{"redisCaches": "2025-01-01", "previews": "2025-09-01-preview", "declared": "2025-08-01-preview"} {
		if got := sum.ResourceTypes[typ].Default(); got != want {
			t.Errorf("%s: Default() = %s, want %s", typ, got, want)
		}
		ref, _, err := sum.Resolve(TypeRef{Namespace: "Radius.Data", Type: typ})
		if err != nil || ref.Version != want {
			t.Errorf("%s: Resolve without a version = %+v, %v; want %s", typ, ref, err, want)
		}
	}
}
