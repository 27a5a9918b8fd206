package e2e_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// TestResponseCacheNotStaleAcrossServers writes through one server and
// reads through another on the same database, as replicas do: each read
// must show the write acknowledged just before, although the reading
// server has the previous answer in its response cache.
func TestResponseCacheNotStaleAcrossServers(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		open func(t *testing.T) (registry.Store, registry.Store)
	}{
		{"sqlite", func(t *testing.T) (registry.Store, registry.Store) {
			path := filepath.Join(t.TempDir(), "registry.db")
			a, err := sqlite.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			b, err := sqlite.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			return a, b
		}},
		{"postgres", func(t *testing.T) (registry.Store, registry.Store) {
			dsn := pg.NewDatabase(t)
			a, err := postgres.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			b, err := postgres.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			return a, b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sa, sb := tc.open(t)
			defer sa.Close()
			defer sb.Close()
			var urls [2]string
			for i, st := range []registry.Store{sa, sb} {
				srv, err := server.New(ctx, server.Options{Store: st, Secrets: testSealer(t)})
				if err != nil {
					t.Fatal(err)
				}
				ts := httptest.NewServer(srv)
				defer ts.Close()
				urls[i] = ts.URL
			}
			writer, reader := urls[0], urls[1]
			const rp = "/planes/radius/local/providers/System.Resources/resourceProviders/Cache.Test"
			const version = rp + "/resourceTypes/things/apiVersions/2025-01-01"
			const summary = "/planes/radius/local/providers/Cache.Test"
			do(t, "PUT", writer+rp, `{}`, 201)
			do(t, "PUT", writer+rp+"/resourceTypes/things", `{"properties":{}}`, 201)
			for i := range 20 {
				prop := fmt.Sprintf("p%d", i)
				do(t, "PUT", writer+version, `{"properties":{"schema":{"type":"object","properties":{"`+prop+`":{"type":"string"}}}}}`, 0)
				for range 2 { // the second read may come from the cache
					if body := do(t, "GET", reader+version, "", 200); !strings.Contains(body, `"`+prop+`"`) {
						t.Fatalf("round %d: the reader served a stale API version: %s", i, body)
					}
					if body := do(t, "GET", reader+summary, "", 200); !strings.Contains(body, `"2025-01-01"`) {
						t.Fatalf("round %d: summary without the API version: %s", i, body)
					}
				}
				loc := fmt.Sprintf("loc%d", i)
				do(t, "PUT", writer+rp+"/locations/"+loc, `{"properties":{"address":"http://127.0.0.1:1"}}`, 201)
				if body := do(t, "GET", reader+summary, "", 200); !strings.Contains(body, `"`+loc+`"`) {
					t.Fatalf("round %d: the reader served a stale summary: %s", i, body)
				}
				do(t, "DELETE", writer+rp+"/locations/"+loc, "", 200)
				if body := do(t, "GET", reader+summary, "", 200); strings.Contains(body, `"`+loc+`"`) {
					t.Fatalf("round %d: the summary still shows deleted location %s: %s", i, loc, body)
				}
			}

			// Resource requests: the reader caches the type's registration
			// (API version, schema, locations) and resource GETs per
			// generation; a change through the writer must be seen.
			const v2 = rp + "/resourceTypes/things/apiVersions/2025-02-01"
			const res = "/planes/radius/local/resourceGroups/rg/providers/Cache.Test/things/t1"
			do(t, "PUT", writer+v2, `{"properties":{"schema":{"type":"object","properties":{"size":{"type":"integer"}}}}}`, 201)
			do(t, "PUT", writer+rp+"/locations/global", `{"properties":{"resourceTypes":{"things":{"apiVersions":{"2025-01-01":{},"2025-02-01":{}}}}}}`, 201)
			do(t, "PUT", writer+"/planes/radius/local/resourceGroups/rg", `{}`, 201)
			doAt(t, "PUT", reader+res, "2025-02-01", `{"properties":{"size":1}}`, 201)
			for range 2 {
				doAt(t, "GET", reader+res, "2025-02-01", "", 200)
				doAt(t, "PUT", reader+res, "2025-02-01", `{"properties":{"size":2}}`, 200)
			}
			doAt(t, "PUT", writer+v2, api.Version, `{"properties":{"schema":{"type":"object","properties":{"size":{"type":"string"}}}}}`, 200)
			if body := doAt(t, "PUT", reader+res, "2025-02-01", `{"properties":{"size":3}}`, 400); !strings.Contains(body, "size") {
				t.Fatalf("the reader admitted against a stale schema: %s", body)
			}
			doAt(t, "PUT", writer+res, "2025-01-01", `{"properties":{"p19":"new"}}`, 200)
			if body := doAt(t, "GET", reader+res, "2025-02-01", "", 200); !strings.Contains(body, `"new"`) {
				t.Fatalf("the reader served a stale resource: %s", body)
			}
			do(t, "DELETE", writer+v2, "", 200)
			if body := doAt(t, "GET", reader+res, "2025-02-01", "", 400); !strings.Contains(body, api.CodeAPIVersionNotFound) {
				t.Fatalf("GET at an unregistered API version: %s", body)
			}
			doAt(t, "PUT", reader+res, "2025-02-01", `{"properties":{"size":"4"}}`, 400)
			do(t, "PUT", writer+rp+"/locations/global", `{"properties":{"resourceTypes":{"things":{"apiVersions":{"2025-01-01":{}}}}}}`, 200)
			doAt(t, "GET", reader+res, "2025-01-01", "", 200)
			do(t, "PUT", writer+rp+"/locations/global", `{"properties":{"resourceTypes":{"other":{"apiVersions":{"2025-01-01":{}}}}}}`, 200)
			if body := doAt(t, "PUT", reader+res, "2025-01-01", `{"properties":{}}`, 400); !strings.Contains(body, api.CodeLocationNotRegistered) {
				t.Fatalf("PUT to a location that no longer serves the type: %s", body)
			}
			doAt(t, "DELETE", writer+res, "2025-01-01", "", 200)

			do(t, "DELETE", writer+rp+"/resourceTypes/things", "", 200)
			do(t, "GET", reader+version, "", 404)
			doAt(t, "GET", reader+res, "2025-01-01", "", 404)
		})
	}
}

// do sends a request with the registry's api-version and returns the body;
// want 0 accepts any 2xx.
func do(t *testing.T, method, url, body string, want int) string {
	t.Helper()
	return doAt(t, method, url, api.Version, body, want)
}

// doAt is do with the given api-version.
func doAt(t *testing.T, method, url, version, body string, want int) string {
	t.Helper()
	req, err := http.NewRequest(method, url+"?api-version="+version, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if (want == 0 && resp.StatusCode/100 != 2) || (want != 0 && resp.StatusCode != want) {
		t.Fatalf("%s %s = %d, want %d: %s", method, url, resp.StatusCode, want, b)
	}
	return string(b)
}
