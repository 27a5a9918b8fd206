package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/egress"
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

// serveAppsAt registers Contoso.Apps/apps (API version 2024-08-01) in
// location global served at address, and the group rg.
func (f *fixture) serveAppsAt(address string, headers ...string) {
	f.t.Helper()
	p := "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps"
	f.must(201, "PUT", p, `{}`, headers...)
	f.must(201, "PUT", p+"/resourceTypes/apps", `{}`, headers...)
	f.must(201, "PUT", p+"/resourceTypes/apps/apiVersions/2024-08-01", `{"properties":{"schema":`+appsSchema+`}}`, headers...)
	f.must(201, "PUT", p+"/locations/global", `{"properties":{"address":"`+address+`","resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}}}}}`, headers...)
	f.must(201, "PUT", rg, `{}`, headers...)
}

// TestForwardingLoop: a location address that leads back to the registry
// costs one forwarded request, not a loop. Its own listen address is
// refused when registered; another way back (here a relay in front of
// the registry) is stopped at the first hop by the hop header: 508.
func TestForwardingLoop(t *testing.T) {
	f := newFixture(t, server.Options{})
	p := "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps"
	f.must(201, "PUT", p, `{}`)
	r := f.do("PUT", p+"/locations/global", `{"properties":{"address":"`+f.url+`/base"}}`)
	if r.status != 400 || !strings.Contains(string(r.body), "would loop") {
		t.Fatalf("registering the registry's own address = %d %s, want 400 naming the loop", r.status, r.body)
	}
	localhost := strings.Replace(f.url, "127.0.0.1", "localhost", 1)
	if r := f.do("PUT", p+"/locations/global", `{"properties":{"address":"`+localhost+`"}}`); r.status != 400 {
		t.Fatalf("registering the registry's own address as localhost = %d %s, want 400", r.status, r.body)
	}

	// A relay in front of the registry: it answers 500 itself after 5
	// requests, so that a registry without loop detection fails this test
	// instead of exhausting the machine.
	var relayed atomic.Int32
	target, _ := url.Parse(f.url)
	proxy := httputil.NewSingleHostReverseProxy(target)
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if relayed.Add(1) > 5 {
			http.Error(w, "relay: too many", 500)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer relay.Close()
	f.must(200, "DELETE", p, "")
	f.serveAppsAt(relay.URL)
	r = f.do("GET", appsPath+"/a1"+typeVer, "")
	if r.status != http.StatusLoopDetected || r.errorCode(t) != api.CodeLoopDetected || !strings.Contains(string(r.body), server.HopHeader) {
		t.Errorf("GET through a relay back to the registry = %d %s, want 508 LoopDetected", r.status, r.body)
	}
	if n := relayed.Load(); n != 1 {
		t.Errorf("the relay saw %d requests, want 1", n)
	}

	// The hop header stops forwarding only: a type the registry stores is
	// served as usual.
	f.must(200, "PUT", p+"/locations/global", `{"properties":{"resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}}}}}`)
	f.must(201, "PUT", appsPath+"/a1"+typeVer, `{"properties":{"image":"nginx"}}`, server.HopHeader+": 1")
	f.must(200, "GET", appsPath+"/a1"+typeVer, "", server.HopHeader+": 1")
}

// TestForwardingConcurrencyCap: at most MaxConcurrent requests are in
// flight to one provider; the next is answered 503 with Retry-After at
// once, without reaching the provider, and a slot freed is used again.
func TestForwardingConcurrencyCap(t *testing.T) {
	const limit = 3
	arrived := make(chan struct{}, 10)
	release := make(chan struct{})
	var hits atomic.Int32
	prov := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		arrived <- struct{}{}
		<-release
		io.WriteString(w, `{"from":"provider"}`)
	}))
	defer prov.Close()
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	f := newFixture(t, server.Options{Forward: server.ForwardOptions{MaxConcurrent: limit}})
	f.serveAppsAt(prov.URL)

	held := make(chan int, limit)
	for range limit {
		go func() { held <- f.do("GET", appsPath+"/a1"+typeVer, "").status }()
	}
	for range limit {
		<-arrived
	}
	extra := make(chan response, 1)
	go func() { extra <- f.do("GET", appsPath+typeVer, "") }()
	select {
	case r := <-extra:
		if r.status != 503 || r.errorCode(t) != api.CodeServiceUnavailable || r.header.Get("Retry-After") == "" {
			t.Errorf("request %d = %d %s (Retry-After %q), want 503 ServiceUnavailable with Retry-After", limit+1, r.status, r.body, r.header.Get("Retry-After"))
		}
	case <-arrived:
		t.Errorf("request %d reached the provider while %d were in flight", limit+1, limit)
	}
	free()
	for range limit {
		if s := <-held; s != 200 {
			t.Errorf("a held request = %d, want 200", s)
		}
	}
	f.must(200, "GET", appsPath+typeVer, "")
	if n := hits.Load(); n != limit+1 {
		t.Errorf("the provider saw %d requests, want %d", n, limit+1)
	}
}

