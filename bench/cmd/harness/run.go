package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/udtc/udtc/bench/harness"
	"github.com/udtc/udtc/bench/synth"
)

// bench is one harness run: its configuration, where things are, and the
// report being filled in.
type bench struct {
	cfg  *config
	root string // repository root
	work string
	log  io.Writer

	udtc string // built binary, "" when the build failed
	// last is the largest size each command was measured at and its wall
	// time, to predict the next size (see overBudget).
	last    map[string]sizeWall
	why     string          // why udtc is not available
	have    map[string]bool // udtc subcommands that exist
	catalog map[int]string  // size → catalog directory
	// checkWall is the median wall time of udtc check of the reference
	// catalog, the unit of the publish targets; 0 when not measured.
	checkWall time.Duration
	asideN    int // outputs set aside (setAside)
	// deep is the deep-profile catalog of the shapes section ("" when not
	// generated).
	deep string
	// radius is Radius's tools, built on first use (radius.go).
	radius *radiusTools
	// site holds the static catalog's targets by profile (site.go).
	site map[string]siteTargets

	// meter runs every measured command through the harness binary as a
	// launcher, so peak RSS is the command's own (see harness.Meter).
	meter harness.Meter

	rep     harness.Report
	targets []*harness.Target
	tables  map[string]*harness.Table
	order   []string
}

// run is the whole harness. It returns 0 when the report was written, 1 when
// it could not be, 2 for bad flags.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "harness: %v\n", err)
		}
		return 2
	}
	b := &bench{cfg: cfg, log: stderr, have: map[string]bool{}, catalog: map[int]string{}, last: map[string]sizeWall{}, tables: map[string]*harness.Table{}}
	if err := b.setup(ctx); err != nil {
		fmt.Fprintf(stderr, "harness: %v\n", err)
		return 1
	}
	if !cfg.keep {
		defer os.RemoveAll(b.work)
	}
	start, loadBefore := time.Now(), harness.LoadAverage()
	b.all(ctx)
	b.rep.Preamble = append(b.rep.Preamble,
		fmt.Sprintf("Harness wall time: %s; load average (1, 5, 15 min) before: %s, after: %s — a load above the CPU count means other processes competed with the benchmarks",
			harness.Seconds(time.Since(start).Round(time.Second)), loadBefore, harness.LoadAverage()))
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "harness: interrupted; report not written")
		return 1
	}
	md := b.report()
	if cfg.out == "-" {
		io.WriteString(stdout, md)
		return 0
	}
	out := cfg.out
	if !filepath.IsAbs(out) {
		out = filepath.Join(b.root, out)
	}
	if old, err := os.ReadFile(out); err == nil {
		md += kept(string(old))
	}
	if err := os.WriteFile(out, []byte(md), 0o644); err != nil {
		fmt.Fprintf(stderr, "harness: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote %s\n", out)
	return 0
}

// keptMarker starts the hand-written part of the report (measurements
// recorded by hand, before/after tables of past changes), which a new
// report keeps as it was.
const keptMarker = "<!-- Recorded by hand below this line; make bench keeps it. -->"

