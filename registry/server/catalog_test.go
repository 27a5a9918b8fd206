package server_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/catalog"
	"github.com/udtc/udtc/registry/server"
)

const xss = `<script>alert(1)</script>`

// inlineAttr finds event handler and style attributes, which the
// Content-Security-Policy would block.
var inlineAttr = regexp.MustCompile(`(?i)<[^>]+\s(on[a-z]+|style)\s*=`)

// seedCatalog registers Contoso.Data with postgresDatabases at two versions
// (one preview), a child type, and a description that tries script
// injection.
func (f *fixture) seedCatalog() {
	f.t.Helper()
	data := rp + "/Contoso.Data"
	pg := data + "/resourceTypes/postgresDatabases"
	f.must(201, "PUT", data, `{"location":"global","properties":{}}`)
	f.must(201, "PUT", pg, `{"properties":{"defaultApiVersion":"2025-06-01","description":"A PostgreSQL database. `+xss+`","capabilities":["SupportsRecipes"]}}`)
	f.must(201, "PUT", pg+"/apiVersions/2025-01-01-preview", `{"properties":{"schema":{"type":"object","properties":{
		"size":{"type":"string","enum":["S","M","L"]},
		"legacy":{"type":"boolean"}},"required":["size"]}}}`)
	f.must(201, "PUT", pg+"/apiVersions/2025-06-01", `{"properties":{"schema":{"type":"object","properties":{
		"name":{"type":"string","description":"The database name. `+xss+`","minLength":3,"maxLength":63,"pattern":"^[a-z]+$","default":"orders","format":"hostname"},
		"size":{"type":"string","enum":["S","M","L","XL"]},
		"replicas":{"type":"integer","minimum":1,"maximum":5},
		"server":{"type":"string","x-resource-type":"Contoso.Data/postgresDatabases/databases"},
		"cache":{"type":"string","x-resource-type":["Contoso.Data/redisCaches","Contoso.Data/postgresDatabases","Contoso.Other/things"]},
		"password":{"type":"string","x-radius-sensitive":true,"writeOnly":true},
		"status":{"type":"object","readOnly":true,"properties":{"host":{"type":"string"}}}},
		"required":["name","size"]}}}`)
	f.must(201, "PUT", pg+"_databases", `{"properties":{"defaultApiVersion":"2025-06-01","description":"A database on the server."}}`)
	f.must(201, "PUT", pg+"_databases/apiVersions/2025-06-01", `{"properties":{"schema":{}}}`)
	// Another namespace, which a reference names.
	f.must(201, "PUT", rp+"/Contoso.Other", `{}`)
	f.must(201, "PUT", rp+"/Contoso.Other/resourceTypes/things", `{"properties":{"description":"Things."}}`)
	f.must(201, "PUT", rp+"/Contoso.Other/resourceTypes/things/apiVersions/2025-01-01", `{"properties":{"schema":{}}}`)
}

