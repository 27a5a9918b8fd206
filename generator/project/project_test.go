package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/diag"
)

// TestProjectSchema checks the JSON Schema of udtc.yaml names itself and
// is closed. (The golden driver, cmd/udtc's TestGoldenDocs, keeps the
// committed docs/project.schema.json equal to udtc schema --project.)
func TestProjectSchema(t *testing.T) {
	got, err := JSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(got), `"$id": "`+SchemaID+`"`) || !strings.Contains(string(got), `"additionalProperties": false`) {
		t.Errorf("schema lacks its $id or is open:\n%s", got)
	}
	// A comma in a description is escaped in the struct tag: the whole
	// description survives.
	for _, want := range []string{"bicep, go, docs, registration, site.", "off or warning for warning rules, error for any.",
		"reported as a warning and allowed, as Azure and Radius allow previews to break"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("schema lacks %q:\n%s", want, got)
		}
	}
}

func TestMatches(t *testing.T) {
	for _, tc := range []struct {
		glob, rel string
		want      bool
	}{
		{".", "a/b.yaml", true},
		{"manifests", "manifests/a.yaml", true},
		{"manifests", "manifests2/a.yaml", false},
		{"manifests/*.yaml", "manifests/a.yaml", true},
		{"manifests/*.yaml", "manifests/x/a.yaml", false},
		{"**/drafts", "a/b/drafts/c.yaml", true},
		{"**/*.json", "x.json", true},
		{"**/*.json", "a/b/x.json", true},
		{"a/**/c.yaml", "a/c.yaml", true},
		{"a/**/c.yaml", "a/x/y/c.yaml", true},
		{"a/**/c.yaml", "b/c.yaml", false},
		{"./out/", "out/x.json", true},
	} {
		if got := matches(tc.glob, tc.rel); got != tc.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tc.glob, tc.rel, got, tc.want)
		}
	}
}

func write(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ file, want string }{
		{"outptu: out\n", "field outptu not found"},
		{"rules:\n  schema-undeclrd: {severity: off, reason: x}\n", "rules.schema-undeclrd: no such rule (did you mean schema-undeclared?)"},
		{"rules:\n  schema-undeclared: {severity: off}\n", "rules.schema-undeclared: give a reason"},
		{"rules:\n  schema-undeclared: {severity: never, reason: x}\n", `rules.schema-undeclared.severity: "never" is not off, warning or error`},
		{"rules:\n  type-invalid: {severity: off, reason: x}\n", "rules.type-invalid: an error rule cannot be lowered to off"},
		{"inputs: {include: [/abs]}\n", `inputs: "/abs" is not a glob relative to the project directory`},
		{"inputs: {exclude: ['[']}\n", `inputs: "[" is not a glob`},
		{"go: {runtime: vendored}\n", `go.runtime: "vendored" is not copy or module`},
		{"go: {module: 'Not A Path'}\n", `go.module: "Not A Path" is not a Go module path`},
		{"breaking: {previews: refuse}\n", `breaking.previews: "refuse" is not allow or strict`},
		{"breaking: {preview: strict}\n", "field preview not found"},
	} {
		_, err := Load(write(t, dir, FileName, tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) = %v, want %q", tc.file, err, tc.want)
		}
	}
	if p, err := Load(write(t, dir, FileName, "")); err != nil || p.File.Output != "" {
		t.Errorf("an empty udtc.yaml: %v", err)
	}
}

// TestBreakingPolicy: breaking.previews sets the policy's preview rule;
// without a project, or without the setting, previews may break.
func TestBreakingPolicy(t *testing.T) {
	dir := t.TempDir()
	if (*Project)(nil).BreakingPolicy().StrictPreviews {
		t.Error("no project: previews are strict")
	}
	for file, strict := range map[string]bool{"": false, "breaking: {previews: allow}\n": false, "breaking: {previews: strict}\n": true} {
		p, err := Load(write(t, dir, FileName, file))
		if err != nil {
			t.Fatalf("%q: %v", file, err)
		}
		if got := p.BreakingPolicy(); got.StrictPreviews != strict || got.AllowAll || len(got.Allow) > 0 {
			t.Errorf("%q: policy %+v, want strict previews %v", file, got, strict)
		}
	}
}

