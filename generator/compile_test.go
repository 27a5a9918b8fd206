package generator_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/kin"
)

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHostileInputs feeds inputs built to hurt a parser: each must give one
// clear error diagnostic quickly, never a panic or a hang.
func TestHostileInputs(t *testing.T) {
	aliasBomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for i := range 9 {
		name := string(rune('b' + i))
		aliasBomb += name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = name
	}
	deep := "namespace: Contoso.Deep\ntypes:\n  t:\n    apiVersions:\n      '2025-01-01':\n        schema:\n" +
		strings.Repeat("          {type: object, properties: {p: ", 1) + strings.Repeat("{type: object, properties: {p: ", 1000) +
		"{type: string}" + strings.Repeat("}}", 1001) + "\n"
	big := bytes.Repeat([]byte("# padding line for a file that is far too large to be a manifest\n"), 20<<20/64)
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(i*7 + i/3)
	}
	cases := []struct {
		name, rule string
		data       []byte
	}{
		{"alias bomb", "yaml-limit", []byte(aliasBomb)},
		{"1,000-deep nesting", "yaml-limit", []byte(deep)},
		{"20 MB file", "file-too-large", big},
		{"invalid UTF-8", "yaml-syntax", []byte("namespace: Contoso.Bad\ntypes:\n  t\xff\xfe: {}\n")},
		{"binary junk", "yaml-syntax", junk},
		{"tab indentation", "yaml-syntax", []byte("namespace: Contoso.Tabs\ntypes:\n\tt: {}\n")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "m.yaml", tc.data)
			start := time.Now()
			cat, diags, err := generator.Compile(context.Background(), []string{p}, generator.Options{})
			elapsed := time.Since(start)
			if err != nil {
				t.Fatalf("Compile error: %v", err)
			}
			if cat != nil || !diags.HasErrors() {
				t.Fatalf("want an error diagnostic, got catalog=%v diags=%v", cat != nil, diags)
			}
			if diags[0].Rule != tc.rule {
				t.Errorf("rule = %s (%s), want %s", diags[0].Rule, diags[0].Message, tc.rule)
			}
			if diags[0].Span.Line < 1 || diags[0].Span.File != p {
				t.Errorf("diagnostic has no position: %+v", diags[0])
			}
			// Not a speed assertion: a guard against exponential blow-up,
			// which would take minutes, not seconds.
			if elapsed > 30*time.Second {
				t.Errorf("took %v", elapsed)
			}
			t.Logf("%s: %s in %v", diags[0].Rule, diags[0].Message, elapsed)
		})
	}
}

func TestCompileUsageErrors(t *testing.T) {
	if _, _, err := generator.Compile(context.Background(), nil, generator.Options{}); err == nil {
		t.Error("no paths: want an error")
	}
	if _, _, err := generator.Compile(context.Background(), []string{filepath.Join(t.TempDir(), "missing.yaml")}, generator.Options{}); err == nil ||
		!strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: err = %v", err)
	}
	empty := t.TempDir()
	writeFile(t, empty, "README.md", []byte("not a manifest"))
	if _, _, err := generator.Compile(context.Background(), []string{empty}, generator.Options{}); err == nil ||
		!strings.Contains(err.Error(), "holds no manifests") {
		t.Errorf("directory without manifests: err = %v", err)
	}
}

func TestStrictPromotesWarnings(t *testing.T) {
	t.Chdir("..")
	path := []string{"fixtures/warn_unknown_keyword"}
	cat, diags, _ := generator.Compile(context.Background(), path, generator.Options{})
	if cat == nil || diags.HasErrors() || len(diags) == 0 {
		t.Fatalf("default: want warnings only and a catalog, got %v", diags)
	}
	cat, diags, _ = generator.Compile(context.Background(), path, generator.Options{Strict: true})
	if cat != nil || !diags.HasErrors() {
		t.Fatalf("strict: want errors and no catalog, got %v", diags)
	}
}

