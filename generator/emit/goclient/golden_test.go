package goclient_test

import (
	"bytes"
	"context"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/model"
)

var update = flag.Bool("update", false, "rewrite golden/<case>/go from the emitter's output")

const (
	repoRoot = "../../.."
	// goldenModule is the module path of golden/go.mod.
	goldenModule = "github.com/udtc/udtc/golden"
)

// validCases lists the fixtures/<case> directories whose name does not
// start with "error_".
func validCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repoRoot, "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "error_") {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no fixtures found")
	}
	return cases
}

func compile(t testing.TB, paths ...string) *model.Catalog {
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

// TestGolden emits every valid fixture and compares the files with
// golden/<case>/go; -update rewrites that directory (and nothing else below
// golden/<case>). An absent directory means "no files". CI builds, vets and
// tests the golden module (cd golden && go vet ./... && go test ./...).
func TestGolden(t *testing.T) {
	for _, name := range validCases(t) {
		t.Run(name, func(t *testing.T) {
			cat := compile(t, filepath.Join(repoRoot, "fixtures", name))
			files, diags, err := goclient.Emit(cat, goclient.Options{ImportPrefix: goldenModule + "/" + name})
			if err != nil {
				t.Fatal(err)
			}
			if diags.HasErrors() {
				t.Fatalf("Emit reported errors: %v", diags)
			}
			dir := filepath.Join(repoRoot, "golden", name)
			if *update {
				writeGolden(t, dir, "go", files)
			}
			want := readGolden(t, dir, "go")
			got := map[string]string{}
			for _, f := range files {
				got[f.Path] = string(f.Data)
			}
			if diff := cmp.Diff(sortedKeys(want), sortedKeys(got)); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			for p, w := range want {
				if g, ok := got[p]; ok {
					if diff := cmp.Diff(w, g); diff != "" {
						t.Errorf("%s (-want +got):\n%s", p, diff)
					}
				}
			}
		})
	}
}

// TestDeterministic emits every valid fixture twice, the second time from a
// catalog compiled with the manifest paths in reverse order.
func TestDeterministic(t *testing.T) {
	var paths []string
	for _, name := range validCases(t) {
		paths = append(paths, filepath.Join(repoRoot, "fixtures", name))
	}
	// The fixtures may share namespaces, so compile them one at a time.
	for _, p := range paths {
		files, _ := filesOf(t, p)
		again, _ := filesOf(t, p)
		if diff := cmp.Diff(files, again); diff != "" {
			t.Errorf("%s: second run differs (-first +second):\n%s", p, diff)
		}
	}
	multi := filepath.Join(repoRoot, "fixtures", "valid_multi_file")
	var inputs []string
	_ = filepath.WalkDir(multi, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			inputs = append(inputs, p)
		}
		return err
	})
	if len(inputs) < 2 {
		t.Skip("valid_multi_file has fewer than two files")
	}
	forward, _ := filesOf(t, inputs...)
	slices.Reverse(inputs)
	backward, _ := filesOf(t, inputs...)
	if diff := cmp.Diff(forward, backward); diff != "" {
		t.Errorf("input order changes the output (-forward +backward):\n%s", diff)
	}
}

func filesOf(t *testing.T, paths ...string) (map[string]string, error) {
	t.Helper()
	files, _, err := goclient.Emit(compile(t, paths...), goclient.Options{ImportPrefix: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = string(f.Data)
	}
	return out, nil
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// writeGolden replaces dir/sub with files (whose paths start with sub/).
func writeGolden(t *testing.T, dir, sub string, files []emit.File) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasPrefix(f.Path, sub+"/") {
			t.Fatalf("emitted %s outside %s/", f.Path, sub)
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readGolden returns the files below dir/sub by slash path relative to dir.
func readGolden(t *testing.T, dir, sub string) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join(dir, sub)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = string(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")))
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
