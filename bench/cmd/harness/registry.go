package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/bench/harness"
)

// apiVersion is the registry's api-version query parameter.
const apiVersion = "2023-10-01-preview"

// server is a running `udtc serve` with a fresh store.
type server struct {
	cmd     *exec.Cmd
	url     string
	log     string // path of its stdout and stderr
	done    chan error
	stopped bool  // stop has run
	rss     int64 // the peak RSS stop found
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// startServer starts udtc serve on a free loopback port with a new SQLite
// store in dir, or with the store flags in storeArgs when given, and waits
// until it answers HTTP.
func (b *bench) startServer(ctx context.Context, dir string, storeArgs ...string) (*server, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	// The request log goes to a file: a load run writes hundreds of
	// thousands of lines.
	logf, err := os.Create(filepath.Join(dir, "serve.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child has its own descriptor
	s := &server{url: "http://" + addr, log: logf.Name(), done: make(chan error, 1)}
	if len(storeArgs) == 0 {
		storeArgs = []string{"--store", "sqlite:" + filepath.Join(dir, "registry.db")}
	}
	s.cmd = exec.Command(b.udtc, append([]string{"serve", "--addr", addr}, storeArgs...)...)
	s.cmd.Stdout = logf
	s.cmd.Stderr = logf
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { s.done <- s.cmd.Wait() }()
	deadline := time.Now().Add(20 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get(s.url + "/planes/radius/local?api-version=" + apiVersion)
		if err == nil {
			resp.Body.Close()
			return s, nil
		}
		select {
		case err := <-s.done:
			out, _ := os.ReadFile(s.log)
			return nil, fmt.Errorf("udtc serve exited (%v): %s", err, firstLine(string(out)))
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("udtc serve did not answer on %s within 20s", addr)
		}
	}
}

// stop interrupts the server, kills it after 10 s, and returns its peak RSS.
// stop ends the server and returns its peak RSS (0 when unknown); a
// second call returns the first's result, so a deferred stop is safe.
func (s *server) stop() int64 {
	if s.stopped {
		return s.rss
	}
	s.stopped = true
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	if ru, ok := s.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.rss = int64(ru.Maxrss) * 1024
	}
	return s.rss
}

func (s *server) rpURL(ns string) string {
	return s.url + "/planes/radius/local/providers/System.Resources/resourceProviders/" + ns
}

func q(u string) string { return u + "?api-version=" + apiVersion }

func providerName(i int) string { return fmt.Sprintf("Bench.Provider%04d", i) }

// sampleSchema returns the first schema of the reference catalog as JSON,
// a realistic body for PUT of an API version.
func (b *bench) sampleSchema() ([]byte, error) {
	dir, ok := b.catalog[reference]
	if !ok {
		for _, d := range b.catalog {
			dir, ok = d, true
			break
		}
	}
	if !ok {
		return nil, fmt.Errorf("no catalog generated")
	}
	var first string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && first == "" && !d.IsDir() {
			first = p
		}
		return err
	})
	data, err := os.ReadFile(first)
	if err != nil {
		return nil, err
	}
	var m struct {
		Types map[string]struct {
			APIVersions map[string]struct {
				Schema any `yaml:"schema"`
			} `yaml:"apiVersions"`
		} `yaml:"types"`
	}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for _, t := range m.Types {
		for _, v := range t.APIVersions {
			return json.Marshal(map[string]any{"properties": map[string]any{"schema": v.Schema}})
		}
	}
	return nil, fmt.Errorf("%s declares no schema", first)
}