// TestModel asserts the checked model of the design's example, field by field.
func TestModel(t *testing.T) {
	t.Chdir("..")
	cat, diags, err := generator.Compile(context.Background(), []string{"fixtures/valid_basic", "fixtures/valid_child_types", "fixtures/valid_default_version", "fixtures/valid_scalars"}, generator.Options{})
	if err != nil || cat == nil {
		t.Fatalf("compile: %v %v", err, diags)
	}
	var names []string
	for _, p := range cat.Providers {
		names = append(names, p.Namespace)
	}
	if got := strings.Join(names, ","); got != "Contoso.Messaging,Contoso.Scalars,Contoso.Versions,MyCompany.Resources" {
		t.Errorf("providers = %s", got)
	}
	find := func(ns, typ string) *model.ResourceType {
		for _, p := range cat.Providers {
			for _, rt := range p.Types {
				if p.Namespace == ns && rt.Name == typ {
					return rt
				}
			}
		}
		t.Fatalf("type %s/%s not found", ns, typ)
		return nil
	}
	pg := find("MyCompany.Resources", "postgresDatabases")
	v := pg.APIVersions[0]
	if v.Name != "2025-01-01-preview" || !v.Preview || pg.DefaultAPIVersion != v.Name || pg.DefaultDeclared {
		t.Errorf("version/default: %+v default=%s", v, pg.DefaultAPIVersion)
	}
	if got := pg.Capabilities; len(got) != 1 || got[0] != "SupportsRecipes" {
		t.Errorf("capabilities = %v", got)
	}
	root := v.Schema
	// size and status as written, then Radius's base properties (schema.MergeBase).
	var propNames []string
	for _, p := range root.Properties {
		propNames = append(propNames, p.Name)
	}
	if root.Kind != model.Object || strings.Join(propNames, ",") != "size,status,application,environment,connections,codeReference" || !root.Properties[0].Required {
		t.Fatalf("root = %+v, properties %v", root, propNames)
	}
	if env := root.Property("environment"); !env.Required || env.Span != (schema.Span{}) || env.Schema.Path != root.Path+"/properties/environment" {
		t.Errorf("environment = %+v", env)
	}
	size := root.Properties[0].Schema
	if size.Kind != model.String || len(size.Enum) != 4 || size.Enum[3].Str != "XL" || size.Description != "The size of database to provision" {
		t.Errorf("size = %+v", size)
	}
	if root.Properties[0].Span.Line != 12 || root.Properties[0].Span.Column != 13 || size.Span.Line != 13 || size.Path != "/types/postgresDatabases/apiVersions/2025-01-01-preview/schema/properties/size" {
		t.Errorf("size spans/path = %+v %+v %s", root.Properties[0].Span, size.Span, size.Path)
	}
	status := root.Properties[1].Schema
	if !status.ReadOnly || status.Property("binding").Schema.Property("secret").Schema.Sensitive != true {
		t.Errorf("status = %+v", status)
	}
	recipe := status.Property("recipe").Schema
	if recipe.Ref != "RecipeStatus" || recipe.Kind != model.Object || len(recipe.Properties) != 3 || !recipe.ReadOnly {
		t.Errorf("recipe = %+v", recipe)
	}
	if !bytes.HasPrefix(v.Source, []byte(`{"type":"object","properties":{"size":{"type":"string"`)) {
		t.Errorf("source = %s", v.Source)
	}

	bus := find("Contoso.Messaging", "contosoBuses")
	if bus.DefaultAPIVersion != "2025-01-01" || !bus.DefaultDeclared || bus.APIVersions[0].Name != "2024-06-01-preview" {
		t.Errorf("bus default/order = %s %s", bus.DefaultAPIVersion, bus.APIVersions[0].Name)
	}
	q := find("Contoso.Messaging", "contosoBuses/queues")
	if q.Parent != "contosoBuses" || q.Leaf() != "queues" || q.FullName() != "Contoso.Messaging/contosoBuses/queues" {
		t.Errorf("queue = %+v", q)
	}
	if got := find("Contoso.Versions", "stableAndPreview").DefaultAPIVersion; got != "2025-01-01" {
		t.Errorf("default of stable+preview = %s, want the newest stable", got)
	}
	if got := find("Contoso.Versions", "previewOnly").DefaultAPIVersion; got != "2025-05-01-preview" {
		t.Errorf("default of preview-only = %s, want the newest preview", got)
	}
	sc := find("Contoso.Scalars", "widgets").APIVersions[0].Schema
	port := sc.Property("port").Schema
	if port.Minimum.String() != "1024" || !port.ExclusiveMinimum || !port.ExclusiveMaximum {
		t.Errorf("port = %+v", port)
	}
	ratio := sc.Property("ratio").Schema
	if ratio.MultipleOf.String() != "0.05" || ratio.Default.Num.String() != "0.5" || ratio.Format != "double" {
		t.Errorf("ratio = %+v", ratio)
	}
	if nick := sc.Property("nickname").Schema; !nick.Nullable || nick.Default == nil || string(nick.Default.JSON) != "null" {
		t.Errorf("nickname = %+v", nick)
	}
}

