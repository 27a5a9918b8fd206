package harness

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestMedianAndPercentile(t *testing.T) {
	if got := Median([]float64{3, 1, 2}); got != 2 {
		t.Errorf("Median odd = %v, want 2", got)
	}
	if got := Median([]time.Duration{4, 1, 3, 2}); got != 2 { // (2+3)/2 in integer nanoseconds
		t.Errorf("Median even = %v, want 2", got)
	}
	if got := Median([]int64(nil)); got != 0 {
		t.Errorf("Median empty = %v, want 0", got)
	}
	xs := make([]time.Duration, 100)
	for i := range xs {
		xs[i] = time.Duration(i + 1)
	}
	if p := Percentile(xs, 50); p != 50 {
		t.Errorf("p50 = %v, want 50", p)
	}
	if p := Percentile(xs, 99); p != 99 {
		t.Errorf("p99 = %v, want 99", p)
	}
	if p := Percentile(xs[:1], 99); p != 1 {
		t.Errorf("p99 of one = %v, want 1", p)
	}
}

const benchOutput = `goos: linux
goarch: amd64
pkg: github.com/udtc/udtc/registry/server
cpu: Some CPU
BenchmarkGet-2        	  100000	     12000 ns/op	    2048 B/op	      20 allocs/op
BenchmarkGet-2        	  100000	     10000 ns/op	    2048 B/op	      20 allocs/op
BenchmarkGet-2        	  100000	     11000 ns/op	    2048 B/op	      22 allocs/op
BenchmarkPut/durable-2	    5000	    300000 ns/op	     1.5 fsyncs/op
PASS
ok  	github.com/udtc/udtc/registry/server	3.2s
pkg: github.com/udtc/udtc/generator
BenchmarkCompile	      10	 100000000 ns/op	  22.50 MB/s
`

func TestParseGoBench(t *testing.T) {
	got, err := ParseGoBench(strings.NewReader(benchOutput))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d benchmarks, want 3: %+v", len(got), got)
	}
	g := got[0]
	if g.Package != "github.com/udtc/udtc/registry/server" || g.Name != "BenchmarkGet" || g.Runs != 3 {
		t.Errorf("first = %+v", g)
	}
	if g.Metrics["ns/op"] != 11000 || g.Metrics["allocs/op"] != 20 {
		t.Errorf("medians = %v, want ns/op 11000 and allocs/op 20", g.Metrics)
	}
	if p := got[1]; p.Name != "BenchmarkPut/durable" || p.Metrics["fsyncs/op"] != 1.5 {
		t.Errorf("custom metric: %+v", p)
	}
	if c := got[2]; c.Package != "github.com/udtc/udtc/generator" || c.Metrics["MB/s"] != 22.5 {
		t.Errorf("no GOMAXPROCS suffix: %+v", c)
	}
	if u := got[0].Units(); strings.Join(u, ",") != "ns/op,B/op,allocs/op" {
		t.Errorf("Units = %v", u)
	}
}

func TestTargetVerdict(t *testing.T) {
	cases := []struct {
		t    Target
		want string
	}{
		{Target{Goal: 1, Value: 0.8, Have: true}, "met"},
		{Target{Goal: 1, Value: 1.25, Have: true}, "missed by 25%"},
		{Target{Goal: 20000, Higher: true, Value: 25000, Have: true}, "met"},
		{Target{Goal: 20000, Higher: true, Value: 15000, Have: true}, "missed by 25%"},
		{Target{Goal: 0, Value: 3, Have: true}, "missed"},
		{Target{Goal: 1}, "not available"},
	}
	for _, c := range cases {
		if got := c.t.Verdict(); got != c.want {
			t.Errorf("%+v: Verdict = %q, want %q", c.t, got, c.want)
		}
	}
}

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{23400: "23,400", 1234567: "1,234,567", 1.25: "1.25", 0.0421: "0.0421", 150.4: "150", 12.0: "12", 0: "0"} {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestRunLoad(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/fail" {
			http.Error(w, "nope", http.StatusTeapot)
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	ctx := context.Background()
	c := srv.Client()

	r := RunLoad(ctx, Load{Clients: 4, Requests: 200, Duration: 10 * time.Second, Do: func(ctx context.Context, i int) error {
		return Call(ctx, c, http.MethodGet, srv.URL+"/ok", nil)
	}})
	if r.Requests != 200 || r.Errors != 0 || hits.Load() != 200 {
		t.Fatalf("count-bounded run: %+v, server saw %d", r, hits.Load())
	}
	if r.P50 <= 0 || r.P99 < r.P50 || r.Max < r.P99 || r.PerSecond() <= 0 {
		t.Errorf("latencies not ordered: %+v", r)
	}

	r = RunLoad(ctx, Load{Clients: 2, Requests: 10, Duration: 10 * time.Second, Do: func(ctx context.Context, i int) error {
		return Call(ctx, c, http.MethodGet, srv.URL+"/fail", nil)
	}})
	if r.Errors != 10 || !strings.Contains(r.FirstError, "418") {
		t.Errorf("failing run: %+v", r)
	}

	start := time.Now()
	r = RunLoad(ctx, Load{Clients: 2, Requests: 1 << 30, Duration: 200 * time.Millisecond, Do: func(ctx context.Context, i int) error {
		select {
		case <-time.After(5 * time.Millisecond):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}})
	if el := time.Since(start); el > 2*time.Second || r.Requests == 0 || r.Errors != 0 {
		t.Errorf("time-bounded run took %v: %+v", el, r)
	}
}

func TestCallWantedStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
	}))
	defer srv.Close()
	if err := Call(context.Background(), srv.Client(), "DELETE", srv.URL, nil, 200, 404); err != nil {
		t.Errorf("404 is wanted: %v", err)
	}
	if err := Call(context.Background(), srv.Client(), "DELETE", srv.URL, nil); err == nil {
		t.Error("404 without want list: no error")
	}
}

