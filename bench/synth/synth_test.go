package synth

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dlclark/regexp2"
	"go.yaml.in/yaml/v3"
)

func mustGenerate(t *testing.T, o Options) []File {
	t.Helper()
	files, err := Generate(o)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", o, err)
	}
	return files
}

func TestDeterministic(t *testing.T) {
	o := Options{Types: 60, Versions: 3, Namespaces: 4, Seed: 42}
	a, b := mustGenerate(t, o), mustGenerate(t, o)
	if len(a) != len(b) {
		t.Fatalf("same options, %d files then %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Path != b[i].Path || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("same options, file %d differs: %s vs %s", i, a[i].Path, b[i].Path)
		}
	}
	o.Seed = 43
	c := mustGenerate(t, o)
	if len(c) == len(a) {
		same := true
		for i := range a {
			same = same && a[i].Path == c[i].Path && bytes.Equal(a[i].Data, c[i].Data)
		}
		if same {
			t.Fatal("seeds 42 and 43 produced identical catalogs")
		}
	}
}

func TestSortedUniquePaths(t *testing.T) {
	files := mustGenerate(t, Options{Types: 300, Versions: 1, Namespaces: 7, Seed: 1})
	for i := 1; i < len(files); i++ {
		if files[i-1].Path >= files[i].Path {
			t.Fatalf("paths not strictly sorted: %q then %q", files[i-1].Path, files[i].Path)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	bad := []Options{
		{Types: 0, Versions: 1, Namespaces: 1},
		{Types: 10, Versions: 0, Namespaces: 1},
		{Types: 10, Versions: MaxVersions + 1, Namespaces: 1},
		{Types: 10, Versions: 1, Namespaces: 0},
		{Types: 2, Versions: 1, Namespaces: 3},
	}
	for _, o := range bad {
		if _, err := Generate(o); err == nil {
			t.Errorf("Generate(%+v) = nil error, want one", o)
		}
	}
}

var versionName = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(-preview)?$`)

// wireFile is the part of a manifest the tests inspect.
type wireFile struct {
	Namespace string `yaml:"namespace"`
	Types     map[string]struct {
		Description       string   `yaml:"description"`
		Capabilities      []string `yaml:"capabilities"`
		DefaultAPIVersion string   `yaml:"defaultApiVersion"`
		APIVersions       map[string]struct {
			Schema map[string]any `yaml:"schema"`
		} `yaml:"apiVersions"`
	} `yaml:"types"`
}

// stats counts what a catalog exercises.
type stats struct {
	types, children, schemas, topProps int
	keywords                           map[string]int
	patterns                           map[string]bool // compiled already
	maxObjectDepth                     int
	arraysOfObjects, maps, refs        int
}

func parseCatalog(t *testing.T, files []File) *stats {
	t.Helper()
	st := &stats{keywords: map[string]int{}, patterns: map[string]bool{}}
	declared := map[string]bool{} // "ns/type"
	var children []string
	for _, f := range files {
		var w wireFile
		if err := yaml.Unmarshal(f.Data, &w); err != nil {
			t.Fatalf("%s: not YAML: %v", f.Path, err)
		}
		if !strings.HasPrefix(f.Path, w.Namespace+"/") {
			t.Errorf("%s: namespace %q does not match the path", f.Path, w.Namespace)
		}
		for name, ty := range w.Types {
			st.types++
			declared[w.Namespace+"/"+name] = true
			if strings.Contains(name, "/") {
				st.children++
				children = append(children, w.Namespace+"/"+name)
			}
			if ty.Description == "" {
				t.Errorf("%s %s: no description", f.Path, name)
			}
			if ty.DefaultAPIVersion != "" {
				if _, ok := ty.APIVersions[ty.DefaultAPIVersion]; !ok {
					t.Errorf("%s %s: defaultApiVersion %q is not declared", f.Path, name, ty.DefaultAPIVersion)
				}
			}
			for v, av := range ty.APIVersions {
				if !versionName.MatchString(v) {
					t.Errorf("%s %s: bad API version %q", f.Path, name, v)
				}
				st.schemas++
				props, _ := av.Schema["properties"].(map[string]any)
				st.topProps += len(props)
				where := fmt.Sprintf("%s %s@%s", f.Path, name, v)
				checkNode(t, where, av.Schema, 0, st)
			}
		}
	}
	for _, c := range children {
		if parent := c[:strings.LastIndexByte(c, '/')]; !declared[parent] {
			t.Errorf("child %s has no parent %s in its namespace", c, parent)
		}
	}
	return st
}

// checkNode asserts the structural rules of the supported subset on one
// schema node and records which keywords it uses.
func checkNode(t *testing.T, where string, n map[string]any, depth int, st *stats) {
	t.Helper()
	for k := range n {
		st.keywords[k]++
	}
	if ref, ok := n["$ref"]; ok {
		st.refs++
		if ref != recipeStatusRef || len(n) != 1 {
			t.Errorf("%s: $ref node %v", where, n)
		}
		return
	}
	typ, _ := n["type"].(string)
	switch typ {
	case "string":
		if p, ok := n["pattern"].(string); ok && !st.patterns[p] {
			st.patterns[p] = true
			if _, err := regexp.Compile(p); err != nil {
				t.Errorf("%s: pattern %q is not RE2: %v", where, p, err)
			}
			if _, err := regexp2.Compile(p, regexp2.ECMAScript); err != nil {
				t.Errorf("%s: pattern %q is not ECMAScript: %v", where, p, err)
			}
		}
		if e, ok := n["enum"].([]any); ok {
			if d, ok := n["default"]; ok && !contains(e, d) {
				t.Errorf("%s: default %v not in enum %v", where, d, e)
			}
		}
	case "integer", "number", "boolean":
	case "array":
		items, ok := n["items"].(map[string]any)
		if !ok {
			t.Fatalf("%s: array without items", where)
		}
		if items["type"] == "object" {
			st.arraysOfObjects++
		}
		checkNode(t, where+"[]", items, depth, st)
	case "object":
		if depth > st.maxObjectDepth {
			st.maxObjectDepth = depth
		}
		if ap, ok := n["additionalProperties"].(map[string]any); ok {
			st.maps++
			if _, has := n["properties"]; has {
				t.Errorf("%s: both properties and additionalProperties", where)
			}
			checkNode(t, where+"{}", ap, depth+1, st)
			return
		}
		props, ok := n["properties"].(map[string]any)
		if !ok {
			t.Fatalf("%s: object without properties", where)
		}
		req, _ := n["required"].([]any)
		for _, r := range req {
			p, ok := props[r.(string)].(map[string]any)
			if !ok {
				t.Errorf("%s: required %v is not a property", where, r)
			} else if p["readOnly"] == true {
				t.Errorf("%s: required %v is read-only", where, r)
			}
		}
		for name, p := range props {
			checkNode(t, where+"."+name, p.(map[string]any), depth+1, st)
		}
	default:
		t.Errorf("%s: node without a known type: %v", where, n)
	}
}

func contains(list []any, v any) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func TestCatalogShape(t *testing.T) {
	o := Options{Types: 80, Versions: 2, Namespaces: 4, Seed: 7}
	st := parseCatalog(t, mustGenerate(t, o))
	if st.types != o.Types {
		t.Errorf("declared %d types, want %d", st.types, o.Types)
	}
	if st.schemas != o.Types*o.Versions {
		t.Errorf("declared %d schemas, want %d", st.schemas, o.Types*o.Versions)
	}
	if st.children == 0 || st.children > o.Types/4 {
		t.Errorf("%d child types in %d, want some but not most", st.children, o.Types)
	}
	if avg := float64(st.topProps) / float64(st.schemas); avg < 20 || avg > 30 {
		t.Errorf("%.1f top-level properties per schema, want about 25", avg)
	}
	// properties at depth 0 → objects at depth 1; three levels of nesting
	// below the top-level property means an object at depth 3.
	if st.maxObjectDepth < 3 {
		t.Errorf("deepest object at depth %d, want nesting three levels", st.maxObjectDepth)
	}
	for _, kw := range []string{"enum", "pattern", "minLength", "maxLength", "minimum", "maximum",
		"readOnly", "x-radius-sensitive", "required", "default", "maxItems", "additionalProperties", "items"} {
		if st.keywords[kw] == 0 {
			t.Errorf("catalog never uses %q", kw)
		}
	}
	if st.arraysOfObjects == 0 || st.maps == 0 || st.refs == 0 {
		t.Errorf("arrays of objects %d, maps %d, $refs %d: want all present", st.arraysOfObjects, st.maps, st.refs)
	}
}

// TestSize pins the headline size: 1,000 types × 2 versions × 10
// namespaces is roughly 20-25 MB of YAML, and size grows linearly.
func TestSize(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 26 MB; skipped with -short")
	}
	size := func(types int) int {
		n := 0
		for _, f := range mustGenerate(t, Options{Types: types, Versions: 2, Namespaces: 10, Seed: 1}) {
			n += len(f.Data)
		}
		return n
	}
	big := size(1000)
	if big < 20e6 || big > 25e6 {
		t.Errorf("1,000-type catalog is %.1f MB, want 20-25 MB", float64(big)/1e6)
	}
	small := size(100)
	if r := float64(big) / float64(small); r < 9 || r > 11 {
		t.Errorf("1,000 types / 100 types size ratio %.2f, want about 10", r)
	}
}

func TestVersionsExtendEarlierOnes(t *testing.T) {
	files := mustGenerate(t, Options{Types: 20, Versions: 3, Namespaces: 2, Seed: 3})
	for _, f := range files {
		var w wireFile
		if err := yaml.Unmarshal(f.Data, &w); err != nil {
			t.Fatal(err)
		}
		for name, ty := range w.Types {
			if len(ty.APIVersions) != 3 {
				t.Fatalf("%s: %d versions, want 3", name, len(ty.APIVersions))
			}
			var counts []int
			// Version names differ in date, so they sort oldest first.
			for _, v := range slices.Sorted(maps.Keys(ty.APIVersions)) {
				counts = append(counts, len(ty.APIVersions[v].Schema["properties"].(map[string]any)))
			}
			if counts[0] >= counts[1] || counts[1] >= counts[2] {
				t.Errorf("%s: property counts by version %v, want growing", name, counts)
			}
		}
	}
}

func TestProfiles(t *testing.T) {
	o := Options{Types: 30, Versions: 2, Namespaces: 2, Seed: 5}
	flat := mustGenerate(t, o)
	o.Profile = ProfileFlat
	if named := mustGenerate(t, o); !slices.EqualFunc(flat, named, func(a, b File) bool { return a.Path == b.Path && bytes.Equal(a.Data, b.Data) }) {
		t.Error(`Profile "flat" differs from the default profile`)
	}
	o.Profile = ProfileDeep
	deep := mustGenerate(t, o)
	var flatSize, deepSize int
	for _, f := range flat {
		flatSize += len(f.Data)
	}
	for _, f := range deep {
		deepSize += len(f.Data)
		if !bytes.Contains(f.Data, []byte("multipleOf:")) && !bytes.Contains(f.Data, []byte("maxItems:")) {
			t.Errorf("%s: no deep-profile constraint", f.Path)
		}
	}
	if deepSize <= flatSize {
		t.Errorf("deep catalog %d bytes, flat %d: want deeper schemas", deepSize, flatSize)
	}
	o.Profile = "wide"
	if _, err := Generate(o); err == nil || !strings.Contains(err.Error(), "profile") {
		t.Errorf("unknown profile: err = %v", err)
	}
}