// TestCorpus compiles every real manifest in ../shared/corpus: all must be
// accepted (warnings allowed).
func TestCorpus(t *testing.T) {
	corpus := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("skipping: the shared corpus is not at %s (only CI and developers' machines have it)", corpus)
	}
	files, err := generator.Expand([]string{corpus})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("only %d corpus files", len(files))
	}
	for _, f := range files {
		cat, diags, err := generator.Compile(context.Background(), []string{f.Path}, generator.Options{})
		if err != nil || cat == nil {
			t.Errorf("%s: not accepted: %v %v", f.Path, err, diags)
		}
	}
	cat, _, err := generator.Compile(context.Background(), []string{corpus}, generator.Options{})
	if err != nil || cat == nil {
		t.Fatalf("whole corpus: %v", err)
	}
	types := 0
	for _, p := range cat.Providers {
		types += len(p.Types)
	}
	t.Logf("corpus: %d files, %d providers, %d types", len(files), len(cat.Providers), types)
}

// FuzzCheck: no input may panic the compiler; every result is either a
// catalog without errors or errors without a catalog.
func FuzzCheck(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "fixtures", "*", "*.yaml"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("a: &a [*a]"))
	f.Add([]byte("{\"namespace\": 1}"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "fuzz.yaml")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		cat, diags, err := generator.Compile(context.Background(), []string{p}, generator.Options{})
		if err != nil {
			t.Fatalf("I/O error for a readable file: %v", err)
		}
		if (cat == nil) != diags.HasErrors() {
			t.Fatalf("catalog=%v but HasErrors=%v", cat != nil, diags.HasErrors())
		}
		for _, d := range diags {
			if d.Rule == "" || d.Message == "" || d.Span.Line < 1 {
				t.Fatalf("malformed diagnostic %+v", d)
			}
		}
		// What the checker accepts, kin-openapi must accept too.
		if cat != nil {
			for _, p := range cat.Providers {
				for _, rt := range p.Types {
					for _, v := range rt.APIVersions {
						if err := kin.Validate(context.Background(), v.Schema); err != nil {
							t.Fatalf("accepted schema %s@%s is not well-formed OpenAPI: %v", rt.FullName(), v.Name, err)
						}
					}
				}
			}
		}
	})
}

// TestCompileContents: the bytes Options.Contents hands over are what is
// compiled, not the file on disk; a file it does not have is read.
func TestCompileContents(t *testing.T) {
	dir := t.TempDir()
	onDisk := "namespace: Contoso.Disk\ntypes:\n  things:\n    apiVersions:\n      '2025-01-01':\n        schema: {type: object, properties: {a: {type: string}}}\n"
	a := writeFile(t, dir, "a.yaml", []byte(onDisk))
	b := writeFile(t, dir, "b.yaml", []byte(strings.ReplaceAll(onDisk, "Disk", "Read")))
	handed := map[string]string{a: strings.ReplaceAll(onDisk, "Disk", "Handed")}
	var asked []string
	var mu sync.Mutex
	contents := func(path string) ([]byte, bool) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, path)
		data, ok := handed[path]
		return []byte(data), ok
	}
	cat, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{Contents: contents})
	if err != nil || diags.HasErrors() {
		t.Fatalf("compile: %v %v", err, diags)
	}
	var got []string
	for _, p := range cat.Providers {
		got = append(got, p.Namespace)
	}
	slices.Sort(asked)
	if want := []string{"Contoso.Handed", "Contoso.Read"}; !slices.Equal(got, want) {
		t.Errorf("namespaces %v, want %v (a.yaml from Contents, b.yaml from disk)", got, want)
	}
	if want := []string{a, b}; !slices.Equal(asked, want) {
		t.Errorf("Contents asked for %v, want %v", asked, want)
	}
}

// Options.Excerpts keeps the lines the diagnostics point at as the
// compile read them: printed after the file has changed, the excerpt is
// still the checked line, and the file is not read again.
func TestCompileExcerpts(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../fixtures/warn_required_default/manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, dir, "manifest.yaml", src)
	var kept diag.Excerpts
	_, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{Excerpts: &kept})
	if err != nil || len(diags) == 0 {
		t.Fatalf("compile: %v, diagnostics %v", err, diags)
	}
	var fromDisk bytes.Buffer
	if err := diag.WriteText(&fromDisk, diags, diag.TextOptions{Source: diag.FileSource()}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "manifest.yaml", bytes.Repeat([]byte("# changed since\n"), bytes.Count(src, []byte("\n"))+1))
	var got bytes.Buffer
	read := false
	if err := diag.WriteText(&got, diags, diag.TextOptions{Kept: &kept, Source: func(file string) []byte {
		read = true
		return diag.FileSource()(file)
	}}); err != nil {
		t.Fatal(err)
	}
	if got.String() != fromDisk.String() || !strings.Contains(got.String(), " | ") {
		t.Errorf("with kept excerpts:\n%s\nwant, as printed before %s changed:\n%s", &got, p, &fromDisk)
	}
	if read {
		t.Errorf("%s was read again to print kept excerpts", p)
	}
}

