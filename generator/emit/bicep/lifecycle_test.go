package bicep

import (
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/model"
)

// A deprecated API version leads the descriptions hover shows on its
// resource's name, properties and apiVersion, and its entry in types.md,
// with the notice; the other versions' do not change.
func TestDeprecatedVersionDescriptions(t *testing.T) {
	cat := sampleCatalog()
	var typ *model.ResourceType
	for _, p := range cat.Providers {
		for _, rt := range p.Types {
			if rt.FullName() == "Contoso.Platform/buses/queues" {
				typ = rt
			}
		}
	}
	if typ == nil {
		t.Fatal("the sample has no Contoso.Platform/buses/queues")
	}
	v := typ.APIVersions[0]
	v.Lifecycle = &model.Lifecycle{Deprecated: "2026-06-01", Sunset: "2027-01-01", Replacement: "2026-01-01", Message: "Use the new one."}
	files, diags, err := Emit(cat, Options{})
	if err != nil || len(diags) > 0 {
		t.Fatalf("Emit: %v %v", err, diags)
	}
	m := map[string][]byte{}
	for _, f := range files {
		m[f.Path] = f.Data
	}
	types := typesOf(t, m["bicep/contosoplatform/types.json"])
	want := "DEPRECATED: Contoso.Platform/buses/queues@" + v.Name + " is deprecated from 2026-06-01 and sunset on 2027-01-01 (no new resources from then); use 2026-01-01. Use the new one.\n\n"
	for _, name := range []string{"name", "properties", "apiVersion"} {
		if _, _, desc := property(t, types, "Contoso.Platform/buses/queues@"+v.Name, name); !strings.HasPrefix(desc, want) {
			t.Errorf("%s: description %q lacks the notice", name, desc)
		}
	}
	if _, _, desc := property(t, types, "Contoso.Platform/buses@2025-01-01", "name"); strings.Contains(desc, "DEPRECATED") {
		t.Errorf("another type's name is described %q", desc)
	}
	if !strings.Contains(string(m["bicep/contosoplatform/types.md"]), "DEPRECATED: Contoso.Platform/buses/queues@") {
		t.Errorf("types.md lacks the notice:\n%s", m["bicep/contosoplatform/types.md"])
	}
}
