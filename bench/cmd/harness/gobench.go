package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/udtc/udtc/bench/harness"
)

// benchPackages lists the packages of the module with Benchmark functions,
// outside bench/ itself.
func (b *bench) benchPackages(ctx context.Context) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \",\"}}\t{{join .XTestGoFiles \",\"}}", "./...")
	cmd.Dir = b.root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	var pkgs []string
	for line := range strings.Lines(string(out)) {
		f := strings.Split(strings.TrimRight(line, "\n"), "\t")
		if len(f) != 4 || strings.Contains(f[0], "/bench/") || strings.HasSuffix(f[0], "/bench") {
			continue
		}
		for _, name := range strings.Split(f[2]+","+f[3], ",") {
			if name == "" {
				continue
			}
			src, err := os.ReadFile(filepath.Join(f[1], name))
			if err == nil && bytes.Contains(src, []byte("\nfunc Benchmark")) {
				pkgs = append(pkgs, f[0])
				break
			}
		}
	}
	return pkgs, nil
}

func (b *bench) goBenchmarks(ctx context.Context) {
	t := b.table("Go benchmarks", fmt.Sprintf("`go test -run '^$' -bench . -benchmem -count %d -benchtime %s` for every package with benchmarks, one package at a time; medians over the runs.", b.cfg.benchCount, b.cfg.benchTime),
		"Package", "Benchmark", "Runs", "Metrics")
	pkgs, err := b.benchPackages(ctx)
	if err != nil {
		t.Note += " " + err.Error()
		return
	}
	if len(pkgs) == 0 {
		t.Note += " No package has benchmarks yet."
		return
	}
	// One go test per package, each with its own time limit, so a slow
	// package costs only its own rows.
	for _, pkg := range pkgs {
		b.logf("go test -bench %s", pkg)
		args := []string{"test", "-run", "^$", "-bench", ".", "-benchmem", "-count", fmt.Sprint(b.cfg.benchCount), "-benchtime", b.cfg.benchTime, pkg}
		rctx, cancel := context.WithTimeout(ctx, b.cfg.stepLimit)
		s, err := b.meter.Measure(rctx, b.root, nil, "go", args...)
		cancel()
		short := strings.TrimPrefix(pkg, "github.com/udtc/udtc/")
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			t.Note += fmt.Sprintf(" %s: did not finish within -step-limit %s (results so far are shown).", short, b.cfg.stepLimit)
		case err != nil:
			t.Note += fmt.Sprintf(" %s: %v.", short, err)
		case s.Failed():
			t.Note += fmt.Sprintf(" %s: go test exited %d: %s.", short, s.ExitCode, failure(s.Stdout+"\n"+s.Stderr))
		}
		benches, err := harness.ParseGoBench(strings.NewReader(s.Stdout))
		if err != nil {
			t.Note += " " + err.Error()
			continue
		}
		for _, bn := range benches {
			var ms []string
			for _, u := range bn.Units() {
				ms = append(ms, harness.Num(bn.Metrics[u])+" "+u)
			}
			t.Rows = append(t.Rows, []string{short, strings.TrimPrefix(bn.Name, "Benchmark"), num(bn.Runs), strings.Join(ms, ", ")})
		}
	}
}

