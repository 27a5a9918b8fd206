package goclient_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestCorpusCompilesAndVets emits every corpus manifest into one temporary
// module and runs `go vet ./...` there: the generated code of real
// manifests must compile and vet.
func TestCorpusCompilesAndVets(t *testing.T) {
	corpusDir := goldentest.Corpus(t)
	if testing.Short() {
		t.Skip("runs go vet on generated code; skipped with -short")
	}
	const mod = "example.com/corpus"
	cat := goldentest.CompilePaths(t, corpusDir)
	files, diags, err := goclient.Emit(cat, goclient.Options{ImportPrefix: mod})
	if err != nil {
		t.Fatal(err)
	}
	if diags.HasErrors() {
		t.Fatalf("Emit reported errors: %v", diags)
	}
	if len(files) == 0 {
		t.Fatal("no files emitted for the corpus")
	}
	dir := t.TempDir()
	writeModule(t, dir, mod, files)
	goVet(t, dir)
}

// writeModule writes files into a new Go module named modPath in dir.
func writeModule(t testing.TB, dir, modPath string, files []emit.File) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+modPath+"\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
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

// goVet runs `go vet ./...` in dir and fails the test with its output.
func goVet(t testing.TB, dir string) {
	t.Helper()
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet in %s: %v\n%s", dir, err, out)
	}
}

// TestEdgeCasesCompileAndVet emits testdata/edge.yaml and runs go vet on it.
func TestEdgeCasesCompileAndVet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet on generated code; skipped with -short")
	}
	const mod = "example.com/edge"
	files, _, err := goclient.Emit(goldentest.CompilePathsWith(t, generator.Options{NoBaseProperties: true}, filepath.Join("testdata", "edge.yaml")), goclient.Options{ImportPrefix: mod})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeModule(t, dir, mod, files)
	goVet(t, dir)
}
