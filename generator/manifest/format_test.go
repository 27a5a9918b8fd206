package manifest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/manifest"
)

// formatCase is a set of manifest files compiled together: a fixture
// directory or one corpus file.
type formatCase struct {
	name  string
	files map[string][]byte // path relative to the case → contents
}

func formatCases(t *testing.T) []formatCase {
	t.Helper()
	var cases []formatCase
	root := filepath.Join("..", "..", "fixtures")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || !(strings.HasPrefix(e.Name(), "valid_") || strings.HasPrefix(e.Name(), "warn_")) {
			continue
		}
		c := formatCase{name: e.Name(), files: map[string][]byte{}}
		readTree(t, filepath.Join(root, e.Name()), c.files)
		cases = append(cases, c)
	}
	corpus := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Logf("skipping the corpus: %s is missing", corpus)
		return cases
	}
	all := map[string][]byte{}
	readTree(t, corpus, all)
	for p, data := range all {
		if filepath.Ext(p) == ".yaml" || filepath.Ext(p) == ".yml" {
			cases = append(cases, formatCase{name: "corpus/" + p, files: map[string][]byte{filepath.Base(p): data}})
		}
	}
	slices.SortFunc(cases, func(a, b formatCase) int { return strings.Compare(a.name, b.name) })
	return cases
}

func readTree(t *testing.T, root string, into map[string][]byte) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json":
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			into[filepath.ToSlash(rel)] = data
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// compiled is what a set of manifests compiles to, without source positions:
// the registration documents (decoded, so key order inside a schema does
// not count), the Bicep files, and the diagnostics' rules and messages.
type compiled struct {
	Registrations any
	Bicep         map[string]string
	Diagnostics   []string
}

func compileFiles(t *testing.T, files map[string][]byte) compiled {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, data := range files {
		fsys[p] = &fstest.MapFile{Data: data}
	}
	cat, diags, err := generator.CompileFS(context.Background(), fsys, []string{"."}, generator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out compiled
	for _, d := range diags {
		out.Diagnostics = append(out.Diagnostics, d.Severity.String()+" "+d.Rule+" "+d.Path+": "+d.Message)
	}
	slices.Sort(out.Diagnostics)
	if cat == nil {
		t.Fatalf("does not compile: %v", diags)
	}
	b, err := json.Marshal(registration.Registrations(cat, registration.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out.Registrations); err != nil {
		t.Fatal(err)
	}
	bf, _, err := bicep.Emit(cat, bicep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out.Bicep = map[string]string{}
	for _, f := range bf {
		if strings.HasSuffix(f.Path, ".json") || strings.HasSuffix(f.Path, ".md") {
			out.Bicep[f.Path] = string(f.Data)
		}
	}
	if len(out.Bicep) == 0 {
		t.Fatal("no Bicep types emitted")
	}
	return out
}

// TestFormatKeepsMeaning formats every valid and warning fixture and every
// corpus manifest: the result compiles to the same output, formatting it
// again changes nothing, every comment survives, and keys are in the
// canonical order.
func TestFormatKeepsMeaning(t *testing.T) {
	cases := formatCases(t)
	if len(cases) < 20 {
		t.Fatalf("only %d cases found", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			formatted := map[string][]byte{}
			changed := false
			for p, data := range c.files {
				if manifest.IsJSON(p) {
					formatted[p] = data
					continue
				}
				doc, diags := manifest.Load(p, data)
				if diags.HasErrors() {
					t.Fatalf("%s does not load: %v", p, diags)
				}
				if doc.Root != nil && !manifest.IsManifest(doc) {
					formatted[p] = data
					continue
				}
				out, diags := manifest.Format(p, data)
				if len(diags) > 0 {
					t.Fatalf("Format(%s): %v", p, diags)
				}
				formatted[p] = out
				changed = changed || !bytes.Equal(out, data)
				again, diags := manifest.Format(p, out)
				if len(diags) > 0 {
					t.Fatalf("Format(Format(%s)): %v", p, diags)
				}
				if d := cmp.Diff(string(out), string(again)); d != "" {
					t.Errorf("%s: not idempotent (-once +twice):\n%s", p, d)
				}
				want, got := comments(t, data), comments(t, out)
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("%s: comments changed (-input +formatted):\n%s\nformatted:\n%s", p, d, out)
				}
				checkCanonical(t, p, out)
			}
			want, got := compileFiles(t, c.files), compileFiles(t, formatted)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("formatted manifests compile differently (-input +formatted):\n%s", d)
			}
			t.Logf("changed by fmt: %v", changed)
		})
	}
}

