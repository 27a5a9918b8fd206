package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/service"
	"github.com/udtc/udtc/registry/store/sqlite"
)

const syncRepo = "https://git.example/types.git"

// recordSync records, through the service of srv, a sync of syncRepo that
// manages namespaces, with status st (its repository set), as the server
// that syncs would; it returns the lease.
func recordSync(t *testing.T, srv *server.Server, st api.SyncStatus, namespaces ...string) registry.SyncLease {
	t.Helper()
	ctx := context.Background()
	svc := srv.Service()
	st.Repository = syncRepo
	l, err := svc.TakeSyncLease(ctx, 0, registry.SyncLease{Holder: "h1", TTL: time.Minute}, st)
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.CommitSync(ctx, service.SyncCommit{Fence: l, Claim: namespaces, Status: &st}); err != nil {
		t.Fatal(err)
	}
	return l
}

// setSyncStatus records st (its repository set) under l.
func setSyncStatus(t *testing.T, srv *server.Server, l registry.SyncLease, st api.SyncStatus) {
	t.Helper()
	st.Repository = syncRepo
	if err := srv.Service().CommitSync(context.Background(), service.SyncCommit{Fence: l, Status: &st}); err != nil {
		t.Fatal(err)
	}
}

// The sync's state is in the store: every server sharing it refuses
// writes to the managed namespaces and answers /sync/status, whether it
// syncs or not; the sync itself writes through the service.
func TestSyncGuardAndStatus(t *testing.T) {
	store := newStore(t)
	f := newFixture(t, server.Options{Store: store})
	f.srv.SetReady(true)
	// Before any sync, nothing is guarded and there is no status.
	f.must(404, "GET", "!/sync/status", "")
	f.must(201, "PUT", rp+"/Contoso.Git", `{"properties":{}}`, "Content-Type: application/json")
	if r := f.must(200, "GET", "!/readyz", ""); strings.Contains(string(r.body), "sync") {
		t.Errorf("/readyz without a sync: %s", r.body)
	}

	l := recordSync(t, f.srv, api.SyncStatus{State: "synced", LastAppliedCommit: "1111111111111111111111111111111111111111"}, "Contoso.Git")
	other := newFixture(t, server.Options{Store: store}) // another server on the same store
	other.srv.SetReady(true)
	for _, g := range []*fixture{f, other} {
		// Other writers get 409 naming the repository, in any case of the namespace.
		for _, p := range []string{rp + "/Contoso.Git", rp + "/contoso.git/resourceTypes/things", rp + "/Contoso.Git/locations/global"} {
			r := g.must(409, "PUT", p, `{"properties":{}}`, "Content-Type: application/json")
			if !strings.Contains(string(r.body), syncRepo) || !strings.Contains(string(r.body), `"code":"Conflict"`) {
				t.Errorf("PUT %s: %s", p, r.body)
			}
			g.must(409, "DELETE", p, "")
		}
		// Other namespaces may be written; reads are not guarded.
		g.must(200, "GET", rp+"/Contoso.Git", "")
		var st api.SyncStatus
		if err := json.Unmarshal(g.must(200, "GET", "!/sync/status", "").body, &st); err != nil || st.State != "synced" || st.Repository != syncRepo ||
			st.Holder != "h1" || strings.Join(st.Namespaces, ",") != "Contoso.Git" {
			t.Errorf("/sync/status: %+v %v", st, err)
		}
		if r := g.must(200, "GET", "!/readyz", ""); !strings.Contains(string(r.body), `"sync":"synced"`) {
			t.Errorf("/readyz: %s", r.body)
		}
	}
	f.must(201, "PUT", rp+"/Contoso.Other", `{"properties":{}}`, "Content-Type: application/json")
	// The sync writes through the service, under its lease.
	err := f.srv.Service().CommitSync(context.Background(), service.SyncCommit{Fence: l, Actor: "git-sync test",
		Writes: []service.SyncWrite{{ID: registry.TypeID("local", "Contoso.Git", "things"), Body: api.ResourceType{}}}})
	if err != nil {
		t.Fatalf("the sync's own write: %v", err)
	}
	other.must(200, "GET", rp+"/Contoso.Git/resourceTypes/things", "")

	setSyncStatus(t, f.srv, l, api.SyncStatus{State: "refused", LastAppliedCommit: "1111111111111111111111111111111111111111",
		Refused: &api.SyncRefusal{Commit: "2222222222222222222222222222222222222222", Diagnostics: []api.Diagnostic{{Rule: "type-invalid"}}}})
	r := other.must(200, "GET", "!/readyz", "")
	if !strings.Contains(string(r.body), "refused commit 222222222222 of "+syncRepo+" (1 diagnostics, see /sync/status); serving 111111111111") {
		t.Errorf("/readyz with a refused commit: %s", r.body)
	}
	setSyncStatus(t, f.srv, l, api.SyncStatus{State: "drifted", Drift: &api.SyncDrift{Commit: "1111111111111111111111111111111111111111",
		Changes: []api.SyncDriftChange{{Drift: "missing", Kind: api.KindResourceType, Namespace: "Contoso.Git", Type: "things"}}}})
	if r := other.must(200, "GET", "!/readyz", ""); !strings.Contains(string(r.body), "drifted: 1 registrations differ from commit 111111111111") {
		t.Errorf("/readyz with drift: %s", r.body)
	}
	// Released namespaces are free again, on every server.
	if err := f.srv.Service().CommitSync(context.Background(), service.SyncCommit{Fence: l, Release: []string{"contoso.GIT"}}); err != nil {
		t.Fatal(err)
	}
	other.must(200, "PUT", rp+"/Contoso.Git", `{"properties":{}}`, "Content-Type: application/json")
}