func TestCatalogHome(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedCatalog()
	r := f.must(200, "GET", "!/", "")
	body := string(r.body)
	if ct := r.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("Content-Type = %q", ct)
	}
	csp := r.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("Content-Security-Policy %q allows inline code", csp)
	}
	if r.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q", r.header.Get("X-Content-Type-Options"))
	}
	for _, want := range []string{
		`href="/types/Contoso.Data/postgresDatabases/2025-06-01"`,
		`href="/types/Contoso.Data/postgresDatabases/2025-01-01-preview"`,
		`href="/types/Contoso.Data/postgresDatabases_databases/2025-06-01"`,
		// A long name breaks between its parts, never inside a word.
		"Contoso.<wbr>Data/<wbr>postgresDatabases/<wbr>databases",
		`<span class="tag tag-preview"`, `<span class="tag tag-default"`,
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		`<script src="/assets/catalog.js" defer></script>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("home page lacks %s", want)
		}
	}
	if strings.Contains(body, xss) {
		t.Errorf("home page contains the description's script unescaped")
	}
	if strings.Count(body, "<script") != 1 || strings.Contains(body, "<style") || inlineAttr.MatchString(body) {
		t.Errorf("home page has inline script or style")
	}

	// Without JavaScript the form asks the server: ?q= narrows the list.
	r = f.must(200, "GET", "!/?q=DATABASE+ON", "")
	if b := string(r.body); !strings.Contains(b, "postgresDatabases_databases/2025-06-01") || strings.Contains(b, `href="/types/Contoso.Data/postgresDatabases/2025-06-01"`) {
		t.Errorf("?q=DATABASE+ON does not narrow the list to the child type:\n%s", b)
	}
	if r = f.must(200, "GET", "!/?q=nothing-matches", ""); !strings.Contains(string(r.body), "No type matches") {
		t.Errorf("an unmatched filter does not say so")
	}
}

func TestCatalogJSONTwin(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedCatalog()
	r := f.must(200, "GET", "!/", "", "Accept: application/json")
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type = %q", ct)
	}
	if !strings.Contains(r.header.Get("Vary"), "Accept") {
		t.Errorf("Vary = %q, want Accept", r.header.Get("Vary"))
	}
	var home catalog.Home
	if err := json.Unmarshal(r.body, &home); err != nil {
		t.Fatal(err)
	}
	if home.Types != 3 || len(home.Namespaces) != 2 || home.Namespaces[0].Types[0].DefaultAPIVersion != "2025-06-01" {
		t.Errorf("home JSON = %s", r.body)
	}
	if !strings.Contains(string(r.body), xss) {
		t.Errorf("the JSON twin should carry the description as data, unescaped: %s", r.body)
	}

	r = f.must(200, "GET", "!/types/Contoso.Data/postgresDatabases/2025-06-01", "", "Accept: application/json")
	var page catalog.TypePage
	if err := json.Unmarshal(r.body, &page); err != nil {
		t.Fatal(err)
	}
	if page.APIVersion.Name != "2025-06-01" || !page.APIVersion.Default || len(page.Properties) != 8 {
		t.Errorf("type page JSON = %s", r.body)
	}
	// The HTML shows what the JSON says: every property path.
	html := string(f.must(200, "GET", "!/types/Contoso.Data/postgresDatabases/2025-06-01", "").body)
	for _, p := range page.Properties {
		if !strings.Contains(html, `<code>`+p.Path+`</code><td>`) {
			t.Errorf("HTML lacks the row of %s", p.Path)
		}
	}
	// A browser's Accept gets HTML.
	r = f.must(200, "GET", "!/", "", "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
	if !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("a browser's Accept got %q", r.header.Get("Content-Type"))
	}
}

func TestCatalogTypePage(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedCatalog()
	r := f.must(200, "GET", "!/types/contoso.data/POSTGRESDATABASES/2025-06-01", "")
	body := string(r.body)
	for _, want := range []string{
		`<tr><th scope="row"><code>name</code><td>`,
		`<span>minLength: <code>3</code></span>`,
		`<span>maxLength: <code>63</code></span>`,
		`<span>pattern: <code>^[a-z]&#43;$</code></span>`,
		`<span>format: <code>hostname</code></span>`,
		`<span>minimum: <code>1</code></span>`,
		`<code>&#34;orders&#34;</code>`,
		`<code>&#34;XL&#34;</code>`,
		`<span class="tag tag-sensitive">sensitive</span>`,
		`<span class="tag">write-only</span>`,
		`<span class="tag">read-only</span>`,
		`<tr><th scope="row" class="d1"><code>status.host</code><td>`,
		`The ID of a resource of <a href="/types/Contoso.Data/postgresDatabases_databases/2025-06-01">Contoso.Data/postgresDatabases/databases</a>`,
		`<a href="/types/Contoso.Data/postgresDatabases_databases/2025-06-01">Contoso.Data/postgresDatabases/databases</a>`,
		`href="/types/Contoso.Data/postgresDatabases/changes/2025-01-01-preview/2025-06-01"`,
		`The ID of a resource of Contoso.Data/redisCaches or <a href="/types/Contoso.Data/postgresDatabases/2025-06-01">Contoso.Data/postgresDatabases</a> or <a href="/types/Contoso.Other/things/2025-01-01">Contoso.Other/things</a>.`,
		"extension contosodata",
		"resource example &#39;Contoso.Data/postgresDatabases@2025-06-01&#39;",
		"v20250601.NewPostgresDatabaseID(",
		"v20250601.NewResourceGroupsClient(opts)",
		"v20250601.NewPostgresDatabaseClient(opts)",
		"client.CreateOrUpdate(ctx, id, res, nil)",
		"SupportsRecipes",
		"The database name. &lt;script&gt;alert(1)&lt;/script&gt;",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("type page lacks %s", want)
		}
	}
	if strings.Contains(body, xss) {
		t.Errorf("type page contains the description's script unescaped")
	}
	// The child type links its parent and has an undeclared schema.
	child := string(f.must(200, "GET", "!/types/Contoso.Data/postgresDatabases_databases/2025-06-01", "").body)
	for _, want := range []string{`<dt>Parent type</dt>`, `href="/types/Contoso.Data/postgresDatabases/2025-06-01"`, "The schema is undeclared", "NewPostgresDatabaseDatabaseID(*rg.ID, &#34;example&#34;, &#34;example&#34;)", "name: &#39;example/example&#39;"} {
		if !strings.Contains(child, want) {
			t.Errorf("child type page lacks %s", want)
		}
	}
	// /types/{ns}/{type} redirects to the default version.
	req, _ := http.NewRequest("GET", f.url+"/types/Contoso.Data/postgresDatabases", nil)
	resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 302 || resp.Header.Get("Location") != "/types/Contoso.Data/postgresDatabases/2025-06-01" {
		t.Errorf("GET /types/Contoso.Data/postgresDatabases = %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestCatalogChanges(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedCatalog()
	r := f.must(200, "GET", "!/types/Contoso.Data/postgresDatabases/changes/2025-01-01-preview/2025-06-01", "", "Accept: application/json")
	var ch catalog.Changes
	if err := json.Unmarshal(r.body, &ch); err != nil {
		t.Fatal(err)
	}
	if ch.Method != catalog.MethodStructural || ch.Findings != nil {
		t.Errorf("without CompareSchemas: method %q, findings %v", ch.Method, ch.Findings)
	}
	paths := func(ps []catalog.Property) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Path)
		}
		return strings.Join(out, " ")
	}
	if got := paths(ch.Added); got != "name replicas server cache password status status.host" {
		t.Errorf("added = %q", got)
	}
	if got := paths(ch.Removed); got != "legacy" {
		t.Errorf("removed = %q", got)
	}
	if len(ch.Changed) != 1 || ch.Changed[0].Path != "size" || strings.Join(ch.Changed[0].Differences, "; ") != `enum: added "XL"` {
		t.Errorf("changed = %+v", ch.Changed)
	}
	html := string(f.must(200, "GET", "!/types/Contoso.Data/postgresDatabases/changes/2025-01-01-preview/2025-06-01", "").body)
	for _, want := range []string{`<h2 id="added">`, `<h2 id="removed">`, `enum: added &#34;XL&#34;`} {
		if !strings.Contains(html, want) {
			t.Errorf("changes page lacks %s", want)
		}
	}
}