// comments counts each comment line of a YAML file by its text.
func comments(t *testing.T, data []byte) map[string]int {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, line := range strings.Split(c, "\n") {
				if line = strings.TrimSpace(line); line != "" {
					out[line]++
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	return out
}

// The documented key orders (docs/manifest.md, docs/cli.md).
var (
	wantTop     = []string{"namespace", "name", "location", "types"}
	wantType    = []string{"description", "capabilities", "defaultApiVersion", "apiVersions"}
	wantVersion = []string{"schema"}
)

// checkCanonical checks that formatted YAML has its keys in the documented
// order at every level and its API versions single-quoted.
func checkCanonical(t *testing.T, file string, data []byte) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("\t")) || bytes.Contains(data, []byte("\n   ")) && !indented2(data) {
		t.Errorf("%s: not indented by 2 spaces", file)
	}
	root := doc.Content[0]
	ordered(t, file, "top level", root, wantTop)
	types := get(root, "types")
	for i := 0; i+1 < len(types.Content); i += 2 {
		ty := types.Content[i+1]
		ordered(t, file, types.Content[i].Value, ty, wantType)
		if v := get(ty, "defaultApiVersion"); v != nil && v.Style != yaml.SingleQuotedStyle {
			t.Errorf("%s: defaultApiVersion %s is not single-quoted", file, v.Value)
		}
		versions := get(ty, "apiVersions")
		for j := 0; j+1 < len(versions.Content); j += 2 {
			if k := versions.Content[j]; k.Style != yaml.SingleQuotedStyle {
				t.Errorf("%s: API version %s is not single-quoted", file, k.Value)
			}
			v := versions.Content[j+1]
			ordered(t, file, versions.Content[j].Value, v, wantVersion)
			if s := get(v, "schema"); s != nil {
				schemaOrdered(t, file, s)
			}
		}
	}
}

// indented2 reports whether every line's indentation is a multiple of 2
// (a line of spaces only, kept in a block scalar, has none).
func indented2(data []byte) bool {
	for _, line := range strings.Split(string(data), "\n") {
		n := len(line) - len(strings.TrimLeft(line, " "))
		if n%2 != 0 && !strings.HasPrefix(strings.TrimSpace(line), "#") && strings.TrimSpace(line) != "" {
			return false
		}
	}
	return true
}

func schemaOrdered(t *testing.T, file string, s *yaml.Node) {
	ordered(t, file, "schema", s, manifest.SchemaKeyOrder)
	for _, k := range []string{"items", "additionalProperties"} {
		if c := get(s, k); c != nil && c.Kind == yaml.MappingNode {
			schemaOrdered(t, file, c)
		}
	}
	if p := get(s, "properties"); p != nil {
		for i := 1; i < len(p.Content); i += 2 {
			schemaOrdered(t, file, p.Content[i])
		}
	}
}

// ordered checks that the keys of mapping n that order lists come first,
// in that order.
func ordered(t *testing.T, file, where string, n *yaml.Node, order []string) {
	t.Helper()
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	last := -1
	for i := 0; i+1 < len(n.Content); i += 2 {
		r := slices.Index(order, n.Content[i].Value)
		if r < 0 {
			r = len(order)
		}
		if r < last {
			t.Errorf("%s: %s: key %s is out of the canonical order %v", file, where, n.Content[i].Value, order)
		}
		last = r
	}
}

