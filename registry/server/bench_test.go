package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// benchServer returns a handler over a SQLite store seeded with a provider
// of 20 types with 3 API versions each.
func benchServer(b *testing.B) http.Handler {
	b.Helper()
	srv := newServer(b)
	send(b, srv, "PUT", provider, `{}`, 201)
	for i := range 20 {
		typ := fmt.Sprintf("%s/resourceTypes/type%d", provider, i)
		send(b, srv, "PUT", typ, `{"properties":{"defaultApiVersion":"2024-01-01"}}`, 201)
		for _, v := range []string{"2024-01-01", "2024-06-01", "2025-01-01-preview"} {
			send(b, srv, "PUT", typ+"/apiVersions/"+v, `{"properties":{"schema":{"type":"object","properties":{"a":{"type":"string"}}}}}`, 201)
		}
	}
	return srv
}

func send(b *testing.B, h http.Handler, method, path, body string, want int) {
	req := httptest.NewRequest(method, path+"?api-version="+api.Version, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json") // the server refuses a body without it
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != want {
		b.Fatalf("%s %s = %d %s", method, path, rec.Code, rec.Body)
	}
}

func BenchmarkGetResource(b *testing.B) {
	h := benchServer(b)
	b.ResetTimer()
	for b.Loop() {
		send(b, h, "GET", provider+"/resourceTypes/type7/apiVersions/2024-06-01", "", 200)
	}
}

func BenchmarkGetSummary(b *testing.B) {
	h := benchServer(b)
	b.ResetTimer()
	for b.Loop() {
		send(b, h, "GET", "/planes/radius/local/providers/Contoso.Platform", "", 200)
	}
}

func BenchmarkPutAPIVersion(b *testing.B) {
	h := benchServer(b)
	b.ResetTimer()
	for b.Loop() {
		send(b, h, "PUT", provider+"/resourceTypes/type3/apiVersions/2024-06-01", `{"properties":{"schema":{"type":"object","properties":{"b":{"type":"integer"}}}}}`, 200)
	}
}

// BenchmarkGetSummaryManyProviders reads one provider's summary from a
// registry holding 1,000 providers (4,000 rows): the read must not scan the
// other providers' rows.
func BenchmarkGetSummaryManyProviders(b *testing.B) {
	srv := newServer(b)
	for i := range 1000 {
		p := fmt.Sprintf("/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.P%d", i)
		send(b, srv, "PUT", p, `{}`, 201)
		send(b, srv, "PUT", p+"/resourceTypes/things", `{"properties":{}}`, 201)
		send(b, srv, "PUT", p+"/resourceTypes/things/apiVersions/2025-01-01", `{"properties":{"schema":{"type":"object","properties":{"a":{"type":"string"}}}}}`, 201)
		send(b, srv, "PUT", p+"/locations/global", `{"properties":{"address":"http://localhost:8080"}}`, 201)
	}
	b.ResetTimer()
	for b.Loop() {
		send(b, srv, "GET", "/planes/radius/local/providers/Contoso.P150", "", 200)
	}
}

// BenchmarkGetResourceParallel is BenchmarkGetResource from 16 goroutines
// (the harness's resource clients): the generation reads are shared.
func BenchmarkGetResourceParallel(b *testing.B) {
	h := benchServer(b)
	b.SetParallelism(8)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			send(b, h, "GET", provider+"/resourceTypes/type7/apiVersions/2024-06-01", "", 200)
		}
	})
}

// BenchmarkPutAPIVersionNewSchema PUTs an API version whose 8 KB schema
// (the harness's mixed load) changes every time, so that each PUT is
// decoded, checked and written.
func BenchmarkPutAPIVersionNewSchema(b *testing.B) {
	h := benchServer(b)
	props := make([]string, 40)
	for i := range props {
		props[i] = fmt.Sprintf(`"p%d":{"type":"string","description":"Selects the zonal audit trail used for property %d. Applied by the recipe that provisions the resource.","maxLength":64}`, i, i)
	}
	schema := `"type":"object","properties":{` + strings.Join(props, ",") + `}`
	n := 0
	for b.Loop() {
		n++
		send(b, h, "PUT", provider+"/resourceTypes/type3/apiVersions/2024-06-01", fmt.Sprintf(`{"properties":{"schema":{"description":"v%d",%s}}}`, n, schema), 200)
	}
}
