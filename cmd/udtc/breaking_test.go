package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/source"
)

const dbV1 = `namespace: Contoso.Data
types:
  databases:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size:
              type: string
              enum: [S, M, L]
`

// dbV2 adds an optional property: compatible.
var dbV2 = dbV1 + "            backup:\n              type: boolean\n"

const cacheV1 = `namespace: Contoso.Data
types:
  caches:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            ttl:
              type: integer
`

// gitRepo builds a repository with go-git in a temporary directory:
//
//	A (tag v1): manifests/db.yaml = dbV1
//	B (branch release): manifests/db.yaml = dbV2
//	C (main, HEAD): manifests/db.yaml = dbV2 plus caches, then caches moved to manifests/cache.yaml in D
//
// and leaves the working tree at D's contents.
func gitRepo(t *testing.T) (dir string, hashes map[string]string) {
	t.Helper()
	dir = t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	hashes = map[string]string{}
	when := time.Unix(1700000000, 0)
	commit := func(name string, files ...source.File) {
		when = when.Add(time.Hour)
		h, err := r.CommitCheckedOut(source.CommitOptions{Branch: "main", Files: files, Message: name,
			Author: source.Author{Name: "T", Email: "t@example.com"}, When: when})
		if err != nil {
			t.Fatal(err)
		}
		hashes[name] = h
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f.Path))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	commit("A", source.File{Path: "manifests/db.yaml", Data: []byte(dbV1)})
	if err := r.Tag("v1", hashes["A"]); err != nil {
		t.Fatal(err)
	}
	commit("B", source.File{Path: "manifests/db.yaml", Data: []byte(dbV2)})
	if err := r.Branch("release", hashes["B"]); err != nil {
		t.Fatal(err)
	}
	commit("C", source.File{Path: "manifests/db.yaml", Data: []byte(dbV2 + strings.SplitN(cacheV1, "types:\n", 2)[1])})
	os.Remove(filepath.Join(dir, "manifests", "db.yaml"))
	commit("D", source.File{Path: "manifests/db.yaml", Data: []byte(dbV2)}, source.File{Path: "manifests/cache.yaml", Data: []byte(cacheV1)})
	return dir, hashes
}

