package admission_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/openapi"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/admission"
)

// TestSameAsGenerator: for every valid fixture, the registry's conversion of
// the registered schema JSON (Compile, then OpenAPI) is the generator's
// conversion of the checked model (generator/openapi), built-in `$ref`s
// included. The generator is imported by this test only.
func TestSameAsGenerator(t *testing.T) {
	for _, name := range goldentest.ValidCases(t) {
		cat := goldentest.Compile(t, name)
		for _, reg := range registration.Registrations(cat, registration.Options{}) {
			for _, rt := range reg.Types {
				for i, v := range rt.APIVersions {
					key := name + "/" + reg.Namespace + "/" + rt.Type.Name + "@" + v.Name
					s, err := admission.Compile(v.Properties.Schema)
					if err != nil {
						t.Errorf("%s: %v", key, err)
						continue
					}
					var model any
					for _, p := range cat.Providers {
						for _, mt := range p.Types {
							if p.Namespace == reg.Namespace && mt.Name == rt.Type.Name {
								model = openapi.Schema(mt.APIVersions[i].Schema)
							}
						}
					}
					if diff := cmp.Diff(asJSON(t, model), asJSON(t, s.OpenAPI())); diff != "" {
						t.Errorf("%s (-generator +admission):\n%s", key, diff)
					}
				}
			}
		}
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
