package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// A deprecated version's page opens with a banner linking its
// replacement's page, and its version lists tag it deprecated; a
// lifecycle comes through FromRegistrations as through a registry.
func TestDeprecatedVersionBanner(t *testing.T) {
	regs := []api.Registration{{Namespace: "Contoso.Data", Types: []api.RegisteredType{{
		Type: api.ResourceType{Name: "dbs"},
		APIVersions: []api.APIVersion{
			{Name: "2025-01-01-preview", Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"type":"object"}`),
				Lifecycle: &api.Lifecycle{Deprecated: "2026-06-01", Sunset: "2027-01-01", Replacement: "2025-09-01", Message: "Adds <HA>."}}},
			{Name: "2025-09-01", Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"type":"object"}`)}},
		},
	}}}}
	files, err := New(FromRegistrations(regs)).Site(Options{})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]string{}
	for _, f := range files {
		byPath[f.Path] = string(f.Data)
	}
	old := byPath["types/Contoso.Data/dbs@2025-01-01-preview.html"]
	want := `<p class="banner banner-deprecated" role="note"><strong>Deprecated</strong> from 2026-06-01; sunset on 2027-01-01: from then the registry refuses new resources of this version (existing ones can still be read, updated and deleted). Use <a href="dbs@2025-09-01.html">2025-09-01</a> instead. Adds &lt;HA&gt;.</p>`
	if !strings.Contains(old, want) {
		t.Errorf("the deprecated version's page lacks\n%s\n%s", want, old)
	}
	if !strings.Contains(old, `class="tag tag-deprecated"`) {
		t.Error("the version list does not tag the version deprecated")
	}
	if strings.Contains(byPath["types/Contoso.Data/dbs@2025-09-01.html"], "banner-deprecated") {
		t.Error("the replacement's page has the banner")
	}
}
