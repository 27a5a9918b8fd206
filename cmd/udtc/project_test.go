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

// TestProjectInputsEverywhere: explain, validate and breaking without
// manifest paths read the manifests udtc.yaml selects (inputs:), as check
// and gen do, and nothing else in the tree. breaking at a git revision
// compares the files the project selected then, so a deleted manifest is
// a removal.
func TestProjectInputsEverywhere(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dir, _ := gitRepo(t)
	t.Chdir(dir)
	write := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("udtc.yaml", "inputs:\n  include: [manifests]\ntarget: udtc\n")
	// Outside inputs: a manifest that does not compile.
	write("drafts/broken.yaml", "namespace: Contoso.Data\ntypes:\n  databases: {}\n")
	write("doc.yaml", "type: Contoso.Data/databases\nproperties:\n  environment: e\n  size: S\n")

	if code, stdout, stderr := runCLI(t, "explain", "Contoso.Data/databases.size"); code != 0 || !strings.Contains(stdout, "FIELD:    size <string>") {
		t.Errorf("explain in a project: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := runCLI(t, "validate", "Contoso.Data/databases", "doc.yaml"); code != 0 {
		t.Errorf("validate in a project: exit %d\n%s", code, stderr)
	}
	if code, stdout, stderr := runCLI(t, "breaking", "--against", "v1"); code != 0 || !strings.Contains(stdout, "note[type-added]") {
		t.Errorf("breaking --against v1 in a project: exit %d\n%s%s", code, stdout, stderr)
	}
	if err := os.Remove(filepath.Join("manifests", "cache.yaml")); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runCLI(t, "breaking", "--against", "HEAD"); code != 1 || !strings.Contains(stdout, "error[type-removed]") {
		t.Errorf("breaking --against HEAD after a manifest was deleted: exit %d, want 1 and type-removed\n%s%s", code, stdout, stderr)
	}
	// Outside a project, still a usage error naming what to give.
	t.Chdir(t.TempDir())
	if code, _, stderr := runCLI(t, "explain", "Contoso.Data/databases"); code != 2 || !strings.Contains(stderr, "give --manifests PATH") {
		t.Errorf("explain outside a project: exit %d\n%s", code, stderr)
	}
}