// TestLocationAddressChecks: a location address is refused when it holds
// credentials, or when forwarding could never go there (--forward-allow,
// guarded addresses), with a 400 that never repeats the credentials.
func TestLocationAddressChecks(t *testing.T) {
	f := newFixture(t, server.Options{})
	p := "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps"
	f.must(201, "PUT", p, `{}`)
	for addr, want := range map[string]string{
		"http://user:hunter2@127.0.0.1:8080":        "holds credentials",
		"http://169.254.169.254/latest/meta-data":   "cloud instance metadata address",
		"http://[fd00:ec2::254]/":                   "cloud instance metadata address",
		"http://[fe80::1]:8080":                     "link-local",
		"http://metadata.google.internal/":          "metadata service",
		"http://10.1.2.3:8080":                      "no --forward-allow rule allows",
		"http://0.0.0.0:8080":                       "unspecified",
		"https://127.0.0.1/x":                       "", // loopback: allowed on a loopback server
		"http://provider.example:8080":              "", // a name: decided when connecting
		"http://127.0.0.1:8080/?next=http://a@b.c/": "",
	} {
		body := `{"properties":{"resourceTypes":{"apps":{"address":"` + addr + `","apiVersions":{}}}}}`
		r := f.do("PUT", p+"/locations/global", body)
		if want == "" {
			if r.status != 200 && r.status != 201 {
				t.Errorf("address %s = %d %s, want it registered", addr, r.status, r.body)
			}
			continue
		}
		if r.status != 400 || !strings.Contains(string(r.body), want) || !strings.Contains(string(r.body), "properties.resourceTypes.apps.address") {
			t.Errorf("address %s = %d %s, want 400 naming the field and %q", addr, r.status, r.body, want)
		}
		if strings.Contains(string(r.body), "hunter2") {
			t.Errorf("address %s: the answer repeats the password: %s", addr, r.body)
		}
	}

	// A rule that names the metadata address reaches it.
	rules, err := egress.Parse([]string{"169.254.169.254"})
	if err != nil {
		t.Fatal(err)
	}
	g := newFixture(t, server.Options{Forward: server.ForwardOptions{Allow: rules}})
	g.must(201, "PUT", p, `{}`)
	g.must(201, "PUT", p+"/locations/global", `{"properties":{"address":"http://169.254.169.254"}}`)
	g.must(400, "PUT", p+"/locations/east", `{"properties":{"address":"http://127.0.0.1:8080"}}`) // rules replace the default
}

// TestStoredCredentialsNeverShown: a location address stored with
// credentials (before they were refused) never shows them: not in GETs
// of the location or the provider summary, nor in a 502 or the log; the
// request is forwarded without them.
func TestStoredCredentialsNeverShown(t *testing.T) {
	var logs syncBuffer
	st := newStore(t)
	f := newFixture(t, server.Options{Store: st, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	var auth atomic.Value
	prov := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.Store(r.Header.Get("Authorization"))
		io.WriteString(w, `{}`)
	}))
	defer prov.Close()
	f.serveAppsAt(prov.URL)
	withCreds := strings.Replace(prov.URL, "http://", "http://admin:hunter2@", 1)
	loc := registry.LocationID("local", "Contoso.Apps", "global")
	if _, _, err := st.Put(context.Background(), registry.Write{
		Resource: registry.Resource{ID: loc, Properties: json.RawMessage(`{"address":"` + withCreds + `","resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}}}}`)},
		Now:      clock,
	}); err != nil {
		t.Fatal(err)
	}
	shown := []response{
		f.must(200, "GET", "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps/locations/global", ""),
		f.must(200, "GET", "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps/locations", ""),
		f.must(200, "GET", "!/planes/radius/local/providers/Contoso.Apps", ""),
		f.must(200, "GET", appsPath+"/a1"+typeVer, ""),
	}
	if a := auth.Load(); a != "" {
		t.Errorf("the provider got Authorization %q from the address's credentials", a)
	}
	prov.Close()
	shown = append(shown, f.must(502, "GET", appsPath+"/a1"+typeVer, ""))
	for _, r := range shown {
		if strings.Contains(string(r.body), "hunter2") {
			t.Errorf("an answer shows the password: %s", r.body)
		}
	}
	if !strings.Contains(string(shown[0].body), "xxxxx@") {
		t.Errorf("the location does not show that it has credentials: %s", shown[0].body)
	}
	if strings.Contains(logs.String(), "hunter2") {
		t.Errorf("the log shows the password:\n%s", logs.String())
	}
}
