package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/ucpfake"
	"github.com/udtc/udtc/internal/ucpspec"
	"github.com/udtc/udtc/registry/api"
)

// Radius interop both ways: udtc publish into a Radius UCP (the fake of
// internal/ucpfake, which answers as UCP does), and Radius's clients'
// requests (rad's, replayed) against udtc serve.

// writeManifests writes manifest files (name → YAML) into a new directory.
func writeManifests(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const dataManifest = `namespace: Contoso.Data
location:
  global: http://data.example
types:
  redisCaches:
    description: A cache.
    capabilities: [ManualResourceProvisioning]
    apiVersions:
      '2025-01-01':
        schema: {type: object, properties: {size: {type: string}}}
      '2025-06-01':
        schema: {type: object, properties: {size: {type: string}, tier: {type: string}}}
`

const busManifest = `namespace: Contoso.Bus
types:
  buses:
    capabilities: [SupportsRecipes]
    apiVersions:
      '2025-01-01':
        schema: {type: object, properties: {size: {type: string}}}
  buses/queues:
    apiVersions:
      '2025-01-01':
        schema: {type: object, properties: {depth: {type: integer}}}
`

// TestPublishToRadius: udtc publish into UCP refuses, one line each, what
// UCP cannot hold and writes nothing of that namespace; it writes the
// others with UCP's lower-case segments, waiting for each operation, so
// everything ends Succeeded; another provider's location is left alone;
// a second publish writes nothing.
func TestPublishToRadius(t *testing.T) {
	fake := ucpfake.Start(t)
	fake.Seed("local", "Other.Provider", "global", "http://other.example")
	dir := writeManifests(t, map[string]string{"data.yaml": dataManifest, "bus.yaml": busManifest})

	code, out, errOut := runCLI(t, "publish", "--server", fake.URL, dir)
	if code != exitFail {
		t.Fatalf("publish = %d, want 1 (a namespace refused)\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"udtc publish: Contoso.Bus: not published to Radius: capability SupportsRecipes of buses (UCP knows only ManualResourceProvisioning)",
		"udtc publish: Contoso.Bus: not published to Radius: child resource type buses/queues (UCP has no child types)",
		"1 namespace not published: Radius UCP at " + fake.URL + api.BasePath,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out, "Plan for Radius UCP at "+fake.URL+api.BasePath) || !strings.Contains(out, "Applied 5 of 5 writes.") {
		t.Errorf("stdout:\n%s", out)
	}
	for _, r := range fake.Requests() {
		switch {
		case strings.Contains(r.Path, "Contoso.Bus"):
			t.Errorf("%s %s: the refused namespace was touched", r.Method, r.Path)
		case r.Status == http.StatusNotFound && r.Method != http.MethodGet, strings.Contains(r.Path, "/batch"):
			t.Errorf("%s %s = %d", r.Method, r.Path, r.Status)
		case strings.Contains(r.Path, "Other.Provider") && r.Method != http.MethodGet:
			t.Errorf("%s %s: another provider was written", r.Method, r.Path)
		}
	}
	const rp = "/planes/radius/local/providers/System.Resources/resourceproviders/Contoso.Data"
	for _, id := range []string{"", "/resourcetypes/redisCaches", "/resourcetypes/redisCaches/apiversions/2025-06-01", "/locations/global"} {
		if s := fake.State(rp + id); s != "Succeeded" {
			t.Errorf("%s is %q", rp+id, s)
		}
	}
	// Again with the refused namespace: nothing to write, but the
	// manifests are not all in the registry, and the plan does not say so.
	code, out, errOut = runCLI(t, "publish", "--server", fake.URL, dir)
	if code != exitFail || strings.Contains(out, "already matches the manifests") ||
		!strings.Contains(out, "The registry already matches the namespaces it can hold: 0 writes.") || !strings.Contains(errOut, "1 namespace not published") {
		t.Errorf("publish with a refused namespace and nothing to write = %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "publish", "--server", fake.URL+api.BasePath, filepath.Join(dir, "data.yaml"))
	if code != 0 || !strings.Contains(out, "0 writes") {
		t.Errorf("second publish = %d\n%s\n%s", code, out, errOut)
	}
	// Again, replayed from the record when the cache allows: the same plan.
	code, out, errOut = runCLI(t, "publish", "--server", fake.URL+api.BasePath, filepath.Join(dir, "data.yaml"))
	if code != 0 || !strings.Contains(out, "Plan for Radius UCP at "+fake.URL+api.BasePath) {
		t.Errorf("third publish = %d\n%s\n%s", code, out, errOut)
	}
	// udtc registry reads UCP too.
	for _, args := range [][]string{{"list"}, {"show", "Contoso.Data/redisCaches"}} {
		code, out, errOut := runCLI(t, append(append([]string{"registry"}, args...), "--server", fake.URL)...)
		if code != 0 || !strings.Contains(out, "redisCaches") || !strings.Contains(out, "2025-06-01") {
			t.Errorf("registry %s = %d\n%s\n%s", args[0], code, out, errOut)
		}
	}
}

// TestPublishToRadiusTimeout: a write whose operation outlives --timeout
// fails the publish, naming the operation's state; nothing is counted
// applied.
func TestPublishToRadiusTimeout(t *testing.T) {
	fake := ucpfake.Start(t)
	dir := writeManifests(t, map[string]string{"data.yaml": dataManifest})
	fake.Hold("/planes/radius/local/providers/System.Resources/resourceproviders/Contoso.Data")
	code, out, errOut := runCLI(t, "publish", "--server", fake.URL, "--timeout", "1s", dir)
	if code != exitFail || !strings.Contains(out, "still Updating after 1s") || !strings.Contains(out, "Applied 0 of 5 writes.") {
		t.Errorf("publish of a held operation = %d\n%s\n%s", code, out, errOut)
	}
}

// radExchange sends one request as rad's generated client does (lower-case
// segments under the base path, no token), checks it against Radius's
// description, and returns the answer.
func radExchange(t *testing.T, spec *ucpspec.Spec, method, url, body string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if spec != nil {
		if _, err := spec.Check(ucpspec.Exchange{Request: req, RequestBody: []byte(body), Status: resp.StatusCode, Header: resp.Header, Body: b}); err != nil {
			t.Error(err)
		}
	}
	return resp.StatusCode, resp.Header, b
}

// sdkLocation is the shape Radius's generated SDK decodes a location into:
// maps it writes into after reading them.
type sdkLocation struct {
	Properties struct {
		Address       *string `json:"address"`
		ResourceTypes map[string]*struct {
			APIVersions map[string]map[string]any `json:"apiVersions"`
		} `json:"resourceTypes"`
	} `json:"properties"`
}

// TestRadFlowsAgainstServe replays, request by request, what `rad
// resource-type create --icon` and `rad resource-provider create` send
// (pkg/cli/manifest/registermanifest.go at Radius 8f1079d7) to udtc serve
// with a workspace whose overrides.ucp names it: no proxy, no token.
func TestRadFlowsAgainstServe(t *testing.T) {
	spec := ucpspec.Load(t)
	root, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	base := root + api.BasePath
	rp := base + "/planes/radius/local/providers/System.Resources/resourceproviders"
	q := "?api-version=" + api.Version

	// Workspace.Connect: GET of the base path; 404 would be "not installed".
	if code, h, _ := radExchange(t, nil, "GET", base, ""); code != 200 || h.Get(api.VersionHeader) == "" {
		t.Fatalf("GET %s = %d", base, code)
	}
	// rad resource-type create: the provider is missing, so an empty one
	// and its location (resourceTypes: {}) are created.
	if code, _, _ := radExchange(t, spec, "GET", rp+"/Contoso.Data"+q, ""); code != 404 {
		t.Fatalf("GET missing provider = %d", code)
	}
	mustStatus(t, spec, 201, "PUT", rp+"/Contoso.Data"+q, `{"location":"global","properties":{}}`)
	mustStatus(t, spec, 201, "PUT", rp+"/Contoso.Data/locations/global"+q, `{"properties":{"resourceTypes":{}}}`)
	icon := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#09f"/></svg>`
	typeBody, _ := json.Marshal(map[string]any{"properties": map[string]any{"capabilities": []string{}, "description": "A cache.", "icon": icon}})
	_, _, b := mustStatus(t, spec, 201, "PUT", rp+"/Contoso.Data/resourcetypes/redisCaches"+q, string(typeBody))
	var typ api.ResourceType
	if err := json.Unmarshal(b, &typ); err != nil || typ.Properties.IconHash != api.IconHash(icon) {
		t.Fatalf("type answer %s: %v", b, err)
	}
	// The API version: the manifest's schema: {} merged with rad's base
	// properties, without a type (checked by udtc check's checker).
	radSchema := `{"properties":{"application":{"description":"The application.","type":"string"},"connections":{"additionalProperties":{"properties":{"disableDefaultEnvVars":{"type":"boolean"},"source":{"type":"string"}},"required":["source"],"type":"object"},"type":"object"},"environment":{"type":"string"}},"required":["environment"]}`
	_, _, b = mustStatus(t, spec, 201, "PUT", rp+"/Contoso.Data/resourcetypes/redisCaches/apiversions/2025-01-01"+q, `{"properties":{"schema":`+radSchema+`}}`)
	var av api.APIVersion
	if err := json.Unmarshal(b, &av); err != nil || string(av.Properties.Schema) != radSchema {
		t.Errorf("the schema is not stored as sent: %s", av.Properties.Schema)
	}
	// GET the location, add the type as the SDK does (a nil map would
	// panic here, as rad did), PUT it back with its read-only fields.
	_, _, b = mustStatus(t, spec, 200, "GET", rp+"/Contoso.Data/locations/global"+q, "")
	var loc sdkLocation
	if err := json.Unmarshal(b, &loc); err != nil || loc.Properties.ResourceTypes == nil {
		t.Fatalf("location without resourceTypes: %s", b)
	}
	var whole map[string]any
	_ = json.Unmarshal(b, &whole)
	whole["properties"].(map[string]any)["resourceTypes"] = map[string]any{"redisCaches": map[string]any{"apiVersions": map[string]any{"2025-01-01": map[string]any{}}}}
	back, _ := json.Marshal(whole)
	mustStatus(t, spec, 200, "PUT", rp+"/Contoso.Data/locations/global"+q, string(back))
	// The icon, by its hash, as rad's and the dashboard's clients fetch it.
	code, h, got := radExchange(t, spec, "GET", rp+"/Contoso.Data/resourcetypes/redisCaches/icons/"+typ.Properties.IconHash+q, "")
	if code != 200 || !bytes.Equal(got, []byte(icon)) || h.Get("Content-Type") != api.IconMediaType {
		t.Errorf("icon = %d %s %q", code, h.Get("Content-Type"), got)
	}
	// The summary rad resource-type show reads lists the type and its version.
	_, _, b = mustStatus(t, spec, 200, "GET", base+"/planes/radius/local/providers/Contoso.Data"+q, "")
	if !strings.Contains(string(b), `"redisCaches":{"apiVersions":{"2025-01-01":`) {
		t.Errorf("summary = %s", b)
	}
	// A schema that is not an object schema is still refused.
	mustStatus(t, spec, 400, "PUT", rp+"/Contoso.Data/resourcetypes/redisCaches/apiversions/2025-06-01"+q, `{"properties":{"schema":{"properties":{"a":{"type":"strin"}}}}}`)
}

func mustStatus(t *testing.T, spec *ucpspec.Spec, status int, method, url, body string) (int, http.Header, []byte) {
	t.Helper()
	code, h, b := radExchange(t, spec, method, url, body)
	if code != status {
		t.Fatalf("%s %s = %d %s, want %d", method, url, code, b, status)
	}
	return code, h, b
}

// TestRadiusDocExample runs the requests of docs/radius.md as written, with
// bash and curl, against a real udtc serve (the address replaced): each
// must succeed, and the icon comes back by the hash the document computes.
func TestRadiusDocExample(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	for _, tool := range []string{"curl", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	block := docBlock(t, filepath.Join("..", "..", "docs", "radius.md"), "### Trying it without `rad`")
	base, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	script := "set -euo pipefail\n" +
		"curl() { command curl -sS --fail-with-body \"$@\"; echo; }\n" +
		strings.ReplaceAll(block, "http://127.0.0.1:7443", base)
	out, err := exec.Command(bash, "-c", script).CombinedOutput()
	if err != nil {
		t.Fatalf("the documented commands failed: %v\n%s", err, out)
	}
	for _, want := range []string{`"kind":"APIResourceList"`, "<svg xmlns='http://www.w3.org/2000/svg'", `"iconHash":`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output lacks %s:\n%s", want, out)
		}
	}
}

// TestPruneInRadiusMeetsResources: UCP would delete a type that still has
// resources and leave them behind; publish --prune counts them (listed
// plane-wide) and refuses with nothing written; --delete-resources deletes
// them before the type; a rerun writes nothing. `udtc registry delete`
// plans, refuses and deletes a provider the same way.
func TestPruneInRadiusMeetsResources(t *testing.T) {
	fake := ucpfake.Start(t)
	two := dataManifest + `  memCaches:
    apiVersions:
      '2025-01-01':
        schema: {type: object, properties: {size: {type: string}}}
`
	dir := writeManifests(t, map[string]string{"data.yaml": two})
	if code, out, errOut := runCLI(t, "publish", "--server", fake.URL, dir); code != 0 {
		t.Fatalf("publish = %d\n%s\n%s", code, out, errOut)
	}
	fake.SeedResource("local", "rg", "Contoso.Data", "memCaches", "m1")
	fake.SeedResource("local", "rg", "Contoso.Data", "redisCaches", "r1")
	writes := func() int {
		n := 0
		for _, r := range fake.Requests() {
			if r.Method != http.MethodGet {
				n++
			}
		}
		return n
	}
	dir = writeManifests(t, map[string]string{"data.yaml": dataManifest})
	before := writes()
	code, out, errOut := runCLI(t, "publish", "--server", fake.URL, "--prune", dir)
	if code != exitFail || !strings.Contains(out, "Contoso.Data/memCaches\n      ! refused by the registry: it still has 1 resource\n") ||
		!strings.Contains(errOut, "the registry would refuse 1 delete") || writes() != before {
		t.Errorf("prune of a type with a resource = %d, %d writes\n%s\n%s", code, writes()-before, out, errOut)
	}
	code, out, errOut = runCLI(t, "publish", "--server", fake.URL, "--prune", "--delete-resources", dir)
	if code != 0 || !strings.Contains(out, "Contoso.Data/memCaches and its 1 resource\n") || !strings.Contains(out, "Applied 2 of 2 writes.") {
		t.Errorf("--delete-resources = %d\n%s\n%s", code, out, errOut)
	}
	if got := strings.Join(fake.Resources(), " "); !strings.HasSuffix(got, "/redisCaches/r1") || strings.Contains(got, "memCaches") {
		t.Errorf("resources left: %s", got)
	}
	if code, out, _ := runCLI(t, "publish", "--server", fake.URL, "--prune", dir); code != 0 || !strings.Contains(out, "0 writes") {
		t.Errorf("rerun = %d\n%s", code, out)
	}

	const rp = "/planes/radius/local/providers/System.Resources/resourceproviders/Contoso.Data"
	before = writes()
	code, out, errOut = runCLI(t, "registry", "delete", "Contoso.Data", "--server", fake.URL)
	if code != exitFail || !strings.Contains(out, "  - delete    resourceProvider Contoso.Data\n      resourceTypes: [redisCaches] → (none)\n      locations: [global] → (none)\n      ! refused by the registry: it still has 1 resource\n") ||
		!strings.Contains(errOut, "pass --delete-resources to delete them with it") || writes() != before {
		t.Errorf("registry delete of a provider with a resource = %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "registry", "delete", "Contoso.Data", "--server", fake.URL, "--delete-resources", "--dry-run")
	if code != 0 || !strings.Contains(out, "Contoso.Data and its 1 resource\n") || !strings.Contains(out, "Dry run: nothing written.") || writes() != before {
		t.Errorf("registry delete --dry-run = %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "registry", "delete", "Contoso.Data", "--server", fake.URL, "--delete-resources")
	if code != 0 || !strings.Contains(out, "Deleted Contoso.Data.") || fake.State(rp) != "" || len(fake.Resources()) != 0 {
		t.Errorf("registry delete --delete-resources = %d, provider %q, resources %v\n%s\n%s", code, fake.State(rp), fake.Resources(), out, errOut)
	}
	if code, _, errOut := runCLI(t, "registry", "delete", "Contoso.Data", "--server", fake.URL); code != exitFail || !strings.Contains(errOut, "namespace Contoso.Data is not registered") {
		t.Errorf("registry delete of an absent namespace = %d\n%s", code, errOut)
	}
}

// TestPublishThroughKubectlProxy: in a cluster, rad reaches UCP through the
// Kubernetes API server, which serves UCP under /apis/api.ucp.dev/v1alpha3
// (an aggregated API). `kubectl proxy` makes that API server a local
// address; udtc publish and udtc registry reach UCP through it, given the
// proxy's address or the base path under it (docs/radius.md). The stand-in
// for the API server here forwards only UCP's group and answers anything
// else as the API server does, with a 404 Status.
func TestPublishThroughKubectlProxy(t *testing.T) {
	fake := ucpfake.Start(t)
	upstream, err := url.Parse(fake.URL)
	if err != nil {
		t.Fatal(err)
	}
	ucp := httputil.NewSingleHostReverseProxy(upstream)
	apiServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == api.BasePath || strings.HasPrefix(r.URL.Path, api.BasePath+"/") {
			ucp.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404}`)
	}))
	defer apiServer.Close()
	dir := writeManifests(t, map[string]string{"data.yaml": dataManifest})
	for _, server := range []string{apiServer.URL + api.BasePath, apiServer.URL} {
		code, out, errOut := runCLI(t, "publish", "--server", server, dir)
		if code != 0 || !strings.Contains(out, "Plan for Radius UCP at "+apiServer.URL+api.BasePath) {
			t.Fatalf("publish --server %s = %d\n%s\n%s", server, code, out, errOut)
		}
		code, out, errOut = runCLI(t, "registry", "show", "Contoso.Data/redisCaches", "--server", server)
		if code != 0 || !strings.Contains(out, "2025-06-01") {
			t.Errorf("registry show --server %s = %d\n%s\n%s", server, code, out, errOut)
		}
	}
	const rp = "/planes/radius/local/providers/System.Resources/resourceproviders/Contoso.Data"
	if s := fake.State(rp + "/resourcetypes/redisCaches/apiversions/2025-06-01"); s != "Succeeded" {
		t.Errorf("the API version written through the proxy is %q", s)
	}
}
