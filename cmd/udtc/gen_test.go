package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenWritesOnlyWhatChanged(t *testing.T) {
	t.Chdir("../..")
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "go.mod"), []byte("module example.com/gentest\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := copyDir(t, "examples")

	code, _, stderr := runCLI(t, "gen", dir, "--out", out)
	if code != 0 || !strings.Contains(stderr, "wrote ") {
		t.Fatalf("first gen: exit %d\n%s", code, stderr)
	}
	for _, p := range []string{
		"bicep/contosodata.tgz", "bicep/contosodata/types.json", "bicep/contosodata/index.json", "bicep/contosodata/index.md",
		"go/contosodata/v20250601/postgresdatabase.go", "docs/contosodata.md",
		"registration/Contoso.Data/types/postgresDatabases/apiVersions/2025-06-01.json",
	} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("missing %s: %v", p, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "go/contosodata/v20250601/udtc-ids.go")); err == nil && !strings.Contains(string(b), "example.com/gentest/go/contosodata/resourceids") {
		t.Errorf("import prefix not derived from %s/go.mod", out)
	}
	st, _ := os.Stat(filepath.Join(out, "bicep/contosodata/types.json"))

	code, _, stderr = runCLI(t, "gen", dir, "--out", out)
	if code != 0 || !strings.Contains(stderr, "nothing written") {
		t.Fatalf("second gen must write nothing: exit %d\n%s", code, stderr)
	}
	if st2, _ := os.Stat(filepath.Join(out, "bicep/contosodata/types.json")); !st2.ModTime().Equal(st.ModTime()) {
		t.Error("an unchanged file was rewritten")
	}
	if !strings.Contains(stderr, "inputs unchanged") {
		t.Errorf("second gen should skip work for unchanged inputs:\n%s", stderr)
	}
	if code, _, _ = runCLI(t, "gen", dir, "--out", out, "--check"); code != 0 {
		t.Errorf("--check on an up-to-date directory: exit %d", code)
	}
	// --force regenerates; identical bytes are still not rewritten.
	if code, _, stderr = runCLI(t, "gen", dir, "--out", out, "--force"); code != 0 || !strings.Contains(stderr, "nothing written") || strings.Contains(stderr, "inputs unchanged") {
		t.Errorf("--force: exit %d\n%s", code, stderr)
	}
	// A hand-edited output is noticed and restored.
	idx := filepath.Join(out, "bicep/contosodata/index.json")
	want, _ := os.ReadFile(idx)
	if err := os.WriteFile(idx, []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr = runCLI(t, "gen", dir, "--out", out); code != 0 || !strings.Contains(stderr, "wrote 1 files") {
		t.Errorf("gen after a hand edit: exit %d\n%s", code, stderr)
	}
	if got, _ := os.ReadFile(idx); string(got) != string(want) {
		t.Error("hand-edited output not restored")
	}

	// Remove a type: its files go, --check notices first.
	edit(t, filepath.Join(dir, "data.yaml"), "  redisCaches:", "  redisCachesRenamed:")
	code, _, stderr = runCLI(t, "gen", dir, "--out", out, "--check")
	if code != 1 || !strings.Contains(stderr, "out of date") {
		t.Fatalf("--check after a change: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "gen", dir, "--out", out)
	if code != 0 || !strings.Contains(stderr, "removed)") {
		t.Fatalf("gen after a change: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "registration/Contoso.Data/types/redisCaches.json")); !os.IsNotExist(err) {
		t.Errorf("files of a removed type are left behind: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "go.mod")); err != nil {
		t.Errorf("gen removed a file it did not write: %v", err)
	}

	// Errors stop gen before anything is written; usage errors are exit 2.
	edit(t, filepath.Join(dir, "data.yaml"), "type: object", "type: objekt")
	if code, _, stderr = runCLI(t, "gen", dir, "--out", t.TempDir()); code != 1 || !strings.Contains(stderr, "type-invalid") {
		t.Errorf("gen of manifests with errors: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "gen", "examples", "--target", "java"); code != 2 || !strings.Contains(stderr, `unknown --target "java"`) {
		t.Errorf("unknown target: exit %d\n%s", code, stderr)
	}
}