// profile runs udtc gen (all targets) on the reference catalog with
// UDTC_CPUPROFILE set and puts the hottest functions in the report.
func (b *bench) profile(ctx context.Context) {
	dir, ok := b.catalog[reference]
	if !ok || b.udtc == "" {
		return
	}
	prof := filepath.Join(b.work, "cpu.prof")
	b.logf("profiling udtc gen on %d types", reference)
	rctx, cancel := context.WithTimeout(ctx, b.cfg.timeout)
	defer cancel()
	s, err := b.meter.Measure(rctx, b.root, []string{"UDTC_CPUPROFILE=" + prof}, b.udtc, genArgs(filepath.Join(b.work, "profile-out"), dir)...)
	note := "### CPU profile of udtc gen, 1,000 types\n\n"
	if err == nil && s.Failed() {
		err = fmt.Errorf("exit %d: %s", s.ExitCode, s.Brief())
	}
	if err != nil {
		b.rep.Notes = append(b.rep.Notes, note+"Not available: "+err.Error())
		return
	}
	cum, err := exec.CommandContext(rctx, "go", "tool", "pprof", "-top", "-cum", "-nodecount=25", "-show=udtc/udtc/", prof).Output()
	if err != nil {
		b.rep.Notes = append(b.rep.Notes, note+"go tool pprof failed: "+err.Error())
		return
	}
	flat, err := exec.CommandContext(rctx, "go", "tool", "pprof", "-top", "-nodecount=15", prof).Output()
	if err != nil {
		b.rep.Notes = append(b.rep.Notes, note+"go tool pprof failed: "+err.Error())
		return
	}
	b.rep.Notes = append(b.rep.Notes, note+"`UDTC_CPUPROFILE=cpu.prof udtc gen CATALOG --out DIR` profiles a whole run, every target (wall "+
		harness.Seconds(s.Wall)+", CPU "+harness.Seconds(s.CPU)+").\n\nudtc functions by cumulative time (`go tool pprof -top -cum -show=udtc/udtc/`):\n\n```\n"+
		trimPprof(string(cum))+"```\n\nHottest functions overall (`go tool pprof -top`):\n\n```\n"+trimPprof(string(flat))+"```")
}

// profileRegistry profiles the registry server's Go benchmarks, which
// exercise the same handlers and store as udtc serve without the network.
func (b *bench) profileRegistry(ctx context.Context) {
	const pkg = "./registry/server"
	note := "### CPU profile of the registry server's Go benchmarks\n\n"
	prof := filepath.Join(b.work, "registry.prof")
	rctx, cancel := context.WithTimeout(ctx, b.cfg.timeout)
	defer cancel()
	s, err := b.meter.Measure(rctx, b.root, nil, "go", "test", pkg, "-run", "^$", "-bench", ".", "-benchtime", "2s", "-cpuprofile", prof, "-o", filepath.Join(b.work, "server.test"))
	if err == nil && s.Failed() {
		err = fmt.Errorf("exit %d: %s", s.ExitCode, s.Brief())
	}
	if err != nil {
		b.rep.Notes = append(b.rep.Notes, note+"Not available: "+err.Error())
		return
	}
	cum, err := exec.CommandContext(rctx, "go", "tool", "pprof", "-top", "-cum", "-nodecount=25", "-show=udtc/udtc/registry|database/sql|modernc.org/sqlite|net/http|encoding/json", prof).Output()
	if err != nil {
		b.rep.Notes = append(b.rep.Notes, note+"go tool pprof failed: "+err.Error())
		return
	}
	b.rep.Notes = append(b.rep.Notes, note+"`go test "+pkg+" -run '^$' -bench . -benchtime 2s -cpuprofile registry.prof`, then "+
		"`go tool pprof -top -cum` restricted to the registry, database/sql, SQLite, net/http and encoding/json:\n\n```\n"+trimPprof(string(cum))+"```")
}

// trimPprof drops pprof's header lines before the table.
func trimPprof(s string) string {
	if i := strings.Index(s, "      flat"); i >= 0 {
		s = s[i:]
	}
	return s
}

// failure returns the first failure line of go test output and the line
// after it ("--- FAIL: BenchmarkX" then its message), or the first line.
func failure(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, l := range lines {
		if strings.Contains(l, "FAIL") || strings.Contains(l, "panic:") {
			if i+1 < len(lines) {
				return strings.TrimSpace(l) + " " + strings.TrimSpace(lines[i+1])
			}
			return strings.TrimSpace(l)
		}
	}
	return firstLine(out)
}