func TestFindInputsApply(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, FileName, "inputs:\n  include: [manifests]\n  exclude: ['**/drafts']\noutput: manifests/out\n"+
		"rules:\n  schema-undeclared: {severity: off, reason: types of other repositories}\n  unknown-keyword: {severity: error, reason: keep manifests clean}\n")
	write(t, dir, "manifests/a.yaml", "namespace: A.B\n")
	write(t, dir, "manifests/drafts/b.yaml", "namespace: A.B\n")
	write(t, dir, "manifests/out/c.yaml", "namespace: A.B\n")
	write(t, dir, "other/d.yaml", "namespace: A.B\n")
	sub := filepath.Join(dir, "manifests", "drafts")
	path, err := Find(sub)
	if err != nil || path != filepath.Join(dir, FileName) {
		t.Fatalf("Find from a subdirectory = %q, %v", path, err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	got, err := p.Inputs(p.Rel(p.File.Output))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{filepath.Join("manifests", "a.yaml")}, got); diff != "" {
		t.Errorf("inputs (-want +got):\n%s", diff)
	}
	diags := p.Apply(diag.List{
		{Rule: "schema-undeclared", Severity: diag.Warning},
		{Rule: "unknown-keyword", Severity: diag.Warning},
		{Rule: "not-a-manifest", Severity: diag.Note},
		{Rule: "type-invalid", Severity: diag.Error},
	})
	var rules []string
	for _, d := range diags {
		rules = append(rules, d.Rule+":"+d.Severity.String())
	}
	if diff := cmp.Diff([]string{"unknown-keyword:error", "not-a-manifest:note", "type-invalid:error"}, rules); diff != "" {
		t.Errorf("Apply (-want +got):\n%s", diff)
	}
}

// TestDocsExample loads the udtc.yaml that docs/cli.md shows: an example a
// page shows must work as shown.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Skipf("docs: %v", err)
	}
	_, after, _ := strings.Cut(string(doc), "## The project file")
	_, block, ok := strings.Cut(after, "```yaml\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/cli.md has no yaml block under \"The project file\"")
	}
	// The icon file the example names exists beside it, as in a project.
	dir := t.TempDir()
	write(t, filepath.Join(dir, "icons"), "redis.svg", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8"/></svg>`)
	p, err := Load(write(t, dir, FileName, block))
	if err != nil {
		t.Fatalf("the udtc.yaml of docs/cli.md does not load: %v", err)
	}
	if len(p.Icons()) != 1 {
		t.Errorf("icons read: %v", p.Icons())
	}
}

// The init workflow installs the udtc that ran init, saying why: gen
// --check wants its bytes. Without a version to pin it says to pin one.
func TestStarterWorkflowPinsUdtc(t *testing.T) {
	workflow := func(pin string) string {
		t.Helper()
		files, err := Starter("Contoso.Data", "things", pin)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if filepath.Base(f.Path) == "udtc.yaml" && strings.Contains(f.Path, "workflows") {
				return string(f.Data)
			}
		}
		t.Fatal("no workflow")
		return ""
	}
	w := workflow("v0.4.0")
	if !strings.Contains(w, "- run: go install github.com/udtc/udtc/cmd/udtc@v0.4.0\n") || strings.Contains(w, "@latest") ||
		!strings.Contains(w, "byte for byte") || !strings.Contains(w, "origin/${{ github.base_ref }}") {
		t.Errorf("pinned workflow:\n%s", w)
	}
	w = workflow("")
	if !strings.Contains(w, "cmd/udtc@latest\n") || !strings.Contains(w, "replace @latest with the\n      # version you run locally") {
		t.Errorf("unpinned workflow:\n%s", w)
	}
}
