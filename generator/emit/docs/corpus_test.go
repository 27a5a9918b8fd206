package docs_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestCorpus documents every real manifest of ../shared/corpus: one page
// per namespace, each naming every type of its namespace.
func TestCorpus(t *testing.T) {
	corpus := goldentest.Corpus(t)
	for _, sub := range []string{"resource-types-contrib", "radius-built-in"} {
		t.Run(sub, func(t *testing.T) {
			cat := goldentest.CompilePaths(t, filepath.Join(corpus, sub))
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
	cat := goldentest.Compile(t, "valid_multi_file")
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
