package e2e_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// coldStartWriters is the load of the cold-start tests: concurrent writers
// on a server that has just started (no statement used yet).
const (
	coldStartWriters  = 16
	coldStartDuration = 10 * time.Second
)

// TestColdStartConcurrentWritersSQLite starts a fresh server on a new SQLite
// file and lets 16 writers create, update and delete resources through the
// real HTTP handler for 10 s. No request may fail with a 5xx and none may
// stall: a write transaction that needs a second pool connection (to
// prepare a statement) while every other connection waits for the write
// lock stalls until the busy timeout. How fast the writes are is measured
// by `make bench` (the cold-start rows), not here: a timing bound fails on
// a busy machine without anything being wrong.
func TestColdStartConcurrentWritersSQLite(t *testing.T) {
	coldStart(t, func() registry.Store {
		st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "registry.db"))
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}

// TestColdStartConcurrentWritersPostgres is the same load on PostgreSQL.
func TestColdStartConcurrentWritersPostgres(t *testing.T) {
	coldStart(t, func() registry.Store {
		st, err := postgres.Open(context.Background(), pg.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		return st
	})
}

// coldStartStall is how long one request may take before the test calls
// it a stall: far above any latency a slow machine gives, well below the
// minutes a deadlock or a busy-timeout loop would take.
const coldStartStall = 20 * time.Second

// coldStart runs the load against a new server on a new store from open
// and checks that no request failed with a 5xx and that the writers did
// not stall.
func coldStart(t *testing.T, open func() registry.Store) {
	if testing.Short() {
		t.Skip("a 10 s load test; skipped with -short")
	}
	st := open()
	defer st.Close()
	coldStartRun(t, st)
}

// coldStartRun runs the load once.
func coldStartRun(t *testing.T, st registry.Store) {
	srv, err := server.New(context.Background(), server.Options{Store: st, Secrets: testSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	hc := &http.Client{Timeout: coldStartStall, Transport: &http.Transport{MaxIdleConnsPerHost: coldStartWriters * 2}}
	defer hc.CloseIdleConnections()

	const rp = "/planes/radius/local/providers/System.Resources/resourceProviders/"
	type sample struct {
		d      time.Duration
		status int
		what   string
	}
	var (
		mu      sync.Mutex
		samples []sample
		wg      sync.WaitGroup
	)
	deadline := time.Now().Add(coldStartDuration)
	for w := range coldStartWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []sample
			send := func(method, path, body string) {
				req, err := http.NewRequest(method, ts.URL+path+"?api-version="+api.Version, strings.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				if body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				start := time.Now()
				resp, err := hc.Do(req)
				if err != nil {
					t.Errorf("%s %s: %v", method, path, err)
					return
				}
				msg, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				s := sample{d: time.Since(start), status: resp.StatusCode, what: method + " " + path}
				if s.status >= 500 {
					s.what += ": " + string(msg)
				}
				mine = append(mine, s)
			}
			// Every writer works in its own provider so that all writes
			// succeed; they still contend for the database's write lock.
			ns := fmt.Sprintf("Cold%d.Start", w)
			for i := 0; time.Now().Before(deadline); i++ {
				typ := fmt.Sprintf("%s%s/resourceTypes/t%d", rp, ns, i%8)
				send("PUT", rp+ns, `{"location":"global"}`)
				send("PUT", typ, `{"properties":{"defaultApiVersion":"2024-01-01"}}`)
				send("PUT", typ+"/apiVersions/2024-01-01", `{"properties":{"schema":{"type":"object"}}}`)
				send("PUT", fmt.Sprintf("%s%s/locations/l%d", rp, ns, i%4), `{"properties":{"address":"http://localhost:8080"}}`)
				send("GET", typ, "")
				if i%8 == 7 {
					send("DELETE", rp+ns, "")
				}
			}
			mu.Lock()
			samples = append(samples, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()

	var failed []string
	for _, s := range samples {
		if s.status >= 500 {
			failed = append(failed, fmt.Sprintf("%d %s", s.status, s.what))
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d of %d requests failed with 5xx; first: %s", len(failed), len(samples), failed[0])
	}
	if len(samples) == 0 {
		t.Fatalf("no request completed in %s: the writers stalled", coldStartDuration)
	}
	worst := slices.MaxFunc(samples, func(a, b sample) int { return int(a.d - b.d) })
	t.Logf("%d requests by %d writers, slowest %s (%s)", len(samples), coldStartWriters, worst.d, worst.what)
	if worst.d > coldStartStall {
		t.Errorf("%s took %s: a stall", worst.what, worst.d)
	}
}