// kept is the hand-written part of an earlier report, from keptMarker on,
// after a blank line; "" when there is none.
func kept(old string) string {
	i := strings.Index(old, keptMarker)
	if i < 0 {
		return ""
	}
	return "\n" + old[i:]
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.log, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func (b *bench) setup(ctx context.Context) error {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return fmt.Errorf("run the harness inside the udtc module")
	}
	b.root = filepath.Dir(gomod)
	if exe, err := os.Executable(); err == nil {
		b.meter.Launcher = exe
	}
	if b.cfg.work != "" {
		b.work = b.cfg.work
		err = os.MkdirAll(b.work, 0o755)
	} else {
		b.work, err = os.MkdirTemp("", "udtc-bench-")
	}
	if err != nil {
		return err
	}
	b.rep = harness.Report{Title: "Benchmarks", Date: time.Now(), Machine: harness.ReadMachine()}
	commit, _ := exec.CommandContext(ctx, "git", "-C", b.root, "rev-parse", "--short", "HEAD").Output()
	dirty, _ := exec.CommandContext(ctx, "git", "-C", b.root, "status", "--porcelain", "--untracked-files=no").Output()
	rev := strings.TrimSpace(string(commit))
	if rev == "" {
		rev = "unknown"
	} else if len(strings.TrimSpace(string(dirty))) > 0 {
		rev += " (with uncommitted changes)"
	}
	b.rep.Preamble = append(b.rep.Preamble,
		"Commit: "+rev,
		fmt.Sprintf("Command: `%s` (`make bench`; flags: `go run ./bench/cmd/harness -h`)", strings.TrimSpace("go run ./bench/cmd/harness "+strings.Join(b.cfg.args, " "))),
		fmt.Sprintf("Catalogs: synthetic (bench/synth), %d API versions per type, %d namespaces, seed %d; sizes are total types", b.cfg.versions, b.cfg.namespaces, b.cfg.seed),
		fmt.Sprintf("Process figures are medians of %d runs; wall = elapsed, CPU = user+sys of the process and its children, RSS = peak resident set", b.cfg.runs),
	)
	return nil
}

// all runs every section that is not skipped. Sections record what they
// could not measure instead of failing the harness.
func (b *bench) all(ctx context.Context) {
	b.build(ctx)
	b.catalogs()
	if !b.cfg.skip["check"] {
		b.check(ctx)
	}
	if !b.cfg.skip["gen"] {
		b.gen(ctx)
	}
	if !b.cfg.skip["shapes"] {
		b.shapes(ctx)
	}
	if !b.cfg.skip["registry"] {
		b.registry(ctx)
		b.hugeSchemas(ctx)
	}
	if !b.cfg.skip["mixed"] {
		b.mixed(ctx)
	}
	if !b.cfg.skip["resources"] {
		b.resources(ctx)
	}
	if !b.cfg.skip["publish"] {
		b.publish(ctx)
	}
	if !b.cfg.skip["gobench"] {
		b.goBenchmarks(ctx)
	}
	if !b.cfg.skip["profile"] {
		b.profile(ctx)
		b.profileRegistry(ctx)
	}
}

// build compiles udtc and finds out which commands it has.
func (b *bench) build(ctx context.Context) {
	bin := b.cfg.udtc
	if bin == "" {
		bin = filepath.Join(b.work, "bin", "udtc")
		b.logf("building udtc")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/udtc")
		cmd.Dir = b.root
		if out, err := cmd.CombinedOutput(); err != nil {
			b.why = "udtc does not build: " + firstLine(string(out))
			b.logf("%s", b.why)
			return
		}
	} else if abs, err := filepath.Abs(bin); err == nil {
		bin = abs
	}
	b.udtc = bin
	for _, c := range []string{"check", "gen", "serve", "publish"} {
		s, err := b.meter.Measure(ctx, b.root, nil, bin, c, "--help")
		b.have[c] = err == nil && !s.Failed() && strings.Contains(s.Stdout, "udtc "+c)
		b.logf("udtc %s: available=%v", c, b.have[c])
	}
}

// available returns "" when udtc has command, else why not.
func (b *bench) available(command string) string {
	switch {
	case b.udtc == "":
		return b.why
	case !b.have[command]:
		return "`udtc " + command + "` not available"
	}
	return ""
}

