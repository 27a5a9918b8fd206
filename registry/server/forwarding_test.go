package server_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// providerRequest is what the test resource provider saw.
type providerRequest struct {
	Method, Path, Query, Body, Auth, XFF, XFHost, XFProto string
}

// testProvider is a resource provider on loopback that records every
// request and answers 200 {"from":"provider"} (201 for a PUT).
type testProvider struct {
	*httptest.Server
	mu   sync.Mutex
	seen []providerRequest
}

func newTestProvider(t *testing.T) *testProvider {
	p := &testProvider{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		p.mu.Lock()
		p.seen = append(p.seen, providerRequest{r.Method, r.URL.Path, r.URL.RawQuery, string(b), r.Header.Get("Authorization"),
			r.Header.Get("X-Forwarded-For"), r.Header.Get("X-Forwarded-Host"), r.Header.Get("X-Forwarded-Proto")})
		p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"from-provider"`)
		if r.Method == http.MethodPut {
			w.WriteHeader(http.StatusCreated)
		}
		io.WriteString(w, `{"from":"provider"}`)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *testProvider) take() []providerRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.seen
	p.seen = nil
	return s
}

// TestForwarding: a type whose location has an address is served by the
// provider there. Admission still runs in the registry: the provider gets
// exactly the requests that passed it (the admitted body, X-Forwarded-*,
// never the registry's token), its answers come back as they are, and
// the registry stores nothing.
func TestForwarding(t *testing.T) {
	prov := newTestProvider(t)
	st := newStore(t)
	f := newFixture(t, server.Options{Store: st, Tokens: []server.Token{{Name: "ci", Value: "s3cret"}}})
	auth := "Authorization: Bearer s3cret"
	p := "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps"
	f.must(201, "PUT", p, `{}`, auth)
	f.must(201, "PUT", p+"/resourceTypes/apps", `{}`, auth)
	f.must(201, "PUT", p+"/resourceTypes/apps/apiVersions/2024-08-01", `{"properties":{"schema":`+appsSchema+`}}`, auth)
	f.must(201, "PUT", p+"/resourceTypes/databases", `{}`, auth)
	f.must(201, "PUT", p+"/resourceTypes/databases/apiVersions/2024-08-01", `{"properties":{"schema":{}}}`, auth)
	f.must(201, "PUT", p+"/locations/global", `{"properties":{"address":"`+prov.URL+`","resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}},"databases":{"apiVersions":{"2024-08-01":{}}}}}}`, auth)
	f.must(201, "PUT", rg, `{}`, auth)
	a1 := appsPath + "/a1"

	// Refused requests never reach the provider.
	f.must(400, "PUT", a1+typeVer, `{"properties":{"image":"x","extra":1}}`, auth)
	f.must(401, "PUT", a1+typeVer, `{"properties":{"image":"nginx"}}`)
	f.must(400, "PUT", a1+"?api-version=2099-01-01", `{"properties":{"image":"nginx"}}`, auth)
	f.must(400, "PUT", a1+typeVer, `{"location":"east","properties":{"image":"nginx"}}`, auth)
	f.must(404, "PUT", groups+"/nope/providers/Contoso.Apps/apps/a1"+typeVer, `{"properties":{"image":"nginx"}}`, auth)
	f.must(401, "POST", a1+"/listSecrets"+typeVer, "")
	if got := prov.take(); len(got) != 0 {
		t.Fatalf("refused requests reached the provider: %+v", got)
	}

	// Admitted: defaults applied, read-only values dropped, the secret
	// sent; a reference to a resource of a forwarded type is not looked
	// up (the registry does not have it).
	db := rg + "/providers/Contoso.Apps/databases/db1"
	r := f.must(201, "PUT", a1+typeVer, `{"tags":{"team":"a"},"properties":{"image":"nginx","status":"ignored","password":"hunter2hunter2","database":"`+db+`"}}`, auth)
	if string(r.body) != `{"from":"provider"}` || r.header.Get("ETag") != `"from-provider"` {
		t.Errorf("PUT answered %s ETag %s, want the provider's", r.body, r.header.Get("ETag"))
	}
	f.must(200, "GET", a1+typeVer, "")
	f.must(200, "GET", appsPath+typeVer, "")
	f.must(200, "GET", "/planes/radius/local/providers/Contoso.Apps/apps"+typeVer, "")
	f.must(200, "POST", a1+"/listSecrets"+typeVer, "", auth)
	f.must(200, "DELETE", a1+typeVer, "", auth)
	host := strings.TrimPrefix(f.url, "http://")
	fwd := func(method, path, body string) providerRequest {
		return providerRequest{method, path, "api-version=2024-08-01", body, "", "127.0.0.1", host, "http"}
	}
	want := []providerRequest{
		fwd("PUT", a1, `{"location":"global","tags":{"team":"a"},"properties":{"database":"`+db+`","image":"nginx","password":"hunter2hunter2","replicas":1}}`),
		fwd("GET", a1, ""),
		fwd("GET", appsPath, ""),
		fwd("GET", "/planes/radius/local/providers/Contoso.Apps/apps", ""),
		fwd("POST", a1+"/listSecrets", ""),
		fwd("DELETE", a1, ""),
	}
	if diff := cmp.Diff(want, prov.take()); diff != "" {
		t.Errorf("the provider saw (-want +got):\n%s", diff)
	}
	id, _ := api.ParseResourceID(a1)
	if _, err := st.GetInstance(context.Background(), id); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("the registry stored a forwarded resource: %v", err)
	}

	// The type's own address wins over the location's; an unreachable
	// provider is a 502 that names it.
	other := newTestProvider(t)
	f.must(200, "PUT", p+"/locations/global", `{"properties":{"address":"`+prov.URL+`","resourceTypes":{"apps":{"address":"`+other.URL+`","apiVersions":{"2024-08-01":{}}}}}}`, auth)
	f.must(200, "GET", a1+typeVer, "")
	if len(other.take()) != 1 || len(prov.take()) != 0 {
		t.Error("the type's address did not win")
	}
	dead := newTestProvider(t)
	dead.Close()
	f.must(200, "PUT", p+"/locations/global", `{"properties":{"address":"`+dead.URL+`","resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}}}}}`, auth)
	r = f.do("PUT", a1+typeVer, `{"properties":{"image":"nginx"}}`, auth)
	if r.status != 502 || r.errorCode(t) != api.CodeBadGateway || !strings.Contains(string(r.body), dead.URL) {
		t.Errorf("PUT to an unreachable provider = %d %s", r.status, r.body)
	}
	if r := f.do("GET", a1+typeVer, ""); r.status != 502 || r.errorCode(t) != api.CodeBadGateway {
		t.Errorf("GET from an unreachable provider = %d %s", r.status, r.body)
	}

	// Without an address the registry serves the type itself again.
	f.must(200, "PUT", p+"/locations/global", `{"properties":{"resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}}}}}`, auth)
	f.must(201, "PUT", a1+typeVer, `{"properties":{"image":"nginx"}}`, auth)
	if _, err := st.GetInstance(context.Background(), id); err != nil {
		t.Errorf("a resource of a type without an address is not stored: %v", err)
	}
}
