package client_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/internal/ucpfake"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/server"
)

// fastOps are short waits for tests against the fake UCP.
var fastOps = client.Operations{Timeout: 5 * time.Second, Poll: 5 * time.Millisecond, MaxPoll: 20 * time.Millisecond, Busy: 20 * time.Millisecond, MaxBusy: 80 * time.Millisecond}

// ucpClient returns a client of a fake UCP, detected.
func ucpClient(t *testing.T, ops client.Operations) (*ucpfake.Server, *client.Client) {
	t.Helper()
	fake := ucpfake.Start(t)
	c := newClient(t, fake.URL, client.WithOperations(ops))
	tgt, err := c.Detect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if tgt.Flavor != client.FlavorUCP || tgt.URL != fake.URL+api.BasePath {
		t.Fatalf("Detect = %+v, want UCP at %s", tgt, fake.URL+api.BasePath)
	}
	return fake, c
}

const fakeRP = "/planes/radius/local/providers/System.Resources/resourceproviders"

func TestDetect(t *testing.T) {
	ctx := context.Background()
	ts := httptest.NewServer(newServer(t, server.Options{}))
	defer ts.Close()
	for _, base := range []string{ts.URL, ts.URL + "/"} {
		c := newClient(t, base)
		tgt, err := c.Detect(ctx)
		if err != nil || tgt.Flavor != client.FlavorUdtc || tgt.URL != ts.URL || tgt.Version == "" {
			t.Errorf("Detect(%s) = %+v, %v; want udtc serve at %s", base, tgt, err, ts.URL)
		}
	}
	// A base path as rad's workspaces name UCP is kept.
	fake := ucpfake.Start(t)
	c := newClient(t, fake.URL+api.BasePath)
	if tgt, err := c.Detect(ctx); err != nil || tgt.Flavor != client.FlavorUCP || tgt.URL != fake.URL+api.BasePath {
		t.Errorf("Detect(base path) = %+v, %v", tgt, err)
	}
	if !strings.Contains(c.Target().String(), "Radius UCP at") {
		t.Errorf("Target = %s", c.Target())
	}
	// An older udtc serve: no API under the base path, but /readyz.
	srv := newServer(t, server.Options{})
	srv.SetReady(true)
	old := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, api.BasePath) {
			http.NotFound(w, r)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	defer old.Close()
	if tgt, err := newClient(t, old.URL).Detect(ctx); err != nil || tgt.Flavor != client.FlavorUdtc || tgt.URL != old.URL {
		t.Errorf("Detect(older udtc) = %+v, %v", tgt, err)
	}
}

