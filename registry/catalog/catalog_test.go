package catalog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry/api"
)

func testCatalog() *Catalog {
	return New([]api.ProviderSummary{
		{Name: "Contoso.Bus", ResourceTypes: map[string]api.ResourceTypeSummary{
			"contosoBuses": {DefaultAPIVersion: "2025-01-01", Description: "A bus.", APIVersions: map[string]api.APIVersionSummary{
				"2025-01-01":         {Schema: json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"string"},"ports":{"type":"array","minItems":1,"items":{"type":"object","properties":{"port":{"type":"integer","minimum":1024,"exclusiveMinimum":true}},"required":["port"]}},"tags":{"type":"object","additionalProperties":{"type":"string","description":"A tag value.","maxLength":10}},"alpha":{"type":"number","multipleOf":0.5,"default":1.5}},"required":["ports","alpha"]}`)},
				"2025-03-01-preview": {Schema: json.RawMessage(`{"type":"object","properties":{"zeta":{"type":"integer"}}}`)},
			}},
			"contosoBuses/queues": {APIVersions: map[string]api.APIVersionSummary{"2025-01-01": {Schema: json.RawMessage(`{}`)}}},
			// Collides with contosoBuses in Go: gets the suffixed names.
			"contosoBus": {APIVersions: map[string]api.APIVersionSummary{"2025-01-01": {Schema: json.RawMessage(`{"type":"object","additionalProperties":{"type":"integer"}}`)}}},
		}},
	})
}

func TestPropertiesKeepSourceOrderAndEveryConstraint(t *testing.T) {
	c := testCatalog()
	p, ok := c.TypePage(c.Lookup("contoso.bus", "CONTOSOBUSES"), "2025-01-01", Options{})
	if !ok {
		t.Fatal("no page")
	}
	type row struct {
		Path, Type  string
		Required    bool
		Default     string
		Constraints []Constraint
	}
	var got []row
	for _, p := range p.Properties {
		got = append(got, row{p.Path, p.Type, p.Required, p.Default, p.Constraints})
	}
	want := []row{
		{Path: "zeta", Type: "string"},
		{Path: "ports", Type: "array of object", Required: true, Constraints: []Constraint{{"minItems", "1"}}},
		{Path: "ports[].port", Type: "integer", Required: true, Constraints: []Constraint{{"minimum", "1024"}, {"exclusiveMinimum", "true"}}},
		{Path: "tags", Type: "map of string"},
		{Path: "tags.*", Type: "string", Constraints: []Constraint{{"maxLength", "10"}}},
		{Path: "alpha", Type: "number", Required: true, Default: "1.5", Constraints: []Constraint{{"multipleOf", "0.5"}}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rows (-want +got):\n%s", d)
	}
	// minItems 1 gives one item, whose port is above its exclusive minimum.
	if p.Snippets.JSON != "{\n  \"properties\": {\n    \"ports\": [\n      {\n        \"port\": 1025\n      }\n    ],\n    \"alpha\": 1.5\n  }\n}\n" {
		t.Errorf("JSON snippet:\n%s", p.Snippets.JSON)
	}
	if !strings.Contains(p.Snippets.Bicep, "extension contosobus\n\nresource example 'Contoso.Bus/contosoBuses@2025-01-01' = {\n  name: 'example'\n  properties: {\n    ports: [\n      {\n        port: 1025\n      }\n    ]\n    alpha: json('1.5')\n  }\n}\n") {
		t.Errorf("Bicep snippet:\n%s", p.Snippets.Bicep)
	}
}

// TestBicepReference: the snippets name the extension's br: reference
// when Options.BicepReference gives one, for the snippet's extension name.
func TestBicepReference(t *testing.T) {
	c := testCatalog()
	t0 := c.Lookup("Contoso.Bus", "contosoBuses")
	ref := func(ext string) string { return "br:r.example.com/bicep/" + ext + ":1.0.0" }
	for _, c2 := range []struct {
		opts Options
		want string
	}{
		{Options{}, ""},
		{Options{BicepReference: ref}, "br:r.example.com/bicep/contosobus:1.0.0"},
		{Options{BicepReference: ref, BicepExtension: "all"}, "br:r.example.com/bicep/all:1.0.0"},
	} {
		p, _ := c.TypePage(t0, "2025-01-01", c2.opts)
		if p.Snippets.BicepReference != c2.want {
			t.Errorf("BicepReference %q, want %q", p.Snippets.BicepReference, c2.want)
		}
		b, err := RenderType(ServerLinks(), p)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "br:") != (c2.want != "") || !strings.Contains(string(b), c2.want) {
			t.Errorf("the page and the reference %q disagree", c2.want)
		}
	}
}

func TestGoNamesFollowTheClientsCollisionOrder(t *testing.T) {
	c := testCatalog()
	// Model order is byte order: contosoBus, contosoBuses, contosoBuses/queues.
	for typ, want := range map[string]string{"contosoBus": "ContosoBus", "contosoBuses": "ContosoBus2", "contosoBuses/queues": "ContosoBusQueue"} {
		p, _ := c.TypePage(c.Lookup("Contoso.Bus", typ), "2025-01-01", Options{GoImportPrefix: "example.com/m/gen"})
		if p.Snippets.GoType.Name != want {
			t.Errorf("%s: Go name %s, want %s", typ, p.Snippets.GoType.Name, want)
		}
		if p.Snippets.GoPackage != "example.com/m/gen/go/contosobus/v20250101" {
			t.Errorf("%s: Go package %s", typ, p.Snippets.GoPackage)
		}
	}
}

func TestChangesAndVersionOrder(t *testing.T) {
	c := testCatalog()
	bus := c.Lookup("Contoso.Bus", "contosoBuses")
	if got := []string{bus.APIVersions[0].Name, bus.APIVersions[1].Name}; got[0] != "2025-03-01-preview" {
		t.Errorf("versions %v, want newest first", got)
	}
	ch, ok := c.Changes(bus, "2025-01-01", "2025-03-01-preview", Options{})
	if !ok || len(ch.Removed) != 5 || len(ch.Added) != 0 || len(ch.Changed) != 1 || ch.Changed[0].Differences[0] != "type: string → integer" {
		t.Errorf("changes = %+v", ch)
	}
	if _, ok := c.Changes(bus, "2025-01-01", "2024-01-01", Options{}); ok {
		t.Error("a missing version compares")
	}
}

// The static site is the home page with its JSON twin, the assets and a
// page per type version in its namespace's directory (Type@version.html,
// no directory per type), whose links are relative; a version's page
// compares it with each older version, and the links to a comparison lead
// there.
func TestSiteLinksAreRelative(t *testing.T) {
	c := testCatalog()
	files, err := c.Site(Options{})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]string{}
	var paths []string
	for _, f := range files {
		byPath[f.Path] = string(f.Data)
		paths = append(paths, f.Path)
	}
	want := []string{
		"assets/catalog.css", "assets/catalog.js", "index.html", "index.json",
		"types/Contoso.Bus/contosoBus@2025-01-01.html",
		"types/Contoso.Bus/contosoBuses@2025-01-01.html", "types/Contoso.Bus/contosoBuses@2025-03-01-preview.html",
		"types/Contoso.Bus/contosoBuses_queues@2025-01-01.html",
	}
	if d := cmp.Diff(want, paths); d != "" {
		t.Errorf("site files (-want +got):\n%s", d)
	}
	older := byPath["types/Contoso.Bus/contosoBuses@2025-01-01.html"]
	for _, want := range []string{`href="../../assets/catalog.css"`, `href="../../index.html"`,
		`<a href="contosoBuses@2025-03-01-preview.html#changes-2025-01-01">with 2025-03-01-preview</a>`,
		`<a class="type-name" href="contosoBuses_queues@2025-01-01.html">`} {
		if !strings.Contains(older, want) {
			t.Errorf("static type page lacks %s", want)
		}
	}
	newer := byPath["types/Contoso.Bus/contosoBuses@2025-03-01-preview.html"]
	for _, want := range []string{`<a href="contosoBuses@2025-03-01-preview.html#changes-2025-01-01">with 2025-01-01</a>`,
		`<h3 id="changes-2025-01-01">Since <a href="contosoBuses@2025-01-01.html">2025-01-01</a>`,
		`<h4 id="changes-2025-01-01-removed">Removed</h4>`, `<li><code>zeta</code><ul><li>type: string → integer</li></ul></li>`} {
		if !strings.Contains(newer, want) {
			t.Errorf("static page of the newer version lacks %s", want)
		}
	}
	if strings.Contains(older, `id="changes"`) {
		t.Error("the oldest version's page has a section of changes")
	}
	if strings.Contains(older+newer, `.json"`) {
		t.Error("a static type page links a JSON twin, which the site does not write")
	}
	if !strings.Contains(byPath["index.html"], `href="types/Contoso.Bus/contosoBuses@2025-01-01.html"`) ||
		!strings.Contains(byPath["index.html"], `<link rel="alternate" type="application/json" href="index.json">`) {
		t.Error("static home does not link relatively")
	}
	if strings.Contains(strings.Join(mapsValues(byPath), ""), `href="/`) {
		t.Error("a static page has a root-relative link")
	}
}

func mapsValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestFromRegistrations(t *testing.T) {
	regs := []api.Registration{{Namespace: "Contoso.Data", Types: []api.RegisteredType{{
		Type:        api.ResourceType{Name: "dbs", Properties: api.ResourceTypeProperties{DefaultAPIVersion: "2025-01-01", Description: "D."}},
		APIVersions: []api.APIVersion{{Name: "2025-01-01", Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"type":"object"}`)}}},
	}}}}
	c := New(FromRegistrations(regs))
	tp := c.Lookup("Contoso.Data", "dbs")
	if tp == nil || tp.Description != "D." || tp.Page != "/types/Contoso.Data/dbs/2025-01-01" {
		t.Errorf("type = %+v", tp)
	}
}

func TestReferences(t *testing.T) {
	c := New([]api.ProviderSummary{{Name: "Contoso.Apps", ResourceTypes: map[string]api.ResourceTypeSummary{
		"apps": {APIVersions: map[string]api.APIVersionSummary{"2025-01-01": {Schema: json.RawMessage(`{"type":"object","properties":{
			"db":{"type":"string","x-resource-type":"Contoso.Apps/dbs"},
			"cache":{"type":"string","x-resource-type":["Contoso.Apps/dbs","Other.Ns/caches"]},
			"deps":{"type":"array","items":{"type":"string","x-resource-type":"*"}}}}`)}}},
		"dbs": {APIVersions: map[string]api.APIVersionSummary{"2025-01-01": {Schema: json.RawMessage(`{}`)}}},
	}}})
	p, _ := c.TypePage(c.Lookup("Contoso.Apps", "apps"), "2025-01-01", Options{})
	got := map[string][]Reference{}
	for _, pr := range p.Properties {
		got[pr.Path] = pr.References
	}
	db := Reference{Type: "Contoso.Apps/dbs", Page: "/types/Contoso.Apps/dbs/2025-01-01"}
	want := map[string][]Reference{
		"db":     {db},
		"cache":  {db, {Type: "Other.Ns/caches"}},
		"deps":   nil,
		"deps[]": {{Type: "*"}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("references (-want +got):\n%s", d)
	}
	html, err := RenderType(ServerLinks(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "The ID of a resource of any type.") {
		t.Error(`"*" does not read "any type"`)
	}
}
