package registration_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/api"
)

func TestRegistrations(t *testing.T) {
	cat := goldentest.Compile(t, "valid_child_types")
	regs := registration.Registrations(cat, registration.Options{})
	if len(regs) != 1 || regs[0].Namespace != "Contoso.Messaging" {
		t.Fatalf("registrations: %+v", regs)
	}
	r := regs[0]
	var names []string
	for _, rt := range r.Types {
		names = append(names, rt.Type.Name)
	}
	if got := strings.Join(names, ","); got != "contosoBuses,contosoBuses/queues,contosoBuses/topics" {
		t.Errorf("types in dependency order = %s", got)
	}
	bus := r.Types[0]
	if bus.Type.Properties.DefaultAPIVersion != "2025-01-01" || bus.Type.Properties.Capabilities[0] != "SupportsRecipes" {
		t.Errorf("bus = %+v", bus.Type.Properties)
	}
	if len(bus.APIVersions) != 2 || bus.APIVersions[1].Name != "2025-01-01" {
		t.Fatalf("bus versions = %+v", bus.APIVersions)
	}
	var schema map[string]any
	if err := json.Unmarshal(bus.APIVersions[1].Properties.Schema, &schema); err != nil || schema["type"] != "object" {
		t.Errorf("schema %s: %v", bus.APIVersions[1].Properties.Schema, err)
	}
	// The manifest's own locations, each serving every type and version.
	if len(r.Locations) != 2 || r.Locations[0].Name != "east" || r.Locations[1].Properties.Address != "http://localhost:8080" {
		t.Fatalf("locations = %+v", r.Locations)
	}
	served := r.Locations[0].Properties.ResourceTypes
	if _, ok := served["contosoBuses/topics"].APIVersions["2025-06-01-preview"]; !ok || len(served) != 3 {
		t.Errorf("served = %+v", served)
	}

	// No location map: the flags' location (default global) and address.
	regs = registration.Registrations(goldentest.Compile(t, "valid_basic"), registration.Options{Address: "http://rp.example:8080"})
	want := api.Location{Name: "global", Type: api.TypeLocation}
	if l := regs[0].Locations; len(l) != 1 || l[0].Name != want.Name || l[0].Properties.Address != "http://rp.example:8080" {
		t.Errorf("default location = %+v", l)
	}
}

// TestSentAsRadSendsThem: defaultApiVersion only when the manifest declares
// it, and a `|` description with its trailing newline, as rad sends them,
// so that a team mixing rad and udtc sees no change flip back and forth.
func TestSentAsRadSendsThem(t *testing.T) {
	dir := t.TempDir()
	manifest := `namespace: Contoso.Data
types:
  derived:
    description: |
      A type.
    apiVersions:
      '2025-01-01': {schema: {}}
  declared:
    defaultApiVersion: '2025-01-01'
    apiVersions:
      '2025-01-01': {schema: {}}
      '2025-06-01': {schema: {}}
`
	if err := os.WriteFile(filepath.Join(dir, "m.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	regs := registration.Registrations(goldentest.CompilePaths(t, dir), registration.Options{})
	props := map[string]api.ResourceTypeProperties{}
	for _, rt := range regs[0].Types {
		props[rt.Type.Name] = rt.Type.Properties
	}
	if p := props["derived"]; p.DefaultAPIVersion != "" || p.Description != "A type.\n" {
		t.Errorf("derived: defaultApiVersion %q, description %q; want none and %q", p.DefaultAPIVersion, p.Description, "A type.\n")
	}
	if p := props["declared"]; p.DefaultAPIVersion != "2025-01-01" {
		t.Errorf("declared: defaultApiVersion %q, want 2025-01-01", p.DefaultAPIVersion)
	}
}