// TestMain lets the test binary act as a measured child process.
func TestMain(m *testing.M) {
	ServeLauncher()
	if os.Getenv("HARNESS_CHILD") == "alloc" {
		b := make([]byte, 64<<20)
		for i := range b {
			b[i] = byte(i)
		}
		os.Stdout.Write(b[:1])
		os.Exit(3)
	}
	os.Exit(m.Run())
}

func TestMeasure(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Measure(context.Background(), "", []string{"HARNESS_CHILD=alloc"}, exe)
	if err != nil {
		t.Fatal(err)
	}
	if s.ExitCode != 3 || !s.Failed() {
		t.Errorf("exit code %d, want 3", s.ExitCode)
	}
	if s.MaxRSS < 64<<20 {
		t.Errorf("peak RSS %d, want at least the 64 MiB the child touched", s.MaxRSS)
	}
	if s.CPU <= 0 || s.Wall <= 0 || s.Sys <= 0 || s.Sys > s.CPU {
		t.Errorf("cpu %v (system %v) wall %v, want all positive and system within cpu", s.CPU, s.Sys, s.Wall)
	}
	sum := Summarize([]Sample{s, s, s})
	if sum.Runs != 3 || sum.MaxRSS != s.MaxRSS || sum.Sys != s.Sys {
		t.Errorf("Summarize = %+v", sum)
	}
	if _, err := Measure(context.Background(), "", nil, "/nonexistent/binary"); err == nil {
		t.Error("Measure of a missing binary: no error")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Measure(ctx, "", nil, "sleep", "5"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("killed by deadline: err = %v", err)
	}
}

func TestMarkdown(t *testing.T) {
	r := Report{
		Title:   "Benchmarks",
		Date:    time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC),
		Machine: Machine{CPUs: 2, CPUModel: "Test CPU", MemoryBytes: 4 << 30, OS: "linux", Arch: "amd64", GoVersion: "go1.26"},
		Targets: []Target{{Name: "gen wall", Goal: 1, Unit: "s", Value: 1.5, Have: true},
			{Name: "publish", Goal: 10, Unit: "s", Why: "udtc publish not available"}},
		Tables: []Table{{Title: "Process", Header: []string{"a", "b"}, Rows: [][]string{{"x|y", "2"}}}, {Title: "Empty"}},
		Notes:  []string{"A note."},
	}
	md := r.Markdown()
	for _, want := range []string{
		"# Benchmarks", "2026-11-22 21:00 UTC", "2 CPUs (Test CPU), 4.0 GiB RAM",
		"| gen wall | ≤ 1 s | 1.5 s | missed by 50% |",
		"| publish | ≤ 10 s | udtc publish not available | not available |",
		`| x\|y | 2 |`, "## Empty\n\nNothing measured.", "## Notes\n\nA note.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// TestMeasureKillsProcessGroup: a grandchild holding stdout open must not
// keep Measure waiting after ctx ends (go test leaves test binaries so).
func TestMeasureKillsProcessGroup(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Measure(ctx, "", nil, "sh", "-c", "sleep 30 & sleep 30")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("Measure returned after %v: the grandchild kept it waiting", el)
	}
}

// TestMeterLauncher: through the launcher, a small child's peak RSS is its
// own, not this process's high-water mark; exit codes and missing
// commands come through.
func TestMeterLauncher(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Raise this process's high-water RSS well above what `true` needs.
	ballast := make([]byte, 256<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	direct, err := Measure(context.Background(), "", nil, "true")
	if err != nil {
		t.Fatal(err)
	}
	m := Meter{Launcher: exe}
	launched, err := m.Measure(context.Background(), "", nil, "true")
	if err != nil {
		t.Fatal(err)
	}
	if direct.MaxRSS < 200<<20 {
		t.Logf("direct start reported %d bytes: this kernel does not inherit the high-water mark", direct.MaxRSS)
	}
	if launched.MaxRSS <= 0 || launched.MaxRSS > 64<<20 {
		t.Errorf("launched `true` peak RSS = %d bytes, want a small positive figure", launched.MaxRSS)
	}
	s, err := m.Measure(context.Background(), "", []string{"HARNESS_CHILD=alloc"}, exe)
	if err != nil {
		t.Fatal(err)
	}
	if s.ExitCode != 3 || s.MaxRSS < 64<<20 {
		t.Errorf("launched alloc child: exit %d, peak RSS %d; want 3 and at least 64 MiB", s.ExitCode, s.MaxRSS)
	}
	if _, err := m.Measure(context.Background(), "", nil, "/nonexistent/binary"); err == nil {
		t.Error("a missing command through the launcher: no error")
	}
	runtime.KeepAlive(ballast)
}
