package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/udtc/udtc/bench/harness"
	"github.com/udtc/udtc/bench/synth"
)

// The two catalog shapes of issue 28: the flat profile every other section
// measures, and the deep one (deeper nesting, more constraints, thousands
// of required-default warnings), side by side at one size.

// radiusCheckBicep is the wall time of Radius's validator followed by
// manifest-to-bicep on the 1,000-type catalog, measured once outside this
// repository (issue 28); with radiusCheck, the fallback when the harness
// has no Radius source tree to build them from (radius.go).
const radiusCheckBicep = 14.8

const shapesNote = "Both synthetic shapes at the reference size (bench/synth `-profile flat` and `-profile deep`), medians of -runs. " +
	"Cold gen writes into an empty output directory; after each cold gen the harness measures the floor of the same catalog (the floor table), and the floor row's ratio is the median of each gen's ratio to the floor measured right after it. Incremental gen is gen into the output of the previous run after one description in one manifest changed " +
	"(a different file and text each run, so every run has real work); its ratio is to the cold gen of the same shape. " +
	"Kernel is the system part of CPU, for gen mostly creating its files and directories: on ext4 without a journal it grows with the inodes removed in the minutes before the run (\"The disk\" below), so a cold gen whose kernel time is several seconds was measured after a large deletion. " +
	"check and gen --target bicep alternate with Radius's own validator and manifest-to-bicep, built from a Radius source tree (-radius; by default ../radius beside the repository): check, Radius's tools, gen --target bicep, in each run. Their ratios are the median of each run's ratio to the Radius run beside it. Without a source tree they divide by the wall times recorded once outside this repository (6.8 s and 14.8 s, issue 28), and the rows say so."

// shape is one catalog profile at the size the shapes section measures.
type shape struct {
	profile string
	dir     string
}

// shapeSize is the size the shapes section measures: the reference size
// when it is among -sizes, else the largest size (the targets then say
// "not measured").
func (b *bench) shapeSize() int {
	for _, n := range b.cfg.sizes {
		if n == reference {
			return n
		}
	}
	return b.cfg.sizes[len(b.cfg.sizes)-1]
}

// deepCatalog writes the deep-profile catalog of the shapes section's size
// and adds its row to the catalogs table.
func (b *bench) deepCatalog(t *harness.Table) {
	n := b.shapeSize()
	o := synth.Options{Types: n, Versions: b.cfg.versions, Namespaces: min(b.cfg.namespaces, n), Seed: b.cfg.seed, Profile: synth.ProfileDeep}
	dir := filepath.Join(b.work, fmt.Sprintf("catalog-%d-deep", n))
	files, size, err := writeSynth(o, dir)
	if err != nil {
		t.Rows = append(t.Rows, []string{num(n) + " (deep)", "—", "—", "—", err.Error()})
		return
	}
	b.deep = dir
	b.logf("deep catalog of %d types: %d files, %s", n, files, harness.MB(size))
	t.Rows = append(t.Rows, []string{num(n) + " (deep)", num(o.Namespaces), num(n * o.Versions), num(files), harness.MB(size)})
}

// writeSynth generates the catalog o into dir and returns its file count
// and size.
func writeSynth(o synth.Options, dir string) (int, int64, error) {
	files, err := synth.Generate(o)
	if err != nil {
		return 0, 0, err
	}
	var size int64
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, 0, err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return 0, 0, err
		}
		size += int64(len(f.Data))
	}
	return len(files), size, nil
}

// shapes measures check, gen --target bicep, cold gen and incremental gen
// on both catalog shapes.
func (b *bench) shapes(ctx context.Context) {
	n := b.shapeSize()
	t := b.table(fmt.Sprintf("Catalog shapes (%s types)", num(n)), shapesNote,
		"Profile", "Command", "Runs", "Wall", "CPU", "Kernel", "Peak RSS", "Ratio", "Note")
	b.siteTargetsFor(synth.ProfileFlat)
	var list []shape
	if dir, ok := b.catalog[n]; ok {
		list = append(list, shape{synth.ProfileFlat, dir})
	}
	if b.deep != "" {
		list = append(list, shape{synth.ProfileDeep, b.deep})
	}
	for _, s := range list {
		b.shape(ctx, t, s, n)
	}
}

// shapeTargets are the targets of one shape.
type shapeTargets struct {
	check, bicep, gen, rss, incr *harness.Target
}