func get(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// TestFormatCanonicalizes formats a manifest written out of order, with
// comments everywhere, into the one expected layout.
func TestFormatCanonicalizes(t *testing.T) {
	in := `# head of the file
types: # the types
  buses:
    apiVersions:
      "2025-06-01":
        # the schema
        schema: {properties: {tier: {enum: [basic, standard], type: string}}, type: object}
    defaultApiVersion: 2025-06-01
    description: A bus. # line comment
namespace: Contoso.Messaging
`
	want := `# head of the file
namespace: Contoso.Messaging
types: # the types
  buses:
    description: A bus. # line comment
    defaultApiVersion: '2025-06-01'
    apiVersions:
      '2025-06-01':
        # the schema
        schema:
          type: object
          properties:
            tier: {type: string, enum: [basic, standard]}
`
	got, diags := manifest.Format("m.yaml", []byte(in))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Format (-want +got):\n%s", d)
	}
}

// TestFormatKeepsFlowMappings: a one-line flow mapping of scalars stays on
// one line (its keys still in order); one written over several lines, or
// holding a mapping, is laid out in blocks.
func TestFormatKeepsFlowMappings(t *testing.T) {
	in := `namespace: Contoso.Fmt
types:
  widgets:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            name: {type: string, maxLength: 64}
            code: {maxLength: 8, type: string} # sorted
            tags: {type: array, items: {type: string, enum: [a, b]}}
            meta: {type: object, properties: {}}
            multi: {type: string,
              description: two words}
`
	want := `namespace: Contoso.Fmt
types:
  widgets:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            name: {type: string, maxLength: 64}
            code: {type: string, maxLength: 8} # sorted
            tags:
              type: array
              items: {type: string, enum: [a, b]}
            meta: {type: object, properties: {}}
            multi:
              type: string
              description: two words
`
	got, diags := manifest.Format("m.yaml", []byte(in))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Format (-want +got):\n%s", d)
	}
	if again, _ := manifest.Format("m.yaml", got); string(again) != string(got) {
		t.Errorf("Format is not idempotent:\n%s", again)
	}
}

// TestFormatBadInput reports a file that does not parse with its position
// and returns no output.
func TestFormatBadInput(t *testing.T) {
	out, diags := manifest.Format("bad.yaml", []byte("namespace: A.B\ntypes:\n  x: [1, 2\n"))
	if out != nil || !diags.HasErrors() {
		t.Fatalf("Format = %q, %v; want nil and an error", out, diags)
	}
	if d := diags[0]; d.Span.File != "bad.yaml" || d.Span.Line < 3 || d.Span.Column < 1 {
		t.Errorf("diagnostic at %+v, want bad.yaml line 3 or later", d.Span)
	}
}

// TestFormatAliasOrder refuses, with a diagnostic, a file whose reordering
// would put an alias before its anchor, and formats one where it would not.
func TestFormatAliasOrder(t *testing.T) {
	bad := "namespace: A.B\ntypes:\n  a:\n    apiVersions:\n      '2025-01-01':\n        schema:\n          properties:\n            x: &t {type: string}\n          items: *t\n          type: object\n"
	out, diags := manifest.Format("m.yaml", []byte(bad))
	if out != nil || len(diags) != 1 || diags[0].Rule != manifest.RuleFormat || diags[0].Span.Line != 1 {
		t.Errorf("Format = %q, %v; want nil and one %s error", out, diags, manifest.RuleFormat)
	}
	good := "types:\n  a:\n    apiVersions:\n      '2025-01-01':\n        schema: &s\n          type: object\n  b:\n    apiVersions:\n      '2025-01-01':\n        schema: *s\nnamespace: A.B\n"
	out, diags = manifest.Format("m.yaml", []byte(good))
	if len(diags) > 0 || !strings.HasPrefix(string(out), "namespace: A.B\n") || !strings.Contains(string(out), "schema: *s") {
		t.Errorf("Format = %q, %v; want namespace first and the alias kept", out, diags)
	}
}

