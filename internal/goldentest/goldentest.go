// Package goldentest is the shared harness of the emitters' golden tests:
// it lists the fixture cases, compiles them, and compares emitted files with
// golden/<case>/<target>/ (rewriting them with -update).
package goldentest

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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
// manifests but a pair, fixtures/<case>/old and fixtures/<case>/new (the
// golden tests of `udtc breaking`); the other harnesses skip them.
const PairPrefix = "breaking_"

// PairCases lists the fixture cases named PairPrefix*.
func PairCases(t testing.TB) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(Root(t), "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), PairPrefix) {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no fixture pairs found")
	}
	return cases
}

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
	cat, diags, err := generator.Compile(context.Background(), paths, generator.Options{})
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
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// Synthetic compiles a synthetic catalog (bench/synth).
func Synthetic(tb testing.TB, o synth.Options) *model.Catalog {
	tb.Helper()
	return CompilePaths(tb, WriteSynthetic(tb, o))
}

// Compare checks files (whose paths start with target + "/") against
// golden/<name>/<target>/. With update it first replaces that directory
// with files. Text files are diffed; other files compared as bytes.
func Compare(t *testing.T, name, target string, files []emit.File, update bool) {
	t.Helper()
	dir := filepath.Join(Root(t), "golden", name)
	if update {
		WriteDir(t, dir, target, files)
	}
	want := read(t, dir, target)
	got := map[string][]byte{}
	for _, f := range files {
		got[f.Path] = f.Data
	}
	if diff := cmp.Diff(sortedKeys(want), sortedKeys(got)); diff != "" {
		t.Errorf("golden/%s/%s files (-want +got):\n%s", name, target, diff)
	}
	for p, w := range want {
		g, ok := got[p]
		if !ok {
			continue
		}
		if !isText(p) {
			if !bytes.Equal(w, g) {
				t.Errorf("%s: bytes differ from golden (%d bytes, want %d)", p, len(g), len(w))
			}
			continue
		}
		if diff := cmp.Diff(string(w), string(g)); diff != "" {
			t.Errorf("golden/%s/%s (-want +got):\n%s\n(go test -update accepts the change)", name, p, diff)
		}
	}
}

func isText(p string) bool {
	switch filepath.Ext(p) {
	case ".tgz", ".gz", ".tar":
		return false
	}
	return true
}

func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// WriteDir replaces dir/target with files (whose paths start with target/).
func WriteDir(t testing.TB, dir, target string, files []emit.File) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, target)); err != nil {
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

func read(t *testing.T, dir, target string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(filepath.Join(dir, target), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
