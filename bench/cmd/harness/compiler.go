package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/udtc/udtc/bench/harness"
	"github.com/udtc/udtc/bench/synth"
)

const processNote = `Whole-process runs of the udtc binary, medians over "Runs" (a run longer than -slow is not repeated; a size whose predicted run exceeds -budget is skipped). "Wall per 1,000 types" divides wall time by catalog size: it stays flat when cost grows linearly. "Of which system" is the kernel's part of CPU: for gen mostly creating its files, which on this machine's ext4 without a journal costs seconds within minutes of a large deletion (see the notes below the line).`

func (b *bench) processTable() *harness.Table {
	return b.table("Compiler", processNote, "Command", "Types", "Runs", "Wall", "CPU", "Of which system", "Peak RSS", "Wall per 1,000 types", "Note")
}

func (b *bench) processRow(command string, n int, samples []harness.Sample, note string) {
	s := harness.Summarize(samples)
	per := time.Duration(float64(s.Wall) * 1000 / float64(n))
	b.processTable().Rows = append(b.processTable().Rows, []string{
		command, num(n), num(s.Runs), harness.Seconds(s.Wall), harness.Seconds(s.CPU), harness.Seconds(s.Sys), harness.MB(s.MaxRSS), harness.Seconds(per), note})
}

func (b *bench) processMissing(command string, n int, why string) {
	b.processTable().Rows = append(b.processTable().Rows, []string{command, num(n), "0", "—", "—", "—", "—", "—", why})
}

// radiusCheck is the wall time of Radius's own validator on the 1,000-type
// catalog, measured outside this repository (issue 13); the shapes section
// compares udtc check with it when it cannot build the validator
// (radius.go).
const radiusCheck = 6.8

func (b *bench) check(ctx context.Context) {
	for _, n := range b.cfg.sizes {
		dir, ok := b.catalog[n]
		if why := b.available("check"); why != "" || !ok {
			b.processMissing("udtc check", n, orCatalog(why))
			continue
		}
		if why := b.overBudget("check", n); why != "" {
			b.processMissing("udtc check", n, why)
			continue
		}
		b.logf("udtc check, %d types", n)
		samples, err := b.measure(ctx, b.cfg.runs, nil, "check", dir)
		if err != nil {
			b.processMissing("udtc check", n, "failed: "+err.Error())
			continue
		}
		b.processRow("udtc check", n, samples, "")
		b.measured("check", n, harness.Summarize(samples).Wall)
		if n == reference {
			b.checkWall = harness.Summarize(samples).Wall
		}
	}
}

func orCatalog(why string) string {
	if why == "" {
		return "catalog not generated"
	}
	return why
}

// fileState is what the unchanged-input check compares.
type fileState struct {
	size int64
	mod  time.Time
}

func snapshot(dir string) (map[string]fileState, error) {
	m := map[string]fileState{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		m[p] = fileState{info.Size(), info.ModTime()}
		return nil
	})
	return m, err
}

