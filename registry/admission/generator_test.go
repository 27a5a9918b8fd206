package admission_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/schema/kin"
)

// TestSameAsGenerator: for every valid fixture, the registry's reading of
// the registered schema JSON (Compile, then OpenAPI: schema.Decode, then
// kin.Schema) is the generator's checked model converted by the same
// kin.Schema, built-in `$ref`s included, and the empty document admits.
// The generator is imported by this test only.
func TestSameAsGenerator(t *testing.T) {
	for _, name := range goldentest.ValidCases(t) {
		sameAsGenerator(t, name, goldentest.Compile(t, name))
	}
}

// TestCorpus: the same for every schema of the real manifests in the
// shared corpus.
func TestCorpus(t *testing.T) {
	corpus := goldentest.Corpus(t)
	cat := goldentest.CompilePaths(t, filepath.Join(corpus, "resource-types-contrib"), filepath.Join(corpus, "radius-built-in"))
	if n := sameAsGenerator(t, "corpus", cat); n < 10 {
		t.Errorf("only %d corpus schemas", n)
	}
}

// sameAsGenerator checks every schema of cat and returns how many it checked.
func sameAsGenerator(t *testing.T, name string, cat *model.Catalog) int {
	n := 0
	for _, p := range cat.Providers {
		for _, rt := range p.Types {
			for _, v := range rt.APIVersions {
				key := name + "/" + p.Namespace + "/" + rt.Name + "@" + v.Name
				s, err := admission.Compile(v.Source)
				if err != nil {
					t.Errorf("%s: %v", key, err)
					continue
				}
				n++
				if diff := cmp.Diff(asJSON(t, kin.Schema(v.Schema)), asJSON(t, s.OpenAPI())); diff != "" {
					t.Errorf("%s (-generator +admission):\n%s", key, diff)
				}
				admitEmpty(t, key, s)
			}
		}
	}
	return n
}

// admitEmpty admits {}: only MissingProperty violations; without any, the
// result (the defaults) re-admits unchanged.
func admitEmpty(t *testing.T, key string, s *admission.Schema) {
	t.Helper()
	out, vs := s.Admit(json.RawMessage(`{}`))
	for _, v := range vs {
		if v.Code != admission.CodeMissingProperty {
			t.Errorf("%s: admitting {}: %+v", key, v)
		}
	}
	if len(vs) > 0 {
		return
	}
	again, vs := s.Admit(out)
	if len(vs) != 0 || string(again) != string(out) {
		t.Errorf("%s: re-admitting %s: %s %+v", key, out, again, vs)
	}
}

func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	sortRequired(out)
	return out
}

// sortRequired sorts every `required` list: the generator lists required
// properties in declaration order, which a JSON object does not keep.
func sortRequired(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if list, ok := e.([]any); ok && k == "required" {
				slices.SortFunc(list, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
			}
			sortRequired(e)
		}
	case []any:
		for _, e := range v {
			sortRequired(e)
		}
	}
}
