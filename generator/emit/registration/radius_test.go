package registration_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestSchemasAreWhatRadSends holds the schema udtc registers for every API
// version of the Radius corpus to the one `rad resource-provider create
// --from-file` sends (pkg/cli/manifest, applyBaseResourceManifest): the
// manifest's schema as decoded from YAML, with each base property it lacks
// added to `properties` (and `properties` added when there is none) and
// `environment` appended to `required`, nothing else: no `type` where the
// manifest has none. The expectation is built here from those rules; only
// the descriptions of the added base properties, which are udtc's wording,
// are left out of the comparison.
func TestSchemasAreWhatRadSends(t *testing.T) {
	corpus := goldentest.Corpus(t)
	compared := 0
	for _, sub := range []string{"resource-types-contrib", "radius-built-in"} {
		dir := filepath.Join(corpus, sub)
		regs := registration.Registrations(goldentest.CompilePaths(t, dir), registration.Options{})
		sent := map[string]any{} // namespace/type@version → schema
		for _, r := range regs {
			for _, rt := range r.Types {
				for _, v := range rt.APIVersions {
					var s any
					if err := json.Unmarshal(v.Properties.Schema, &s); err != nil {
						t.Fatal(err)
					}
					sent[r.Namespace+"/"+rt.Type.Name+"@"+v.Name] = s
				}
			}
		}
		for _, v := range goldentest.CorpusVersions(t, dir) {
			name := v.Namespace + "/" + v.Type + "@" + v.Version
			got, ok := sent[name]
			if !ok {
				t.Errorf("%s: %s is not registered", v.File, name)
				continue
			}
			want, added := radMerge(t, v.Schema, goldentest.RadiusBase())
			for _, prop := range added { // udtc's own wording
				dropDescriptions(got.(map[string]any)["properties"].(map[string]any)[prop])
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: %s is registered with another schema than rad's (-rad +udtc):\n%s", v.File, name, diff)
			}
			compared++
		}
	}
	if compared < 30 {
		t.Errorf("compared %d API versions; the corpus has 39", compared)
	}
}

// radMerge is rad's merge of the base properties into schema, as JSON
// values, and the names of the properties it added.
func radMerge(t *testing.T, schema, base map[string]any) (merged any, added []string) {
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	for name, p := range base {
		if _, ok := props[name]; !ok {
			props[name] = p
			added = append(added, name)
		}
	}
	s["properties"] = props
	req, _ := s["required"].([]any)
	if !slices.Contains(req, any("environment")) {
		s["required"] = append(req, "environment")
	}
	// Through JSON again, so that the base's values have JSON's types.
	b, _ = json.Marshal(s)
	json.Unmarshal(b, &merged)
	return merged, added
}

// dropDescriptions removes "description" from a schema node and every node
// below it.
func dropDescriptions(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "description")
		for _, c := range v {
			dropDescriptions(c)
		}
	case []any:
		for _, c := range v {
			dropDescriptions(c)
		}
	}
}
