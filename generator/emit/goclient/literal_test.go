package goclient_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/schema/example"
)

// TestPropertiesLiteral: the literal of a type's example uses the
// properties struct, Ptr, enum constants and typed numbers.
func TestPropertiesLiteral(t *testing.T) {
	cat := goldentest.CompilePaths(t, filepath.Join(goldentest.Root(t), "fixtures", "valid_scalars"))
	av := cat.Providers[0].Types[0].APIVersions[0]
	lit, err := goclient.PropertiesLiteral(cat, "Contoso.Scalars", "widgets", av.Name, "v", example.Of(av.Schema).Properties)
	if err != nil {
		t.Fatal(err)
	}
	want := "&v.WidgetProperties{\n\tName:        v.Ptr(\"web-01\"),\n\tTier:        v.Ptr(v.WidgetTierFree),\n\tEnvironment: v.Ptr(\"example\"),\n}"
	if lit.Expr != want || lit.Setup != "" || len(lit.Imports) != 0 {
		t.Errorf("PropertiesLiteral = %+v, want the expression\n%s", lit, want)
	}
	cat = goldentest.CompilePaths(t, filepath.Join("testdata", "literal.yaml"))
	av = cat.Providers[0].Types[0].APIVersions[0] // apps
	lit, err = goclient.PropertiesLiteral(cat, "Literal.Cases", "apps", av.Name, "v", example.Of(av.Schema).Properties)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("apps:\n%s%s", lit.Setup, lit.Expr)
	for _, want := range []string{"ref1, err := v.ParseBusID(", "ref2, err := v.ParseResourceID(", "ref3, err := v.ParseResourceID(",
		"Bus: &ref1", "time.Date(", "Blob: map[string]any{}", `"key": {`, "Number: v.Ptr(int32(1))", "Weight: v.Ptr(float64(1))",
		"[]v.AppMode{", "v.AppModeFast", "[][]bool{ { false, }, }"} {
		if !strings.Contains(strings.Join(strings.Fields(lit.Setup+lit.Expr), " "), want) {
			t.Errorf("the apps literal has no %q", want)
		}
	}
	if !slices.Equal(lit.Imports, []string{"time"}) {
		t.Errorf("Imports = %q, want [time]", lit.Imports)
	}
	if _, err := goclient.PropertiesLiteral(cat, "Contoso.Scalars", "widgets", "2099-01-01", "v", example.Value{}); err == nil {
		t.Error("a version the type does not have: want an error")
	}
}

// TestPropertiesLiteralsCompile: the literal of every type and version of
// the valid fixtures compiles against the code Emit writes for them, as
// the Properties of the type's envelope (go vet). A literal that cannot be
// written must say why (the catalog then decodes JSON instead).
func TestPropertiesLiteralsCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet on generated code; skipped with -short")
	}
	const mod = "example.com/lit"
	dir := t.TempDir()
	var all []emit.File
	written := 0
	for _, name := range append(goldentest.ValidCases(t), "testdata") {
		if name == "go_runtime_module" {
			continue // imports the published runtime
		}
		path := filepath.Join(goldentest.Root(t), "fixtures", name)
		if name == "testdata" {
			path = filepath.Join("testdata", "literal.yaml")
		}
		cat := goldentest.CompilePaths(t, path)
		prefix := mod + "/" + name
		files, _, err := goclient.Emit(cat, goclient.Options{ImportPrefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			f.Path = name + "/" + f.Path
			all = append(all, f)
		}
		var funcs, imports strings.Builder
		pkgs := map[string]bool{}
		for _, p := range cat.Providers {
			for _, rt := range p.Types {
				for _, av := range rt.APIVersions {
					pkg := naming.GoVersionPackage(av.Name) + naming.GoPackageDir(p.Namespace)
					lit, err := goclient.PropertiesLiteral(cat, p.Namespace, rt.Name, av.Name, pkg, example.Of(av.Schema).Properties)
					if err != nil {
						if !strings.Contains(err.Error(), "does not declare") {
							t.Errorf("%s %s/%s@%s: %v", name, p.Namespace, rt.Name, av.Name, err)
						}
						continue
					}
					if !pkgs[pkg] {
						pkgs[pkg] = true
						fmt.Fprintf(&imports, "\t%s %q\n", pkg, prefix+"/go/"+naming.GoPackageDir(p.Namespace)+"/"+naming.GoVersionPackage(av.Name))
					}
					for _, imp := range lit.Imports {
						if !pkgs[imp] {
							pkgs[imp] = true
							fmt.Fprintf(&imports, "\t%q\n", imp)
						}
					}
					written++
					goName := naming.GoTypeName(rt.Segments())
					fmt.Fprintf(&funcs, "func _() error {\n%sr := &%s.%s{Properties: %s}\nreturn r.Validate()\n}\n\n", lit.Setup, pkg, goName, lit.Expr)
				}
			}
		}
		all = append(all, emit.File{Path: name + "/literals/literals.go",
			Data: []byte("package literals\n\nimport (\n" + imports.String() + ")\n\n" + funcs.String())})
	}
	if written < 30 {
		t.Fatalf("wrote %d literals, want every type's", written)
	}
	writeModule(t, dir, mod, all)
	goVet(t, dir)
}

// The literals Emit hands Options.Literals are ExampleLiterals', for every
// valid fixture, and asking for them changes no file Emit writes.
func TestEmitLiterals(t *testing.T) {
	for _, name := range goldentest.ValidCases(t) {
		cat := goldentest.CompilePaths(t, filepath.Join(goldentest.Root(t), "fixtures", name))
		want, err := goclient.ExampleLiterals(cat)
		if err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		got := map[string]goclient.Literal{}
		opts := goclient.Options{ImportPrefix: "example.com/" + name}
		plain, _, err := goclient.Emit(cat, opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.Literals = func(key string, lit goclient.Literal) {
			mu.Lock()
			defer mu.Unlock()
			got[key] = lit
		}
		files, _, err := goclient.Emit(cat, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: Options.Literals differ from ExampleLiterals (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff(plain, files); diff != "" {
			t.Errorf("%s: Options.Literals changed the files (-without +with):\n%s", name, diff)
		}
	}
}
