package docs_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/generator/model"
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

// A deprecated version's section opens with a banner: the dates, a link
// to its replacement's section, the message; the overview marks it.
func TestDeprecatedVersionBanner(t *testing.T) {
	cat := goldentest.Compile(t, "valid_default_version")
	var typ *model.ResourceType
	for _, p := range cat.Providers {
		for _, rt := range p.Types {
			if len(rt.APIVersions) > 1 && typ == nil {
				typ = rt
			}
		}
	}
	if typ == nil {
		t.Fatal("valid_default_version has no type with two API versions")
	}
	old, repl := typ.APIVersions[0], typ.APIVersions[1]
	old.Lifecycle = &model.Lifecycle{Deprecated: "2026-06-01", Sunset: "2027-01-01", Replacement: repl.Name, Message: "Adds high availability."}
	files, diags, err := docs.Emit(cat, docs.Options{})
	if err != nil || len(diags) > 0 {
		t.Fatalf("Emit: %v %v", err, diags)
	}
	var page string
	for _, f := range files {
		if strings.Contains(string(f.Data), "## "+typ.FullName()+"\n") {
			page = string(f.Data)
		}
	}
	banner := "### " + typ.FullName() + "@" + old.Name + "\n\n> [!WARNING]\n> **Deprecated** from 2026-06-01; sunset on 2027-01-01: from then the registry refuses new resources of this version (existing ones can still be read, updated and deleted). Use [" +
		typ.FullName() + "@" + repl.Name + "](#"
	if !strings.Contains(page, banner) || !strings.Contains(page, ") instead. Adds high availability.\n") {
		t.Errorf("page lacks the banner %q:\n%s", banner, page)
	}
	if _, after, ok := strings.Cut(page, banner); ok {
		id, _, _ := strings.Cut(after, ")")
		if !strings.Contains(page, `<a id="`+id+`"></a>`+"\n### "+typ.FullName()+"@"+repl.Name+"\n") {
			t.Errorf("the banner links #%s, which is not the replacement's section", id)
		}
	}
	if !strings.Contains(page, "["+old.Name+"](#") || strings.Count(page, ") (deprecated)") != 1 {
		t.Errorf("the overview does not mark the version deprecated:\n%s", page)
	}
}
