package registration_test

import (
	"encoding/json"
	"path/filepath"
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
// manifest has none. The expectation is built here from those rules and
// the base properties as rad registers them, descriptions included: the
// same bytes, so that publishing over rad's registrations changes nothing.
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
			want := any(goldentest.RadMerge(t, v.Schema))
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