func TestBreakingAgainstRevisions(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dir, hashes := gitRepo(t)
	t.Chdir(dir)
	tests := []struct {
		args  []string
		code  int
		rules []string // in stdout, in order
	}{
		{[]string{"--against", "HEAD"}, 0, nil},
		{[]string{"--against", "HEAD~1"}, 0, nil}, // caches moved between files: no change
		{[]string{"--against", "release"}, 0, []string{"note[type-added]"}},
		{[]string{"--against", "v1"}, 0, []string{"note[property-added]", "note[type-added]"}},
		{[]string{"--against", "v1", "--fail-on", "info"}, 1, []string{"note[property-added]", "note[type-added]"}},
		{[]string{"--against", hashes["A"]}, 0, []string{"note[property-added]", "note[type-added]"}},
		{[]string{"--against", hashes["A"][:8]}, 0, []string{"note[property-added]", "note[type-added]"}},
		{[]string{"--against", "HEAD~3"}, 0, []string{"note[property-added]", "note[type-added]"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append([]string{"breaking", "manifests"}, tc.args...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			rest := stdout
			for _, r := range tc.rules {
				i := strings.Index(rest, r)
				if i < 0 {
					t.Fatalf("stdout lacks %s (in order):\n%s", r, stdout)
				}
				rest = rest[i+len(r):]
			}
			if len(tc.rules) == 0 && !strings.Contains(stdout, "no API changes against") {
				t.Errorf("stdout:\n%s", stdout)
			}
		})
	}

	// A break in the working tree: an enum value removed, a required property added.
	broken := strings.Replace(dbV2, "[S, M, L]", "[S, M]", 1) + "            region:\n              type: string\n          required: [region]\n"
	if err := os.WriteFile(filepath.Join("manifests", "db.yaml"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI(t, "breaking", "manifests", "--against", "HEAD")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, stdout)
	}
	for _, want := range []string{
		"manifests/db.yaml:9:13: error[enum-value-removed]: Contoso.Data/databases@2025-01-01: property size no longer accepts \"L\" (was HEAD:manifests/db.yaml:9:13)",
		"    9 |             size:\n",
		"error[required-property-added]",
		"2 errors, 0 warnings",
		"compared with HEAD (" + hashes["D"][:12] + ")",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}

	// JSON: one document with both positions and the commit.
	code, stdout, _ = runCLI(t, "breaking", "--format", "json", "manifests", "--against", "release")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Base     struct{ Against, Commit string }
		Findings []struct {
			Rule, Severity, Category, Namespace, Type, APIVersion, Path string
			New, Old                                                    *struct {
				File         string
				Line, Column int
			}
		}
		Summary struct{ Errors, Warnings, Info int }
	}
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(&doc); err != nil || dec.More() {
		t.Fatalf("not one JSON document: %v\n%s", err, stdout)
	}
	if doc.Base.Commit != hashes["B"] || doc.Summary.Errors != 2 || doc.Summary.Info != 1 {
		t.Errorf("base/summary: %+v %+v", doc.Base, doc.Summary)
	}
	f := doc.Findings[0]
	if f.Rule != "enum-value-removed" || f.Severity != "error" || f.Category != "wire" || f.Namespace != "Contoso.Data" ||
		f.Type != "databases" || f.APIVersion != "2025-01-01" || f.Path != "size" ||
		f.New == nil || f.New.File != "manifests/db.yaml" || f.Old == nil || f.Old.File != "release:manifests/db.yaml" || f.Old.Line != 9 {
		t.Errorf("first finding: %+v new=%+v old=%+v", f, f.New, f.Old)
	}

	// SARIF and GitHub annotations.
	code, stdout, _ = runCLI(t, "breaking", "--format", "sarif", "manifests", "--against", "HEAD")
	if code != 1 || !strings.Contains(stdout, `"ruleId": "enum-value-removed"`) || !strings.Contains(stdout, `"id": "property-possibly-renamed"`) {
		t.Errorf("sarif exit %d:\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "breaking", "--format", "github", "manifests", "--against", "HEAD")
	if code != 1 || !strings.Contains(stdout, "::error file=manifests/db.yaml,line=9,col=13,endLine=9,endColumn=17,title=enum-value-removed::Contoso.Data/databases@2025-01-01: property size no longer accepts \"L\"") {
		t.Errorf("github exit %d:\n%s", code, stdout)
	}

	// From a subdirectory: paths are matched relative to the repository root.
	t.Chdir("manifests")
	code, stdout, _ = runCLI(t, "breaking", ".", "--against", "HEAD", "--fail-on", "warning")
	if code != 1 || !strings.Contains(stdout, "db.yaml:9:13: error[enum-value-removed]") || !strings.Contains(stdout, "(was HEAD:manifests/db.yaml:9:13)") {
		t.Errorf("from a subdirectory, exit %d:\n%s", code, stdout)
	}
}

// TestBreakingFileDeleted: a type removed with its file is anchored where
// it was, at the revision, never at another file of its namespace; the
// annotations for the working tree carry no position for it.
func TestBreakingFileDeleted(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dir, _ := gitRepo(t)
	t.Chdir(dir)
	if err := os.Remove(filepath.Join("manifests", "cache.yaml")); err != nil {
		t.Fatal(err)
	}
	const removed = "type Contoso.Data/caches removed (with API versions 2025-01-01)"
	code, stdout, _ := runCLI(t, "breaking", "manifests", "--against", "HEAD")
	if code != 1 || !strings.HasPrefix(stdout, "HEAD:manifests/cache.yaml:3:3: error[type-removed]: "+removed+"\n") ||
		!strings.Contains(stdout, "    3 |   caches:") || strings.Contains(stdout, "db.yaml") || strings.Contains(stdout, "(was") {
		t.Errorf("text: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "breaking", "--format", "github", "manifests", "--against", "HEAD")
	if want := "::error title=type-removed::" + removed + " (was HEAD:manifests/cache.yaml:3:3)\n"; code != 1 || stdout != want {
		t.Errorf("github: exit %d\n%s\nwant\n%s", code, stdout, want)
	}
	code, stdout, _ = runCLI(t, "breaking", "--format", "sarif", "manifests", "--against", "HEAD")
	if code != 1 || strings.Contains(stdout, `"uri"`) || !strings.Contains(stdout, "(was HEAD:manifests/cache.yaml:3:3)") {
		t.Errorf("sarif: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "breaking", "--format", "json", "manifests", "--against", "HEAD")
	if code != 1 || strings.Contains(stdout, `"new"`) || !strings.Contains(stdout, `"file": "HEAD:manifests/cache.yaml"`) {
		t.Errorf("json: exit %d\n%s", code, stdout)
	}
}

func TestBreakingErrors(t *testing.T) {
	dir, _ := gitRepo(t)
	t.Chdir(dir)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "m.yaml"), []byte(dbV1), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "m.yaml"), []byte("namespace: Contoso.Data\ntypes: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string // in stderr or stdout
	}{
		{[]string{"breaking", "manifests", "--against", "no-such-branch"}, 2, "--against no-such-branch: unknown revision"},
		{[]string{"breaking", "manifests", "--against", "HEAD~9"}, 2, "HEAD~9: unknown revision"},
		{[]string{"breaking", outside, "--against", "HEAD"}, 2, "not inside a git repository"},
		{[]string{"breaking", "manifests", filepath.Join(outside, "m.yaml"), "--against", "HEAD"}, 2, "is outside the repository"},
		{[]string{"breaking", "manifests"}, 2, "--against REV|DIR or --server URL is required"},
		{[]string{"breaking", "--against", "HEAD"}, 2, "give at least one manifest"},
		{[]string{"breaking", "manifests", "--against", "HEAD", "--format", "xml"}, 2, "--format must be"},
		{[]string{"breaking", "manifests", "--against", "HEAD", "--fail-on", "fatal"}, 2, "--fail-on must be"},
		{[]string{"breaking", bad, "--against", "manifests"}, 1, "the manifests do not compile"},
		{[]string{"breaking", "manifests", "--against", bad}, 1, "the manifests at " + bad + " do not compile"},
		// --against DIR: the other directory is the old side.
		{[]string{"breaking", "manifests", "--against", outside}, 0, "note[type-added]: type Contoso.Data/caches added"},
		{[]string{"breaking", outside, "--against", "manifests"}, 1, "error[type-removed]"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
			}
			if !strings.Contains(stdout+stderr, tc.want) {
				t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", tc.want, stdout, stderr)
			}
		})
	}
}

// policyPair writes old/ and new/ manifests: widgets changes in place at
// the stable 2025-01-01 (an enum value removed) and at 2025-08-01-preview
// (the same, and x-radius-sensitive removed); gadgets@2025-01-01 loses a
// property.
func policyPair(t *testing.T) string {
	t.Helper()
	const tmpl = `namespace: Contoso.Data
types:
  widgets:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string, enum: [S, M%[1]s]}
      '2025-08-01-preview':
        schema:
          type: object
          properties:
            size: {type: string, enum: [S, M%[1]s]}
            password: {type: string%[2]s}
  gadgets:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            a: {type: string}
%[3]s`
	dir := t.TempDir()
	for name, text := range map[string]string{
		"old": fmt.Sprintf(tmpl, ", L", ", x-radius-sensitive: true", "            b: {type: string}\n"),
		"new": fmt.Sprintf(tmpl, "", "", ""),
	} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "m.yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBreakingPolicy: a breaking change in a preview version is a warning
// (breaking.previews: allow, the default) unless udtc.yaml makes previews
// strict; removing x-radius-sensitive stays an error; --allow-breaking
// alone allows everything, --allow-breaking=TYPE@VERSION (repeatable) one
// version.
func TestBreakingPolicy(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	t.Chdir(policyPair(t))
	const (
		previewEnum = `warning[enum-value-removed]: Contoso.Data/widgets@2025-08-01-preview: property size no longer accepts "L" (breaking change in preview version 2025-08-01-preview, allowed by breaking.previews: allow)`
		sensitive   = `error[sensitive-removed]: Contoso.Data/widgets@2025-08-01-preview: property password is no longer x-radius-sensitive: Radius would store and return its value in clear text`
		stableEnum  = `error[enum-value-removed]: Contoso.Data/widgets@2025-01-01: property size no longer accepts "L"`
		gadgets     = `error[property-removed]: Contoso.Data/gadgets@2025-01-01: property b removed`
	)
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"default", nil, 1, []string{previewEnum, sensitive, stableEnum, gadgets, "3 errors, 1 warning"}},
		{"one version", []string{"--allow-breaking=Contoso.Data/widgets@2025-01-01"}, 1, []string{
			`warning[enum-value-removed]: Contoso.Data/widgets@2025-01-01: property size no longer accepts "L" (allowed by --allow-breaking=Contoso.Data/widgets@2025-01-01)`,
			previewEnum, sensitive, gadgets, "2 errors, 2 warnings"}},
		{"three versions, any case", []string{"--allow-breaking=Contoso.Data/widgets@2025-01-01", "--allow-breaking=contoso.data/GADGETS@2025-01-01", "--allow-breaking=Contoso.Data/widgets@2025-08-01-preview"}, 0, []string{
			`warning[sensitive-removed]: Contoso.Data/widgets@2025-08-01-preview: property password is no longer x-radius-sensitive: Radius would store and return its value in clear text (allowed by --allow-breaking=Contoso.Data/widgets@2025-08-01-preview)`,
			`warning[property-removed]: Contoso.Data/gadgets@2025-01-01: property b removed (allowed by --allow-breaking=contoso.data/GADGETS@2025-01-01)`,
			"0 errors, 4 warnings"}},
		{"all, before the paths", []string{"--allow-breaking"}, 0, []string{
			`warning[sensitive-removed]: Contoso.Data/widgets@2025-08-01-preview: property password is no longer x-radius-sensitive: Radius would store and return its value in clear text (allowed by --allow-breaking)`,
			"0 errors, 4 warnings"}},
		{"--fail-on warning still fails", []string{"--allow-breaking", "--fail-on", "warning"}, 1, []string{"0 errors, 4 warnings"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"breaking", "new", "--against", "old"}, tc.args...)
			if tc.name == "all, before the paths" {
				args = []string{"breaking", "--allow-breaking", "new", "--against", "old"}
			}
			code, stdout, stderr := runCLI(t, args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
		})
	}

	// JSON says what allowed each finding.
	_, stdout, _ := runCLI(t, "breaking", "new", "--against", "old", "--format", "json", "--allow-breaking=Contoso.Data/widgets@2025-01-01")
	var doc struct {
		Findings []struct{ Rule, Severity, APIVersion, Type, Allowed string }
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	allowed := map[string]string{}
	for _, f := range doc.Findings {
		allowed[f.Severity+" "+f.Rule+" "+f.Type+"@"+f.APIVersion] = f.Allowed
	}
	for k, v := range map[string]string{
		"warning enum-value-removed widgets@2025-08-01-preview": "breaking.previews: allow",
		"warning enum-value-removed widgets@2025-01-01":         "--allow-breaking=Contoso.Data/widgets@2025-01-01",
		"error sensitive-removed widgets@2025-08-01-preview":    "",
		"error property-removed gadgets@2025-01-01":             "",
	} {
		if got, ok := allowed[k]; !ok || got != v {
			t.Errorf("JSON %s: allowed %q (present %v), want %q\n%s", k, got, ok, v, stdout)
		}
	}

	// udtc.yaml makes previews strict: the preview's change is an error.
	if err := os.WriteFile("udtc.yaml", []byte("breaking:\n  previews: strict\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := runCLI(t, "breaking", "new", "--against", "old")
	if code != 1 || !strings.Contains(stdout, `error[enum-value-removed]: Contoso.Data/widgets@2025-08-01-preview: property size no longer accepts "L" (was old/m.yaml:14:13)`) ||
		!strings.Contains(stdout, "4 errors, 0 warnings") {
		t.Errorf("previews: strict: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "breaking", "new", "--against", "old", "--allow-breaking=Contoso.Data/widgets@2025-08-01-preview")
	if code != 1 || !strings.Contains(stdout, "(allowed by --allow-breaking=Contoso.Data/widgets@2025-08-01-preview)") || !strings.Contains(stdout, "2 errors, 2 warnings") {
		t.Errorf("previews: strict, one preview allowed: exit %d\n%s", code, stdout)
	}
	if err := os.WriteFile("udtc.yaml", []byte("breaking:\n  previews: never\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "breaking", "new", "--against", "old"); code != 2 || !strings.Contains(stderr, `breaking.previews: "never" is not allow or strict`) {
		t.Errorf("a bad udtc.yaml: exit %d\n%s", code, stderr)
	}
	if err := os.Remove("udtc.yaml"); err != nil {
		t.Fatal(err)
	}

	// Usage errors: a bad value, and a value given without "=".
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--allow-breaking=widgets"}, `"widgets" is not NAMESPACE/TYPE[@VERSION]`},
		{[]string{"--allow-breaking=Contoso.Data/widgets"}, `"Contoso.Data/widgets" is not NAMESPACE/TYPE@VERSION`},
		{[]string{"--allow-breaking=Contoso.Data/widgets@2025-13-01"}, `API version "2025-13-01"`},
		{[]string{"--allow-breaking", "Contoso.Data/widgets@2025-01-01"}, `Contoso.Data/widgets@2025-01-01 is not a file or directory; to allow its breaking changes write --allow-breaking=Contoso.Data/widgets@2025-01-01 (with "=")`},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"breaking", "new", "--against", "old"}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, stdout, stderr)
		}
	}
}
