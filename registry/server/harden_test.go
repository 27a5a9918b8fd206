package server_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// noRedirects is an HTTP client that reports redirects instead of following
// them, as a careless client would not.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// rawDo sends a request with the path exactly as given (no cleaning) and
// does not follow redirects.
func (f *fixture) rawDo(method, path string) response {
	f.t.Helper()
	req, err := http.NewRequest(method, f.url+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

// TestUncleanPathsAreRefusedNotRedirected: dot segments (plain or
// percent-encoded), an encoded '/' inside a segment and "//" get 400 with
// the ARM envelope, never a redirect to the cleaned path; DELETE
// .../resourceTypes/.. must not reach the provider.
func TestUncleanPathsAreRefusedNotRedirected(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	q := "?api-version=" + api.Version
	for _, p := range []string{
		provider + "/resourceTypes/..",
		provider + "/resourceTypes/.",
		provider + "/resourceTypes/%2e%2e",
		provider + "/resourceTypes/%2E.",
		provider + "/resourceTypes/.%2e",
		provider + "/resourceTypes/contosoBuses/apiVersions/../../..",
		provider + "/locations/%2e%2e",
		provider + "/resourceTypes/a%2Fb",
		provider + "/resourceTypes/a%2f..",
		rp + "//Contoso.Platform",
		"/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Platform/resourceTypes/contosoBuses/..",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/contosoBuses/..",
		"/planes/radius/local/resourceGroups/%2e%2e",
		"/planes/radius/..",
	} {
		for _, m := range []string{"GET", "DELETE", "PUT"} {
			r := f.rawDo(m, p+q)
			if r.status != 400 || r.header.Get("Location") != "" {
				t.Errorf("%s %s = %d (Location %q) %s, want 400 without redirect", m, p, r.status, r.header.Get("Location"), r.body)
				continue
			}
			if code := r.errorCode(t); code != api.CodeInvalidRequestContent {
				t.Errorf("%s %s: code %s", m, p, code)
			}
		}
	}
	// The provider and its type are still there.
	f.must(200, "GET", provider, "")
	f.must(200, "GET", buses, "")
	// A trailing slash is not a dot segment: the summaries route keeps it.
	f.must(200, "GET", "/planes/radius/local/providers/", "")
}

// TestBodyMustBeAnObject: null, a list or a scalar is 400, never read as {}.
func TestBodyMustBeAnObject(t *testing.T) {
	f := newFixture(t, server.Options{})
	for _, body := range []string{"null", " null ", "[]", `"x"`, "1", "true"} {
		r := f.must(400, "PUT", provider, body, "Content-Type: application/json")
		if !strings.Contains(string(r.body), "must be a JSON object") {
			t.Errorf("PUT %s: %s", body, r.body)
		}
	}
	f.must(404, "GET", provider, "")
	f.must(201, "PUT", provider, "{}", "Content-Type: application/json")
}

// TestJSONErrorsInUserTerms: 400 messages speak of JSON fields, never of
// the server's Go types.
func TestJSONErrorsInUserTerms(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	for _, c := range []struct{ path, body, want string }{
		{provider, `{"tags":"x"}`, "tags must be an object of strings, not a JSON string"},
		{provider, `{"tags":{"a":1}}`, "must be a string, not a JSON number"},
		{provider, `{"location":1}`, "location must be a string, not a JSON number"},
		{provider, `{"nope":1}`, `unknown field "nope"`},
		{provider, `{"location":`, "ends early"},
		{provider, `{"location":"x"}}`, "unexpected data"},
		{buses, `{"properties":{"capabilities":"SupportsRecipes"}}`, "capabilities must be a list, not a JSON string"},
		{buses, `{"properties":{"defaultApiVersion":7}}`, "defaultApiVersion must be a string"},
		{location, `{"properties":{"resourceTypes":[]}}`, "resourceTypes must be an object"},
		{version, `{"properties":{"schema":{"type":"object"},"x":1}}`, `unknown field "x"`},
	} {
		r := f.must(400, "PUT", c.path, c.body)
		var e api.ErrorResponse
		if err := json.Unmarshal(r.body, &e); err != nil {
			t.Fatalf("PUT %s: %s is not an ARM envelope", c.body, r.body)
		}
		msg := e.Error.Message
		if !strings.Contains(msg, c.want) {
			t.Errorf("PUT %s %s: message %q, want it to contain %q", c.path, c.body, msg, c.want)
		}
		for _, internal := range []string{"Go ", "wireEnvelope", "server.", "api.", "registry.", "struct", "map["} {
			if strings.Contains(msg, internal) {
				t.Errorf("PUT %s: message %q names an internal type (%q)", c.body, msg, internal)
			}
		}
	}
}

// TestHeadersTooLargeUseTheEnvelope: a request whose headers exceed
// server.MaxHeaderBytes gets 431 with the ARM error envelope, through the
// http.Server the registry really runs (server.HTTPServer).
func TestHeadersTooLargeUseTheEnvelope(t *testing.T) {
	srv := newServer(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := server.HTTPServer("", srv)
	go hs.Serve(ln)
	defer hs.Close()
	for _, size := range []int{server.MaxHeaderBytes + 1, 4 * server.MaxHeaderBytes} {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET /planes/radius/local?api-version=%s HTTP/1.1\r\nHost: x\r\nX-Big: %s\r\n\r\n", api.Version, strings.Repeat("a", size))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		conn.Close()
		var e api.ErrorResponse
		if resp.StatusCode != 431 || resp.Header.Get("Content-Type") != "application/json" || json.Unmarshal(b, &e) != nil || e.Error.Code != api.CodeHeadersTooLarge {
			t.Errorf("headers of %d bytes: %d %q %s, want 431 with the ARM envelope", size, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	// Headers under the limit are served.
	req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/planes/radius/local?api-version="+api.Version, nil)
	req.Header.Set("X-Big", strings.Repeat("a", server.MaxHeaderBytes/2))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("headers under the limit: %d", resp.StatusCode)
	}
}

// TestRegistryAppliesCheckRules: the registry enforces the rules udtc check
// does (registry/api): capabilities, absolute http(s) addresses, API
// version dates, and bounded location and tags.
func TestRegistryAppliesCheckRules(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	for _, c := range []struct {
		path, body, want string
	}{
		{buses, `{"properties":{"capabilities":["<script>"]}}`, "is not a PascalCase name"},
		{buses, `{"properties":{"capabilities":["SupportsRecipes","SupportsRecipes"]}}`, "listed twice"},
		{buses, `{"properties":{"capabilities":[""]}}`, "is empty"},
		{location, `{"properties":{"address":"ftp://x"}}`, "http or https"},
		{location, `{"properties":{"address":"localhost:8080"}}`, "http or https"},
		{location, `{"properties":{"address":"http://"}}`, "has no host"},
		{location, `{"properties":{"address":"http://ok:1","resourceTypes":{"contosoBuses":{"address":"ftp://x"}}}}`, "http or https"},
		{provider + "/resourceTypes/contosoBuses/apiVersions/0000-01-01", `{"properties":{}}`, "before 2000-01-01"},
		{buses, `{"properties":{"defaultApiVersion":"0000-01-01"}}`, "before 2000-01-01"},
		{provider, `{"location":"` + strings.Repeat("x", 100) + `"}`, "the limit is 63"},
		{provider, `{"location":"a\u0007b"}`, "control characters"},
		{provider, `{"tags":{"a":"line\nbreak"}}`, "control characters"},
		{provider, `{"tags":{"":"v"}}`, "empty tag name"},
		{provider, `{"tags":{"k":"` + strings.Repeat("v", 300) + `"}}`, "the limit is 256"},
		{provider, `{"tags":{` + manyTags(51) + `}}`, "has 51 tags; the limit is 50"},
	} {
		r := f.must(400, "PUT", c.path, c.body)
		if !strings.Contains(string(r.body), c.want) {
			t.Errorf("PUT %s %.80s: %s, want %q", c.path, c.body, r.body, c.want)
		}
	}
	// What check accepts, the registry accepts.
	f.must(200, "PUT", buses, `{"properties":{"capabilities":["SupportsRecipes","ManualResourceProvisioning"]}}`)
	f.must(200, "PUT", location, `{"properties":{"address":"https://example.com:8443/base"}}`)
	f.must(200, "PUT", provider, `{"location":"global","tags":{`+manyTags(50)+`}}`)
}

func manyTags(n int) string {
	var parts []string
	for i := range n {
		parts = append(parts, fmt.Sprintf(`"t%d":"v"`, i))
	}
	return strings.Join(parts, ",")
}

// A request's announced Content-Length does not reserve that much memory
// before the body arrives: a client announcing the body limit and sending
// a few bytes costs about those bytes.
func TestAnnouncedLengthReservesLittle(t *testing.T) {
	srv := newServer(t)
	req := httptest.NewRequest("PUT", rp+"/Contoso.Big?api-version="+api.Version, strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = server.DefaultMaxBodyBytes
	rec := httptest.NewRecorder()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	srv.ServeHTTP(rec, req)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > server.DefaultMaxBodyBytes/4 {
		t.Errorf("a %d-byte body announced as %d allocated %d bytes (answer %d %s)", 2, req.ContentLength, got, rec.Code, rec.Body)
	}
}