func (b *bench) newShapeTargets(profile string) shapeTargets {
	p := " (" + profile + " profile)"
	st := shapeTargets{
		check: b.target("`udtc check` of 1,000 types"+p+": ratio to Radius's validator", 0.2, "×", false),
		bicep: b.target("`udtc gen --target bicep` of 1,000 types"+p+": ratio to Radius's validator + manifest-to-bicep", 0.15, "×", false),
		gen:   b.target("`udtc gen` of 1,000 types, all targets, cold, to disk"+p+": ratio to the floor of the same run (yaml.v3 + go/format)", 4, "×", false),
		rss:   b.target("`udtc gen` of 1,000 types, all targets"+p+": peak memory", 300, "MB", false),
		incr:  b.target("`udtc gen` after one description changed"+p+": ratio to the cold gen", 0.2, "×", false),
	}
	for _, t := range []*harness.Target{st.check, st.bicep, st.gen, st.rss, st.incr} {
		t.Why = "not measured"
	}
	return st
}

func (b *bench) shape(ctx context.Context, t *harness.Table, s shape, n int) {
	tg := b.newShapeTargets(s.profile)
	// row adds a row of samples; ratio is the Ratio column, 0 for none.
	row := func(command string, samples []harness.Sample, ratio float64, note string) harness.Summary {
		sum := harness.Summarize(samples)
		r := "—"
		if ratio > 0 {
			r = harness.Num(ratio) + "×"
		}
		t.Rows = append(t.Rows, []string{s.profile, command, num(sum.Runs), harness.Seconds(sum.Wall), harness.Seconds(sum.CPU), harness.Seconds(sum.Sys), harness.MB(sum.MaxRSS), r, note})
		return sum
	}
	missing := func(command, why string, targets ...*harness.Target) {
		t.Rows = append(t.Rows, []string{s.profile, command, "0", "—", "—", "—", "—", "—", why})
		for _, tg := range targets {
			tg.Why = why
		}
	}
	if why := b.available("gen"); why != "" {
		missing("udtc check / gen", why, tg.check, tg.bicep, tg.gen, tg.rss, tg.incr)
		return
	}
	ref := n == reference
	out := filepath.Join(b.work, "shape-"+s.profile)
	b.logf("shapes: udtc check, gen --target bicep and Radius's tools, alternating, %s profile", s.profile)
	v, err := b.versusRadius(ctx, s, out)
	if err != nil {
		missing("udtc check / gen --target bicep", "failed: "+err.Error(), tg.check, tg.bicep)
	} else {
		checkRatio, bicepRatio := v.ratios()
		row("udtc check", v.check, checkRatio, v.note("Radius's validator", radiusCheck))
		row("udtc gen --target bicep", v.bicep, bicepRatio, "empty output directory; "+v.note("Radius's validator + manifest-to-bicep", radiusCheckBicep))
		v.radiusRows(t, s.profile)
		if ref {
			tg.check.Value, tg.check.Have, tg.check.Why = checkRatio, true, ""
			tg.bicep.Value, tg.bicep.Have, tg.bicep.Why = bicepRatio, true, ""
		}
	}
	b.logf("shapes: udtc gen and its floor, alternating, %s profile", s.profile)
	samples, floors, work, err := b.coldGen(ctx, s, out)
	if err != nil {
		missing("udtc gen (all targets, cold)", "failed: "+err.Error(), tg.gen, tg.rss, tg.incr)
		return
	}
	cold := row("udtc gen (all targets, cold)", samples, 0, "empty output directory")
	if floor := b.floor(s.profile, work, floors); floor > 0 {
		ratio := floorRatio(samples, floors)
		t.Rows = append(t.Rows, []string{s.profile, "floor: yaml.v3 + go/format, in process", num(len(floors)), harness.Seconds(floor), "—", "—", "—",
			harness.Num(ratio) + "×", "the median of each cold gen's ratio to the floor measured right after it"})
		if ref {
			tg.gen.Value, tg.gen.Have, tg.gen.Why = ratio, true, ""
		}
	} else {
		tg.gen.Why = "floor not measured (see the floor table)"
	}
	if _, err := os.Stat(filepath.Join(out, "site")); err == nil {
		b.measureSite(s.profile, n, out) // the flat one when the gen section did not run
	}
	if ref {
		tg.rss.Value, tg.rss.Have, tg.rss.Why = float64(cold.MaxRSS)/1e6, true, ""
	}
	b.logf("shapes: udtc gen after an edit, %s profile", s.profile)
	samples, note, err := b.incremental(ctx, s, out)
	if err != nil {
		missing("udtc gen (one description changed)", "failed: "+err.Error(), tg.incr, tg.gen)
		return
	}
	incr := harness.Summarize(samples).Wall.Seconds() / cold.Wall.Seconds()
	row("udtc gen (one description changed)", samples, incr, note)
	if ref {
		tg.incr.Value, tg.incr.Have, tg.incr.Why = incr, true, ""
	}
}

