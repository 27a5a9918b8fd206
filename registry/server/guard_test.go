package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// A server without tokens takes no write a web page of another origin
// sends: the request a browser's fetch() sends cross-site (no preflight:
// no Content-Type) to the batch endpoint creates and deletes nothing.
func TestCrossSiteWritesAreRefused(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	attack := batchBody(t,
		api.BatchWrite{Method: "PUT", Path: rp + "/Evil.Corp", Body: json.RawMessage(`{}`)},
		api.BatchWrite{Method: "DELETE", Path: provider + "?force=true"},
	)
	for _, c := range []struct {
		name    string
		headers []string
		status  int
		code    string
	}{
		{"browser, no preflight", []string{"Content-Type: ", "Origin: https://evil.example", "Sec-Fetch-Site: cross-site"}, 403, api.CodeForbidden},
		{"cross-site", []string{"Sec-Fetch-Site: cross-site"}, 403, api.CodeForbidden},
		{"same-site, another port", []string{"Sec-Fetch-Site: same-site", "Origin: http://127.0.0.1:1"}, 403, api.CodeForbidden},
		{"Origin only", []string{"Origin: https://evil.example"}, 403, api.CodeForbidden},
		{"Origin null", []string{"Origin: null"}, 403, api.CodeForbidden},
		{"text/plain", []string{"Content-Type: text/plain"}, 415, api.CodeUnsupportedMediaType},
		{"form", []string{"Content-Type: application/x-www-form-urlencoded"}, 415, api.CodeUnsupportedMediaType},
		{"no Content-Type", []string{"Content-Type: "}, 415, api.CodeUnsupportedMediaType},
	} {
		if r := f.do("POST", batchPath, attack, c.headers...); r.status != c.status || r.errorCode(t) != c.code {
			t.Errorf("%s: batch = %d %s, want %d %s", c.name, r.status, r.body, c.status, c.code)
		}
		if c.status != 403 {
			continue // a DELETE has no body to declare
		}
		if r := f.do("DELETE", provider+"?api-version="+api.Version+"&force=true", "", c.headers...); r.status != 403 {
			t.Errorf("%s: DELETE = %d %s, want 403", c.name, r.status, r.body)
		}
	}
	f.must(200, "GET", provider, "")
	f.must(404, "GET", rp+"/Evil.Corp", "")

	// Reads stay open to pages (the catalog links to the API), and
	// writes from the registry's own origin or from no page at all pass.
	f.must(200, "GET", provider, "", "Sec-Fetch-Site: cross-site", "Origin: https://evil.example")
	host := strings.TrimPrefix(f.url, "http://")
	f.must(200, "PUT", buses, `{"properties":{}}`, "Sec-Fetch-Site: same-origin", "Origin: "+f.url)
	f.must(200, "PUT", buses, `{"properties":{}}`, "Origin: http://"+host)
	f.must(200, "PUT", buses, `{"properties":{}}`)
	// A body-less POST without Content-Type (rad's listSecrets) is not
	// refused for it.
	if r := f.do("POST", "/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/contosoBuses/b/listSecrets?api-version=2024-08-01", ""); r.status == 415 || r.status == 403 {
		t.Errorf("body-less POST = %d %s", r.status, r.body)
	}
}

// hostStatus sends GET /planes/radius with Host host.
func hostStatus(t *testing.T, f *fixture, method, host string) (int, string) {
	t.Helper()
	var body io.Reader
	if method != "GET" {
		body = strings.NewReader(`{"properties":{}}`)
	}
	req, err := http.NewRequest(method, f.url+buses+"?api-version="+api.Version, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// With CheckHost a request must name the server by an IP address,
// localhost or an allowed name: a page whose name its DNS points at
// 127.0.0.1 (DNS rebinding) reads and writes nothing.
func TestHostIsChecked(t *testing.T) {
	f := newFixture(t, server.Options{CheckHost: true, AllowedHosts: []string{"Registry.Example.com", ".corp.example"}})
	f.seed()
	for host, want := range map[string]int{
		strings.TrimPrefix(f.url, "http://"): 200,
		"127.0.0.1":                          200,
		"localhost:7443":                     200,
		"LOCALHOST.":                         200,
		"app.localhost:1":                    200,
		"[::1]:7443":                         200,
		"[::1]":                              200,
		"10.1.2.3:80":                        200,
		"registry.example.com:8443":          200,
		"corp.example":                       200,
		"a.b.corp.example":                   200,
		"evil.example:7443":                  403,
		"evil.example":                       403,
		"registry.example.com.evil.example":  403,
		"xcorp.example":                      403,
		"localhost.evil.example":             403,
	} {
		for _, m := range []string{"GET", "PUT"} {
			status, body := hostStatus(t, f, m, host)
			if status != want || (want == 403 && !strings.Contains(body, api.CodeForbidden)) {
				t.Errorf("%s with Host %q = %d %s, want %d", m, host, status, body, want)
			}
		}
	}

	open := newFixture(t, server.Options{})
	open.seed()
	if status, body := hostStatus(t, open, "GET", "evil.example"); status != 200 {
		t.Errorf("without CheckHost: Host evil.example = %d %s", status, body)
	}
	any := newFixture(t, server.Options{CheckHost: true, AllowedHosts: []string{"*"}})
	any.seed()
	if status, body := hostStatus(t, any, "GET", "evil.example"); status != 200 {
		t.Errorf("AllowedHosts *: Host evil.example = %d %s", status, body)
	}
}

func TestCheckAllowedHosts(t *testing.T) {
	if err := server.CheckAllowedHosts([]string{"registry.example.com", ".example.com", "*", "host_1.local."}); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", ".", "http://registry.example.com", "registry.example.com:7443", "a..b", "*.example.com", "user@host", "[::1]"} {
		err := server.CheckAllowedHosts([]string{bad})
		if err == nil || !strings.Contains(err.Error(), "is not a host name") {
			t.Errorf("CheckAllowedHosts(%q) = %v, want an error", bad, err)
		}
	}
}