// With CompareSchemas the changes page lists its findings, given the two
// registered schemas older first; when it fails the page says so and falls
// back to the structural comparison. (cmd/udtc supplies the real rules and
// tests them end to end: site_test.go.)
func TestCatalogChangesCompare(t *testing.T) {
	var calls [][2]string
	fail := false
	compare := func(oldSchema, newSchema json.RawMessage) ([]catalog.Change, error) {
		calls = append(calls, [2]string{string(oldSchema), string(newSchema)})
		if fail {
			return nil, errors.New("schema: bad-rule: nope")
		}
		return []catalog.Change{
			{Rule: "property-added", Severity: "info", Path: "name", Message: "property name added"},
			{Rule: "property-removed", Severity: "error", Path: "legacy", Message: "property legacy removed <b>"},
		}, nil
	}
	f := newFixture(t, server.Options{CompareSchemas: compare})
	f.seedCatalog()
	const page = "!/types/Contoso.Data/postgresDatabases/changes/2025-01-01-preview/2025-06-01"
	var ch catalog.Changes
	if err := json.Unmarshal(f.must(200, "GET", page, "", "Accept: application/json").body, &ch); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || !strings.Contains(calls[0][0], `"legacy"`) || !strings.Contains(calls[0][1], `"replicas"`) {
		t.Fatalf("CompareSchemas called with %q, want (2025-01-01-preview, 2025-06-01)", calls)
	}
	if ch.Method != catalog.MethodCompat || ch.Added != nil || ch.Removed != nil || ch.Changed != nil {
		t.Errorf("with CompareSchemas: %+v", ch)
	}
	if len(ch.Findings) != 2 || ch.Findings[0].Rule != "property-removed" || ch.Findings[1].Rule != "property-added" || ch.Breaking() != 1 {
		t.Errorf("findings %+v, want the error first", ch.Findings)
	}
	html := string(f.must(200, "GET", page, "").body)
	for _, want := range []string{`<tr data-rule="property-removed" data-path="legacy">`, `<span class="tag tag-error">error</span>`,
		"property legacy removed &lt;b&gt;", "2 changes, 1 breaking."} {
		if !strings.Contains(html, want) {
			t.Errorf("changes page lacks %s", want)
		}
	}

	// Answers are kept per pair of schemas: a failing comparison shows on
	// a server that has not judged the pair yet.
	fail = true
	f = newFixture(t, server.Options{CompareSchemas: compare})
	f.seedCatalog()
	ch = catalog.Changes{}
	if err := json.Unmarshal(f.must(200, "GET", page, "", "Accept: application/json").body, &ch); err != nil {
		t.Fatal(err)
	}
	if ch.Method != catalog.MethodStructural || !strings.Contains(ch.Note, "bad-rule: nope") || len(ch.Removed) != 1 {
		t.Errorf("a failing CompareSchemas: method %q, note %q, removed %v", ch.Method, ch.Note, ch.Removed)
	}
	if html := string(f.must(200, "GET", page, "").body); !strings.Contains(html, "bad-rule: nope") || !strings.Contains(html, `<h2 id="removed">`) {
		t.Errorf("the fallback page does not say why or lacks the structural comparison")
	}
}

