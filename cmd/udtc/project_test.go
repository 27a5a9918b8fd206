package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectSilencesOneRule: the Radius corpus gives 23 identical
// schema-undeclared warnings; one rule entry in udtc.yaml silences them,
// found from a subdirectory, and --strict then spares that rule only.
func TestProjectSilencesOneRule(t *testing.T) {
	corpus, err := filepath.Abs("../../../shared/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the Radius corpus is not available at %s: %v", corpus, err)
	}
	dir := copyDir(t, corpus)
	t.Chdir(dir)
	code, _, stderr := runCLI(t, "check", ".")
	if n := strings.Count(stderr, "warning[schema-undeclared]"); code != 0 || n != 23 {
		t.Fatalf("without udtc.yaml: exit %d, %d schema-undeclared warnings, want 23", code, n)
	}
	others := strings.Count(stderr, "warning[") - 23
	os.WriteFile("udtc.yaml", []byte("rules:\n  schema-undeclared:\n    severity: off\n    reason: the corpus references types registered by other repositories\n"), 0o644)
	sub := dir
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		for _, e := range entries {
			if e.IsDir() {
				sub = filepath.Join(dir, e.Name())
				break
			}
		}
	}
	for _, wd := range []string{dir, sub} {
		t.Chdir(wd)
		code, _, stderr = runCLI(t, "check", dir)
		if code != 0 || strings.Contains(stderr, "schema-undeclared") || strings.Count(stderr, "warning[") != others {
			t.Errorf("check from %s with the rule off: exit %d\n%s", wd, code, stderr)
		}
	}
	t.Chdir(dir)
	code, _, stderr = runCLI(t, "check", "--strict") // inputs from udtc.yaml: the whole directory
	if strings.Contains(stderr, "schema-undeclared") || strings.Count(stderr, "error[") != others || (others == 0) != (code == 0) {
		t.Errorf("check --strict with the rule off: exit %d, want %d errors\n%s", code, others, stderr)
	}
}

// TestProjectDrivesGen: inputs, output, targets and options come from
// udtc.yaml; the output directory is never an input; flags override.
func TestProjectDrivesGen(t *testing.T) {
	t.Chdir("../..")
	examples, _ := filepath.Abs("examples")
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "types"), os.DirFS(examples)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "types", "udtc.yaml")) // the examples' own: this test's is one level up
	os.WriteFile(filepath.Join(dir, "types", "draft.yaml"), []byte("namespace: Contoso.Draft\ntypes:\n  x:\n    apiVersions:\n      '2025-01-01': {schema: {type: objcet}}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "udtc.yaml"), []byte(`target: udtc
inputs:
  include: [types]
  exclude: [types/draft.yaml]
output: types/generated
targets: [bicep, registration]
go:
  importPrefix: example.org/acme/gen
bicep:
  extensionName: acme
  extensionVersion: 2.0.0
`), 0o644)
	t.Chdir(filepath.Join(dir, "types"))
	code, _, stderr := runCLI(t, "gen")
	if code != 0 {
		t.Fatalf("gen from udtc.yaml: exit %d\n%s", code, stderr)
	}
	out := filepath.Join(dir, "types", "generated")
	if _, err := os.Stat(filepath.Join(out, "bicep", "acme.tgz")); err != nil {
		t.Errorf("the extension named in udtc.yaml was not written: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "go")); err == nil {
		t.Error("gen wrote the go target, which udtc.yaml does not select")
	}
	if b, err := os.ReadFile(filepath.Join(out, "bicep", "acme", "index.json")); err != nil || !strings.Contains(string(b), `"2.0.0"`) {
		t.Errorf("extension version from udtc.yaml: %v\n%.300s", err, b)
	}
	// Run again: the output directory is not read as input, and a flag overrides.
	code, _, stderr = runCLI(t, "gen", "--target", "go", "--force")
	if code != 0 || !strings.Contains(stderr, "wrote") {
		t.Fatalf("gen --target go: exit %d\n%s", code, stderr)
	}
	imports := false
	filepath.WalkDir(filepath.Join(out, "go"), func(p string, d os.DirEntry, err error) error {
		if b, rerr := os.ReadFile(p); err == nil && rerr == nil && strings.Contains(string(b), `"example.org/acme/gen/go/`) {
			imports = true
		}
		return nil
	})
	if !imports {
		t.Error("the go target does not use the import prefix of udtc.yaml")
	}
	// A broken udtc.yaml is a usage error naming the file.
	os.WriteFile(filepath.Join(dir, "udtc.yaml"), []byte("targets: [bicep]\nrules:\n  schema-undeclrd: {severity: off, reason: x}\n"), 0o644)
	if code, _, stderr := runCLI(t, "check"); code != 2 || !strings.Contains(stderr, filepath.Join(dir, "udtc.yaml")+": rules.schema-undeclrd: no such rule (did you mean schema-undeclared?)") {
		t.Errorf("broken udtc.yaml: exit %d\n%s", code, stderr)
	}
}
