package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/udtc/udtc/registry/secrets"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/server"
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

// countWrites counts the PUT and DELETE requests it sends.
type countWrites struct{ n atomic.Int64 }

func (c *countWrites) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPut || r.Method == http.MethodDelete {
		c.n.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

type syncFixture struct {
	t       *testing.T
	repo    *source.Repo
	dir     string
	state   string
	srv     *server.Server
	ts      *httptest.Server
	syncer  *syncer
	writes  *countWrites
	reg     *client.Client
	commits int
}

func newSyncFixture(t *testing.T) *syncFixture {
	t.Helper()
	f := &syncFixture{t: t, dir: t.TempDir()}
	var err error
	if f.repo, err = source.Init(f.dir); err != nil {
		t.Fatal(err)
	}
	f.state = filepath.Join(t.TempDir(), "state.json")
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

// start starts a registry (a fresh server over the same store file) that
// syncs the repository, as a restart of udtc serve would.
func (f *syncFixture) start(storePath string) {
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
	flags := syncFlags{repo: f.dir, dir: "manifests", interval: time.Hour, stateFile: f.state}
	sy, err := flags.newSyncer(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		f.t.Fatal(err)
	}
	f.writes = &countWrites{}
	sy.transport = f.writes
	srv, err := server.New(ctx, server.Options{Store: store, Secrets: testSealer(f.t), CheckSchema: checkSchema, Sync: sy.asServerSync()})
	if err != nil {
		f.t.Fatal(err)
	}
	f.srv, f.syncer = srv, sy
	f.ts = httptest.NewServer(srv)
	f.t.Cleanup(f.ts.Close)
	if err := sy.connect(f.ts.URL, ""); err != nil {
		f.t.Fatal(err)
	}
	if f.reg, err = client.New(f.ts.URL); err != nil {
		f.t.Fatal(err)
	}
	srv.SetReady(true)
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
	f.start(storePath)
	if st := f.status(); st.State != "pending" || st.LastAppliedCommit != "" {
		t.Fatalf("before the first sync: %+v", st)
	}

	// 1. A good commit is applied.
	f.syncer.once(ctx)
	st := f.status()
	if st.State != "synced" || st.LastAppliedCommit != good || st.LastSeenCommit != good || st.Ref != "main" ||
		strings.Join(st.Namespaces, ",") != "Contoso.Data,Contoso.Net" || st.Repository != f.dir {
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
	f.syncer.once(ctx)
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
	writes := f.writes.n.Load()
	f.syncer.once(ctx) // the same bad commit again: nothing written, still refused
	if f.writes.n.Load() != writes || f.status().State != "refused" {
		t.Errorf("a refused commit is looked at again: %d writes, %+v", f.writes.n.Load()-writes, f.status())
	}

	// 3. A revert is applied.
	revert := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.syncer.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != revert || st.Refused != nil {
		t.Fatalf("after the revert: %+v", st)
	}
	f.getJSON("/readyz", http.StatusOK, &ready)
	if ready["sync"] != "synced" {
		t.Errorf("/readyz after the revert: %v", ready)
	}

	// 4. A removed type is pruned, and so is a namespace no longer declared.
	pruned := f.commit(map[string]string{"data.yaml": strings.SplitN(syncData, "  caches:", 2)[0]})
	f.syncer.once(ctx)
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

	// 5. A restart resumes from the last applied commit: the guard holds at
	// once, and the unchanged commit writes nothing.
	f.start(storePath)
	st = f.status()
	if st.LastAppliedCommit != pruned || strings.Join(st.Namespaces, ",") != "Contoso.Data" {
		t.Fatalf("after a restart: %+v", st)
	}
	if _, err := f.reg.PutResourceType(ctx, "Contoso.Data", "queues", api.ResourceType{}); client.StatusCode(err) != http.StatusConflict {
		t.Errorf("PUT after a restart, before a sync: %v", err)
	}
	f.syncer.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != pruned {
		t.Errorf("after a restart and a sync: %+v", st)
	}
	if n := f.writes.n.Load(); n != 0 {
		t.Errorf("the restart wrote %d times for an applied commit", n)
	}
}

func TestSyncFlags(t *testing.T) {
	dir := t.TempDir()
	if _, err := source.Init(dir); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--sync-ref", "main"}, "--sync-ref needs --sync"},
		{[]string{"serve", "--sync", filepath.Join(dir, "nope")}, "neither a local directory nor a git URL"},
		{[]string{"serve", "--sync", dir, "--sync-interval", "10ms"}, "--sync-interval must be at least 1s"},
		{[]string{"serve", "--sync", dir, "--sync-dir", "../x"}, "--sync-dir"},
		{[]string{"serve", "--sync", dir, "--sync-token-file", filepath.Join(dir, "missing")}, "--sync-token-file"},
	}
	for _, tc := range tests {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
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