// The changes page judges a pair of versions once: repeated GETs, HTML or
// JSON, by anyone, do not run the two schema checks again; another pair
// does.
func TestCatalogChangesCached(t *testing.T) {
	calls := 0
	compare := func(oldSchema, newSchema json.RawMessage) ([]catalog.Change, error) {
		calls++
		return []catalog.Change{{Rule: "property-added", Severity: "info", Path: "name", Message: "property name added"}}, nil
	}
	f := newFixture(t, server.Options{CompareSchemas: compare})
	f.seedCatalog()
	const page = "!/types/Contoso.Data/postgresDatabases/changes/2025-01-01-preview/2025-06-01"
	for range 5 {
		f.must(200, "GET", page, "")
		f.must(200, "GET", page, "", "Accept: application/json")
	}
	if calls != 1 {
		t.Fatalf("10 GETs of one changes page compared the versions %d times, want 1", calls)
	}
	f.must(200, "GET", "!/types/Contoso.Data/postgresDatabases/changes/2025-06-01/2025-01-01-preview", "")
	if calls != 2 {
		t.Fatalf("the reverse pair: %d comparisons, want 2", calls)
	}
}

func TestCatalogNotFoundAndMethods(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedCatalog()
	for _, p := range []string{
		"/types/Contoso.Data/nope/2025-06-01",
		"/types/Nope.Data/postgresDatabases/2025-06-01",
		"/types/Contoso.Data/postgresDatabases/2030-01-01",
		"/types/Contoso.Data/postgresDatabases/changes/2025-06-01/2030-01-01",
		"/types/Contoso.Data/nope",
		"/types/not-a-namespace/x/2025-06-01",
		"/types/Contoso.Data/bad_type_/2025-06-01",
	} {
		r := f.must(404, "GET", "!"+p, "")
		if !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || !strings.Contains(string(r.body), "Not found") {
			t.Errorf("GET %s (HTML) = %s %s", p, r.header.Get("Content-Type"), r.body)
		}
		if r := f.must(404, "GET", "!"+p, "", "Accept: application/json"); r.errorCode(t) != "NotFound" {
			t.Errorf("GET %s (JSON) = %s", p, r.body)
		}
	}
	// Paths the catalog does not own still get the API's 404 and 405.
	if r := f.must(404, "GET", "!/nope", ""); r.errorCode(t) != "NotFound" {
		t.Errorf("GET /nope = %s", r.body)
	}
	f.must(404, "GET", "!/assets/nope.js", "")
	if r := f.must(405, "PUT", "!/", "{}"); r.header.Get("Allow") != "GET" {
		t.Errorf("PUT / Allow = %q", r.header.Get("Allow"))
	}
	for _, a := range catalog.Assets {
		r := f.must(200, "GET", "!/assets/"+a, "")
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/") || len(r.body) == 0 {
			t.Errorf("GET /assets/%s = %q, %d bytes", a, ct, len(r.body))
		}
	}
}

