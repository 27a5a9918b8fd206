package main

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/outdir/outdirtest"
	"github.com/udtc/udtc/internal/gctune"
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
		"go/contosodata/v20250601/postgresdatabase_gen.go", "docs/contosodata.md",
		"registration/Contoso.Data/types/postgresDatabases@2025-06-01.json",
	} {
		if _, err := os.Stat(filepath.Join(out, p)); err != nil {
			t.Errorf("missing %s: %v", p, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(out, "go/contosodata/v20250601/common_gen.go")); err != nil || !strings.Contains(string(b), "example.com/gentest/go/contosodata/resourceids") {
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
	if code, _, stderr = runCLI(t, "gen", dir, "--out", out); code != 0 || !strings.Contains(stderr, "wrote 1 file to") {
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

// TestGenTwiceInTheInputDirectory: `udtc gen . --out out` must not read its
// own output the second time, and a project's bicepconfig.json beside the
// manifests is skipped (without a note) unless named.
func TestGenTwiceInTheInputDirectory(t *testing.T) {
	t.Chdir("../..")
	dir := copyDir(t, "examples")
	bicepconfig := `{"experimentalFeaturesEnabled": {"extensibility": true}, "extensions": {"contosodata": "out/bicep/contosodata.tgz"}}`
	if err := os.WriteFile(filepath.Join(dir, "bicepconfig.json"), []byte(bicepconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)

	code, _, stderr := runCLI(t, "check", ".")
	if code != 0 || strings.Contains(stderr, "not-a-manifest") || !strings.Contains(stderr, "ok: 2 files") {
		t.Fatalf("check . beside a bicepconfig.json: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "check", "bicepconfig.json"); code != 1 || !strings.Contains(stderr, "missing-key") {
		t.Errorf("a file named explicitly is checked as a manifest: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "check", "--strict", "."); code != 0 {
		t.Errorf("--strict does not promote notes: exit %d\n%s", code, stderr)
	}

	if code, _, stderr = runCLI(t, "gen", ".", "--out", "out"); code != 0 || !strings.Contains(stderr, "wrote ") {
		t.Fatalf("first gen: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "gen", ".", "--out", "out"); code != 0 || !strings.Contains(stderr, "nothing written") {
		t.Fatalf("second gen: exit %d\n%s", code, stderr)
	}
	// Without the no-op shortcut the inputs are compiled again: out/ is
	// still not among them.
	if code, _, stderr = runCLI(t, "gen", ".", "--out", "out", "--force"); code != 0 || !strings.Contains(stderr, "nothing written") || strings.Contains(stderr, "error[") {
		t.Fatalf("gen --force: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "check", "."); code != 0 || strings.Contains(stderr, "error[") || !strings.Contains(stderr, "ok: 2 files") {
		t.Fatalf("check . with gen output below: exit %d\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "check", "out"); code != 2 || !strings.Contains(stderr, "output of udtc gen") {
		t.Errorf("check of an output directory: exit %d\n%s", code, stderr)
	}
}

// genExamples runs gen of a copy of examples/ (dir) into a new directory
// (out), from the repository root.
func genExamples(t *testing.T) (dir, out string) {
	t.Helper()
	t.Chdir("../..")
	dir, out = copyDir(t, "examples"), t.TempDir()
	if code, _, stderr := runCLI(t, "gen", dir, "--out", out); code != 0 {
		t.Fatalf("gen of the examples: exit %d\n%s", code, stderr)
	}
	return dir, out
}

// listFiles returns every file below dir with its contents (ReadTree's).
func listFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := outdirtest.ReadTree(t, dir)
	return files
}

// TestGenOneTargetKeepsTheOthers: stale-file removal is per target.
func TestGenOneTargetKeepsTheOthers(t *testing.T) {
	dir, out := genExamples(t)
	full := listFiles(t, out)
	for _, prefix := range []string{"bicep/", "docs/", "registration/", "go/"} {
		if !slices.ContainsFunc(slices.Collect(maps.Keys(full)), func(p string) bool { return strings.HasPrefix(p, prefix) }) {
			t.Fatalf("full gen wrote nothing under %s", prefix)
		}
	}
	code, _, stderr := runCLI(t, "gen", dir, "--out", out, "--target", "go")
	if code != 0 || strings.Contains(stderr, "removed") && !strings.Contains(stderr, ", 0 removed") {
		t.Fatalf("gen --target go: exit %d\n%s", code, stderr)
	}
	if diff := cmp.Diff(full, listFiles(t, out)); diff != "" {
		t.Fatalf("gen --target go changed the output (-full +after):\n%s", diff)
	}

	// A type goes away: --target go removes its Go files only; the other
	// targets' files of that type stay until those targets run.
	edit(t, filepath.Join(dir, "data.yaml"), "  redisCaches:", "  redisCachesRenamed:")
	code, _, stderr = runCLI(t, "gen", dir, "--out", out, "--target", "go")
	if code != 0 || !strings.Contains(stderr, "removed)") {
		t.Fatalf("gen --target go after a rename: exit %d\n%s", code, stderr)
	}
	after := listFiles(t, out)
	var goneGo, keptOther int
	for p := range full {
		_, still := after[p]
		switch {
		case strings.HasPrefix(p, "go/") && strings.Contains(p, "rediscache") && !still:
			goneGo++
		case strings.HasPrefix(p, "go/") && strings.Contains(p, "rediscache"):
			t.Errorf("stale Go file kept: %s", p)
		case !strings.HasPrefix(p, "go/") && p != ".udtc-generated" && !still:
			t.Errorf("gen --target go removed %s", p)
		case strings.Contains(strings.ToLower(p), "rediscache") && still:
			keptOther++
		}
	}
	if goneGo == 0 || keptOther == 0 {
		t.Errorf("removed %d stale Go files, kept %d files of other targets; want both > 0", goneGo, keptOther)
	}
	// The full run then removes the other targets' stale files.
	if code, _, stderr = runCLI(t, "gen", dir, "--out", out); code != 0 || !strings.Contains(stderr, "removed)") {
		t.Fatalf("full gen after a rename: exit %d\n%s", code, stderr)
	}
	for p := range listFiles(t, out) {
		if strings.Contains(strings.ToLower(p), "rediscaches/") || strings.Contains(p, "redisCaches.json") {
			t.Errorf("stale file left by a full gen: %s", p)
		}
	}
}

// TestGenOutputIsMachineIndependent: the output directory, marker included,
// is the same bytes on every machine and run; machine-local state lives in
// the user cache, and the no-op shortcut still works.
func TestGenOutputIsMachineIndependent(t *testing.T) {
	t.Chdir("../..")
	dir := copyDir(t, "examples")
	out := filepath.Join(t.TempDir(), "out")

	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if code, _, stderr := runCLI(t, "gen", dir, "--out", out); code != 0 {
		t.Fatalf("gen on machine A: exit %d\n%s", code, stderr)
	}
	first := listFiles(t, out)
	if m := first[".udtc-generated"]; !strings.Contains(m, "go\tgo/") || !strings.Contains(m, "bicep\tbicep/") {
		t.Fatalf("marker does not record targets:\n%s", m)
	}

	// Machine B: another cache, inputs with other modification times.
	if err := os.RemoveAll(out); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	for _, f := range []string{"data.yaml", "messaging.yaml"} {
		if err := os.Chtimes(filepath.Join(dir, f), later, later); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if code, _, stderr := runCLI(t, "gen", dir, "--out", out); code != 0 {
		t.Fatalf("gen on machine B: exit %d\n%s", code, stderr)
	}
	if diff := cmp.Diff(first, listFiles(t, out)); diff != "" {
		t.Fatalf("output differs between machines (-A +B):\n%s", diff)
	}
	code, _, stderr := runCLI(t, "gen", dir, "--out", out)
	if code != 0 || !strings.Contains(stderr, "inputs unchanged") {
		t.Fatalf("no-op run on machine B: exit %d\n%s", code, stderr)
	}
	// A touched output defeats the shortcut; the full run writes nothing.
	idx := filepath.Join(out, "bicep/contosodata/index.json")
	if err := os.Chtimes(idx, later, later); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, "gen", dir, "--out", out)
	if code != 0 || strings.Contains(stderr, "inputs unchanged") || !strings.Contains(stderr, "nothing written") {
		t.Fatalf("run after touching an output: exit %d\n%s", code, stderr)
	}
	entries, err := os.ReadDir(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "udtc", "gen"))
	// One output directory: its no-op cache and its incremental state.
	if err != nil || len(entries) != 2 || entries[0].Name()+".state" != entries[1].Name() {
		t.Errorf("cache: %v %v, want one cache and one state file for one output directory", entries, err)
	}
}

// listTree returns ReadTree's files and directories in one map, each
// directory with a "/" after its path and the value "dir".
func listTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree, dirs := outdirtest.ReadTree(t, dir)
	for _, d := range dirs {
		tree[d+"/"] = "dir"
	}
	return tree
}

// TestGenFailedRunChangesNothing: a run that fails after its files were
// staged (an emitter's warning made an error by --strict) leaves --out as
// it was, byte for byte, with no stage and no new directories; into a
// missing --out it makes nothing at all.
func TestGenFailedRunChangesNothing(t *testing.T) {
	dir, out := genExamples(t)
	before := listTree(t, out)
	// One extension named az: new bicep paths and changed docs, all staged
	// before the warning becomes an error.
	code, _, stderr := runCLI(t, "gen", dir, "--out", out, "--extension-name", "az", "--strict")
	if code != 1 || !strings.Contains(stderr, "error[bicep-extension-name-reserved]") {
		t.Fatalf("gen --extension-name az --strict: exit %d, want 1\n%s", code, stderr)
	}
	if diff := cmp.Diff(before, listTree(t, out)); diff != "" {
		t.Errorf("a failed gen changed --out (-before +after):\n%s", diff)
	}

	missing := filepath.Join(t.TempDir(), "new", "out")
	if code, _, stderr := runCLI(t, "gen", dir, "--out", missing, "--extension-name", "az", "--strict"); code != 1 {
		t.Fatalf("failed gen into a missing --out: exit %d, want 1\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("a failed gen into a missing --out left %s: %v", filepath.Dir(missing), err)
	}
}

// TestGenRemovesWhatAKilledRunLeft: a stage directory and a temporary
// file left by a run that was killed make --check fail and are gone after
// the next gen, even one whose inputs are unchanged.
func TestGenRemovesWhatAKilledRunLeft(t *testing.T) {
	dir, out := genExamples(t)
	want := listTree(t, out)
	for p, data := range map[string]string{
		".udtc-stage-x/bicep/contosodata/types.json": "partial",
		".udtc-stage-x/docs/new/page.md":             "partial",
		".udtc-123":                                  "partial marker",
	} {
		p = filepath.Join(out, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, _, stderr := runCLI(t, "gen", dir, "--out", out, "--check")
	if code != 1 || !strings.Contains(stderr, "left by an interrupted run: "+filepath.Join(out, ".udtc-stage-x")) {
		t.Errorf("--check with a leftover stage: exit %d, want 1\n%s", code, stderr)
	}
	if code, _, stderr = runCLI(t, "gen", dir, "--out", out); code != 0 {
		t.Fatalf("gen after a killed run: exit %d\n%s", code, stderr)
	}
	if diff := cmp.Diff(want, listTree(t, out)); diff != "" {
		t.Errorf("gen left what a killed run left (-want +got):\n%s", diff)
	}
	if code, _, stderr = runCLI(t, "gen", dir, "--out", out, "--check"); code != 0 {
		t.Errorf("--check after the cleanup: exit %d\n%s", code, stderr)
	}
}

// gen tunes the collector for its run only: the settings are back as they
// were afterwards (tests run many commands in one process), and the memory
// limit leaves room above the compiled model.
func TestGenTunesGCForItsRunOnly(t *testing.T) {
	runRestoresGC(t, "gen", "examples", "--out", t.TempDir(), "--go-import-prefix", "example.com/x")
	if small, big := gctune.GenLimitFor(10<<20), gctune.GenLimitFor(600<<20); small != 10<<20+gctune.GenHeadroom || big != 1500<<20 {
		t.Errorf("GenLimitFor: %d MiB for a 10 MiB model, %d MiB for 600 MiB; want the model plus %d MiB, and 2.5 times a larger model", small>>20, big>>20, gctune.GenHeadroom>>20)
	}
}

// TestRegistrationLayoutAsDocumented runs the console example of
// docs/publish.md ("The documents on disk") as shown, from a directory
// holding the fixture it names, and compares what gen says and writes
// with the example's lines.
func TestRegistrationLayoutAsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/publish.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(doc), "### The documents on disk")
	_, block, ok := strings.Cut(section, "```console\n")
	if !found || !ok {
		t.Fatal("docs/publish.md: no console example under \"The documents on disk\"")
	}
	block, _, _ = strings.Cut(block, "```")
	lines := strings.Split(strings.TrimSuffix(block, "\n"), "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[0], "$ udtc gen ") || lines[2] != "$ find out/registration -type f | sort" {
		t.Fatalf("docs/publish.md: the example is not gen, its output, then find:\n%s", block)
	}
	args := strings.Fields(strings.TrimPrefix(lines[0], "$ udtc "))
	dir := t.TempDir()
	fixture := args[len(args)-1]
	if err := os.CopyFS(filepath.Join(dir, fixture), os.DirFS(filepath.Join("../..", fixture))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	code, _, stderr := runCLI(t, args...)
	if code != 0 || strings.TrimSpace(stderr) != lines[1] {
		t.Fatalf("udtc %s: exit %d, said %q; the docs show %q", strings.Join(args, " "), code, stderr, lines[1])
	}
	var got []string
	err = filepath.WalkDir("out/registration", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got = append(got, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	if want := lines[3:]; !slices.Equal(got, want) {
		t.Errorf("gen wrote\n%s\nthe docs show\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