// TestFormatErrorFixtures formats every error_ fixture that loads: no
// panic, and formatting is idempotent even for manifests with mistakes.
func TestFormatErrorFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "fixtures", "error_*", "*.yaml"))
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d error fixtures: %v", len(files), err)
	}
	formatted := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out, diags := manifest.Format(f, data)
		if diags.HasErrors() {
			if out != nil {
				t.Errorf("%s: output %q with errors %v", f, out, diags)
			}
			continue
		}
		formatted++
		again, diags := manifest.Format(f, out)
		if len(diags) > 0 || !bytes.Equal(out, again) {
			t.Errorf("%s: not idempotent: %v\n%s\n---\n%s", f, diags, out, again)
		}
		if d := cmp.Diff(comments(t, data), comments(t, out)); d != "" {
			t.Errorf("%s: comments changed (-input +formatted):\n%s", f, d)
		}
	}
	if formatted < len(files)/2 {
		t.Errorf("only %d of %d error fixtures formatted", formatted, len(files))
	}
}

// TestFormatKeepsFlowListComments: a comment after a flow list stays on
// its line, the list stays a flow list, and formatting again changes
// nothing (the example: the comments moved to the next key or were
// lost, and a second run switched the lists back).
func TestFormatKeepsFlowListComments(t *testing.T) {
	in := `namespace: Contoso.Fmt
types:
  widgets:
    capabilities: [SupportsRecipes]  # recipes
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size:
              type: string
              enum: [S, M]   # sizes
            name: {type: string}
          required: [name]   # the name is required
`
	want := `namespace: Contoso.Fmt
types:
  widgets:
    capabilities: [SupportsRecipes] # recipes
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size:
              type: string
              enum: [S, M] # sizes
            name: {type: string}
          required: [name] # the name is required
`
	got, diags := manifest.Format("m.yaml", []byte(in))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Format (-want +got):\n%s", d)
	}
	if again, _ := manifest.Format("m.yaml", got); string(again) != string(got) {
		t.Errorf("Format is not idempotent:\n%s", again)
	}
}

// TestFormatKeepsCommentPlaces: comments above, beside and below keys and
// list items stay where they are when their keys move.
func TestFormatKeepsCommentPlaces(t *testing.T) {
	in := `# header
types:
  widgets: # line on a mapping
    apiVersions:
      '2025-01-01':
        schema:
          properties:
            tier:
              enum:
                # above an item
                - basic # beside an item
                - premium
              # below the list

            size: {type: string}
          # above type
          type: object # beside type
    description: A widget. # beside a scalar
    # below the description
namespace: Contoso.Fmt # beside the namespace
`
	want := `# header
namespace: Contoso.Fmt # beside the namespace
types:
  widgets: # line on a mapping
    description: A widget. # beside a scalar
    # below the description

    apiVersions:
      '2025-01-01':
        schema:
          # above type
          type: object # beside type
          properties:
            tier:
              enum:
                # above an item
                - basic # beside an item
                - premium
              # below the list

            size: {type: string}
`
	got, diags := manifest.Format("m.yaml", []byte(in))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Format (-want +got):\n%s", d)
	}
	checkFormat(t, in)
}

// TestFormatKeepsBlockScalars: literal and folded descriptions stay blocks
// with the author's lines, trailing spaces, blank and more-indented lines
// (a Markdown code sample), re-indented to 2 spaces under their key; an
// empty line keeps the spaces it had, less the indentation removed.
func TestFormatKeepsBlockScalars(t *testing.T) {
	in := "namespace: Contoso.Fmt\n" +
		"types:\n" +
		"  widgets:\n" +
		"    apiVersions:\n" +
		"      '2025-01-01':\n" +
		"        schema:\n" +
		"          properties:\n" +
		"            size:\n" +
		"              description: >-\n" +
		"                A folded paragraph that the author\n" +
		"                broke into short lines.\n" +
		"              type: string\n" +
		"          type: object\n" +
		"    description: |   # Markdown\n" +
		"        A widget.  \n" +
		"        \n" +
		"        ```bicep\n" +
		"          param environment string \n" +
		"        ```\n" +
		"\n" +
		"        Done.\n"
	want := "namespace: Contoso.Fmt\n" +
		"types:\n" +
		"  widgets:\n" +
		"    description: | # Markdown\n" +
		"      A widget.  \n" +
		"      \n" +
		"      ```bicep\n" +
		"        param environment string \n" +
		"      ```\n" +
		"\n" +
		"      Done.\n" +
		"    apiVersions:\n" +
		"      '2025-01-01':\n" +
		"        schema:\n" +
		"          type: object\n" +
		"          properties:\n" +
		"            size:\n" +
		"              type: string\n" +
		"              description: >-\n" +
		"                A folded paragraph that the author\n" +
		"                broke into short lines.\n"
	got, diags := manifest.Format("m.yaml", []byte(in))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Format (-want +got):\n%s", d)
	}
	checkFormat(t, in)
	// Windows line ends read the same.
	crlf, diags := manifest.Format("m.yaml", []byte(strings.ReplaceAll(in, "\n", "\r\n")))
	if len(diags) > 0 || string(crlf) != want {
		t.Errorf("Format of CRLF input = %q, %v; want the same as LF", crlf, diags)
	}
}