// InputBytes sums the files Expand lists: inputs found below directories
// and files named, not other files.
func TestInputBytes(t *testing.T) {
	dir := t.TempDir()
	for name, size := range map[string]int{"a.yaml": 10, "sub/b.json": 7, "notes.txt": 100, ".hidden/c.yaml": 50} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		paths []string
		want  int64
	}{
		{[]string{dir}, 17},
		{[]string{dir, filepath.Join(dir, "notes.txt")}, 117},
	} {
		inputs, err := generator.Expand(tc.paths)
		if err != nil {
			t.Fatal(err)
		}
		if got := generator.InputBytes(inputs); got != tc.want {
			t.Errorf("InputBytes(Expand(%q)) = %d, want %d", tc.paths, got, tc.want)
		}
	}
}

// Options.Inputs is what Compile compiles, instead of walking paths again.
func TestCompileInputs(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.yaml", []byte("namespace: Contoso.A\ntypes:\n  things:\n    apiVersions:\n      '2025-01-01':\n        schema: {}\n"))
	writeFile(t, dir, "b.yaml", []byte("namespace: Contoso.B\ntypes:\n  things:\n    apiVersions:\n      '2025-01-01':\n        schema: {}\n"))
	inputs, err := generator.Expand([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	cat, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{Inputs: inputs[1:]})
	if err != nil || cat == nil {
		t.Fatalf("%v %v", err, diags)
	}
	if len(cat.Providers) != 1 || cat.Providers[0].Namespace != "Contoso.B" {
		t.Errorf("compiled %v, want Contoso.B alone", cat.Providers)
	}
	// Only leaves the caller's list as it was (gen compiles it again).
	before := slices.Clone(inputs)
	only := func(p string) bool { return strings.HasSuffix(p, "b.yaml") }
	if cat, diags, err := generator.Compile(context.Background(), nil, generator.Options{Inputs: inputs, Only: only}); err != nil || len(cat.Providers) != 1 {
		t.Fatalf("%v %v", err, diags)
	}
	if !slices.Equal(inputs, before) {
		t.Errorf("Compile changed Options.Inputs: %v, was %v", inputs, before)
	}
}

// TestMultiDocumentNonManifests: a directory walk skips, with the
// not-a-manifest note, a file of several documents none of which looks like
// a manifest (Kubernetes objects, the resource documents udtc validate
// takes); a file of several documents one of which is a manifest, or any
// such file named on the command line, is the multiple-documents error.
// udtc fmt leaves the skipped one alone.
func TestMultiDocumentNonManifests(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "types.yaml", []byte("namespace: Contoso.Data\ntypes:\n  things:\n    apiVersions:\n      '2025-01-01':\n        schema:\n          type: object\n          properties:\n            size: {type: string}\n"))
	k8s := []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: b}\n")
	k8sPath := writeFile(t, dir, "deploy.yaml", k8s)
	writeFile(t, dir, "resources.yaml", []byte("type: Contoso.Data/things\nproperties: {environment: e}\n---\ntype: Contoso.Data/things\nproperties: {environment: f}\n"))
	cat, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{})
	if err != nil || cat == nil || diags.HasErrors() {
		t.Fatalf("walk: err %v, diags %v", err, diags)
	}
	var notes []string
	for _, d := range diags {
		if d.Rule == "not-a-manifest" {
			notes = append(notes, filepath.Base(d.Span.File)+": "+d.Message)
		}
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "none of its 2 YAML documents") {
		t.Errorf("want a note for each multi-document non-manifest, got %q", notes)
	}
	if out, d := generator.FormatInput(generator.Input{Path: k8sPath}, k8s); !bytes.Equal(out, k8s) || len(d) != 0 {
		t.Errorf("fmt of a walked Kubernetes file: %v\n%s", d, out)
	}

	// A manifest among the documents: the error, walked or named.
	writeFile(t, dir, "two.yaml", []byte("namespace: Contoso.Other\ntypes: {}\n---\nkind: ConfigMap\n"))
	_, diags, _ = generator.Compile(context.Background(), []string{dir}, generator.Options{})
	if !hasRule(diags, "multiple-documents") {
		t.Errorf("walked multi-document manifest: want multiple-documents, got %v", diags)
	}
	_, diags, _ = generator.Compile(context.Background(), []string{k8sPath}, generator.Options{})
	if !hasRule(diags, "multiple-documents") {
		t.Errorf("named multi-document file: want multiple-documents, got %v", diags)
	}
}

func hasRule(diags []diag.Diagnostic, rule string) bool {
	return slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return d.Rule == rule && d.Severity == diag.Error })
}