// coldGen measures the cold gen of s into out, runs times, and after each
// run the floor of the same catalog over the Go that run wrote (floorWork):
// gen, floor, gen, floor. A machine whose speed drifts over minutes (a
// shared one does) then gives each ratio a gen and a floor measured at the
// same speed; measured apart, the two could be minutes apart, and one
// full report's flat ratio was 4.05× with the flat gens taken four minutes
// before the floor. It returns the gens' samples, the floor's runs and the
// floor's work, read after the first gen.
func (b *bench) coldGen(ctx context.Context, s shape, out string) ([]harness.Sample, []floorRun, floorWork, error) {
	var samples []harness.Sample
	var floors []floorRun
	var work floorWork
	for i := range b.cfg.runs {
		if i > 0 && samples[i-1].Wall > b.cfg.slow {
			break
		}
		got, err := b.measure(ctx, 1, func() error { return b.setAside(out) }, genArgs(out, s.dir)...)
		samples = append(samples, got...)
		if err != nil {
			return samples, floors, work, err
		}
		if work == nil {
			work = newFloorWork(s.dir, out)
		}
		floors = append(floors, work.run())
	}
	return samples, floors, work, nil
}

// floorRatio is the median of each gen's wall time over the floor of the
// run after it; 0 when a floor failed.
func floorRatio(gens []harness.Sample, floors []floorRun) float64 {
	var walls []time.Duration
	for _, f := range floors {
		if f.sum() <= 0 {
			return 0
		}
		walls = append(walls, f.sum())
	}
	return pairRatio(gens, walls)
}

// incremental copies the catalog of s (so the other sections keep theirs),
// generates it into out once, then before each measured run changes one
// description in one manifest, a different one each run.
func (b *bench) incremental(ctx context.Context, s shape, out string) ([]harness.Sample, string, error) {
	src := filepath.Join(b.work, "shape-"+s.profile+"-edited")
	if err := os.RemoveAll(src); err != nil {
		return nil, "", err
	}
	if err := os.CopyFS(src, os.DirFS(s.dir)); err != nil {
		return nil, "", err
	}
	if _, err := b.measure(ctx, 1, func() error { return b.setAside(out) }, genArgs(out, src)...); err != nil {
		return nil, "", err
	}
	manifests, err := yamlFiles(src)
	if err != nil {
		return nil, "", err
	}
	run := 0
	edit := func() error {
		run++
		// Spread the edits over the files (and so the namespaces).
		return editDescription(manifests[(run*len(manifests)/(b.cfg.runs+1))%len(manifests)], run)
	}
	samples, err := b.measure(ctx, b.cfg.runs, edit, genArgs(out, src)...)
	if err != nil {
		return samples, "", err
	}
	return samples, "udtc said: " + fmt.Sprintf("%q", lastLine(samples[len(samples)-1].Stderr)), nil
}

func yamlFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			files = append(files, p)
		}
		return err
	})
	if err == nil && len(files) == 0 {
		err = fmt.Errorf("no manifests in %s", dir)
	}
	return files, err
}

// quotedDescription is a single-quoted description as bench/synth writes
// it: `description: '...'`.
var quotedDescription = regexp.MustCompile(`(?m)^(\s+description: '[^'\n]*)'$`)

// editDescription changes the first single-quoted description of file:
// " (edit N)" goes before the closing quote.
func editDescription(file string, n int) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	loc := quotedDescription.FindSubmatchIndex(data)
	if loc == nil {
		return errors.New(file + " has no single-quoted description to edit")
	}
	edited := fmt.Appendf(nil, "%s (edit %d)%s", data[:loc[3]], n, data[loc[3]:])
	// A modification time in the past of the last run is still a change:
	// the contents differ.
	time.Sleep(10 * time.Millisecond)
	return os.WriteFile(file, edited, 0o644)
}