// catalogs writes a catalog per size.
func (b *bench) catalogs() {
	t := b.table("Catalogs", "", "Types", "Namespaces", "API versions", "Files", "YAML size")
	for _, n := range b.cfg.sizes {
		o := synth.Options{Types: n, Versions: b.cfg.versions, Namespaces: min(b.cfg.namespaces, n), Seed: b.cfg.seed}
		dir := filepath.Join(b.work, fmt.Sprintf("catalog-%d", n))
		count, size, err := writeSynth(o, dir)
		if err != nil {
			t.Rows = append(t.Rows, []string{num(n), "—", "—", "—", err.Error()})
			continue
		}
		b.catalog[n] = dir
		b.logf("catalog of %d types: %d files, %s", n, count, harness.MB(size))
		t.Rows = append(t.Rows, []string{num(n), num(o.Namespaces), num(n * o.Versions), num(count), harness.MB(size)})
	}
	if !b.cfg.skip["shapes"] {
		b.deepCatalog(t)
	}
}

// measure runs udtc args up to runs times (calling before ahead of each run
// when non-nil) and returns the samples. It stops repeating once a run took
// longer than -slow, and at the first failure.
func (b *bench) measure(ctx context.Context, runs int, before func() error, args ...string) ([]harness.Sample, error) {
	var samples []harness.Sample
	for i := range runs {
		if i > 0 && samples[i-1].Wall > b.cfg.slow {
			break
		}
		if before != nil {
			if err := before(); err != nil {
				return samples, err
			}
		}
		rctx, cancel := context.WithTimeout(ctx, b.cfg.timeout)
		s, err := b.meter.Measure(rctx, b.root, nil, b.udtc, args...)
		cancel()
		if err != nil {
			return samples, err
		}
		if s.Failed() {
			return samples, fmt.Errorf("exit %d: %s", s.ExitCode, s.Brief())
		}
		samples = append(samples, s)
	}
	return samples, nil
}

// setAside empties dir's place for the next measured run by renaming dir
// into the work directory, which is removed only when the harness ends.
// Removing the thousands of files of a gen output just before the next run
// would bill that run for the file system's cleanup: ext4 without a journal
// (the root file system of these machines) checks every inode freed in the
// last minutes before reusing it, and creating the next output's files then
// costs seconds of system time that have nothing to do with udtc.
func (b *bench) setAside(dir string) error {
	b.asideN++
	err := os.Rename(dir, filepath.Join(b.work, fmt.Sprintf("set-aside-%d", b.asideN)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

type sizeWall struct {
	size int
	wall time.Duration
}

// overBudget reports why command should not run at size n: a linear
// extrapolation from its last measured size exceeds -budget. It returns ""
// when the run fits.
func (b *bench) overBudget(command string, n int) string {
	l, ok := b.last[command]
	if !ok || l.size >= n {
		return ""
	}
	est := time.Duration(float64(l.wall) * float64(n) / float64(l.size))
	if est <= b.cfg.budget {
		return ""
	}
	return fmt.Sprintf("skipped: %s types took %s, so %s types would take about %s per run, over -budget %s",
		num(l.size), harness.Seconds(l.wall), num(n), harness.Seconds(est.Round(time.Second)), b.cfg.budget)
}

// measured records a command's median wall time at size n for overBudget.
func (b *bench) measured(command string, n int, wall time.Duration) {
	b.last[command] = sizeWall{n, wall}
}

// table returns the named table, creating it (in report order) on first use.
func (b *bench) table(title, note string, header ...string) *harness.Table {
	if t, ok := b.tables[title]; ok {
		return t
	}
	t := &harness.Table{Title: title, Note: note, Header: header}
	b.tables[title] = t
	b.order = append(b.order, title)
	return t
}

// target registers a target; the caller fills in the measurement.
func (b *bench) target(name string, goal float64, unit string, higher bool) *harness.Target {
	t := &harness.Target{Name: name, Goal: goal, Unit: unit, Higher: higher}
	b.targets = append(b.targets, t)
	return t
}

func (b *bench) report() string {
	for _, t := range b.targets {
		b.rep.Targets = append(b.rep.Targets, *t)
	}
	for _, title := range b.order {
		b.rep.Tables = append(b.rep.Tables, *b.tables[title])
	}
	return b.rep.Markdown()
}

func num(n int) string { return harness.Num(float64(n)) }

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return "… " + s[i+1:]
	}
	return s
}