// TestWritesWaitForOperations: a write returns once its operation
// succeeded, with the resource as it then is; deletes too.
func TestWritesWaitForOperations(t *testing.T) {
	ctx := context.Background()
	fake, c := ucpClient(t, fastOps)
	fake.Steps = 3
	var states []string
	pctx := client.WithProgress(ctx, func(state string, _ time.Duration) { states = append(states, state) })
	p, err := c.PutProvider(pctx, "Contoso.Data", api.ResourceProvider{Location: "global"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Properties.ProvisioningState != "Succeeded" || fake.State(fakeRP+"/Contoso.Data") != "Succeeded" {
		t.Errorf("PutProvider = %+v; the fake says %s", p, fake.State(fakeRP+"/Contoso.Data"))
	}
	if strings.Join(states, ",") != "Updating,Updating" {
		t.Errorf("progress = %v", states)
	}
	if _, err := c.PutResourceType(ctx, "Contoso.Data", "buses", api.ResourceType{}); err != nil {
		t.Fatal(err)
	}
	deleted, err := c.DeleteResourceType(ctx, "Contoso.Data", "buses")
	if err != nil || !deleted || fake.State(fakeRP+"/Contoso.Data/resourcetypes/buses") != "" {
		t.Errorf("DeleteResourceType = %v, %v; the fake says %q", deleted, err, fake.State(fakeRP+"/Contoso.Data/resourcetypes/buses"))
	}
	if deleted, err := c.DeleteResourceType(ctx, "Contoso.Data", "buses"); err != nil || deleted {
		t.Errorf("DeleteResourceType of an absent type = %v, %v", deleted, err)
	}
	for _, r := range fake.Requests() {
		if r.Status == http.StatusNotFound {
			t.Errorf("%s %s = 404: a path UCP does not serve", r.Method, r.Path)
		}
	}
}

// TestFailedOperations: an operation that ends Failed or Canceled is an
// *OperationError, never a success.
func TestFailedOperations(t *testing.T) {
	ctx := context.Background()
	fake, c := ucpClient(t, fastOps)
	if _, err := c.PutProvider(ctx, "Contoso.Data", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}
	for _, state := range []string{"Failed", "Canceled"} {
		fake.Fail(fakeRP+"/Contoso.Data/resourcetypes/buses", state)
		_, err := c.PutResourceType(ctx, "Contoso.Data", "buses", api.ResourceType{})
		var oe *client.OperationError
		if !errors.As(err, &oe) || oe.State != state || oe.Code != "Internal" {
			t.Errorf("PutResourceType, operation %s: %v", state, err)
		}
	}
}

// TestOperationTimeout: an operation still running at the write's
// timeout is an error wrapping ErrOperationTimeout that names its state.
func TestOperationTimeout(t *testing.T) {
	ops := fastOps
	ops.Timeout = 150 * time.Millisecond
	fake, c := ucpClient(t, ops)
	fake.Hold(fakeRP + "/Contoso.Data")
	_, err := c.PutProvider(context.Background(), "Contoso.Data", api.ResourceProvider{})
	if !errors.Is(err, client.ErrOperationTimeout) || !strings.Contains(err.Error(), "still Updating after") {
		t.Errorf("PutProvider of a held operation = %v", err)
	}
}

// TestInProgressRetried: a write refused with UCP's 409 "in progress"
// while another write's operation runs is retried, with a growing wait,
// and succeeds once that operation ends.
func TestInProgressRetried(t *testing.T) {
	ctx := context.Background()
	fake, c := ucpClient(t, fastOps)
	id := fakeRP + "/Contoso.Data"
	fake.Hold(id)
	first := make(chan error, 1)
	go func() {
		_, err := c.PutProvider(ctx, "Contoso.Data", api.ResourceProvider{})
		first <- err
	}()
	for fake.State(id) == "" {
		time.Sleep(time.Millisecond)
	}
	var waits atomic.Int32
	pctx := client.WithProgress(ctx, func(state string, _ time.Duration) {
		if state == "waiting for another write" && waits.Add(1) == 3 {
			fake.Release(id)
		}
	})
	if _, err := c.PutProvider(pctx, "Contoso.Data", api.ResourceProvider{Location: "east"}); err != nil {
		t.Fatalf("the second write: %v", err)
	}
	if err := <-first; err != nil {
		t.Fatalf("the first write: %v", err)
	}
	var conflicts []time.Time
	for _, r := range fake.Requests() {
		if r.Method == "PUT" && r.Status == http.StatusConflict {
			conflicts = append(conflicts, r.Time)
		}
	}
	if len(conflicts) < 3 {
		t.Fatalf("%d 409s, want at least 3", len(conflicts))
	}
	if gap1, gap2 := conflicts[1].Sub(conflicts[0]), conflicts[2].Sub(conflicts[1]); gap1 < fastOps.Busy || gap2 < 2*fastOps.Busy {
		t.Errorf("retries after %s and %s, want at least %s then %s", gap1, gap2, fastOps.Busy, 2*fastOps.Busy)
	}
}

// TestListsScopedByID: UCP lists the locations of the whole plane; the
// client keeps the provider's own.
func TestListsScopedByID(t *testing.T) {
	ctx := context.Background()
	fake, c := ucpClient(t, fastOps)
	fake.Seed("local", "Other.Provider", "global", "http://other.example")
	if _, err := c.PutProvider(ctx, "Contoso.Data", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutLocation(ctx, "Contoso.Data", "east", api.Location{}); err != nil {
		t.Fatal(err)
	}
	locs, err := c.ListLocations(ctx, "Contoso.Data")
	if err != nil || len(locs) != 1 || locs[0].Name != "east" {
		t.Errorf("ListLocations = %+v, %v; want east only", locs, err)
	}
}

// TestTokenStaysWithTheServer: a polled URL on another origin gets no
// token.
func TestTokenStaysWithTheServer(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(leaked.Load() || r.Header.Get("Authorization") != "")
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"status":"Succeeded"}`))
	}))
	defer other.Close()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer t" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPut {
			w.Header().Set("Azure-AsyncOperation", other.URL+"/status")
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusCreated)
		}
		w.Write([]byte(`{"name":"Contoso.Data","properties":{"provisioningState":"Accepted"}}`))
	}))
	defer ts.Close()
	c := newClient(t, ts.URL, client.WithToken("t"), client.WithOperations(fastOps))
	if _, err := c.PutProvider(context.Background(), "Contoso.Data", api.ResourceProvider{}); err != nil {
		t.Fatal(err)
	}
	if leaked.Load() {
		t.Error("the token was sent to another origin")
	}
}
