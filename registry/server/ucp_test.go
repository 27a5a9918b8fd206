package server_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// TestBasePath: the API is served under api.BasePath too; the base path
// itself answers UCP's discovery document without a token (rad's test of
// a connection); nothing but the API is under it.
func TestBasePath(t *testing.T) {
	f := newFixture(t, server.Options{Tokens: []server.Token{{Name: "ci", Value: "s3cret"}}, AuthReads: true})
	r := f.must(200, "GET", "!"+api.BasePath, "")
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("discovery = %s %q: %v", r.header.Get("Content-Type"), r.body, err)
	}
	if doc["kind"] != "APIResourceList" || doc["groupVersion"] != "api.ucp.dev/v1alpha3" {
		t.Errorf("discovery = %s", r.body)
	}
	f.must(200, "HEAD", "!"+api.BasePath, "")
	if r := f.must(405, "POST", "!"+api.BasePath, "{}"); r.header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST %s: Allow = %q", api.BasePath, r.header.Get("Allow"))
	}
	// Under it, the API with its rules (the token here), and nothing else.
	f.must(401, "GET", api.BasePath+"/planes/radius/local", "")
	f.must(200, "GET", api.BasePath+"/planes/radius/local", "", "Authorization: Bearer s3cret")
	for _, p := range []string{"/", "/healthz", "/types/x", "/apis/api.ucp.dev/v1alpha3x/planes/radius/local"} {
		f.must(404, "GET", "!"+api.BasePath+p, "", "Authorization: Bearer s3cret")
	}
	// Unclean paths are refused under it as at the root.
	f.must(400, "DELETE", api.BasePath+"/planes/radius/local/providers/System.Resources/resourceproviders/A.B/resourcetypes/..", "", "Authorization: Bearer s3cret")
}

// TestVersionHeader: every answer names udtc, successes and refusals of
// every layer alike.
func TestVersionHeader(t *testing.T) {
	f := newFixture(t, server.Options{Tokens: []server.Token{{Value: "t"}}})
	for _, r := range []response{
		f.do("GET", "/planes/radius/local", ""),
		f.do("GET", "!/nowhere", ""),
		f.do("PUT", provider, "{}"),
		f.do("GET", "!/healthz", ""),
		f.do("GET", "!"+api.BasePath, ""),
		f.do("GET", "/planes/radius/local", "", "X-Big: "+strings.Repeat("x", server.MaxHeaderBytes)),
	} {
		if r.header.Get(api.VersionHeader) == "" {
			t.Errorf("%d %s: no %s header", r.status, r.body, api.VersionHeader)
		}
	}
}

