package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/secrets"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/sqlite"
)

var clock = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

type fixture struct {
	t   *testing.T
	url string
	srv *server.Server
}

func newStore(t testing.TB) registry.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "registry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// newServer returns a Server with the defaults over a new SQLite store.
func newServer(tb testing.TB) *server.Server {
	tb.Helper()
	srv, err := server.New(tb.Context(), server.Options{Store: newStore(tb), Secrets: testSealer(tb)})
	if err != nil {
		tb.Fatal(err)
	}
	return srv
}

func newFixture(t *testing.T, opts server.Options) *fixture {
	t.Helper()
	if opts.Store == nil {
		opts.Store = newStore(t)
	}
	if opts.Secrets == nil {
		opts.Secrets = testSealer(t)
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return clock }
	}
	ts := httptest.NewUnstartedServer(nil)
	if opts.Forward.Listen == nil { // the server knows where it listens, as udtc serve's does
		opts.Forward.Listen = []netip.AddrPort{netip.MustParseAddrPort(ts.Listener.Addr().String())}
	}
	srv, err := server.New(context.Background(), opts)
	if err != nil {
		ts.Close()
		t.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(ts.Close)
	return &fixture{t: t, url: ts.URL, srv: srv}
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("response body %q is not a JSON object: %v", r.body, err)
	}
	return m
}

// errorCode returns error.code of an ARM error envelope.
func (r response) errorCode(t *testing.T) string {
	t.Helper()
	var e api.ErrorResponse
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("response %d %q is not an ARM error envelope", r.status, r.body)
	}
	return e.Error.Code
}

func (r response) errorMessage(t *testing.T) string {
	t.Helper()
	var e api.ErrorResponse
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("response %d %q is not an ARM error envelope", r.status, r.body)
	}
	return e.Error.Message
}

