package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/udtc/udtc/registry/secrets"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/sqlite"
)

func newServer(t *testing.T, opts server.Options) *server.Server {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts.Store = st
	opts.Secrets = testSealer(t)
	srv, err := server.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

func newClient(t *testing.T, url string, opts ...client.Option) *client.Client {
	t.Helper()
	opts = append([]client.Option{client.WithRetry(4, time.Millisecond, 5*time.Millisecond)}, opts...)
	c, err := client.New(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEveryRoute(t *testing.T) {
	ctx := context.Background()
	ts := httptest.NewServer(newServer(t, server.Options{}))
	defer ts.Close()
	c := newClient(t, ts.URL)

	if _, err := c.PutPlane(ctx, "prod", api.Plane{Location: "global"}); err != nil {
		t.Fatal(err)
	}
	planes, err := c.ListPlanes(ctx)
	if err != nil || len(planes) != 2 {
		t.Fatalf("ListPlanes = %+v, %v", planes, err)
	}
	if p, err := c.GetPlane(ctx, "local"); err != nil || p.Name != "local" {
		t.Errorf("GetPlane = %+v, %v", p, err)
	}

	p, err := c.PutProvider(ctx, "Contoso.Platform", api.ResourceProvider{Location: "global"})
	if err != nil || p.ID != "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Platform" || p.ETag == "" {
		t.Fatalf("PutProvider = %+v, %v", p, err)
	}
	if _, err := c.PutResourceType(ctx, "Contoso.Platform", "contosoBuses", api.ResourceType{Properties: api.ResourceTypeProperties{DefaultAPIVersion: "2024-08-01"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutResourceType(ctx, "Contoso.Platform", "contosoBuses/queues", api.ResourceType{}); err != nil {
		t.Fatal(err)
	}
	schema := json.RawMessage(`{"type":"object","properties":{"b":{},"a":{}}}`)
	v, err := c.PutAPIVersion(ctx, "Contoso.Platform", "contosoBuses/queues", "2024-08-01", api.APIVersion{Properties: api.APIVersionProperties{Schema: schema}})
	if err != nil || string(v.Properties.Schema) != string(schema) {
		t.Fatalf("PutAPIVersion = %s, %v", v.Properties.Schema, err)
	}
	if _, err := c.PutLocation(ctx, "Contoso.Platform", "global", api.Location{Properties: api.LocationProperties{
		Address:       "http://rp",
		ResourceTypes: map[string]api.LocationResourceType{"contosoBuses": {APIVersions: map[string]api.LocationAPIVersion{"2024-08-01": {}}}},
	}}); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetAPIVersion(ctx, "contoso.platform", "contosoBuses/queues", "2024-08-01"); err != nil || string(got.Properties.Schema) != string(schema) {
		t.Errorf("GetAPIVersion = %+v, %v", got, err)
	}
	if l, err := c.GetLocation(ctx, "Contoso.Platform", "global"); err != nil || l.Properties.Address != "http://rp" {
		t.Errorf("GetLocation = %+v, %v", l, err)
	}
	if ps, err := c.ListProviders(ctx); err != nil || len(ps) != 1 {
		t.Errorf("ListProviders = %+v, %v", ps, err)
	}
	if ts, err := c.ListResourceTypes(ctx, "Contoso.Platform"); err != nil || len(ts) != 2 || ts[1].Name != "contosoBuses/queues" {
		t.Errorf("ListResourceTypes = %+v, %v", ts, err)
	}
	if vs, err := c.ListAPIVersions(ctx, "Contoso.Platform", "contosoBuses/queues"); err != nil || len(vs) != 1 {
		t.Errorf("ListAPIVersions = %+v, %v", vs, err)
	}
	if ls, err := c.ListLocations(ctx, "Contoso.Platform"); err != nil || len(ls) != 1 {
		t.Errorf("ListLocations = %+v, %v", ls, err)
	}
	sum, err := c.ProviderSummary(ctx, "Contoso.Platform")
	if err != nil || sum.ResourceTypes["contosoBuses"].DefaultAPIVersion != "2024-08-01" || sum.Locations["global"].Address != "http://rp" {
		t.Errorf("ProviderSummary = %+v, %v", sum, err)
	}
	if sums, err := c.ProviderSummaries(ctx); err != nil || len(sums) != 1 {
		t.Errorf("ProviderSummaries = %+v, %v", sums, err)
	}

	// Preconditions and typed errors.
	cur, _ := c.GetResourceType(ctx, "Contoso.Platform", "contosoBuses")
	if _, err := c.PutResourceType(ctx, "Contoso.Platform", "contosoBuses", api.ResourceType{}, client.IfMatch("stale")); !client.IsPreconditionFailed(err) {
		t.Errorf("stale If-Match = %v", err)
	}
	if _, err := c.PutResourceType(ctx, "Contoso.Platform", "contosoBuses", api.ResourceType{}, client.IfMatch(cur.ETag)); err != nil {
		t.Errorf("current If-Match = %v", err)
	}
	if _, err := c.PutResourceType(ctx, "Contoso.Platform", "contosoBuses", api.ResourceType{}, client.IfNoneMatch()); !client.IsPreconditionFailed(err) {
		t.Errorf("If-None-Match on existing = %v", err)
	}
	for _, del := range []func() (bool, error){
		func() (bool, error) { return c.DeleteLocation(ctx, "Contoso.Platform", "global") },
		func() (bool, error) {
			return c.DeleteAPIVersion(ctx, "Contoso.Platform", "contosoBuses/queues", "2024-08-01")
		},
		func() (bool, error) { return c.DeleteResourceType(ctx, "Contoso.Platform", "contosoBuses") },
		func() (bool, error) { return c.DeleteProvider(ctx, "Contoso.Platform") },
	} {
		if deleted, err := del(); !deleted || err != nil {
			t.Errorf("delete = %v, %v", deleted, err)
		}
		if deleted, err := del(); deleted || err != nil {
			t.Errorf("second delete = %v, %v; want false, nil", deleted, err)
		}
	}
	_, err = c.GetProvider(ctx, "Contoso.Platform")
	var e *client.Error
	if !errors.As(err, &e) || e.StatusCode != 404 || e.Code != api.CodeNotFound || !client.IsNotFound(err) {
		t.Errorf("GetProvider after delete = %#v", err)
	}
	if _, err := c.PutResourceType(ctx, "Bad Name", "x", api.ResourceType{}); !errors.Is(err, client.ErrInvalidName) || client.StatusCode(err) != 0 {
		t.Errorf("bad name = %v; want ErrInvalidName before sending", err)
	}
}

func TestSchemaDiagnostics(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t, server.Options{CheckSchema: func(json.RawMessage) []api.Diagnostic {
		return []api.Diagnostic{{Severity: "error", Rule: "schema-bad", Path: "/properties/x", Message: "bad"}}
	}})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c := newClient(t, ts.URL)
	c.PutProvider(ctx, "Aa.Bb", api.ResourceProvider{})
	c.PutResourceType(ctx, "Aa.Bb", "things", api.ResourceType{})
	_, err := c.PutAPIVersion(ctx, "Aa.Bb", "things", "2024-01-01", api.APIVersion{})
	var e *client.Error
	if !errors.As(err, &e) || e.StatusCode != 400 || len(e.Details) != 1 || e.Details[0].Code != "schema-bad" || e.Details[0].Target != "/properties/x" {
		t.Errorf("err = %#v", err)
	}
}

// flaky fails the first n requests with status (and error code "Busy"),
// then passes to next.
func flaky(n int64, status int, next http.Handler) (http.Handler, *atomic.Int64) {
	return flakyCode(n, status, "Busy", next)
}

// flakyCode is flaky with an error code.
func flakyCode(n int64, status int, code string, next http.Handler) (http.Handler, *atomic.Int64) {
	var calls atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= n {
			if status == 0 { // drop the connection
				hj, _ := w.(http.Hijacker)
				conn, _, _ := hj.Hijack()
				conn.Close()
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"error":{"code":%q,"message":"try again"}}`, code)
			return
		}
		next.ServeHTTP(w, r)
	}), &calls
}

func TestRetries(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t, server.Options{})
	for _, c := range []struct {
		name      string
		failures  int64
		status    int
		code      string
		wantErr   int // 0: success
		wantCalls int64
	}{
		{"503 twice", 2, 503, "Busy", 0, 3},
		{"409 of a concurrent write once", 1, 409, api.CodeAnotherOperation, 0, 2},
		{"409 Conflict never retried", 100, 409, api.CodeConflict, 409, 1},
		{"409 without a code never retried", 100, 409, "", 409, 1},
		{"429 once", 1, 429, "Busy", 0, 2},
		{"dropped connection", 2, 0, "Busy", 0, 3},
		{"500 always", 100, 500, "Busy", 500, 4},
		{"400 never retried", 100, 400, "Busy", 400, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, calls := flakyCode(c.failures, c.status, c.code, srv)
			ts := httptest.NewServer(h)
			defer ts.Close()
			cl := newClient(t, ts.URL)
			_, err := cl.GetPlane(ctx, "local")
			if got := client.StatusCode(err); got != c.wantErr || (c.wantErr == 0 && err != nil) {
				t.Errorf("err = %v, want status %d", err, c.wantErr)
			}
			if calls.Load() != c.wantCalls {
				t.Errorf("calls = %d, want %d", calls.Load(), c.wantCalls)
			}
		})
	}
	t.Run("connection refused", func(t *testing.T) {
		ts := httptest.NewServer(srv)
		url := ts.URL
		ts.Close()
		_, err := newClient(t, url).GetPlane(ctx, "local")
		if err == nil || client.StatusCode(err) != 0 {
			t.Errorf("err = %v, want a connection error", err)
		}
	})
	t.Run("context ends the retries", func(t *testing.T) {
		h, _ := flaky(1000, 503, srv)
		ts := httptest.NewServer(h)
		defer ts.Close()
		cl, _ := client.New(ts.URL, client.WithRetry(1000, 50*time.Millisecond, time.Second))
		ctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := cl.GetPlane(ctx, "local")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("returned after %v", d)
		}
	})
}

func TestToken(t *testing.T) {
	ctx := context.Background()
	ts := httptest.NewServer(newServer(t, server.Options{Tokens: []server.Token{{Name: "publisher", Value: "tok"}}}))
	defer ts.Close()
	if _, err := newClient(t, ts.URL).PutProvider(ctx, "Aa.Bb", api.ResourceProvider{}); client.StatusCode(err) != 401 {
		t.Errorf("without token = %v", err)
	}
	p, err := newClient(t, ts.URL, client.WithToken("tok")).PutProvider(ctx, "Aa.Bb", api.ResourceProvider{})
	if err != nil || p.SystemData == nil || p.SystemData.CreatedBy != "publisher" {
		t.Errorf("with token = %+v, %v", p, err)
	}
}

func TestNewRejectsBadURL(t *testing.T) {
	for _, u := range []string{"", "localhost:7443", "ftp://x", "http://"} {
		if _, err := client.New(u); err == nil {
			t.Errorf("New(%q) succeeded", u)
		}
	}
}

func TestResourceRoutes(t *testing.T) {
	ctx := context.Background()
	ts := httptest.NewServer(newServer(t, server.Options{}))
	defer ts.Close()
	c := newClient(t, ts.URL)
	if _, err := c.PutProvider(ctx, "Contoso.Apps", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"apps", "apps/parts"} {
		if _, err := c.PutResourceType(ctx, "Contoso.Apps", typ, api.ResourceType{}); err != nil {
			t.Fatal(err)
		}
		schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","default":7}}}`)
		if _, err := c.PutAPIVersion(ctx, "Contoso.Apps", typ, "2024-08-01", api.APIVersion{Properties: api.APIVersionProperties{Schema: schema}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.PutLocation(ctx, "Contoso.Apps", "global", api.Location{Properties: api.LocationProperties{ResourceTypes: map[string]api.LocationResourceType{
		"apps": {APIVersions: map[string]api.LocationAPIVersion{"2024-08-01": {}}}, "apps/parts": {APIVersions: map[string]api.LocationAPIVersion{"2024-08-01": {}}},
	}}}); err != nil {
		t.Fatal(err)
	}
	g, err := c.PutResourceGroup(ctx, "rg", api.ResourceGroup{Location: "global"})
	if err != nil || g.ETag == "" || g.Type != api.TypeResourceGroup {
		t.Fatalf("PutResourceGroup = %+v, %v", g, err)
	}
	id, err := api.ParseResourceID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Apps/apps/a1")
	if err != nil {
		t.Fatal(err)
	}
	in, err := c.PutInstance(ctx, id, "2024-08-01", api.Instance{Properties: json.RawMessage(`{}`)})
	if err != nil || in.ETag == "" || string(in.Properties) != `{"n":7,"provisioningState":"Succeeded"}` {
		t.Fatalf("PutInstance = %+v (%s), %v", in, in.Properties, err)
	}
	_, err = c.PutInstance(ctx, id, "2024-08-01", api.Instance{Properties: json.RawMessage(`{"n":"x"}`)})
	var e *client.Error
	if !errors.As(err, &e) || e.StatusCode != 400 || len(e.Details) != 1 || e.Details[0].Target != "properties.n" {
		t.Errorf("invalid PutInstance = %v", err)
	}
	child := id
	child.Types = append([]string{}, "apps", "parts")
	child.Names = append([]string{}, "a1", "p1")
	if _, err := c.PutInstance(ctx, child, "2024-08-01", api.Instance{}, client.IfNoneMatch()); err != nil {
		t.Fatal(err)
	}
	if got, err := c.GetInstance(ctx, id, "2024-08-01"); err != nil || got.ETag != in.ETag {
		t.Errorf("GetInstance = %+v, %v", got, err)
	}
	list, err := c.ListInstances(ctx, api.ResourceListID{Plane: "local", Group: "rg", Namespace: "Contoso.Apps", Type: "apps"}, "2024-08-01")
	if err != nil || len(list) != 1 {
		t.Errorf("ListInstances(group) = %+v, %v", list, err)
	}
	list, err = c.ListInstances(ctx, api.ResourceListID{Plane: "local", Group: "rg", Namespace: "Contoso.Apps", Type: "apps/parts", Parent: &id}, "2024-08-01")
	if err != nil || len(list) != 1 || list[0].Name != "p1" {
		t.Errorf("ListInstances(parent) = %+v, %v", list, err)
	}
	if groups, err := c.ListResourceGroups(ctx); err != nil || len(groups) != 1 {
		t.Errorf("ListResourceGroups = %+v, %v", groups, err)
	}
	if deleted, err := c.DeleteInstance(ctx, id, "2024-08-01", client.IfMatch(in.ETag)); !deleted || err != nil {
		t.Errorf("DeleteInstance = %v, %v", deleted, err)
	}
	if _, err := c.GetInstance(ctx, child, "2024-08-01"); !client.IsNotFound(err) {
		t.Errorf("child after parent delete = %v", err)
	}
	if deleted, err := c.DeleteResourceGroup(ctx, "rg"); !deleted || err != nil {
		t.Errorf("DeleteResourceGroup = %v, %v", deleted, err)
	}
	if _, err := c.GetResourceGroup(ctx, "rg"); !client.IsNotFound(err) {
		t.Errorf("GetResourceGroup after delete = %v", err)
	}
}

// TestInvalidNamesAreNotSent: the client refuses names the registry's rules
// refuse before sending anything, so that DeleteResourceType(ctx,
// "Victim.Ns", "..") can never reach (or be redirected to) the provider.
func TestInvalidNamesAreNotSent(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t, server.Options{})
	var requests atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			requests.Add(1)
		}
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithRetry(1, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutProvider(ctx, "Victim.Ns", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutResourceType(ctx, "Victim.Ns", "things", api.ResourceType{}); err != nil {
		t.Fatal(err)
	}
	sent := requests.Load()
	calls := map[string]func() error{
		`DeleteResourceType("..")`: func() error { _, err := c.DeleteResourceType(ctx, "Victim.Ns", ".."); return err },
		`DeleteResourceType(".")`:  func() error { _, err := c.DeleteResourceType(ctx, "Victim.Ns", "."); return err },
		`DeleteResourceType("things/..")`: func() error {
			_, err := c.DeleteResourceType(ctx, "Victim.Ns", "things/..")
			return err
		},
		`DeleteProvider("Victim.Ns/..")`: func() error { _, err := c.DeleteProvider(ctx, "Victim.Ns/.."); return err },
		`DeleteLocation("..")`:           func() error { _, err := c.DeleteLocation(ctx, "Victim.Ns", ".."); return err },
		`DeleteAPIVersion("../..")`: func() error {
			_, err := c.DeleteAPIVersion(ctx, "Victim.Ns", "things", "../..")
			return err
		},
		`PutAPIVersion("0000-01-01")`: func() error {
			_, err := c.PutAPIVersion(ctx, "Victim.Ns", "things", "0000-01-01", api.APIVersion{})
			return err
		},
		`GetResourceType("a%2Fb")`:  func() error { _, err := c.GetResourceType(ctx, "Victim.Ns", "a%2Fb"); return err },
		`ListResourceTypes("..")`:   func() error { _, err := c.ListResourceTypes(ctx, ".."); return err },
		`ProviderSummary("..")`:     func() error { _, err := c.ProviderSummary(ctx, ".."); return err },
		`DeleteResourceGroup("..")`: func() error { _, err := c.DeleteResourceGroup(ctx, ".."); return err },
		`DeleteInstance(.. name)`: func() error {
			id := api.ResourceID{Plane: "local", Group: "rg", Namespace: "Victim.Ns", Types: []string{"things"}, Names: []string{".."}}
			_, err := c.DeleteInstance(ctx, id, "2025-01-01")
			return err
		},
		`WithPlane("..")`: func() error {
			pc, err := client.New(ts.URL, client.WithPlane(".."))
			if err != nil {
				return err
			}
			_, err = pc.DeleteProvider(ctx, "Victim.Ns")
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, client.ErrInvalidName) {
			t.Errorf("%s = %v, want ErrInvalidName", name, err)
		}
	}
	if n := requests.Load() - sent; n != 0 {
		t.Errorf("%d write requests were sent for invalid names", n)
	}
	if _, err := c.GetResourceType(ctx, "Victim.Ns", "things"); err != nil {
		t.Errorf("the provider's type is gone: %v", err)
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

// TestInUseConflictIsNotRetried: unregistering a type that still has
// resources is a final 409 Conflict naming how many; the client sends it
// once (publish --prune fails at once instead of retrying it).
func TestInUseConflictIsNotRetried(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t, server.Options{})
	var deletes atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			deletes.Add(1)
		}
		srv.ServeHTTP(w, r)
	}))
	defer ts.Close()
	c, err := client.New(ts.URL, client.WithRetry(4, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutProvider(ctx, "Contoso.Apps", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutResourceType(ctx, "Contoso.Apps", "apps", api.ResourceType{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutAPIVersion(ctx, "Contoso.Apps", "apps", "2024-08-01", api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{}`)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutLocation(ctx, "Contoso.Apps", "global", api.Location{Properties: api.LocationProperties{ResourceTypes: map[string]api.LocationResourceType{
		"apps": {APIVersions: map[string]api.LocationAPIVersion{"2024-08-01": {}}},
	}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutResourceGroup(ctx, "rg", api.ResourceGroup{}); err != nil {
		t.Fatal(err)
	}
	id, _ := api.ParseResourceID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Apps/apps/a1")
	if _, err := c.PutInstance(ctx, id, "2024-08-01", api.Instance{Properties: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	_, err = c.DeleteResourceType(ctx, "Contoso.Apps", "apps")
	var e *client.Error
	if !errors.As(err, &e) || e.StatusCode != 409 || e.Code != api.CodeConflict || !strings.Contains(e.Message, "1 resource") {
		t.Errorf("DeleteResourceType of a type in use = %v", err)
	}
	if n := deletes.Load(); n != 1 {
		t.Errorf("the in-use 409 was sent %d times, want once", n)
	}
}

// The token follows a redirect to the server's own origin only: not to
// another port of its host, and never from https to plain http.
func TestTokenStaysWithItsOrigin(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var got []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"name":"Aa.Bb"}`)
	}))
	defer other.Close()
	redirect := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	})

	plain := httptest.NewServer(redirect)
	defer plain.Close()
	_, err := newClient(t, plain.URL, client.WithToken("s3cret")).PutProvider(ctx, "Aa.Bb", api.ResourceProvider{})
	if err != nil {
		t.Errorf("PUT through a redirect to another port: %v", err)
	}
	mu.Lock()
	if len(got) != 1 || got[0] != "" {
		t.Errorf("another port of the host got Authorization %q", got)
	}
	got = nil
	mu.Unlock()

	tls := httptest.NewTLSServer(redirect)
	defer tls.Close()
	_, err = newClient(t, tls.URL, client.WithToken("s3cret"), client.WithHTTPClient(tls.Client()), client.WithRetry(1, 0, 0)).PutProvider(ctx, "Aa.Bb", api.ResourceProvider{})
	if err == nil || !strings.Contains(err.Error(), "leaves https") {
		t.Errorf("a redirect from https to http: %v", err)
	}
	mu.Lock()
	if len(got) != 0 {
		t.Errorf("plain http got %d requests (Authorization %q)", len(got), got)
	}
	mu.Unlock()
}
