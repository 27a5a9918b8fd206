package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestInitProjectChecksClean checks what a new project gets from init: udtc
// check . reports nothing about init's own files, the manifest comment names
// the type as Namespace/type, and every udtc step of the CI workflow passes
// in the project once its output is generated, gen with --check.
func TestInitProjectChecksClean(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, "init", dir, "--namespace", "MyCompany.Data", "--type", "postgreSqlDatabases"); code != 0 {
		t.Fatalf("init: exit %d\n%s", code, stderr)
	}
	man, err := os.ReadFile(filepath.Join(dir, "manifests", "postgreSqlDatabases.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(man), "# The resource type MyCompany.Data/postgreSqlDatabases.") {
		t.Errorf("the manifest does not name the type as Namespace/type:\n%s", man)
	}
	t.Chdir(dir)
	code, _, stderr := runCLI(t, "check", ".")
	if code != 0 || strings.Contains(stderr, "note") || !strings.Contains(stderr, "ok: 1 file,") {
		t.Errorf("check . in a new project: exit %d, want 0 and no notes:\n%s", code, stderr)
	}

	data, err := os.ReadFile(filepath.Join(".github", "workflows", "udtc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct{ Run string }
		}
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Run, "udtc ") && !strings.HasPrefix(s.Run, "udtc breaking") {
				steps = append(steps, s.Run)
			}
		}
	}
	var genCheck, strictCheck bool
	for _, s := range steps {
		genCheck = genCheck || strings.HasPrefix(s, "udtc gen ") && strings.Contains(s, " --check")
		strictCheck = strictCheck || strings.HasPrefix(s, "udtc check ") && strings.Contains(s, " --strict")
	}
	if !strictCheck {
		t.Errorf("the workflow runs check without --strict, so a warning passes CI:\n%s", data)
	}
	if !genCheck || !strings.Contains(string(data), "udtc breaking ") {
		t.Fatalf("the workflow does not run check, gen --check and breaking:\n%s", data)
	}
	if code, _, stderr := runCLI(t, "gen"); code != 0 {
		t.Fatalf("gen: exit %d\n%s", code, stderr)
	}
	for _, s := range steps {
		if code, _, stderr := runCLI(t, strings.Fields(s)[1:]...); code != 0 {
			t.Errorf("workflow step %q: exit %d\n%s", s, code, stderr)
		}
	}
}

// init over existing files refuses, naming them with the verb in agreement.
func TestInitRefusesExistingFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "udtc.yaml"), []byte("x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "init", dir, "--namespace", "MyCompany.Data", "--type", "things")
	if code == 0 || !strings.Contains(stderr, "udtc.yaml already exists\n") {
		t.Errorf("one file: exit %d, stderr %q; want \"... already exists\"", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "bicepconfig.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "init", dir, "--namespace", "MyCompany.Data", "--type", "things")
	if code == 0 || !strings.Contains(stderr, "bicepconfig.json already exist\n") || strings.Contains(stderr, "exist(s)") {
		t.Errorf("two files: exit %d, stderr %q; want \"..., ... already exist\"", code, stderr)
	}
}
