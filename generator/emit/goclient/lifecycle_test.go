package goclient

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/model"
)

// lifecycleCatalog is one type with a deprecated preview and its
// replacement, and a type of the same namespace that is not deprecated.
func lifecycleCatalog(t testing.TB) *model.Catalog {
	anyMap := func() *model.Schema {
		return &model.Schema{Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.Any}}
	}
	pg := rtype("Contoso.Data", "postgresDatabases", map[string]*model.Schema{"2025-01-01-preview": anyMap(), "2025-09-01": anyMap()})
	pg.APIVersions[0].Lifecycle = &model.Lifecycle{Deprecated: "2026-06-01", Sunset: "2027-01-01", Replacement: "2025-09-01", Message: "Use 2025-09-01, which adds high availability."}
	cache := rtype("Contoso.Data", "redisCaches", map[string]*model.Schema{"2025-01-01-preview": anyMap()})
	return &model.Catalog{Providers: []*model.Provider{{Namespace: "Contoso.Data", Types: []*model.ResourceType{pg, cache}}}}
}

// TestDeprecatedVersionDocs: the deprecated type's envelope, client and
// constructor carry a `Deprecated:` paragraph with the notice; the
// package does not (redisCaches is not deprecated in it), nor the
// replacement's.
func TestDeprecatedVersionDocs(t *testing.T) {
	files, _, err := Emit(lifecycleCatalog(t), Options{ImportPrefix: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	const notice = "// Deprecated: Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated"
	seen := 0
	for _, f := range files {
		n := strings.Count(string(f.Data), notice)
		seen += n
		if n > 0 && !strings.Contains(f.Path, "preview") {
			t.Errorf("%s carries the notice of the preview", f.Path)
		}
		if strings.Contains(string(f.Data), "\n// Deprecated:") && strings.Contains(string(f.Data), "\npackage ") &&
			regexp.MustCompile(`(?s)// Deprecated:[^\n]*\n(//[^\n]*\n)*package `).Match(f.Data) {
			t.Errorf("%s: the package is marked deprecated, but redisCaches in it is not", f.Path)
		}
	}
	if seen != 3 {
		t.Errorf("the notice is on %d declarations, want 3 (envelope, client, constructor)", seen)
	}
}

// TestDeprecatedVersionFlaggedByStaticcheck runs staticcheck (the version
// `make check` runs) on a program that uses the deprecated version's
// client: SA1019 names the notice. Skipped with -short, and when the go
// command cannot fetch staticcheck (offline).
func TestDeprecatedVersionFlaggedByStaticcheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds staticcheck; skipped with -short")
	}
	files, _, err := Emit(lifecycleCatalog(t), Options{ImportPrefix: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFiles(t, dir, "example.com/gen", files)
	var pkg, ctor string
	for _, f := range files {
		if m := regexp.MustCompile(`(?m)^func (New\w+Client)\(`).FindSubmatch(f.Data); m != nil && strings.Contains(string(f.Data), "// Deprecated:") {
			pkg, ctor = path.Dir(f.Path), string(m[1])
		}
	}
	if pkg == "" {
		t.Fatal("no deprecated constructor emitted")
	}
	prog := "package main\n\nimport v \"example.com/gen/" + pkg + "\"\n\nfunc main() {\n\t_, _ = v." + ctor + "(v.ClientOptions{})\n}\n"
	if err := os.MkdirAll(filepath.Join(dir, "cmd", "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cmd", "app", "main.go"), []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "honnef.co/go/tools/cmd/staticcheck@v0.8.2", "-checks", "SA1019", "./cmd/...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("staticcheck found nothing in\n%s", prog)
	}
	if !strings.Contains(string(out), "SA1019") || !strings.Contains(string(out), "is deprecated") {
		if strings.Contains(string(out), "honnef.co") {
			t.Skipf("staticcheck is not available: %s", out)
		}
		t.Fatalf("staticcheck: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "2025-01-01-preview is deprecated from 2026-06-01") {
		t.Errorf("staticcheck's finding lacks the notice:\n%s", out)
	}
}

// When every type of a version package is deprecated at its version, the
// package doc says so too, so importing it is flagged.
func TestDeprecatedPackageDoc(t *testing.T) {
	cat := lifecycleCatalog(t)
	cache := cat.Providers[0].Types[1]
	cache.APIVersions[0].Lifecycle = &model.Lifecycle{Deprecated: "2026-06-01"}
	files, _, err := Emit(cat, Options{ImportPrefix: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	pkgDoc := regexp.MustCompile(`(?s)// Deprecated: Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated[^\n]*\n(//[^\n]*\n)*package v20250101preview\n`)
	found := false
	for _, f := range files {
		found = found || pkgDoc.Match(f.Data)
		if strings.Contains(f.Path, "v20250901") && strings.Contains(string(f.Data), "Deprecated:") {
			t.Errorf("%s of the replacement is deprecated", f.Path)
		}
	}
	if !found {
		t.Error("the package of deprecated types has no Deprecated: paragraph")
	}
}
