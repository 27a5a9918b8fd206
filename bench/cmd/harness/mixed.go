package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/udtc/udtc/bench/harness"
	"github.com/udtc/udtc/registry/store/postgres/pgtest"
)

// mixedClients is the load of the mixed and cold-start scenarios: this
// many GET clients beside as many PUT clients, or this many writers.
const mixedClients = 16

// storeUnderTest is one store the mixed section runs on.
type storeUnderTest struct {
	name string
	// args returns the store flags of a new, empty store under dir.
	args func(ctx context.Context, dir string) ([]string, error)
}

// mixed measures what the replicas work is about, on SQLite and
// PostgreSQL side by side: a fresh server taking 16 concurrent writers
// (cold start; these latencies were once asserted in go test, where a busy
// machine failed them), and 16 clients PUTting an API version while 16
// GET it, once with the one body of the wrk run (after the first,
// each PUT changes nothing and is not written) and once with a body that
// changes on every PUT, so that each is a write.
func (b *bench) mixed(ctx context.Context) {
	coldSQ := b.target(fmt.Sprintf("Registry (SQLite): cold start, %d writers: p99", mixedClients), 100, "ms", false)
	coldPG := b.target(fmt.Sprintf("Registry (PostgreSQL): cold start, %d writers: p99", mixedClients), 50, "ms", false)
	getPG := b.target(fmt.Sprintf("Registry (PostgreSQL): GET of an API version while %d clients PUT it: p99", mixedClients), 50, "ms", false)
	putPG := b.target(fmt.Sprintf("Registry (PostgreSQL): PUT of an API version while %d clients GET it: p99", mixedClients), 50, "ms", false)
	getWPG := b.target(fmt.Sprintf("Registry (PostgreSQL): GET of an API version while %d clients change it: p99", mixedClients), 50, "ms", false)
	putWPG := b.target(fmt.Sprintf("Registry (PostgreSQL): PUT changing an API version while %d clients GET it: p99", mixedClients), 50, "ms", false)
	t := b.table("Registry mixed load, SQLite and PostgreSQL",
		fmt.Sprintf("`udtc serve` on loopback with a fresh store; PostgreSQL is a local cluster on the same CPUs. Cold start: %d writers create, update and delete registrations on a server that has just started. Mixed: %d clients PUT one API version (with a schema) while %d GET it: \"same body\" PUTs the one body every time (as wrk does; after the first, a PUT that changes nothing is not written), \"new body\" changes the schema's description on every PUT, so that each is a write. Each run bounded by %s; medians of %d runs.",
			mixedClients, mixedClients, mixedClients, b.cfg.loadTime, b.cfg.runs),
		"Store", "Scenario", "Requests", "Errors", "Throughput", "p50", "p99", "Max")
	missing := loadMissing(t, coldSQ, coldPG, getPG, putPG, getWPG, putWPG)
	if why := b.available("serve"); why != "" {
		missing(why)
		return
	}
	body, err := b.sampleSchema()
	if err != nil {
		missing(err.Error())
		return
	}
	pg := pgtest.Start()
	defer pg.Stop()
	stores := []storeUnderTest{
		{"SQLite", func(_ context.Context, dir string) ([]string, error) {
			return []string{"--store", "sqlite:" + filepath.Join(dir, "registry.db")}, nil
		}},
		{"PostgreSQL", func(ctx context.Context, dir string) ([]string, error) {
			dsn, _, err := pg.CreateDatabase(ctx)
			if err != nil {
				return nil, err
			}
			key := filepath.Join(dir, "secret.key")
			var k [32]byte
			_, _ = rand.Read(k[:])
			if err := os.WriteFile(key, []byte(hex.EncodeToString(k[:])), 0o600); err != nil {
				return nil, err
			}
			return []string{"--store", dsn, "--secret-key-file", key}, nil
		}},
	}
	for i, st := range stores {
		r, err := b.mixedOn(ctx, st, i, body)
		if err != nil {
			t.Rows = append(t.Rows, []string{st.name, "not available: " + firstLine(err.Error()), "", "", "", "", "", ""})
			if st.name == "PostgreSQL" {
				for _, tg := range []*harness.Target{coldPG, getPG, putPG, getWPG, putWPG} {
					tg.Why = err.Error()
				}
			} else {
				coldSQ.Why = err.Error()
			}
			continue
		}
		t.Rows = append(t.Rows, loadRow(st.name, "cold start: every request", r.cold),
			loadRow(st.name, "mixed, same body: GET API version", r.get), loadRow(st.name, "mixed, same body: PUT API version", r.put),
			loadRow(st.name, "mixed, new body: GET API version", r.getW), loadRow(st.name, "mixed, new body: PUT API version", r.putW))
		if st.name == "PostgreSQL" {
			setP99(coldPG, r.cold)
			setP99(getPG, r.get)
			setP99(putPG, r.put)
			setP99(getWPG, r.getW)
			setP99(putWPG, r.putW)
		} else {
			setP99(coldSQ, r.cold)
		}
	}
}

