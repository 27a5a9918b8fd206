package docs_test

import (
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
	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/generator/model"
)

var update = flag.Bool("update", false, "rewrite golden/<case>/docs from the emitter's output")

const repoRoot = "../../.."

func compile(t *testing.T, paths ...string) *model.Catalog {
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

// TestGolden emits the docs of every valid fixture (fixtures/<case> not
// named error_*) and compares them with golden/<case>/docs; -update
// rewrites them.
func TestGolden(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(repoRoot, "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || strings.HasPrefix(name, "error_") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			cat := compile(t, filepath.Join(repoRoot, "fixtures", name))
			files, diags, err := docs.Emit(cat, docs.Options{})
			if err != nil || diags.HasErrors() {
				t.Fatalf("Emit: %v %v", err, diags)
			}
			dir := filepath.Join(repoRoot, "golden", name)
			if *update {
				if err := os.RemoveAll(filepath.Join(dir, "docs")); err != nil {
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
			want := map[string]string{}
			err = filepath.WalkDir(filepath.Join(dir, "docs"), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				data, err := os.ReadFile(p)
				rel, _ := filepath.Rel(dir, p)
				want[filepath.ToSlash(rel)] = string(data)
				return err
			})
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, f := range files {
				got[f.Path] = string(f.Data)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("docs (-want +got):\n%s", diff)
			}
		})
	}
	if n == 0 {
		t.Fatal("no valid fixtures")
	}
}

// TestCorpus documents every real manifest of ../shared/corpus: one page
// per namespace, each naming every type of its namespace.
func TestCorpus(t *testing.T) {
	corpus := filepath.Join(repoRoot, "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("corpus not available at %s: %v", corpus, err)
	}
	for _, sub := range []string{"resource-types-contrib", "radius-built-in"} {
		t.Run(sub, func(t *testing.T) {
			cat := compile(t, filepath.Join(corpus, sub))
			files, diags, err := docs.Emit(cat, docs.Options{})
			if err != nil || diags.HasErrors() {
				t.Fatalf("Emit: %v %v", err, diags)
			}
			if len(files) != len(cat.Providers) {
				t.Fatalf("%d pages for %d namespaces", len(files), len(cat.Providers))
			}
			for i, p := range cat.Providers {
				page := string(files[i].Data)
				for _, ty := range p.Types {
					if !strings.Contains(page, "\n## "+ty.FullName()+"\n") {
						t.Errorf("%s lacks a section for %s", files[i].Path, ty.FullName())
					}
				}
			}
		})
	}
}

func TestOnePage(t *testing.T) {
	cat := compile(t, filepath.Join(repoRoot, "fixtures", "valid_multi_file"))
	files, diags, err := docs.Emit(cat, docs.Options{ExtensionName: "all", ExtensionVersion: "2.0.0"})
	if err != nil || len(diags) > 0 {
		t.Fatalf("Emit: %v %v", err, diags)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"docs/all.md"}) {
		t.Fatalf("paths %v", paths)
	}
	page := string(files[0].Data)
	for _, want := range []string{"`all`, version 2.0.0", "\"all\": \"./out/bicep/all.tgz\"", "extension all\n"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if _, diags, _ := docs.Emit(cat, docs.Options{ExtensionName: "no good"}); !diags.HasErrors() {
		t.Error("an invalid extension name gives no error")
	}
}