func (b *bench) registry(ctx context.Context) {
	getT := b.target("Registry (SQLite): GET of a resource type", 20000, "req/s", true)
	apiT := b.target("Registry (SQLite): GET of an API version (with schema)", 20000, "req/s", true)
	sumGetT := b.target("Registry (SQLite): GET of a provider summary", 20000, "req/s", true)
	putT := b.target(fmt.Sprintf("Registry (SQLite): durable PUT of an API version with a schema, %d clients", b.cfg.resourceClients), 2000, "req/s", true)
	putP99T := b.target(fmt.Sprintf("Registry (SQLite): PUT of an API version, p99 at %d clients", b.cfg.resourceClients), 50, "ms", false)
	sumT := b.target(fmt.Sprintf("Registry: provider summary p99 with %s providers", num(b.cfg.providers)), 10, "ms", false)
	t := b.table("Registry load", fmt.Sprintf("`udtc serve --store sqlite:…` on loopback, %d concurrent keep-alive clients for GETs and %d for PUTs in the harness process (they share the machine's CPUs with the server), %s providers registered; medians of %d runs, each bounded by its request count and %s.",
		b.cfg.clients, b.cfg.resourceClients, num(b.cfg.providers), b.cfg.runs, b.cfg.loadTime),
		"Scenario", "Requests", "Errors", "Throughput", "p50", "p99", "Max")
	missing := loadMissing(t, getT, apiT, sumGetT, putT, putP99T, sumT)
	if why := b.available("serve"); why != "" {
		missing(why)
		return
	}
	body, err := b.sampleSchema()
	if err != nil {
		missing(err.Error())
		return
	}
	b.logf("registry: starting server")
	srv, err := b.startServer(ctx, filepath.Join(b.work, "registry-load"))
	if err != nil {
		missing(err.Error())
		return
	}
	defer srv.stop()
	client := loadClient(b.cfg.clients)

	// Registration: plane (if the server wants one), then per provider the
	// provider, one resource type and one API version.
	_ = harness.Call(ctx, client, http.MethodPut, q(srv.url+"/planes/radius/local"), []byte(`{"properties":{}}`))
	b.logf("registry: registering %d providers", b.cfg.providers)
	setupStart := time.Now()
	setup := harness.RunLoad(ctx, harness.Load{Clients: b.cfg.clients, Requests: b.cfg.providers, Duration: 5 * time.Minute, Do: func(ctx context.Context, i int) error {
		rp := srv.rpURL(providerName(i))
		if err := harness.Call(ctx, client, http.MethodPut, q(rp), []byte(`{"location":"global","properties":{}}`)); err != nil {
			return err
		}
		if err := harness.Call(ctx, client, http.MethodPut, q(rp+"/resourceTypes/widgets"), []byte(`{"properties":{"description":"Benchmark widgets."}}`)); err != nil {
			return err
		}
		return harness.Call(ctx, client, http.MethodPut, q(rp+"/resourceTypes/widgets/apiVersions/2025-01-01"), body)
	}})
	if setup.Errors > 0 {
		missing(fmt.Sprintf("registration failed (%d of %d): %s", setup.Errors, setup.Requests, setup.FirstError))
		return
	}
	b.logf("registry: registered in %s", time.Since(setupStart).Round(time.Millisecond))

	type scenario struct {
		name    string
		reqs    int
		target  *harness.Target
		do      func(run int) func(ctx context.Context, i int) error
		clients int // 0: -clients
	}
	n := b.cfg.providers
	base := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	scenarios := []scenario{
		{"GET /healthz (loopback HTTP ceiling, no store)", b.cfg.getReqs, nil, func(int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				return harness.Call(ctx, client, http.MethodGet, srv.url+"/healthz", nil)
			}
		}, 0},
		{"GET resource type", b.cfg.getReqs, getT, func(int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				return harness.Call(ctx, client, http.MethodGet, q(srv.rpURL(providerName(i%n))+"/resourceTypes/widgets"), nil)
			}
		}, 0},
		{"GET API version (with schema)", b.cfg.getReqs, apiT, func(int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				return harness.Call(ctx, client, http.MethodGet, q(srv.rpURL(providerName(i%n))+"/resourceTypes/widgets/apiVersions/2025-01-01"), nil)
			}
		}, 0},
		{"GET provider summary", b.cfg.getReqs, sumT, func(int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				return harness.Call(ctx, client, http.MethodGet, q(srv.url+"/planes/radius/local/providers/"+providerName(i%n)), nil)
			}
		}, 0},
		{"PUT API version with schema", b.cfg.putReqs, putT, func(run int) func(context.Context, int) error {
			return func(ctx context.Context, i int) error {
				k := run*b.cfg.putReqs + i
				v := base.AddDate(0, 0, k/n).Format("2006-01-02")
				return harness.Call(ctx, client, http.MethodPut, q(srv.rpURL(providerName(k%n))+"/resourceTypes/widgets/apiVersions/"+v), body)
			}
		}, b.cfg.resourceClients},
	}
	var ceiling float64 // req/s of /healthz
	for _, sc := range scenarios {
		// Warm up connections and caches.
		harness.RunLoad(ctx, harness.Load{Clients: b.cfg.clients, Requests: 200, Duration: 5 * time.Second, Do: scenarios[0].do(0)})
		var results []harness.LoadResult
		clients := sc.clients
		if clients == 0 {
			clients = b.cfg.clients
		}
		for run := range b.cfg.runs {
			b.logf("registry: %s, run %d", sc.name, run+1)
			results = append(results, harness.RunLoad(ctx, harness.Load{Clients: clients, Requests: sc.reqs, Duration: b.cfg.loadTime, Do: sc.do(run)}))
		}
		var reqs, errs []int
		var tput []float64
		var p50, p99, mx []time.Duration
		first := ""
		for _, r := range results {
			reqs, errs, tput = append(reqs, r.Requests), append(errs, r.Errors), append(tput, r.PerSecond())
			p50, p99, mx = append(p50, r.P50), append(p99, r.P99), append(mx, r.Max)
			if first == "" {
				first = r.FirstError
			}
		}
		row := []string{sc.name, num(harness.Median(reqs)), num(harness.Median(errs)), harness.Num(harness.Median(tput)) + " req/s",
			harness.Millis(harness.Median(p50)), harness.Millis(harness.Median(p99)), harness.Millis(harness.Median(mx))}
		if first != "" {
			row[2] += " (" + firstLine(first) + ")"
		}
		t.Rows = append(t.Rows, row)
		if sc.name == scenarios[0].name {
			ceiling = harness.Median(tput)
		}
		switch {
		case sc.target == nil:
		case harness.Median(errs) > 0:
			sc.target.Why = "requests failed: " + firstLine(first)
		case sc.target == sumT:
			sumT.Value, sumT.Have = float64(harness.Median(p99))/float64(time.Millisecond), true
			sumGetT.Value, sumGetT.Have = harness.Median(tput), true
		case sc.target == putT:
			putT.Value, putT.Have = harness.Median(tput), true
			putP99T.Value, putP99T.Have = float64(harness.Median(p99))/float64(time.Millisecond), true
		default:
			sc.target.Value, sc.target.Have = harness.Median(tput), true
		}
	}
	if ceiling > 0 && ceiling < getT.Goal {
		b.rep.Notes = append(b.rep.Notes, fmt.Sprintf("### Registry GET throughput\n\n"+
			"During this run the loopback ceiling — GET /healthz, which touches no store — was %s req/s with the harness's clients on the same %d CPUs, "+
			"below the %s req/s target: on this machine the target cannot be shown over HTTP, whatever the store does. "+
			"Compare the GET rows with that ceiling, and see the registry/server Go benchmarks (no network) and the registry profile below.",
			harness.Num(ceiling), b.rep.Machine.CPUs, harness.Num(getT.Goal)))
	}
	rss := srv.stop()
	t.Note += fmt.Sprintf(" Server peak RSS: %s.", harness.MB(rss))
}