// mixedResults are the runs of the mixed section on one store: cold start,
// then GET and PUT with the same body, then with a new body every PUT.
type mixedResults struct {
	cold, get, put, getW, putW []harness.LoadResult
}

// mixedOn runs the cold-start and mixed scenarios b.cfg.runs times on
// fresh servers with fresh stores of st, and returns the runs' results.
func (b *bench) mixedOn(ctx context.Context, st storeUnderTest, n int, body []byte) (r mixedResults, err error) {
	changed, err := bodyVariants(body, 1024)
	if err != nil {
		return r, err
	}
	same := func(int) []byte { return body }
	var next atomic.Int64
	fresh := func(int) []byte { return changed[next.Add(1)%int64(len(changed))] }
	for run := range b.cfg.runs {
		dir := filepath.Join(b.work, fmt.Sprintf("mixed-%d-%d", n, run))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return r, err
		}
		args, err := st.args(ctx, dir)
		if err != nil {
			return r, err
		}
		b.logf("mixed: %s, run %d", st.name, run+1)
		srv, err := b.startServer(ctx, dir, args...)
		if err != nil {
			return r, err
		}
		client := loadClient(2 * mixedClients)
		r.cold = append(r.cold, coldStart(ctx, client, srv, b.cfg.loadTime))
		g, p, err := mixedLoad(ctx, client, srv, "Mixed.Same", same, b.cfg.loadTime)
		if err == nil {
			r.get, r.put = append(r.get, g), append(r.put, p)
			g, p, err = mixedLoad(ctx, client, srv, "Mixed.Changed", fresh, b.cfg.loadTime)
			r.getW, r.putW = append(r.getW, g), append(r.putW, p)
		}
		srv.stop()
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// bodyVariants returns n variants of the API version body (a JSON object
// {"properties":{"schema":{...}}}), each with a schema description of its
// own, so that each PUT of the next one changes what is stored.
func bodyVariants(body []byte, n int) ([][]byte, error) {
	var v struct {
		Properties struct {
			Schema map[string]any `json:"schema"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("the sample API version body: %w", err)
	}
	out := make([][]byte, n)
	for i := range out {
		v.Properties.Schema["description"] = fmt.Sprintf("Widgets, revision %d.", i)
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// coldStart lets mixedClients writers, each in a provider of its own,
// create types, API versions and locations, read them back and delete the
// provider every eighth round, on a server that has just started.
func coldStart(ctx context.Context, client *http.Client, srv *server, d time.Duration) harness.LoadResult {
	_ = harness.Call(ctx, client, http.MethodPut, q(srv.url+"/planes/radius/local"), []byte(`{"properties":{}}`))
	type writer struct{ round, op int }
	ws := make([]writer, mixedClients)
	return harness.RunLoad(ctx, harness.Load{Clients: mixedClients, Requests: 1 << 30, Duration: d, DoAs: func(ctx context.Context, c, _ int) error {
		w := &ws[c]
		op, round := w.op, w.round
		// Five requests a round, and a sixth, the delete, every eighth.
		if w.op++; w.op == 5 && round%8 != 7 || w.op == 6 {
			w.op, w.round = 0, round+1
		}
		rp := srv.rpURL(fmt.Sprintf("Cold%d.Start", c))
		typ := fmt.Sprintf("%s/resourceTypes/t%d", rp, round%8)
		switch op {
		case 0:
			return harness.Call(ctx, client, http.MethodPut, q(rp), []byte(`{"location":"global"}`))
		case 1:
			return harness.Call(ctx, client, http.MethodPut, q(typ), []byte(`{"properties":{"defaultApiVersion":"2024-01-01"}}`))
		case 2:
			return harness.Call(ctx, client, http.MethodPut, q(typ+"/apiVersions/2024-01-01"), []byte(`{"properties":{"schema":{"type":"object"}}}`))
		case 3:
			return harness.Call(ctx, client, http.MethodPut, q(fmt.Sprintf("%s/locations/l%d", rp, round%4)), []byte(`{"properties":{"address":"http://localhost:8080"}}`))
		case 4:
			return harness.Call(ctx, client, http.MethodGet, q(typ), nil)
		}
		return harness.Call(ctx, client, http.MethodDelete, q(rp), nil)
	}})
}

// mixedLoad registers one API version in provider namespace, then lets
// mixedClients clients PUT body(i) to it while as many GET it.
func mixedLoad(ctx context.Context, client *http.Client, srv *server, namespace string, body func(i int) []byte, d time.Duration) (get, put harness.LoadResult, err error) {
	rp := srv.rpURL(namespace)
	version := q(rp + "/resourceTypes/widgets/apiVersions/2025-01-01")
	for _, c := range []struct{ url, body string }{
		{q(rp), `{"location":"global"}`},
		{q(rp + "/resourceTypes/widgets"), `{"properties":{}}`},
		{version, string(body(0))},
	} {
		if err := harness.Call(ctx, client, http.MethodPut, c.url, []byte(c.body)); err != nil {
			return get, put, err
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		get = harness.RunLoad(ctx, harness.Load{Clients: mixedClients, Requests: 1 << 30, Duration: d, Do: func(ctx context.Context, _ int) error {
			return harness.Call(ctx, client, http.MethodGet, version, nil)
		}})
	})
	wg.Go(func() {
		put = harness.RunLoad(ctx, harness.Load{Clients: mixedClients, Requests: 1 << 30, Duration: d, Do: func(ctx context.Context, i int) error {
			return harness.Call(ctx, client, http.MethodPut, version, body(i))
		}})
	})
	wg.Wait()
	return get, put, nil
}

// loadRow is the table row of the medians of several runs.
func loadRow(store, scenario string, rs []harness.LoadResult) []string {
	var reqs, errs []int
	var tput []float64
	var p50, p99, mx []time.Duration
	first := ""
	for _, r := range rs {
		reqs, errs, tput = append(reqs, r.Requests), append(errs, r.Errors), append(tput, r.PerSecond())
		p50, p99, mx = append(p50, r.P50), append(p99, r.P99), append(mx, r.Max)
		if first == "" {
			first = r.FirstError
		}
	}
	row := []string{store, scenario, num(harness.Median(reqs)), num(harness.Median(errs)), harness.Num(harness.Median(tput)) + " req/s",
		harness.Millis(harness.Median(p50)), harness.Millis(harness.Median(p99)), harness.Millis(harness.Median(mx))}
	if first != "" {
		row[3] += " (" + firstLine(first) + ")"
	}
	return row
}

// setP99 sets t to the median p99 of rs, or says why not.
func setP99(t *harness.Target, rs []harness.LoadResult) {
	var p99 []time.Duration
	for _, r := range rs {
		if r.Errors > 0 {
			t.Why = "requests failed: " + firstLine(r.FirstError)
			return
		}
		p99 = append(p99, r.P99)
	}
	t.Value, t.Have = float64(harness.Median(p99))/float64(time.Millisecond), true
}
