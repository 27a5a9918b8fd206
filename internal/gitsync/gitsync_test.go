package gitsync_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/internal/gitsync"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/service"
	"github.com/udtc/udtc/registry/store/sqlite"
)

const syncData = `namespace: Contoso.Data
types:
  databases:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string, enum: [S, M, L]}
  caches:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            ttl: {type: integer}
`

const syncNet = `namespace: Contoso.Net
types:
  gateways:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            host: {type: string}
`

// syncFixture is a registry (a server over an SQLite store) and a
// repository to sync it from; syncers (newSyncer) sync the store through
// the server's service, as udtc serve does.
type syncFixture struct {
	t       *testing.T
	repo    *source.Repo
	dir     string // the repository
	spec    string // what --sync names: dir unless set
	store   registry.Store
	srv     *server.Server
	ts      *httptest.Server
	reg     *client.Client
	log     *bytes.Buffer // Once runs on the test goroutine: no lock
	clock   *fakeClock
	commits int
	// The writes and transactions of every syncer of the fixture.
	writes  atomic.Int64
	mu      sync.Mutex
	batches [][]service.SyncWrite
	syncer  *gitsync.Syncer  // the first syncer
	sreg    gitsync.Registry // what it reads and writes
}

// fakeClock is the syncers' clock: the lease's TTL passes when a test
// says so.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// once runs one sync of the first syncer.
func (f *syncFixture) once(ctx context.Context) { f.syncer.Once(ctx, f.sreg) }

// counted is a syncer's registry with its transactions counted (and kept
// in the fixture's batches).
type counted struct {
	gitsync.Registry
	f *syncFixture
	// commits counts this syncer's transactions.
	commits *atomic.Int64
}

func (c counted) CommitSync(ctx context.Context, sc service.SyncCommit) error {
	c.commits.Add(1)
	if len(sc.Writes) > 0 {
		c.f.writes.Add(int64(len(sc.Writes)))
		c.f.mu.Lock()
		c.f.batches = append(c.f.batches, sc.Writes)
		c.f.mu.Unlock()
	}
	return c.Registry.CommitSync(ctx, sc)
}

func newSyncFixture(t *testing.T) *syncFixture {
	t.Helper()
	f := &syncFixture{t: t, dir: t.TempDir(), log: &bytes.Buffer{}, clock: &fakeClock{now: time.Unix(1800000000, 0)}}
	f.spec = f.dir
	var err error
	if f.repo, err = source.Init(f.dir); err != nil {
		t.Fatal(err)
	}
	return f
}

// commit writes the manifests directory as one commit on main.
func (f *syncFixture) commit(files map[string]string) string {
	f.t.Helper()
	f.commits++
	var fs []source.File
	for p, data := range files {
		fs = append(fs, source.File{Path: p, Data: []byte(data)})
	}
	h, err := f.repo.CommitCheckedOut(source.CommitOptions{Branch: "main", Dir: "manifests", Files: fs,
		Author: source.Author{Name: "T", Email: "t@example.com"}, Message: "change", When: time.Unix(1700000000+int64(f.commits), 0)})
	if err != nil {
		f.t.Fatal(err)
	}
	return h
}

// start starts a registry (a fresh server over the store file) with a
// syncer of the repository, as a start of udtc serve would.
func (f *syncFixture) start(storePath string, cfg gitsync.Config) {
	f.t.Helper()
	ctx := context.Background()
	if f.ts != nil {
		f.ts.Close()
	}
	store, err := sqlite.Open(ctx, storePath)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { store.Close() })
	srv, err := server.New(ctx, server.Options{Store: store, Secrets: testSealer(f.t), CheckSchema: checkSchema})
	if err != nil {
		f.t.Fatal(err)
	}
	f.store, f.srv = store, srv
	f.ts = httptest.NewServer(srv)
	f.t.Cleanup(f.ts.Close)
	if f.reg, err = client.New(f.ts.URL); err != nil {
		f.t.Fatal(err)
	}
	srv.SetReady(true)
	f.syncer, f.sreg = f.newSyncer(cfg)
}