func (b *bench) gen(ctx context.Context) {
	unchanged := b.target("`udtc gen` on unchanged inputs: files rewritten", 0, "files", false)
	// The 9.8 MB this target had (20% of what a generator without type
	// de-duplication wrote then) predates Radius's base properties and
	// manifest-to-bicep's aliases, which every body now carries and
	// Bicep's format cannot share: each object lists its properties. So
	// the size is judged against the same types without de-duplication.
	bicep := b.target("Bicep types.json of 1,000 types as written, as a share of the same types without type de-duplication", 100.0/3, "%", false)
	growth := b.target("`udtc gen` cost growth, 1,000 → 5,000 types (wall per type, ratio)", 1.25, "×", false)
	b.siteTargetsFor(synth.ProfileFlat)
	perType := map[int]float64{}
	for _, t := range []*harness.Target{unchanged, bicep, growth} {
		t.Why = b.available("gen")
	}
	dedup := b.table("Bicep type de-duplication", "The types.json files as written (one type per line), the same JSON without whitespace, and that without type de-duplication (each resource type's body with everything it references inlined, computed by the harness from the emitted files). The 9.8 MB target is 20% of the 49 MB the 1,000-type catalog took indented and without de-duplication before Radius's base properties and flattened aliases were added to every type; the table gives today's figures.",
		"Types", "types.json files", "As written", "Compact", "Compact, without de-duplication", "Ratio (compact)", "Note")
	outputs := b.table("Generated output", "Bytes written by `udtc gen` (all targets), by top-level output directory.", "Types", "Output", "Files", "Size")
	for _, n := range b.cfg.sizes {
		dir, ok := b.catalog[n]
		if why := b.available("gen"); why != "" || !ok {
			b.processMissing("udtc gen", n, orCatalog(why))
			continue
		}
		if why := b.overBudget("gen", n); why != "" {
			b.processMissing("udtc gen (all targets)", n, why)
			if n == 5000 {
				growth.Why = why
			}
			continue
		}
		out := filepath.Join(b.work, fmt.Sprintf("out-%d", n))
		b.logf("udtc gen, %d types", n)
		samples, err := b.measure(ctx, b.cfg.runs, func() error { return b.setAside(out) }, genArgs(out, dir)...)
		if err != nil {
			b.processMissing("udtc gen (all targets)", n, "failed: "+err.Error())
			continue
		}
		b.processRow("udtc gen (all targets)", n, samples, "empty output directory")
		s := harness.Summarize(samples)
		b.measured("gen", n, s.Wall)
		perType[n] = s.Wall.Seconds() / float64(n)
		for _, o := range b.outputSizes(out) {
			outputs.Rows = append(outputs.Rows, []string{num(n), o.name, num(o.files), harness.MB(o.bytes)})
		}
		b.measureSite(synth.ProfileFlat, n, out)
		bt, err := bicepSizes(out)
		switch {
		case err != nil:
			dedup.Rows = append(dedup.Rows, []string{num(n), "—", "—", "—", "—", "—", err.Error()})
		case bt.files == 0:
			dedup.Rows = append(dedup.Rows, []string{num(n), "0", "—", "—", "—", "—", "no types.json written"})
		default:
			dedup.Rows = append(dedup.Rows, []string{num(n), num(bt.files), harness.MB(bt.written), harness.MB(bt.compact), harness.MB(bt.naive),
				harness.Num(100*float64(bt.compact)/float64(bt.naive)) + "%", ""})
			if n == reference {
				bicep.Value, bicep.Have = 100*float64(bt.written)/float64(bt.naive), true
			}
		}
		if n == reference && !bicep.Have {
			bicep.Why = "no types.json measured"
		}

		// Unchanged inputs: the same command again must rewrite nothing.
		before, err := snapshot(out)
		if err != nil {
			b.processMissing("udtc gen (unchanged inputs)", n, err.Error())
			continue
		}
		time.Sleep(20 * time.Millisecond) // let a rewrite show in the modification time
		samples, err = b.measure(ctx, b.cfg.runs, nil, genArgs(out, dir)...)
		if err != nil {
			b.processMissing("udtc gen (unchanged inputs)", n, "failed: "+err.Error())
			continue
		}
		after, err := snapshot(out)
		if err != nil {
			b.processMissing("udtc gen (unchanged inputs)", n, err.Error())
			continue
		}
		changed := 0
		for p, st := range after {
			if prev, ok := before[p]; !ok || prev != st {
				changed++
			}
		}
		changed += len(before) - countKept(before, after)
		said := lastLine(samples[len(samples)-1].Stdout + "\n" + samples[len(samples)-1].Stderr)
		b.processRow("udtc gen (unchanged inputs)", n, samples, fmt.Sprintf("%d files rewritten; udtc said: %q", changed, said))
		if n == reference {
			unchanged.Value, unchanged.Have = float64(changed), true
		}
		if n == reference && !b.cfg.skip["gocompile"] {
			b.goCompile(ctx, out)
		}
	}
	if perType[reference] > 0 && perType[5000] > 0 {
		growth.Value, growth.Have = perType[5000]/perType[reference], true
	} else if growth.Why == "" {
		growth.Why = "needs sizes 1,000 and 5,000"
	}
	if unchanged.Why == "" && !unchanged.Have {
		unchanged.Why = "not measured"
		if bicep.Why == "" {
			bicep.Why = "not measured"
		}
	}
}

// countKept counts paths of before still present in after.
func countKept(before, after map[string]fileState) int {
	n := 0
	for p := range before {
		if _, ok := after[p]; ok {
			n++
		}
	}
	return n
}

type outputSize struct {
	name  string
	files int
	bytes int64
}

// outputSizes sums the files under each top-level entry of out.
func (b *bench) outputSizes(out string) []outputSize {
	entries, err := os.ReadDir(out)
	if err != nil {
		return nil
	}
	var res []outputSize
	for _, e := range entries {
		o := outputSize{name: e.Name()}
		if e.IsDir() {
			o.name += "/"
		}
		_ = filepath.WalkDir(filepath.Join(out, e.Name()), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if info, err := d.Info(); err == nil {
				o.files++
				o.bytes += info.Size()
			}
			return nil
		})
		res = append(res, o)
	}
	return res
}