func TestApplyRegistrations(t *testing.T) {
	ctx := context.Background()
	checkSchema := func(schema json.RawMessage) []api.Diagnostic {
		if strings.Contains(string(schema), `"string"`) {
			return []api.Diagnostic{{Severity: "error", Rule: "schema-type-object", Path: "/type", Message: "the top-level schema must be an object"}}
		}
		return nil
	}
	f := newFixture(t, server.Options{CheckSchema: checkSchema})
	typeID := registry.TypeID("local", "Contoso.Tx", "things")
	ok := []service.SyncWrite{
		{ID: registry.ProviderID("local", "Contoso.Tx"), Body: api.ResourceProvider{}},
		{ID: typeID, Body: api.ResourceType{Properties: api.ResourceTypeProperties{Description: "first"}}},
		{ID: registry.APIVersionID("local", "Contoso.Tx", "things", "2025-01-01"), Body: api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"type":"object"}`)}}},
		{ID: registry.LocationID("local", "Contoso.Tx", "global"), Body: api.Location{Properties: api.LocationProperties{Address: "http://127.0.0.1:1"}}},
	}
	if err := f.srv.Service().ApplyRegistrations(ctx, "git-sync test", ok); err != nil {
		t.Fatalf("ApplyRegistrations: %v", err)
	}
	thing := f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things", "").json(t)
	if thing["properties"].(map[string]any)["description"] != "first" || thing["systemData"].(map[string]any)["lastModifiedBy"] != "git-sync test" {
		t.Errorf("things after the batch: %v", thing)
	}
	f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things/apiVersions/2025-01-01", "")
	f.must(200, "GET", rp+"/Contoso.Tx/locations/global", "")
	before := f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things", "").body

	changeThing := service.SyncWrite{ID: typeID, Body: api.ResourceType{Properties: api.ResourceTypeProperties{Description: "second"}}}
	for _, tc := range []struct {
		name string
		last service.SyncWrite
		want string
	}{
		// Refused by the server's checks, before the store is asked.
		{"invalid schema", service.SyncWrite{ID: registry.APIVersionID("local", "Contoso.Tx", "things", "2025-02-01"),
			Body: api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"type":"string"}`)}}}, "/type: the top-level schema must be an object"},
		// Refused by the store, after the other writes of the batch.
		{"parent missing", service.SyncWrite{ID: registry.APIVersionID("local", "Contoso.Tx", "absent", "2025-02-01"),
			Body: api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{}`)}}}, "parent not found"},
	} {
		err := f.srv.Service().ApplyRegistrations(ctx, "git-sync test", []service.SyncWrite{
			changeThing,
			{ID: registry.LocationID("local", "Contoso.Tx", "global")},
			{ID: registry.TypeID("local", "Contoso.Tx", "others"), Body: api.ResourceType{}},
			tc.last,
		})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ApplyRegistrations = %v, want an error containing %q", tc.name, err, tc.want)
		}
		if got := f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things", "").body; string(got) != string(before) {
			t.Errorf("%s: things changed by a failed batch:\n%s\nwas\n%s", tc.name, got, before)
		}
		f.must(200, "GET", rp+"/Contoso.Tx/locations/global", "")
		f.must(404, "GET", rp+"/Contoso.Tx/resourceTypes/others", "")
	}
}

// The git sync reads through the service, in process: what it reads is
// what its requests would get (the summary and the location list of a
// provider), and a missing provider is client.IsNotFound, as its 404 is.
func TestServiceReadsAreTheRequests(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	ctx := context.Background()
	svc := f.srv.Service()
	sum, err := svc.ProviderSummary(ctx, api.DefaultPlane, "contoso.platform")
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if want := f.must(200, "GET", "/planes/radius/local/providers/contoso.platform", "").body; !bytes.Equal(append(got, '\n'), want) {
		t.Errorf("service summary\n%s\nGET\n%s", got, want)
	}
	locs, err := svc.Locations(ctx, api.DefaultPlane, "Contoso.Platform")
	if err != nil {
		t.Fatal(err)
	}
	var list api.List[api.Location]
	if err := json.Unmarshal(f.must(200, "GET", provider+"/locations", "").body, &list); err != nil {
		t.Fatal(err)
	}
	for i := range locs {
		locs[i].ETag = "" // the body carries none
	}
	if diff := cmp.Diff(list.Value, locs); diff != "" {
		t.Errorf("service locations (-GET +service):\n%s", diff)
	}
	f.must(404, "GET", "/planes/radius/local/providers/Contoso.Missing", "")
	if _, err := svc.ProviderSummary(ctx, api.DefaultPlane, "Contoso.Missing"); !client.IsNotFound(err) {
		t.Errorf("summary of a missing provider: %v, want client.IsNotFound", err)
	}
	f.must(404, "GET", rp+"/Contoso.Missing/locations", "")
	if _, err := svc.Locations(ctx, api.DefaultPlane, "Contoso.Missing"); !client.IsNotFound(err) {
		t.Errorf("locations of a missing provider: %v, want client.IsNotFound", err)
	}
}

// Two processes on one SQLite file: while the other holds the write lock
// (frozen inside its transaction), this server's writes wait for the busy
// timeout and are answered 503 with Retry-After, every one of them, not
// 500; once the lock is released they succeed.
func TestLockedDatabaseAnswers503(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "registry.db")
	store, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	f := newFixture(t, server.Options{Store: store})
	f.srv.SetReady(true)
	f.must(201, "PUT", rp+"/Contoso.Before", `{"properties":{}}`, "Content-Type: application/json")

	// The other process, frozen holding the write lock.
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, ns := range []string{"Contoso.One", "Contoso.Two", "Contoso.Three"} {
		wg.Go(func() {
			r := f.do("PUT", rp+"/"+ns, `{"properties":{}}`, "Content-Type: application/json")
			if r.status != 503 || r.header.Get("Retry-After") == "" || !strings.Contains(string(r.body), `"code":"ServiceUnavailable"`) {
				t.Errorf("PUT %s with the database locked = %d, Retry-After %q, %s; want 503 with Retry-After", ns, r.status, r.header.Get("Retry-After"), r.body)
			}
		})
	}
	wg.Wait()
	f.must(200, "GET", rp+"/Contoso.Before", "") // reads are not blocked
	if _, err := conn.ExecContext(ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	f.must(201, "PUT", rp+"/Contoso.One", `{"properties":{}}`, "Content-Type: application/json")
}