func TestCatalogAuthReads(t *testing.T) {
	f := newFixture(t, server.Options{Tokens: []server.Token{{Value: "s3cret"}}})
	f.must(200, "GET", "!/", "") // reads are open without --auth-reads
	g := newFixture(t, server.Options{Tokens: []server.Token{{Value: "s3cret"}}, AuthReads: true})
	for _, p := range []string{"/", "/types/Contoso.Data/postgresDatabases/2025-06-01", "/assets/catalog.css"} {
		g.must(401, "GET", "!"+p, "")
	}
	g.must(200, "GET", "!/", "", "Authorization: Bearer s3cret")
}

func TestCatalogListsResourcesWithoutSecrets(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.registerTypes(map[string]string{"apps": appsSchema})
	page := "!/types/Contoso.Apps/apps/2024-08-01"
	if html := string(f.must(200, "GET", page, "").body); !strings.Contains(html, "No resources of this type yet.") {
		t.Errorf("an unused type does not say it has no resources")
	}
	f.must(201, "PUT", appsPath+"/a1"+typeVer, `{"properties":{"image":"nginx","password":"hunter2hunter2"}}`)
	html := string(f.must(200, "GET", page, "").body)
	// The properties show as a tree of keys and values, not as one JSON
	// blob; the API version it was written with does not wrap.
	for _, want := range []string{`<tr data-id="/planes/radius/local/resourceGroups/rg/providers/Contoso.Apps/apps/a1">`,
		`<dl class="tree"><dt>image</dt><dd><code>&#34;nginx&#34;</code></dd>`, "<td>rg</td>", `<td class="nowrap">2024-08-01</td>`} {
		if !strings.Contains(html, want) {
			t.Errorf("type page lacks %s", want)
		}
	}
	if strings.Contains(html, `class="json"`) || strings.Contains(html, "&#34;image&#34;:&#34;nginx&#34;") {
		t.Errorf("type page shows the properties as raw JSON")
	}
	r := f.must(200, "GET", page, "", "Accept: application/json")
	var p catalog.TypePage
	if err := json.Unmarshal(r.body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Resources == nil || len(p.Resources.Items) != 1 || p.Resources.Items[0].Name != "a1" || p.Resources.Items[0].APIVersion != "2024-08-01" {
		t.Errorf("resources = %s", r.body)
	}
	if strings.Contains(html+string(r.body), "hunter2") {
		t.Error("a sensitive value is on the page")
	}
}