// TestIcons: a type's icon is checked, stored as sent, named by its hash,
// served at .../icons/{hash}, and in summaries only when asked for.
func TestIcons(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	body, _ := json.Marshal(api.ResourceType{Properties: api.ResourceTypeProperties{Icon: testIcon, IconHash: "ignored"}})
	var got api.ResourceType
	if err := json.Unmarshal(f.must(200, "PUT", buses, string(body)).body, &got); err != nil {
		t.Fatal(err)
	}
	hash := api.IconHash(testIcon)
	if got.Properties.Icon != testIcon || got.Properties.IconHash != hash {
		t.Fatalf("PUT answer icon %q hash %q", got.Properties.Icon, got.Properties.IconHash)
	}
	for _, p := range []string{buses, strings.ToLower(buses)} {
		r := f.must(200, "GET", "!"+p+"/icons/"+strings.ToUpper(hash), "")
		if string(r.body) != testIcon || r.header.Get("Content-Type") != api.IconMediaType ||
			r.header.Get("Cache-Control") != "public, max-age=31536000, immutable" || r.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s/icons = %v %q", p, r.header, r.body)
		}
	}
	for path, want := range map[string]string{
		buses + "/icons/" + strings.Repeat("a", 64):                                                               "no icon with hash",
		provider + "/resourceTypes/missing/icons/" + hash:                                                         "not found",
		"/planes/radius/local/providers/System.Resources/resourceProviders/No.Such/resourceTypes/x/icons/" + hash: "not found",
	} {
		r := f.must(404, "GET", path, "")
		if !strings.Contains(string(r.body), want) {
			t.Errorf("GET %s = %s; want it to say %q", path, r.body, want)
		}
	}
	sum := f.must(200, "GET", "/planes/radius/local/providers/Contoso.Platform", "").json(t)
	typ := sum["resourceTypes"].(map[string]any)["contosoBuses"].(map[string]any)
	if typ["iconHash"] != hash || typ["icon"] != nil {
		t.Errorf("summary type = %v, want its iconHash and no icon", typ)
	}
	for _, p := range []string{"/planes/radius/local/providers/Contoso.Platform?includeIcons=TRUE", "/planes/radius/local/providers?includeIcons=true"} {
		if r := f.must(200, "GET", p, ""); !strings.Contains(string(r.body), `"icon":`+mustJSON(testIcon)) {
			t.Errorf("GET %s lacks the icon: %s", p, r.body)
		}
	}
	if r := f.must(200, "GET", "/planes/radius/local/providers", ""); strings.Contains(string(r.body), `"icon":`) {
		t.Errorf("the summary list carries icons unasked: %s", r.body)
	}
	// Bad icons are refused with the reason; a PUT without an icon removes it.
	big := `<svg>` + strings.Repeat(" ", api.MaxIconBytes) + `</svg>`
	for svg, want := range map[string]string{`<svg><script/></svg>`: "<script>", big: "byte limit", `<p/>`: "<svg>"} {
		body, _ := json.Marshal(api.ResourceType{Properties: api.ResourceTypeProperties{Icon: svg}})
		r := f.must(400, "PUT", buses, string(body))
		if !strings.Contains(string(r.body), want) || !strings.Contains(string(r.body), `"target":"properties.icon"`) {
			t.Errorf("PUT icon %.20q = %s; want %q at properties.icon", svg, r.body, want)
		}
	}
	// A type without an icon is answered, as UCP answers it, with the hash
	// of the default icon, which is served under it.
	f.must(200, "PUT", buses, `{"properties":{}}`)
	f.must(404, "GET", buses+"/icons/"+hash, "")
	if got := f.must(200, "GET", buses, "").json(t)["properties"].(map[string]any)["iconHash"]; got != api.DefaultIconHash {
		t.Errorf("iconHash of a type without an icon = %v, want the default's %s", got, api.DefaultIconHash)
	}
	r := f.must(200, "GET", buses+"/icons/"+api.DefaultIconHash, "")
	if string(r.body) != api.DefaultIcon || api.IconHash(string(r.body)) != api.DefaultIconHash || r.header.Get("Content-Type") != api.IconMediaType {
		t.Errorf("default icon = %v %q", r.header, r.body)
	}
	if problem := api.IconProblem(api.DefaultIcon); problem != "" {
		t.Errorf("the default icon breaks the icon rules: %s", problem)
	}
}

// mustJSON is s as a JSON string, as the server writes it (no HTML escapes).
func mustJSON(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSpace(b.String())
}

// TestTypelessSchema: a schema node without a type that has properties
// or additionalProperties is read as an object before it is checked (the
// checker here refuses a node without a type), and stored as sent.
func TestTypelessSchema(t *testing.T) {
	var checked []string
	f := newFixture(t, server.Options{CheckSchema: func(schema json.RawMessage) []api.Diagnostic {
		checked = append(checked, string(schema))
		if !strings.HasPrefix(string(schema), `{"type":`) {
			return []api.Diagnostic{{Severity: "error", Rule: "type-missing", Message: "no type"}}
		}
		return nil
	}})
	f.seed()
	const radSchema = `{"properties":{"environment":{"type":"string"}},"required":["environment"]}`
	r := f.must(200, "PUT", version, `{"properties":{"schema":`+radSchema+`}}`)
	var got api.APIVersion
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	if string(got.Properties.Schema) != radSchema {
		t.Errorf("stored schema = %s, want it as sent", got.Properties.Schema)
	}
	if last := checked[len(checked)-1]; last != `{"type":"object",`+radSchema[1:] {
		t.Errorf("checked %s", last)
	}
	// An array's items alone imply nothing.
	f.must(400, "PUT", version, `{"properties":{"schema":{"items":{"type":"string"}}}}`)
}