// goImportPrefix is the Go import path the harness gives gen's output
// directory, and the module path of the scratch module that compiles it.
const goImportPrefix = "udtcbench.local/client"

func genArgs(out, catalog string) []string {
	return []string{"gen", "--out", out, "--go-import-prefix", goImportPrefix, catalog}
}

// goCompile copies the generated Go code into a scratch module and times
// `go build` of it; a nonce file per package forces a real recompile on
// every run while the standard library stays cached.
func (b *bench) goCompile(ctx context.Context, out string) {
	linesT := b.target(fmt.Sprintf("Generated Go of 1,000 types: lines per type (half the %s before issue 11)", num(linesBefore)), float64(linesBefore)/2, "lines", false)
	buildT := b.target("`go build` of the Go generated for 1,000 types: wall", 60, "s", false)
	t := b.table("Generated Go: compile", "`go build ./...` of the Go client generated for the 1,000-type catalog, in a scratch module; the standard library is already cached, the generated packages are recompiled on every run.",
		"Packages", "Go files", "Lines", "Size", "Build wall", "Build CPU", "Peak RSS", "Note")
	mod := filepath.Join(b.work, "gobuild")
	_ = os.RemoveAll(mod)
	pkgs := map[string]string{} // directory relative to out → package name
	var files, lines int
	var size int64
	usesUDTC := false
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		if err := os.MkdirAll(filepath.Join(mod, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(mod, rel), data, 0o644); err != nil {
			return err
		}
		files++
		lines += bytes.Count(data, []byte("\n"))
		size += int64(len(data))
		usesUDTC = usesUDTC || bytes.Contains(data, []byte(`"github.com/udtc/udtc/`))
		if _, ok := pkgs[filepath.Dir(rel)]; !ok {
			pkgs[filepath.Dir(rel)] = packageName(data)
		}
		return nil
	})
	row := func(wall, cpu, rss, note string) {
		t.Rows = append(t.Rows, []string{num(len(pkgs)), num(files), num(lines), harness.MB(size), wall, cpu, rss, note})
		if note != "" {
			buildT.Why = note
		}
	}
	if err == nil && files > 0 {
		linesT.Value, linesT.Have = float64(lines)/float64(reference), true
	} else {
		linesT.Why = "no Go output"
	}
	switch {
	case err != nil:
		row("—", "—", "—", "copy: "+err.Error())
		return
	case files == 0:
		row("—", "—", "—", "no Go files in the gen output")
		return
	}
	gomod := "module " + goImportPrefix + "\n\ngo 1.26\n"
	if usesUDTC {
		gomod += fmt.Sprintf("\nrequire github.com/udtc/udtc v0.0.0\n\nreplace github.com/udtc/udtc => %s\n", b.root)
	}
	if err := os.WriteFile(filepath.Join(mod, "go.mod"), []byte(gomod), 0o644); err != nil {
		row("—", "—", "—", err.Error())
		return
	}
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	var samples []harness.Sample
	for i := range b.cfg.runs {
		for dir, name := range pkgs {
			nonce := fmt.Sprintf("package %s\n\nconst _ = \"bench run %d\"\n", name, i)
			if err := os.WriteFile(filepath.Join(mod, dir, "zz_bench_nonce.go"), []byte(nonce), 0o644); err != nil {
				row("—", "—", "—", err.Error())
				return
			}
		}
		b.logf("go build of the generated client, run %d", i+1)
		rctx, cancel := context.WithTimeout(ctx, b.cfg.stepLimit)
		s, err := b.meter.Measure(rctx, mod, env, "go", "build", "./...")
		cancel()
		if err == nil && s.Failed() {
			err = fmt.Errorf("exit %d: %s", s.ExitCode, s.Brief())
		}
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			row("> "+b.cfg.stepLimit.String(), "—", "—", "did not finish within -step-limit")
			return
		case err != nil:
			row("—", "—", "—", "go build failed: "+err.Error())
			return
		}
		samples = append(samples, s)
		if s.Wall > b.cfg.slow {
			break
		}
	}
	s := harness.Summarize(samples)
	row(harness.Seconds(s.Wall), harness.Seconds(s.CPU), harness.MB(s.MaxRSS), "")
	buildT.Value, buildT.Have = s.Wall.Seconds(), true
}

// linesBefore is the lines of generated Go per type of the 1,000-type
// catalog when issue 11 was filed (1,847,088 lines in all).
const linesBefore = 1847

// packageName returns the package clause of a Go file, or "main".
func packageName(src []byte) string {
	for line := range strings.Lines(string(src)) {
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "package "); ok {
			return strings.TrimSpace(name)
		}
	}
	return "main"
}