// newSyncer returns another syncer of the repository (another udtc serve
// --sync on the store), with cfg's Heal and Limits, and its registry.
func (f *syncFixture) newSyncer(cfg gitsync.Config) (*gitsync.Syncer, gitsync.Registry) {
	f.t.Helper()
	remote, err := source.OpenRemote(f.spec, "")
	if err != nil {
		f.t.Fatal(err)
	}
	cfg.Remote, cfg.Dir, cfg.Interval, cfg.Now = remote, "manifests", time.Minute, f.clock.Now
	cfg.Log = slog.New(slog.NewTextHandler(f.log, nil))
	sy, err := gitsync.New(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	return sy, counted{gitsync.ServiceRegistry{Service: f.srv.Service()}, f, &atomic.Int64{}}
}

func (f *syncFixture) status() api.SyncStatus {
	f.t.Helper()
	var st api.SyncStatus
	f.getJSON("/sync/status", http.StatusOK, &st)
	return st
}

func (f *syncFixture) getJSON(path string, want int, v any) {
	f.t.Helper()
	resp, err := http.Get(f.ts.URL + path)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		b, _ := io.ReadAll(resp.Body)
		f.t.Fatalf("GET %s: %d, want %d: %s", path, resp.StatusCode, want, b)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		f.t.Fatal(err)
	}
}

