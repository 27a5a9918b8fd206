package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/ucpfake"
)

const lifecycleManifest = `namespace: Contoso.Data
types:
  postgresDatabases:
    description: A PostgreSQL database.
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

const lifecycleProject = `lifecycle:
  Contoso.Data/postgresDatabases@2025-01-01-preview:
    deprecated: 2026-06-01
    sunset: 2027-01-01
    replacement: 2025-09-01
    message: Use 2025-09-01, which adds high availability.
`

const lifecycleNotice = "Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated from 2026-06-01 and sunset on 2027-01-01"

// TestLifecycleProject follows docs/lifecycle.md in a project of its own:
// udtc.yaml's lifecycle is checked at its keys, shown by explain and gen's
// outputs, sent by publish to udtc serve (whose resources then answer
// with the headers) and left out, with a note, for UCP.
func TestLifecycleProject(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "postgres.yaml"), []byte(lifecycleManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "udtc.yaml"), []byte("lifecycle:\n  Contoso.Data/postgresDatabases@2025-09-01:\n    deprecated: 2026-06-01\n    replacement: 2025-01-01-preview\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, _, stderr := runCLI(t, "check")
	if code != exitFail || !strings.Contains(stderr, "udtc.yaml:2:3: error[lifecycle]: lifecycle \"Contoso.Data/postgresDatabases@2025-09-01\": replacement: 2025-01-01-preview is not newer than 2025-09-01") {
		t.Fatalf("check of a replacement that is older = %d\n%s", code, stderr)
	}
	if err := os.WriteFile("udtc.yaml", []byte(lifecycleProject), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "check"); code != 0 {
		t.Fatalf("check = %d\n%s", code, stderr)
	}
	if out := runOut(t, "explain", "Contoso.Data/postgresDatabases@2025-01-01-preview", "--manifests", "."); !strings.Contains(out, "DEPRECATED: "+lifecycleNotice) {
		t.Errorf("explain:\n%s", out)
	}
	if code, _, stderr := runCLI(t, "gen", "--target", "go,bicep,docs,registration", "--out", "out", "--go-import-prefix", "example.com/out"); code != 0 {
		t.Fatalf("gen = %d\n%s", code, stderr)
	}
	for file, want := range map[string]string{
		"out/go/contosodata/v20250101preview/postgresdatabase_gen.go":                   "// Deprecated: Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated",
		"out/bicep/contosodata/types.json":                                              "DEPRECATED: " + lifecycleNotice,
		"out/docs/contosodata.md":                                                       "**Deprecated** from 2026-06-01",
		"out/registration/Contoso.Data/types/postgresDatabases@2025-01-01-preview.json": `"replacement": "2025-09-01"`,
	} {
		b, err := os.ReadFile(file)
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s (%v) lacks %q", file, err, want)
		}
	}

	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	if code, out, stderr := runCLI(t, "publish", "--server", url, "postgres.yaml"); code != 0 {
		t.Fatalf("publish = %d\n%s\n%s", code, out, stderr)
	}
	db := url + "/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/postgresDatabases/db1?api-version=2025-01-01-preview"
	for _, req := range []struct{ method, url, body string }{
		{"PUT", url + "/planes/radius/local/resourceGroups/rg?api-version=2023-10-01-preview", `{"location":"global"}`},
		{"PUT", db, `{"properties":{"environment":"/planes/radius/local/resourceGroups/rg/providers/Applications.Core/environments/dev","size":"S"}}`},
	} {
		r, _ := http.NewRequest(req.method, req.url, strings.NewReader(req.body))
		r.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			t.Fatalf("%s %s = %d %s", req.method, req.url, resp.StatusCode, b)
		}
		if req.url == db && (resp.Header.Get("Deprecation") != "@1780272000" || !strings.Contains(resp.Header.Get("Warning"), lifecycleNotice)) {
			t.Errorf("PUT of a resource of the deprecated version: Deprecation %q, Warning %q", resp.Header.Get("Deprecation"), resp.Header.Get("Warning"))
		}
	}

	fake := ucpfake.Start(t)
	code, out, stderr := runCLI(t, "publish", "--server", fake.URL, "postgres.yaml")
	if code != 0 || !strings.Contains(stderr, "udtc publish: note: Contoso.Data: the lifecycle of postgresDatabases@2025-01-01-preview is not sent: it is a udtc extension UCP does not take") {
		t.Errorf("publish to UCP = %d\n%s\n%s", code, out, stderr)
	}
}
