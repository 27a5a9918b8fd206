package project

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/registry/api"
)

const lifecycleManifest = `namespace: Contoso.Data
types:
  postgresDatabases:
    apiVersions:
      '2025-01-01-preview':
        schema:
          type: object
          properties:
            size: {type: string}
      '2025-09-01':
        schema:
          type: object
          properties:
            size: {type: string}
`

// compileProject loads udtc.yaml and compiles the manifest with its
// lifecycle, as the CLI does.
func compileProject(t *testing.T, project string) (*Project, []string, string) {
	t.Helper()
	dir := t.TempDir()
	file := write(t, dir, FileName, project)
	m := write(t, dir, "m.yaml", lifecycleManifest)
	p, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	cat, diags, err := generator.Compile(context.Background(), []string{m}, generator.Options{Lifecycle: p.Lifecycle()})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, filepath.Base(d.Span.File)+":"+strconv.Itoa(d.Span.Line)+": "+d.Rule+": "+d.Message)
	}
	if cat == nil {
		return p, got, ""
	}
	v := cat.Providers[0].Types[0].Version("2025-01-01-preview")
	if v.Lifecycle == nil {
		return p, got, "none"
	}
	return p, got, v.Lifecycle.Notice("Contoso.Data/postgresDatabases", v.Name)
}

// TestLifecycleDeclared: the shape the docs show (unquoted dates) decodes
// and reaches the model's API version.
func TestLifecycleDeclared(t *testing.T) {
	p, diags, notice := compileProject(t, `target: udtc
lifecycle:
  Contoso.Data/postgresDatabases@2025-01-01-preview:
    deprecated: 2026-06-01
    sunset: 2027-01-01
    replacement: 2025-09-01
    message: Use 2025-09-01, which adds high availability.
`)
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := api.Lifecycle{Deprecated: "2026-06-01", Sunset: "2027-01-01", Replacement: "2025-09-01", Message: "Use 2025-09-01, which adds high availability."}
	if diff := cmp.Diff(want, p.File.Lifecycle["Contoso.Data/postgresDatabases@2025-01-01-preview"]); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
	if w := "Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated from 2026-06-01 and sunset on 2027-01-01 (no new resources from then); use 2025-09-01. Use 2025-09-01, which adds high availability."; notice != w {
		t.Errorf("notice = %q, want %q", notice, w)
	}
	if !strings.Contains(p.Key(), "2027-01-01") {
		t.Errorf("Key %s leaves out the lifecycle: a gen cache would not see it change", p.Key())
	}
}

// TestLifecycleChecked: each problem is reported at its key in udtc.yaml.
func TestLifecycleChecked(t *testing.T) {
	_, diags, _ := compileProject(t, `lifecycle:
  Contoso.Data/postgresDatabase@2025-01-01-preview:
    deprecated: 2026-06-01
  Contoso.Data/postgresDatabases@2025-01-01-preview:
    deprecated: 2026-06-01
    sunset: 2026-01-01
  Contoso.Data/postgresDatabases@2025-09-01:
    deprecated: 2026-06-01
    replacement: 2025-01-01-preview
  Contoso.Data/postgresDatabases@2024-01-01:
    deprecated: 2026-06-01
  Contoso.Nope/x@2024-01-01:
    deprecated: 2026-06-01
  nonsense:
    deprecated: 2026-06-01
  contoso.data/POSTGRESDATABASES@2025-09-01:
    deprecated: 2026-06-01
`)
	want := []string{
		`udtc.yaml:2: lifecycle: lifecycle "Contoso.Data/postgresDatabase@2025-01-01-preview": namespace Contoso.Data declares no type postgresDatabase (did you mean postgresDatabases?)`,
		`udtc.yaml:4: lifecycle: lifecycle "Contoso.Data/postgresDatabases@2025-01-01-preview": sunset: 2026-01-01 is before the deprecation (2026-06-01): a version is deprecated first`,
		`udtc.yaml:7: lifecycle: lifecycle "Contoso.Data/postgresDatabases@2025-09-01": replacement: 2025-01-01-preview is not newer than 2025-09-01`,
		`udtc.yaml:10: lifecycle: lifecycle "Contoso.Data/postgresDatabases@2024-01-01": Contoso.Data/postgresDatabases declares no API version 2024-01-01; it declares 2025-01-01-preview, 2025-09-01`,
		`udtc.yaml:12: lifecycle: lifecycle "Contoso.Nope/x@2024-01-01": the manifests declare no namespace Contoso.Nope (did you mean Contoso.Data?)`,
		`udtc.yaml:14: lifecycle: lifecycle "nonsense": name an API version as Namespace/type@version (Contoso.Data/postgresDatabases@2025-01-01-preview)`,
		`udtc.yaml:16: lifecycle: lifecycle "contoso.data/POSTGRESDATABASES@2025-09-01": the API version has a lifecycle already, as "Contoso.Data/postgresDatabases@2025-09-01" (names are matched ignoring case)`,
	}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, d := range diags {
		if !strings.Contains(d, ": "+check.RuleLifecycle+": ") {
			t.Errorf("%s: not the rule %s", d, check.RuleLifecycle)
		}
	}
}