// do sends a request; path gets ?api-version unless it already has a query
// or noVersion is set via a leading "!". headers are "Name: value" strings.
func (f *fixture) do(method, path, body string, headers ...string) response {
	f.t.Helper()
	if strings.HasPrefix(path, "!") {
		path = path[1:]
	} else if !strings.Contains(path, "?") {
		path += "?api-version=" + api.Version
	}
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.url+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	if body != "" { // as every client of the API does; "Content-Type: " sends none
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
		if v == "" {
			req.Header.Del(k)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatalf("%s %s: reading body: %v", method, path, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

func (f *fixture) must(status int, method, path, body string, headers ...string) response {
	f.t.Helper()
	r := f.do(method, path, body, headers...)
	if r.status != status {
		f.t.Fatalf("%s %s = %d %s, want %d", method, path, r.status, r.body, status)
	}
	return r
}

const (
	rp       = "/planes/radius/local/providers/System.Resources/resourceProviders"
	provider = rp + "/Contoso.Platform"
	buses    = provider + "/resourceTypes/contosoBuses"
	version  = buses + "/apiVersions/2024-08-01"
	location = provider + "/locations/global"
)

// seed registers Contoso.Platform with a type, an API version and a location.
func (f *fixture) seed() {
	f.t.Helper()
	f.must(201, "PUT", provider, `{"location":"global","properties":{}}`)
	f.must(201, "PUT", buses, `{"properties":{"defaultApiVersion":"2024-08-01","description":"A bus.","capabilities":["SupportsRecipes"]}}`)
	f.must(201, "PUT", version, `{"properties":{"schema":{"type":"object","properties":{"size":{"type":"string"}}}}}`)
	f.must(201, "PUT", location, `{"properties":{"address":"http://myrp.global.cluster.svc.local","resourceTypes":{"contosoBuses":{"apiVersions":{"2024-08-01":{}}}}}}`)
}

func TestPlanes(t *testing.T) {
	f := newFixture(t, server.Options{})
	r := f.must(200, "GET", "/planes/radius/local", "")
	if got := r.json(t)["id"]; got != "/planes/radius/local" {
		t.Errorf("local plane id = %v", got)
	}
	f.must(201, "PUT", "/planes/radius/Prod", `{"location":"global","properties":{}}`)
	f.must(200, "PUT", "/planes/radius/prod", `{"properties":{"resourceProviders":{"Applications.Core":["http://x"]}}}`)
	f.must(400, "PUT", "/planes/radius/prod", `{"properties":[]}`)
	var list api.List[api.Plane]
	if err := json.Unmarshal(f.must(200, "GET", "/planes/radius", "").body, &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Value {
		names = append(names, p.Name+" "+p.Type)
	}
	if diff := cmp.Diff([]string{"local System.Planes/radius", "Prod System.Planes/radius"}, names); diff != "" {
		t.Errorf("planes (-want +got):\n%s", diff)
	}
	// Resources live per plane.
	f.must(201, "PUT", "/planes/radius/prod/providers/System.Resources/resourceProviders/Contoso.Platform", `{}`)
	f.must(404, "GET", provider, "")
	f.must(404, "GET", "/planes/radius/nope/providers/System.Resources/resourceProviders", "")
	f.must(404, "PUT", "/planes/radius/nope/providers/System.Resources/resourceProviders/Contoso.Platform", `{}`)
}

func TestAPIVersionParameter(t *testing.T) {
	f := newFixture(t, server.Options{})
	for _, path := range []string{
		"!" + rp,
		rp + "?api-version=2022-01-01",
		"!/planes/radius",
		"!" + provider,
	} {
		for _, method := range []string{"GET", "PUT", "DELETE"} {
			if method != "GET" && !strings.Contains(path, "Contoso") {
				continue
			}
			r := f.do(method, path, `{}`)
			if r.status != 400 || r.errorCode(t) != api.CodeInvalidAPIVersion {
				t.Errorf("%s %s = %d %s, want 400 InvalidApiVersionParameter", method, path, r.status, r.body)
			}
		}
	}
	// Summaries are not resources: api-version is optional there, but checked when given.
	f.must(200, "GET", "!/planes/radius/local/providers", "")
	f.must(200, "GET", "!/planes/radius/local/providers/", "")
	f.must(400, "GET", "/planes/radius/local/providers?api-version=1999-01-01", "")
}

func TestProviderCRUDL(t *testing.T) {
	f := newFixture(t, server.Options{})
	r := f.must(201, "PUT", provider, `{"location":"global","tags":{"team":"platform"},"properties":{}}`)
	want := map[string]any{
		"id":         "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Platform",
		"name":       "Contoso.Platform",
		"type":       "System.Resources/resourceProviders",
		"location":   "global",
		"tags":       map[string]any{"team": "platform"},
		"properties": map[string]any{"provisioningState": "Succeeded"},
		"systemData": map[string]any{"createdAt": "2026-03-04T05:06:07Z", "lastModifiedAt": "2026-03-04T05:06:07Z"},
	}
	if diff := cmp.Diff(want, r.json(t)); diff != "" {
		t.Errorf("PUT body (-want +got):\n%s", diff)
	}
	etag := r.header.Get("ETag")
	if len(etag) < 3 || etag[0] != '"' {
		t.Errorf("ETag = %q, want a quoted ETag", etag)
	}
	r = f.must(200, "PUT", provider, `{"location":"global","properties":{}}`)
	if r.header.Get("ETag") == etag {
		t.Error("ETag unchanged after update")
	}
	g := f.must(200, "GET", provider, "")
	if g.header.Get("ETag") != r.header.Get("ETag") {
		t.Errorf("GET ETag %q != PUT ETag %q", g.header.Get("ETag"), r.header.Get("ETag"))
	}
	var list api.List[api.ResourceProvider]
	json.Unmarshal(f.must(200, "GET", rp, "").body, &list)
	if len(list.Value) != 1 || list.Value[0].Name != "Contoso.Platform" || list.Value[0].Properties.ProvisioningState != "Succeeded" {
		t.Errorf("list = %+v", list)
	}
	f.must(200, "DELETE", provider, "")
	f.must(204, "DELETE", provider, "")
	if r := f.must(404, "GET", provider, ""); r.errorCode(t) != api.CodeNotFound {
		t.Errorf("GET after delete: %s", r.body)
	}
}

func TestResourceBodies(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	cases := []struct {
		path string
		want string
	}{
		{buses, `{"id":"` + buses + `","name":"contosoBuses","type":"System.Resources/resourceProviders/resourceTypes","properties":{"defaultApiVersion":"2024-08-01","description":"A bus.","capabilities":["SupportsRecipes"],"iconHash":"` + api.DefaultIconHash + `","provisioningState":"Succeeded"}}`},
		{version, `{"id":"` + version + `","name":"2024-08-01","type":"System.Resources/resourceProviders/resourceTypes/apiVersions","properties":{"schema":{"type":"object","properties":{"size":{"type":"string"}}},"provisioningState":"Succeeded"}}`},
		{location, `{"id":"` + location + `","name":"global","type":"System.Resources/resourceProviders/locations","properties":{"address":"http://myrp.global.cluster.svc.local","resourceTypes":{"contosoBuses":{"apiVersions":{"2024-08-01":{}}}},"provisioningState":"Succeeded"}}`},
	}
	for _, c := range cases {
		got := f.must(200, "GET", c.path, "").json(t)
		delete(got, "systemData")
		var want map[string]any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("GET %s (-want +got):\n%s", c.path, diff)
		}
	}
	for _, c := range []struct{ path, wantName string }{
		{provider + "/resourceTypes", "contosoBuses"},
		{buses + "/apiVersions", "2024-08-01"},
		{provider + "/locations", "global"},
	} {
		var l api.List[api.Resource[json.RawMessage]]
		json.Unmarshal(f.must(200, "GET", c.path, "").body, &l)
		if len(l.Value) != 1 || l.Value[0].Name != c.wantName || l.NextLink != "" {
			t.Errorf("GET %s = %+v", c.path, l)
		}
	}
}

func TestNestedLifecycle(t *testing.T) {
	f := newFixture(t, server.Options{})
	absent := rp + "/Absent.Provider"
	for _, c := range []struct{ method, path string }{
		{"PUT", absent + "/resourceTypes/widgets"},
		{"GET", absent + "/resourceTypes/widgets"},
		{"GET", absent + "/resourceTypes"},
		{"PUT", absent + "/locations/global"},
		{"GET", absent + "/locations"},
		{"PUT", absent + "/resourceTypes/widgets/apiVersions/2024-01-01"},
		{"GET", absent + "/resourceTypes/widgets/apiVersions"},
	} {
		r := f.do(c.method, c.path, `{"properties":{}}`)
		if r.status != 404 || r.errorCode(t) != api.CodeNotFound {
			t.Errorf("%s %s = %d %s, want 404 NotFound", c.method, c.path, r.status, r.body)
		}
	}
	for _, p := range []string{absent, absent + "/resourceTypes/widgets", absent + "/resourceTypes/widgets/apiVersions/2024-01-01", absent + "/locations/global"} {
		f.must(204, "DELETE", p, "")
	}

	f.seed()
	other := rp + "/Other.Provider"
	f.must(201, "PUT", other, `{}`)
	f.must(201, "PUT", other+"/resourceTypes/contosoBuses", `{}`)
	f.must(201, "PUT", other+"/resourceTypes/contosoBuses/apiVersions/2024-08-01", `{"properties":{"schema":{}}}`)
	f.must(201, "PUT", other+"/locations/global", `{}`)

	f.must(200, "DELETE", buses, "")
	f.must(404, "GET", version, "")
	f.must(200, "GET", location, "")
	f.must(200, "DELETE", provider, "")
	for _, p := range []string{provider, buses, version, location} {
		f.must(404, "GET", p, "")
	}
	for _, p := range []string{other, other + "/resourceTypes/contosoBuses", other + "/resourceTypes/contosoBuses/apiVersions/2024-08-01", other + "/locations/global"} {
		f.must(200, "GET", p, "")
	}
	// Lists only hold the children of the parent in the URL.
	f.must(201, "PUT", provider, `{}`)
	var l api.List[api.ResourceType]
	json.Unmarshal(f.must(200, "GET", provider+"/resourceTypes", "").body, &l)
	if len(l.Value) != 0 {
		t.Errorf("types of recreated provider = %+v, want none", l.Value)
	}
}

func TestCaseInsensitiveRoutesAndNames(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	lower := "/PLANES/Radius/LOCAL/Providers/system.resources/resourceproviders/contoso.platform/RESOURCETYPES/CONTOSOBUSES/apiversions/2024-08-01"
	r := f.must(200, "GET", lower, "")
	if got := r.json(t)["id"]; got != version {
		t.Errorf("id = %v, want %v (built from stored names)", got, version)
	}
	f.must(200, "GET", "/planes/radius/local/providers/system.resources/resourceproviders/CONTOSO.PLATFORM/Locations/GLOBAL", "")
	// Updating with other casing keeps the created casing.
	r = f.must(200, "PUT", "/planes/radius/local/providers/System.Resources/resourceProviders/CONTOSO.platform", `{}`)
	if got := r.json(t)["name"]; got != "Contoso.Platform" {
		t.Errorf("name after update = %v", got)
	}
	f.must(404, "GET", "/planes/radius/local/providers/System.Resources/resourceThings/Contoso.Platform", "")
}

func TestChildTypes(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.must(201, "PUT", provider, `{}`)
	queues := provider + "/resourceTypes/contosoBuses_queues"
	if r := f.do("PUT", queues, `{}`); r.status != 404 || r.errorCode(t) != api.CodeNotFound {
		t.Errorf("child type without parent type = %d %s", r.status, r.body)
	}
	f.must(201, "PUT", buses, `{}`)
	r := f.must(201, "PUT", queues, `{"properties":{"description":"queues"}}`)
	m := r.json(t)
	if m["id"] != queues || m["name"] != "contosoBuses/queues" {
		t.Errorf("child type id %v name %v", m["id"], m["name"])
	}
	f.must(201, "PUT", queues+"/apiVersions/2024-08-01", `{"properties":{"schema":{}}}`)
	f.must(404, "GET", provider+"/resourceTypes/contosoBuses/queues", "")
	f.must(404, "PUT", provider+"/resourceTypes/contosoBuses/queues", `{}`)
	f.must(400, "GET", provider+"/resourceTypes/contosoBuses%2Fqueues", "")
	sum := f.must(200, "GET", "/planes/radius/local/providers/Contoso.Platform", "")
	var s api.ProviderSummary
	json.Unmarshal(sum.body, &s)
	if _, ok := s.ResourceTypes["contosoBuses/queues"].APIVersions["2024-08-01"]; !ok {
		t.Errorf("summary types = %+v, want contosoBuses/queues with 2024-08-01", s.ResourceTypes)
	}
	// The child type's lifecycle is nested in its parent type.
	f.must(200, "DELETE", buses, "")
	f.must(404, "GET", queues, "")
}

func TestSchemaStoredExactly(t *testing.T) {
	diags := func(schema json.RawMessage) []api.Diagnostic {
		var m map[string]any
		json.Unmarshal(schema, &m)
		if len(m) == 0 || m["type"] == "object" {
			return []api.Diagnostic{{Severity: "warning", Rule: "just-a-warning", Message: "fine"}}
		}
		return []api.Diagnostic{
			{Severity: "error", Rule: "schema-type-object", Path: "/type", Message: "the top-level schema must be an object", Hint: "add type: object"},
			{Severity: "error", Rule: "schema-other", Path: "/x", Message: "other"},
		}
	}
	f := newFixture(t, server.Options{CheckSchema: diags})
	f.must(201, "PUT", provider, `{}`)
	f.must(201, "PUT", buses, `{}`)
	schema := `{"type":"object","z":1,"a":{"description":"<b>&amp;</b> ünïcode","enum":[3,1,2]},"m":null}`
	f.must(201, "PUT", version, `{"properties":{"schema": `+strings.ReplaceAll(schema, ",", " ,\n ")+`}}`)
	var got struct {
		Properties struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"properties"`
	}
	json.Unmarshal(f.must(200, "GET", version, "").body, &got)
	if string(got.Properties.Schema) != schema {
		t.Errorf("schema returned as\n%s\nwant\n%s", got.Properties.Schema, schema)
	}
	f.must(201, "PUT", buses+"/apiVersions/2024-09-01", `{"properties":{"schema":{}}}`)

	r := f.must(400, "PUT", buses+"/apiVersions/2024-10-01", `{"properties":{"schema":{"type":"string"}}}`)
	var e api.ErrorResponse
	json.Unmarshal(r.body, &e)
	wantDetails := []api.ErrorDetail{
		{Code: "schema-type-object", Message: "the top-level schema must be an object (add type: object)", Target: "/type"},
		{Code: "schema-other", Message: "other", Target: "/x"},
	}
	if e.Error.Code != api.CodeInvalidRequestContent {
		t.Errorf("code = %q", e.Error.Code)
	}
	if diff := cmp.Diff(wantDetails, e.Error.Details); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
	f.must(404, "GET", buses+"/apiVersions/2024-10-01", "")
	for _, bad := range []string{`{"properties":{"schema":[]}}`, `{"properties":{"schema":"x"}}`, `{"properties":{"schema":{}, "extra":1}}`} {
		if r := f.do("PUT", buses+"/apiVersions/2024-11-01", bad); r.status != 400 || r.errorCode(t) != api.CodeInvalidRequestContent {
			t.Errorf("PUT %s = %d %s, want 400", bad, r.status, r.body)
		}
	}
}

func TestInvalidNames(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	long := strings.Repeat("a", 64)
	for _, p := range []string{
		rp + "/NoDot",
		rp + "/Two.Dots.Here",
		rp + "/" + long + ".Ab",
		provider + "/resourceTypes/9bad",
		provider + "/resourceTypes/" + long,
		provider + "/resourceTypes/bad-",
		buses + "/apiVersions/2024-8-01",
		buses + "/apiVersions/2024-08-01-beta",
		buses + "/apiVersions/2025-02-30", // not a calendar date
		rp + "/Contoso.",                  // a namespace is exactly two segments
		provider + "/locations/x-",
		provider + "/locations/bad%20name",
		"/planes/radius/bad_plane",
	} {
		for _, method := range []string{"PUT", "GET"} {
			r := f.do(method, p, `{}`)
			if r.status != 400 || r.errorCode(t) != api.CodeInvalidRequestContent {
				t.Errorf("%s %s = %d %s, want 400 InvalidRequestContent", method, p, r.status, r.body)
			}
		}
	}
	for _, body := range []string{
		`{"properties":{"defaultApiVersion":"latest"}}`,
	} {
		f.must(400, "PUT", buses, body)
	}
	for _, body := range []string{
		`{"properties":{"resourceTypes":{"bad type":{}}}}`,
		`{"properties":{"resourceTypes":{"contosoBuses":{"apiVersions":{"v1":{}}}}}}`,
		`{"properties":{"address":"not a url"}}`,
	} {
		f.must(400, "PUT", location, body)
	}
}

func TestPreconditions(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	etag := f.must(200, "GET", buses, "").header.Get("ETag")
	body := `{"properties":{"defaultApiVersion":"2024-08-01"}}`
	for _, c := range []struct {
		method, path, header string
	}{
		{"PUT", buses, `If-Match: "stale"`},
		{"PUT", buses, "If-None-Match: *"},
		{"PUT", provider + "/resourceTypes/newType", "If-Match: *"},
		{"DELETE", buses, `If-Match: "stale"`},
		{"DELETE", buses, "If-None-Match: *"},
	} {
		r := f.do(c.method, c.path, body, c.header)
		if r.status != 412 || r.errorCode(t) != api.CodePreconditionFailed {
			t.Errorf("%s %s %s = %d %s, want 412", c.method, c.path, c.header, r.status, r.body)
		}
	}
	f.must(201, "PUT", provider+"/resourceTypes/newType", body, "If-None-Match: *")
	r := f.must(200, "PUT", buses, body, "If-Match: "+etag)
	f.must(412, "PUT", buses, body, "If-Match: "+etag)
	f.must(200, "DELETE", buses, "", "If-Match: "+r.header.Get("ETag"))
}

func TestBadRequests(t *testing.T) {
	f := newFixture(t, server.Options{MaxBodyBytes: 1 << 20})
	f.must(201, "PUT", provider, `{}`)
	for _, c := range []struct {
		body, contentType string
		status            int
		code              string
	}{
		{`{"properties":`, "application/json", 400, api.CodeInvalidRequestContent},
		{`not json`, "application/json", 400, api.CodeInvalidRequestContent},
		{`{} {}`, "application/json", 400, api.CodeInvalidRequestContent},
		{`[]`, "application/json", 400, api.CodeInvalidRequestContent},
		{``, "application/json", 400, api.CodeInvalidRequestContent},
		{`{"bogus":1}`, "application/json", 400, api.CodeInvalidRequestContent},
		{`{"properties":{"unknown":1}}`, "application/json", 400, api.CodeInvalidRequestContent},
		{`{"properties":[]}`, "application/json", 400, api.CodeInvalidRequestContent},
		{`{"tags":{"a":1}}`, "application/json", 400, api.CodeInvalidRequestContent},
		{`{}`, "text/plain", 415, api.CodeUnsupportedMediaType},
		{`{}`, "application/xml", 415, api.CodeUnsupportedMediaType},
		{`{}`, "application/json; charset=utf-8", 201, ""},
		{`{}`, "application/merge-patch+json", 200, ""},
		{`{}`, "", 415, api.CodeUnsupportedMediaType}, // a browser's cross-origin POST without preflight
	} {
		hdr := []string{"Content-Type: " + c.contentType}
		r := f.do("PUT", buses, c.body, hdr...)
		if r.status != c.status || (c.code != "" && r.errorCode(t) != c.code) {
			t.Errorf("PUT %q (%s) = %d %s, want %d %s", c.body, c.contentType, r.status, r.body, c.status, c.code)
		}
	}
	big := `{"properties":{"schema":{"description":"` + strings.Repeat("x", 2<<20) + `"}}}`
	if r := f.do("PUT", buses+"/apiVersions/2024-01-01", big); r.status != 413 || r.errorCode(t) != api.CodeRequestTooLarge {
		t.Errorf("big body = %d %s", r.status, r.body)
	}
	r := f.do("PATCH", provider, `{}`)
	if r.status != 405 || r.errorCode(t) != api.CodeMethodNotAllowed || r.header.Get("Allow") != "GET, PUT, DELETE" {
		t.Errorf("PATCH = %d %s Allow %q", r.status, r.body, r.header.Get("Allow"))
	}
	if r := f.do("POST", rp, `{}`); r.status != 405 || r.header.Get("Allow") != "GET" {
		t.Errorf("POST collection = %d Allow %q", r.status, r.header.Get("Allow"))
	}
	if r := f.do("GET", "/nope", ""); r.status != 404 || r.errorCode(t) != api.CodeNotFound {
		t.Errorf("GET /nope = %d %s", r.status, r.body)
	}
}

func TestPaging(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.must(201, "PUT", provider, `{}`)
	f.must(201, "PUT", buses, `{}`)
	for _, v := range []string{"2025-01-01", "2023-05-01-preview", "2024-01-01", "2023-05-01", "2024-12-31-preview"} {
		f.must(201, "PUT", buses+"/apiVersions/"+v, `{"properties":{"schema":{}}}`)
	}
	var names []string
	next := f.url + buses + "/apiVersions?api-version=" + api.Version + "&$top=2"
	pages := 0
	for next != "" && pages < 10 {
		pages++
		if !strings.HasPrefix(next, f.url) {
			t.Fatalf("nextLink %q is not a full URL of this server", next)
		}
		var l api.List[api.APIVersion]
		json.Unmarshal(f.must(200, "GET", "!"+strings.TrimPrefix(next, f.url), "").body, &l)
		if len(l.Value) > 2 {
			t.Fatalf("page has %d items", len(l.Value))
		}
		for _, v := range l.Value {
			names = append(names, v.Name)
		}
		next = l.NextLink
	}
	want := []string{"2023-05-01", "2023-05-01-preview", "2024-01-01", "2024-12-31-preview", "2025-01-01"}
	if diff := cmp.Diff(want, names); diff != "" || pages != 3 {
		t.Errorf("paged names in %d pages (-want +got):\n%s", pages, diff)
	}
	f.must(400, "GET", buses+"/apiVersions?api-version="+api.Version+"&$top=0", "")
	f.must(400, "GET", buses+"/apiVersions?api-version="+api.Version+"&$top=x", "")
	f.must(400, "GET", buses+"/apiVersions?api-version="+api.Version+"&$skipToken=***", "")
}

func TestSummaries(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	f.must(201, "PUT", rp+"/Another.Provider", `{}`)
	r := f.must(200, "GET", "/planes/radius/local/providers/contoso.platform", "")
	want := `{"name":"Contoso.Platform","locations":{"global":{"address":"http://myrp.global.cluster.svc.local"}},"resourceTypes":{"contosoBuses":{"apiVersions":{"2024-08-01":{"schema":{"type":"object","properties":{"size":{"type":"string"}}}}},"defaultApiVersion":"2024-08-01","description":"A bus.","capabilities":["SupportsRecipes"],"iconHash":"` + api.DefaultIconHash + `"}}}`
	if got := strings.TrimSpace(string(r.body)); got != want {
		t.Errorf("summary =\n%s\nwant\n%s", got, want)
	}
	var all api.ProviderSummaryList
	json.Unmarshal(f.must(200, "GET", "/planes/radius/local/providers", "").body, &all)
	if len(all.Value) != 2 || all.Value[0].Name != "Another.Provider" || all.Value[1].Name != "Contoso.Platform" {
		t.Errorf("summaries = %+v", all.Value)
	}
	// Writes show immediately.
	f.must(201, "PUT", buses+"/apiVersions/2025-01-01", `{"properties":{"schema":{}}}`)
	f.must(200, "DELETE", location, "")
	var one api.ProviderSummary
	json.Unmarshal(f.must(200, "GET", "/planes/radius/local/providers/Contoso.Platform", "").body, &one)
	if len(one.ResourceTypes["contosoBuses"].APIVersions) != 2 || len(one.Locations) != 0 {
		t.Errorf("summary after writes = %+v", one)
	}
	if r := f.must(404, "GET", "/planes/radius/local/providers/Missing.Provider", ""); r.errorCode(t) != api.CodeNotFound {
		t.Errorf("missing provider: %s", r.body)
	}
	f.must(404, "GET", "/planes/radius/nope/providers", "")
}

// countingStore counts the store calls a request makes.
type countingStore struct {
	registry.Store
	calls atomic.Int64
}

func (c *countingStore) Get(ctx context.Context, id registry.ID) (registry.Resource, error) {
	c.calls.Add(1)
	return c.Store.Get(ctx, id)
}

func (c *countingStore) List(ctx context.Context, p registry.ID, k registry.Kind, o registry.ListOptions) (registry.Page, error) {
	c.calls.Add(1)
	return c.Store.List(ctx, p, k, o)
}

func (c *countingStore) Summaries(ctx context.Context, plane, ns string) ([]registry.ProviderSummary, error) {
	c.calls.Add(1)
	return c.Store.Summaries(ctx, plane, ns)
}

func TestSummaryIsOneStoreCall(t *testing.T) {
	cs := &countingStore{Store: newStore(t)}
	f := newFixture(t, server.Options{Store: cs})
	f.must(201, "PUT", provider, `{}`)
	for i := range 20 {
		typ := fmt.Sprintf("%s/resourceTypes/type%d", provider, i)
		f.must(201, "PUT", typ, `{}`)
		f.must(201, "PUT", typ+"/apiVersions/2024-01-01", `{"properties":{"schema":{}}}`)
	}
	for _, p := range []string{"/planes/radius/local/providers/Contoso.Platform", "/planes/radius/local/providers"} {
		before := cs.calls.Load()
		f.must(200, "GET", p, "")
		if n := cs.calls.Load() - before; n != 1 {
			t.Errorf("GET %s made %d store calls, want 1", p, n)
		}
	}
}

func TestAuth(t *testing.T) {
	f := newFixture(t, server.Options{Tokens: []server.Token{{Name: "ci", Value: "s3cret"}, {Value: "other"}}})
	if r := f.do("PUT", provider, `{}`); r.status != 401 || r.errorCode(t) != api.CodeUnauthorized || r.header.Get("WWW-Authenticate") == "" {
		t.Errorf("PUT without token = %d %s", r.status, r.body)
	}
	f.must(401, "PUT", provider, `{}`, "Authorization: Bearer wrong")
	f.must(401, "DELETE", provider, ``)
	r := f.must(201, "PUT", provider, `{}`, "Authorization: Bearer s3cret")
	sd := r.json(t)["systemData"].(map[string]any)
	if sd["createdBy"] != "ci" || sd["createdByType"] != "User" {
		t.Errorf("systemData = %v, want createdBy ci", sd)
	}
	r = f.must(200, "PUT", provider, `{}`, "Authorization: bearer other")
	sd = r.json(t)["systemData"].(map[string]any)
	if sd["createdBy"] != "ci" || sd["lastModifiedBy"] != "bearer" {
		t.Errorf("systemData after update = %v", sd)
	}
	f.must(200, "GET", provider, "")
	f.must(200, "GET", "!/healthz", "")

	g := newFixture(t, server.Options{Tokens: []server.Token{{Value: "s3cret"}}, AuthReads: true})
	g.must(401, "GET", rp, "")
	g.must(401, "GET", "/planes/radius/local/providers", "")
	g.must(200, "GET", rp, "", "Authorization: Bearer s3cret")
	g.must(200, "GET", "!/healthz", "")
}

func TestHealthAndReadiness(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.must(200, "GET", "!/healthz", "")
	f.must(503, "GET", "!/readyz", "")
	f.srv.SetReady(true)
	f.must(200, "GET", "!/readyz", "")
}

// chunked hides the length of a body so that it is sent chunked.
type chunked struct{ r io.Reader }

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p) }

func TestChunkedBodyOverLimit(t *testing.T) {
	f := newFixture(t, server.Options{MaxBodyBytes: 64 << 10})
	f.seed()
	body := `{"properties":{"schema":{"description":"` + strings.Repeat("x", 1<<20) + `"}}}`
	req, _ := http.NewRequest("PUT", f.url+buses+"/apiVersions/2024-01-01?api-version="+api.Version, chunked{strings.NewReader(body)})
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("connection dropped: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || !strings.Contains(string(b), api.CodeRequestTooLarge) {
		t.Errorf("chunked big body = %d %s", resp.StatusCode, b)
	}
}

func TestPanicIsAnErrorResponse(t *testing.T) {
	var logs syncBuffer
	f := newFixture(t, server.Options{
		CheckSchema: func(json.RawMessage) []api.Diagnostic { panic("checker bug") },
		Logger:      slog.New(slog.NewJSONHandler(&logs, nil)),
	})
	f.seed2()
	r := f.do("PUT", version, `{"properties":{"schema":{}}}`)
	if r.status != 500 || r.errorCode(t) != api.CodeInternal {
		t.Errorf("panicking handler = %d %s", r.status, r.body)
	}
	f.must(200, "GET", provider, "")
	// One structured line per request, with the status.
	var sawPanic, sawGet bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q is not JSON: %v", line, err)
		}
		if m["msg"] == "request" && m["method"] == "PUT" && m["status"] == float64(500) {
			sawPanic = true
		}
		if m["msg"] == "request" && m["method"] == "GET" && m["path"] == provider && m["status"] == float64(200) {
			sawGet = true
		}
	}
	if !sawPanic || !sawGet {
		t.Errorf("request log lacks the PUT 500 or the GET 200:\n%s", logs.String())
	}
}

// TestRequestLogNamesTheCaller: the log line of every request names who
// made it: the token's name, or "anonymous" without a valid token. Reads
// of secrets (listSecrets) are audited that way too.
func TestRequestLogNamesTheCaller(t *testing.T) {
	var log bytes.Buffer
	f := newFixture(t, server.Options{Tokens: []server.Token{{Name: "ci", Value: "s3cret"}, {Name: "ops", Value: "other"}},
		Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	ci, ops := "Authorization: Bearer s3cret", "Authorization: Bearer other"
	f.registerTypes(map[string]string{"apps": appsSchema, "databases": `{"type":"object","properties":{}}`}, ci)
	f.must(201, "PUT", appsPath+"/a1"+typeVer, `{"properties":{"image":"nginx","password":"hunter2hunter2"}}`, ci)
	log.Reset()
	f.must(200, "POST", appsPath+"/a1/listSecrets"+typeVer, "", ops)
	f.must(200, "GET", appsPath+"/a1"+typeVer, "")
	f.must(200, "GET", appsPath+"/a1"+typeVer, "", ci)
	f.must(401, "DELETE", appsPath+"/a1"+typeVer, "", "Authorization: Bearer wrong")
	var got []string
	for _, l := range logLines(t, &log) {
		got = append(got, fmt.Sprintf("%s %s %v %v", l["method"], l["path"], l["status"], l["caller"]))
	}
	want := []string{
		"POST " + appsPath + "/a1/listSecrets 200 ops",
		"GET " + appsPath + "/a1 200 anonymous",
		"GET " + appsPath + "/a1 200 ci",
		"DELETE " + appsPath + "/a1 401 anonymous",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("request log (-want +got):\n%s", diff)
	}
}

// seed2 registers a provider and a type, without API versions.
func (f *fixture) seed2() {
	f.t.Helper()
	f.must(201, "PUT", provider, `{}`)
	f.must(201, "PUT", buses, `{}`)
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// failingStore fails writes with a fixed error.
type failingStore struct {
	registry.Store
	err error
}

func (f failingStore) Put(ctx context.Context, w registry.Write) (registry.Resource, bool, error) {
	if w.Resource.ID.Kind == api.KindPlane {
		return f.Store.Put(ctx, w)
	}
	return registry.Resource{}, false, f.err
}

func TestStoreErrorsMapToStatuses(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		code   string
	}{
		{fmt.Errorf("x: %w", registry.ErrConflict), 409, api.CodeAnotherOperation},
		{fmt.Errorf("x: %w", &registry.InUseError{ID: registry.ProviderID("local", "A.B"), Count: 2}), 409, api.CodeConflict},
		{fmt.Errorf("x: %w", registry.ErrParentNotFound), 404, api.CodeNotFound},
		{fmt.Errorf("x: %w", registry.ErrPrecondition), 412, api.CodePreconditionFailed},
		{fmt.Errorf("x: %w", registry.ErrInvalid), 400, api.CodeInvalidRequestContent},
		{errors.New("disk on fire at /secret/path"), 500, api.CodeInternal},
	} {
		f := newFixture(t, server.Options{Store: failingStore{Store: newStore(t), err: c.err}})
		r := f.do("PUT", provider, `{}`)
		if r.status != c.status || r.errorCode(t) != c.code {
			t.Errorf("store error %v = %d %s, want %d %s", c.err, r.status, r.body, c.status, c.code)
		}
		if strings.Contains(string(r.body), "secret") {
			t.Errorf("internal error leaked to the client: %s", r.body)
		}
	}
}

// testSealer seals with a fixed key (tests only).
func testSealer(tb testing.TB) *secrets.Sealer {
	tb.Helper()
	s, err := secrets.New(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