// types returns the registered types of a namespace, nil when it is absent.
func (f *syncFixture) types(ns string) []string {
	f.t.Helper()
	sum, err := f.reg.ProviderSummary(context.Background(), ns)
	if client.IsNotFound(err) {
		return nil
	}
	if err != nil {
		f.t.Fatal(err)
	}
	var out []string
	for name := range sum.ResourceTypes {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

func TestSync(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	storePath := filepath.Join(t.TempDir(), "registry.db")
	good := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.start(storePath, gitsync.Config{Heal: true})
	f.getJSON("/sync/status", http.StatusNotFound, &struct{}{}) // nothing synced the store yet

	// 1. A good commit is applied.
	f.once(ctx)
	st := f.status()
	if st.State != "synced" || st.LastAppliedCommit != good || st.LastSeenCommit != good || st.Ref != "main" ||
		strings.Join(st.Namespaces, ",") != "Contoso.Data,Contoso.Net" || st.Repository != f.dir || st.Holder != f.syncer.Holder() || !st.Heal {
		t.Fatalf("after a good commit: %+v", st)
	}
	if got := strings.Join(f.types("Contoso.Data"), ","); got != "caches,databases" {
		t.Fatalf("Contoso.Data types: %s", got)
	}

	// Other writers are refused in synced namespaces, 409 naming the repository.
	_, err := f.reg.PutResourceType(ctx, "Contoso.Data", "queues", api.ResourceType{})
	if client.StatusCode(err) != http.StatusConflict || !strings.Contains(err.Error(), f.dir) {
		t.Errorf("PUT into a synced namespace: %v", err)
	}
	if _, err := f.reg.DeleteResourceType(ctx, "contoso.data", "caches"); client.StatusCode(err) != http.StatusConflict {
		t.Errorf("DELETE in a synced namespace (other case): %v", err)
	}
	if _, err := f.reg.PutProvider(ctx, "Other.Things", api.ResourceProvider{}); err != nil {
		t.Errorf("PUT into another namespace: %v", err)
	}

	// 2. A bad commit is refused; the previous state stays; diagnostics at /sync/status.
	bad := f.commit(map[string]string{"data.yaml": strings.Replace(syncData, "type: integer", "type: integr", 1), "net.yaml": syncNet})
	f.once(ctx)
	st = f.status()
	if st.State != "refused" || st.LastAppliedCommit != good || st.LastSeenCommit != bad || st.Refused == nil || st.Refused.Commit != bad {
		t.Fatalf("after a bad commit: %+v", st)
	}
	d := st.Refused.Diagnostics
	if len(d) != 1 || d[0].File != "manifests/data.yaml" || d[0].Line != 16 || d[0].Column == 0 || d[0].Rule != "type-invalid" || !strings.Contains(d[0].Message, "integr") {
		t.Errorf("diagnostics: %+v", d)
	}
	if got := strings.Join(f.types("Contoso.Data"), ","); got != "caches,databases" {
		t.Errorf("the previous state is not kept: %s", got)
	}
	var ready map[string]string
	f.getJSON("/readyz", http.StatusOK, &ready)
	if !strings.Contains(ready["sync"], "refused commit "+bad[:12]) || !strings.Contains(ready["sync"], "serving "+good[:12]) {
		t.Errorf("/readyz: %v", ready)
	}
	writes := f.writes.Load()
	f.once(ctx) // the same bad commit again: nothing written, still refused
	if f.writes.Load() != writes || f.status().State != "refused" {
		t.Errorf("a refused commit is looked at again: %d writes, %+v", f.writes.Load()-writes, f.status())
	}

	// 3. A revert is applied.
	revert := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != revert || st.Refused != nil {
		t.Fatalf("after the revert: %+v", st)
	}
	f.getJSON("/readyz", http.StatusOK, &ready)
	if ready["sync"] != "synced" {
		t.Errorf("/readyz after the revert: %v", ready)
	}

	// 4. A removed type is pruned, and so is a namespace no longer declared.
	pruned := f.commit(map[string]string{"data.yaml": strings.SplitN(syncData, "  caches:", 2)[0]})
	f.once(ctx)
	st = f.status()
	if st.State != "synced" || st.LastAppliedCommit != pruned || strings.Join(st.Namespaces, ",") != "Contoso.Data" {
		t.Fatalf("after removing a type and a namespace: %+v", st)
	}
	if got := strings.Join(f.types("Contoso.Data"), ","); got != "databases" {
		t.Errorf("caches not pruned: %s", got)
	}
	if got := f.types("Contoso.Net"); got != nil {
		t.Errorf("Contoso.Net not pruned: %v", got)
	}
	if _, err := f.reg.PutProvider(ctx, "Contoso.Net", api.ResourceProvider{}); err != nil {
		t.Errorf("a pruned namespace is free again: %v", err)
	}
	if got := strings.Join(f.types("Other.Things"), ","); got != "" {
		t.Errorf("another namespace was touched: %s", got)
	}

	// 5. A restart resumes from the store: the guard holds at once, the
	// released lease is taken at once, and the unchanged commit writes
	// nothing.
	f.syncer.Release(ctx, f.sreg)
	f.writes.Store(0)
	f.start(storePath, gitsync.Config{Heal: true})
	st = f.status()
	if st.LastAppliedCommit != pruned || strings.Join(st.Namespaces, ",") != "Contoso.Data" || st.Holder != "" {
		t.Fatalf("after a restart: %+v", st)
	}
	if _, err := f.reg.PutResourceType(ctx, "Contoso.Data", "queues", api.ResourceType{}); client.StatusCode(err) != http.StatusConflict {
		t.Errorf("PUT after a restart, before a sync: %v", err)
	}
	f.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != pruned || st.Holder != f.syncer.Holder() {
		t.Errorf("after a restart and a sync: %+v", st)
	}
	if n := f.writes.Load(); n != 0 {
		t.Errorf("the restart wrote %d times for an applied commit", n)
	}
}

// checkSchema is the server's check of a schema PUT, as udtc serve wires
// it: the checker of udtc check.
func checkSchema(schema json.RawMessage) []api.Diagnostic {
	_, diags := check.Schema("schema", schema, &check.Patterns{})
	out := make([]api.Diagnostic, 0, len(diags))
	for _, d := range diags {
		out = append(out, registration.Diagnostic(d))
	}
	return out
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

// put sends a PUT to the registry and fails the test unless it succeeds.
func (f *syncFixture) put(path, body string) {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodPut, f.ts.URL+path, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		f.t.Fatalf("PUT %s: %d: %s", path, resp.StatusCode, b)
	}
}

// TestSyncNamespaceAllOrNothing: a namespace whose apply fails midway (a
// type removed while a resource still uses it: the store refuses the
// delete, after the namespace's other writes) keeps its previous state
// entirely; the commit is not applied, and the other namespaces are.
func TestSyncNamespaceAllOrNothing(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	good := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: true})
	f.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != good {
		t.Fatalf("after a good commit: %+v", st)
	}
	if len(f.batches) != 2 {
		t.Fatalf("the first sync made %d transactions, want one per namespace (2)", len(f.batches))
	}
	if n := f.writes.Load(); n != int64(len(f.batches[0])+len(f.batches[1])) {
		t.Errorf("%d writes in all, but only %d in the transactions: some went over HTTP", n, len(f.batches[0])+len(f.batches[1]))
	}
	f.put("/planes/radius/local/resourceGroups/rg?api-version=2023-10-01-preview", `{"location":"global"}`)
	f.put("/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/caches/c1?api-version=2025-01-01", `{"properties":{"environment":"env","ttl":5}}`)
	before, err := f.reg.ProviderSummary(ctx, "Contoso.Data")
	if err != nil {
		t.Fatal(err)
	}

	// Change databases (an enum value added), remove caches (still used by
	// c1), and change Contoso.Net (a property added).
	data := strings.Replace(strings.SplitN(syncData, "  caches:", 2)[0], "enum: [S, M, L]", "enum: [S, M, L, XL]", 1)
	net := strings.Replace(syncNet, "host: {type: string}", "host: {type: string}\n            port: {type: integer}", 1)
	bad := f.commit(map[string]string{"data.yaml": data, "net.yaml": net})
	f.batches = nil
	f.once(ctx)
	st := f.status()
	if st.State != "failed" || st.LastAppliedCommit != good || st.LastSeenCommit != bad ||
		!strings.Contains(st.Error, "Contoso.Data") || !strings.Contains(st.Error, "caches") {
		t.Fatalf("after a commit whose apply fails: %+v", st)
	}
	// The failed transaction wrote databases' new version before the
	// refused delete: the rollback is what keeps it out.
	var failed []service.SyncWrite
	for _, b := range f.batches {
		if strings.EqualFold(b[0].ID.Provider, "Contoso.Data") {
			failed = b
		}
	}
	putDatabases, refusedAt := -1, -1
	for i, w := range failed {
		switch {
		case w.Body != nil && w.ID.Type == "databases" && w.ID.Kind == api.KindAPIVersion:
			putDatabases = i
		case w.Body == nil && w.ID.Type == "caches" && refusedAt < 0:
			refusedAt = i
		}
	}
	if putDatabases < 0 || refusedAt < putDatabases {
		t.Fatalf("the Contoso.Data transaction does not put databases before deleting caches: %+v", failed)
	}
	after, err := f.reg.ProviderSummary(ctx, "Contoso.Data")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("Contoso.Data changed although its apply failed (-before +after):\n%s", diff)
	}
	v, err := f.reg.GetAPIVersion(ctx, "Contoso.Data", "databases", "2025-01-01")
	if err != nil || strings.Contains(string(v.Properties.Schema), "XL") {
		t.Errorf("databases 2025-01-01 = %s, %v; want the previous schema", v.Properties.Schema, err)
	}
	// Contoso.Net is its own transaction: applied.
	nv, err := f.reg.GetAPIVersion(ctx, "Contoso.Net", "gateways", "2025-01-01")
	if err != nil || !strings.Contains(string(nv.Properties.Schema), "port") {
		t.Errorf("Contoso.Net gateways 2025-01-01 = %s, %v; want the new schema", nv.Properties.Schema, err)
	}

	// Once c1 is gone, the same commit applies whole.
	req, _ := http.NewRequest(http.MethodDelete, f.ts.URL+"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/caches/c1?api-version=2025-01-01", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE c1: %v %v", resp, err)
	}
	f.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != bad {
		t.Fatalf("after the retry: %+v", st)
	}
	if got := strings.Join(f.types("Contoso.Data"), ","); got != "databases" {
		t.Errorf("Contoso.Data types after the retry: %s", got)
	}
}