func (b *bench) publish(ctx context.Context) {
	empty := b.target("`udtc publish` of 1,000 types into an empty registry: wall in units of `udtc check`'s", 2.5, "× check", false)
	again := b.target("`udtc publish` of 1,000 types again, no changes: wall in units of `udtc check`'s", 0.5, "× check", false)
	t := b.table("Publish", fmt.Sprintf("`udtc publish` of the %s-type catalog to `udtc serve --store sqlite:…` on loopback; a fresh registry for each run (not repeated when a run takes longer than -slow).", num(reference)),
		"Run", "Runs", "Wall", "CPU", "Peak RSS (publish)", "Note")
	missing := func(why string) {
		empty.Why, again.Why = why, why
		t.Rows = append(t.Rows, []string{"—", "0", "—", "—", "—", why})
	}
	dir, ok := b.catalog[reference]
	switch {
	case b.available("publish") != "":
		missing(b.available("publish"))
		return
	case b.available("serve") != "":
		missing(b.available("serve"))
		return
	case !ok:
		missing("needs the 1,000-type catalog (-sizes)")
		return
	}
	var first, second []harness.Sample
	var said1, said2 string
	for run := range b.cfg.runs {
		if run > 0 && first[run-1].Wall+second[run-1].Wall > b.cfg.slow {
			break // slow enough that one run says it
		}
		b.logf("publish: run %d", run+1)
		srv, err := b.startServer(ctx, filepath.Join(b.work, fmt.Sprintf("registry-publish-%d", run)))
		if err != nil {
			missing(err.Error())
			return
		}
		s1, err := b.measure(ctx, 1, nil, "publish", "--server", srv.url, dir)
		if err == nil {
			first = append(first, s1...)
			said1 = lastLine(s1[0].Stdout + "\n" + s1[0].Stderr)
			var s2 []harness.Sample
			s2, err = b.measure(ctx, 1, nil, "publish", "--server", srv.url, dir)
			if err == nil {
				second = append(second, s2...)
				said2 = lastLine(s2[0].Stdout + "\n" + s2[0].Stderr)
			}
		}
		srv.stop()
		if err != nil {
			missing("publish failed: " + err.Error())
			return
		}
	}
	s1, s2 := harness.Summarize(first), harness.Summarize(second)
	t.Rows = append(t.Rows,
		[]string{"empty registry", num(s1.Runs), harness.Seconds(s1.Wall), harness.Seconds(s1.CPU), harness.MB(s1.MaxRSS), fmt.Sprintf("udtc said: %q", said1)},
		[]string{"again, no changes", num(s2.Runs), harness.Seconds(s2.Wall), harness.Seconds(s2.CPU), harness.MB(s2.MaxRSS), fmt.Sprintf("udtc said: %q", said2)})
	if b.checkWall == 0 {
		empty.Why, again.Why = "needs udtc check of the 1,000-type catalog (section check)", "needs udtc check of the 1,000-type catalog (section check)"
		return
	}
	empty.Value, empty.Have = s1.Wall.Seconds()/b.checkWall.Seconds(), true
	again.Value, again.Have = s2.Wall.Seconds()/b.checkWall.Seconds(), true
}

// loadMissing returns what a load table does when its server cannot run:
// every target gets why, and the table one row saying it.
func loadMissing(t *harness.Table, targets ...*harness.Target) func(why string) {
	return func(why string) {
		for _, tg := range targets {
			tg.Why = why
		}
		t.Rows = append(t.Rows, []string{"all", "—", "—", "—", "—", "—", why})
	}
}

// loadClient is the HTTP client of a load run: keep-alive connections
// enough for its clients.
func loadClient(clients int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients * 2, MaxIdleConns: clients * 2}, Timeout: 30 * time.Second}
}
