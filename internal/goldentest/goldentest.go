// Package goldentest helps the tests that read the fixtures: it finds the
// repository root, lists the fixture cases, compiles them, and writes
// synthetic catalogs. Comparing outputs with golden/ is the golden
// driver's job (cmd/udtc's TestGolden).
package goldentest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/model"
)

// Root finds the repository root (the directory holding fixtures/ and
// golden/) above the test's working directory.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "fixtures")); err == nil {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("repository root (fixtures/ and go.mod) not found")
		}
		dir = parent
	}
}

// PairPrefix starts the names of fixture cases that are not one set of
// manifests but a pair, fixtures/<case>/old and fixtures/<case>/new (cases
// of `udtc breaking`, run by the golden driver in cmd/udtc); the harnesses
// here skip them.
const PairPrefix = "breaking_"

// ValidCases lists the fixture cases whose manifests compile: every
// directory under fixtures/ not named error_* (nor PairPrefix*).
func ValidCases(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(Root(t), "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "error_") && !strings.HasPrefix(e.Name(), PairPrefix) {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no fixtures found")
	}
	return cases
}

// RadiusPrefix starts the names of fixture cases written for the radius
// profile (target: radius): what rad accepts and only that profile reads
// (a property without `type`, YAML merge keys). Compile and CompilePaths
// compile them so; their golden.args pass --profile radius.
const RadiusPrefix = "radius_"

// Compile compiles fixtures/<name> and fails the test unless it compiles.
func Compile(t testing.TB, name string) *model.Catalog {
	t.Helper()
	return CompilePaths(t, filepath.Join(Root(t), "fixtures", name))
}

// Corpus returns the path of ../shared/corpus, or skips the test with a
// message when it is absent (a user's clone has no ../shared).
func Corpus(t testing.TB) string {
	t.Helper()
	corpus := filepath.Join(Root(t), "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("skipping: the shared corpus is not at %s", corpus)
	}
	return corpus
}

// CompilePaths compiles manifests and fails the test unless they compile.
func CompilePaths(t testing.TB, paths ...string) *model.Catalog {
	t.Helper()
	radius := false
	for _, p := range paths {
		radius = radius || strings.HasPrefix(filepath.Base(p), RadiusPrefix)
	}
	return CompilePathsWith(t, generator.Options{Radius: radius}, paths...)
}

// CompilePathsWith is CompilePaths with options (for example without
// Radius's base properties, for shapes only that subset allows).
func CompilePathsWith(t testing.TB, opts generator.Options, paths ...string) *model.Catalog {
	t.Helper()
	cat, diags, err := generator.Compile(context.Background(), paths, opts)
	if err != nil {
		t.Fatal(err)
	}
	if cat == nil {
		t.Fatalf("%v does not compile: %v", paths, diags)
	}
	return cat
}

// WriteSynthetic writes a synthetic catalog (bench/synth) into a new
// temporary directory and returns the directory.
func WriteSynthetic(tb testing.TB, o synth.Options) string {
	tb.Helper()
	files, err := synth.Generate(o)
	if err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	for _, f := range files {
		writeFile(tb, dir, f.Path, f.Data)
	}
	return dir
}

// Synthetic compiles a synthetic catalog (bench/synth).
func Synthetic(tb testing.TB, o synth.Options) *model.Catalog {
	tb.Helper()
	return CompilePaths(tb, WriteSynthetic(tb, o))
}

// WriteDir replaces dir/target with files (whose paths start with target/).
func WriteDir(t testing.TB, dir, target string, files []emit.File) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, target)); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		writeFile(t, dir, f.Path, f.Data)
	}
}

// writeFile writes data to dir/name (slash-separated), making its
// directories.
func writeFile(tb testing.TB, dir, name string, data []byte) {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		tb.Fatal(err)
	}
}