// A synced registration obeys the API's limit on a write's body, as its
// PUT would: a type with a huge description does not reach the registry
// (and every anonymous list) through git.
func TestSyncObeysTheBodyLimit(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	huge := strings.Replace(syncData, "  databases:\n", "  databases:\n    description: '"+strings.Repeat("x", 5000)+"'\n", 1)
	f.commit(map[string]string{"data.yaml": huge, "net.yaml": syncNet})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: true, Limits: gitsync.Limits{MaxBodyBytes: 4096}})
	f.once(ctx)
	st := f.status()
	if st.State != "failed" || !strings.Contains(st.Error, "Contoso.Data") || !strings.Contains(st.Error, "more than the 4096 bytes a write may have") {
		t.Errorf("after a commit with a body over the limit: %+v", st)
	}
	if _, err := f.reg.ProviderSummary(ctx, "Contoso.Data"); client.StatusCode(err) != http.StatusNotFound {
		t.Errorf("Contoso.Data was written: %v", err)
	}
	if got := strings.Join(f.types("Contoso.Net"), ","); got != "gateways" {
		t.Errorf("Contoso.Net, within the limit: %q", got)
	}
}

// A hand-edited sync_state.status that does not read is reported, stops
// the sync, and leaves writes outside the managed namespaces working (they
// were 500 on every server sharing the store, for good).
func TestSyncStateDamaged(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	storePath := filepath.Join(t.TempDir(), "registry.db")
	f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.start(storePath, gitsync.Config{Heal: true})
	f.once(ctx)
	if st := f.status(); st.State != "synced" {
		t.Fatalf("after a good commit: %+v", st)
	}
	db, err := sql.Open("sqlite", storePath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE sync_state SET status = '{"state": "synced",' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	f.start(storePath, gitsync.Config{Heal: true}) // a server (re)started over the store
	if _, err := f.reg.PutProvider(ctx, "Other.Things", api.ResourceProvider{}); err != nil {
		t.Errorf("PUT outside the managed namespaces: %v", err)
	}
	if _, err := f.reg.PutResourceType(ctx, "Contoso.Data", "queues", api.ResourceType{}); client.StatusCode(err) != http.StatusConflict {
		t.Errorf("PUT into a managed namespace: %v, want 409", err)
	}
	st := f.status()
	if st.State != "damaged" || !strings.Contains(st.Error, "sync_state.status") || strings.Join(st.Namespaces, ",") != "Contoso.Data,Contoso.Net" {
		t.Errorf("/sync/status of a damaged state: %+v", st)
	}
	var ready map[string]string
	f.getJSON("/readyz", http.StatusOK, &ready)
	if !strings.HasPrefix(ready["sync"], "damaged: ") {
		t.Errorf("/readyz: %v", ready)
	}
	writes := f.writes.Load()
	f.once(ctx)
	if f.writes.Load() != writes || f.status().State != "damaged" || !strings.Contains(f.log.String(), "not syncing: the stored sync state is damaged") {
		t.Errorf("a sync over a damaged state: %d writes, %+v\n%s", f.writes.Load()-writes, f.status(), f.log)
	}

	// The repair docs/git.md gives: delete the row; the sync starts afresh.
	if db, err = sql.Open("sqlite", storePath); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM sync_state`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f.start(storePath, gitsync.Config{Heal: true})
	f.once(ctx)
	if st := f.status(); st.State != "synced" || strings.Join(st.Namespaces, ",") != "Contoso.Data,Contoso.Net" {
		t.Errorf("after deleting the damaged row: %+v", st)
	}
}