// TestFormatBlockScalarIndicators: a block whose first line is indented
// gets an indentation indicator; keep and strip chomping stay.
func TestFormatBlockScalarIndicators(t *testing.T) {
	in := "namespace: Contoso.Fmt\n" +
		"types:\n" +
		"  widgets:\n" +
		"    description: |4-\n" +
		"          indented first line\n" +
		"        then this\n" +
		"    apiVersions:\n" +
		"      '2025-01-01':\n" +
		"        schema:\n" +
		"          type: object\n" +
		"          example: |+\n" +
		"            kept\n" +
		"\n" +
		"          title: x\n"
	got, diags := manifest.Format("m.yaml", []byte(in))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, w := range []string{
		"    description: |2-\n        indented first line\n      then this\n",
		"          example: |+\n            kept\n\n",
	} {
		if !strings.Contains(string(got), w) {
			t.Errorf("Format = \n%s\nwant it to hold\n%s", got, w)
		}
	}
	checkFormat(t, in)
}

// TestFormatCorpusKeepsBlocks formats every manifest of the corpus: block
// scalars stay blocks of the same style with the same lines (trailing
// spaces too), the result means the same, formatting again changes
// nothing, and there is no warning.
func TestFormatCorpusKeepsBlocks(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("skipping: the corpus %s is missing", corpus)
	}
	files := map[string][]byte{}
	readTree(t, corpus, files)
	blocks := 0
	for p, data := range files {
		if manifest.IsJSON(p) {
			continue
		}
		t.Run(p, func(t *testing.T) {
			checkFormat(t, string(data))
			blocks += len(blockScalars(t, data))
		})
	}
	if blocks < 17 {
		t.Errorf("found %d block scalars in the corpus, want at least 17", blocks)
	}
	t.Logf("%d corpus files, %d block scalars kept line for line", len(files), blocks)
}

// TestFormatMultiLineKey refuses, with a diagnostic that says why, a key
// written as a block scalar: it cannot be written as a plain key.
func TestFormatMultiLineKey(t *testing.T) {
	out, diags := manifest.Format("m.yaml", []byte("namespace: A.B\n? |\n  two\n  lines\n: v\n"))
	if out != nil || len(diags) != 1 || diags[0].Rule != manifest.RuleFormat ||
		!strings.Contains(diags[0].Message, "single-line") || diags[0].Hint == "" {
		t.Errorf("Format = %q, %v; want nil and one %s error about the key", out, diags, manifest.RuleFormat)
	}
}

// TestFormatDuplicateKey formats a file with a key given twice (udtc check
// reports it): it has no value to compare, so Format's check that the
// output means the same does not refuse it.
func TestFormatDuplicateKey(t *testing.T) {
	out, diags := manifest.Format("m.yaml", []byte("types: {}\nnamespace: A.B\nnamespace: A.C\n"))
	if len(diags) > 0 || string(out) != "namespace: A.B\nnamespace: A.C\ntypes: {}\n" {
		t.Errorf("Format = %q, %v; want the namespaces first, no diagnostics", out, diags)
	}
}
