package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/outdir"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
)

// publishRecord is where a publish finds and keeps its record
// (publish.Record): path ("" for none), the key of the run's inputs
// (computed in the background: "" when there is none), and, once
// compiled, the diagnostics it printed and whether it may record at all
// (text output, with text diagnostics a replay can print again).
type publishRecord struct {
	path        string
	key         func() string
	recording   bool
	diagnostics []byte
}

// startRecord finds the record of a publish of paths, and starts its key.
// Only text output replays: the JSON report lists every registration.
func (f *publishFlags) startRecord(c *cli.Context, e *env, paths []string) *publishRecord {
	rec := &publishRecord{key: func() string { return "" }}
	if f.output == "text" {
		if rec.path = publish.RecordPath(f.server, f.plane, paths); rec.path != "" {
			rec.key = f.startPublishKey(c, e, paths)
		}
	}
	return rec
}

// replay prints the record again, and returns true, when nothing changed
// since the last publish that left the registry matching (same inputs, same
// registry state, so the same zero-write plan), without compiling.
func (f *publishFlags) replay(c *cli.Context, e *env, reg *client.Client, rec *publishRecord) (bool, error) {
	// With a record, the key is needed before anything else.
	if _, err := os.Stat(rec.path); rec.path == "" || err != nil || rec.key() == "" {
		return false, nil
	}
	ctx, cancel, err := f.serverFlags.connect(c.Context, reg)
	if err != nil {
		return false, err
	}
	r, same, err := publish.Replay(ctx, reg, rec.path, rec.key())
	cancel()
	if err != nil {
		return false, fail(exitFail, err)
	}
	if !same {
		return false, nil
	}
	fmt.Fprint(e.stderr, r.Diagnostics)
	fmt.Fprint(e.stdout, r.Plan)
	fmt.Fprintln(e.stdout, "The registry already matches the manifests: 0 writes.")
	fmt.Fprintln(e.stderr, "inputs and the registry unchanged since the last publish: nothing compiled")
	return true, nil
}

// save records plan, a plan of zero writes, when the run may record and
// published everything.
func (f *publishFlags) save(rec *publishRecord, plan *publish.Plan) {
	if !rec.recording || len(f.refused) > 0 { // a replay would not say what was refused
		return
	}
	var text bytes.Buffer
	plan.WriteText(&text, cmp.Or(f.target, f.server), f.plane, f.review.verbose)
	publish.SaveRecord(rec.path, rec.key(), plan, text.String(), string(rec.diagnostics))
}

// recordApplied records the registry as applying plan left it, when it
// matches: the next publish replays the record only when it reads that
// state again (a concurrent writer changes it). The schemas just written
// are not read back (publish.Expected).
func (f *publishFlags) recordApplied(ctx context.Context, reg *client.Client, plan *publish.Plan, rec *publishRecord) {
	if !rec.recording || rec.key() == "" {
		return
	}
	if after, err := publish.AfterApply(ctx, reg, plan); err == nil {
		f.save(rec, after)
	}
}

// startPublishKey starts the key of a publish run's inputs
// (outdir.StartKey): the manifests, every flag, and whether its
// diagnostics are in color.
func (f *publishFlags) startPublishKey(c *cli.Context, e *env, paths []string) func() string {
	// Every option that shapes what is sent: the project file's too. A
	// broken one is never replayed over: the compile reports it.
	if f.loadProject() != nil {
		return func() string { return "" }
	}
	return outdir.StartKey(paths, "publish", f.server, f.plane, f.location, f.address, f.output, f.format,
		strconv.FormatBool(f.strict), strconv.FormatBool(f.prune), strconv.FormatBool(f.dryRun),
		strconv.FormatBool(f.deleteResources), strconv.FormatBool(f.noBase(c)), strconv.FormatBool(f.radius()), f.proj.Key(),
		strings.Join(f.types.Value(), ","),
		strconv.FormatBool(f.review.verbose), f.review.allowBreaking.String(),
		strconv.FormatBool(f.review.detailedExitcode), strconv.FormatBool(f.review.yes), strconv.FormatBool(diagColor(e)))
}

// compileRecorded is compile for publish: it also keeps in rec the text
// diagnostics (warnings) it printed, so that a replay of the run prints
// them again; rec does not record when it cannot (JSON or SARIF
// diagnostics, printed on stdout).
func (f *publishFlags) compileRecorded(c *cli.Context, e *env, paths []string, rec *publishRecord) (*model.Catalog, error) {
	cat, diags, err := f.collect(c, paths)
	if err != nil {
		return nil, err
	}
	replayable := true
	if len(diags) > 0 && f.format != "text" {
		replayable = false
		if err := printDiagnostics(e, f.format, diags); err != nil {
			return nil, fail(exitUsage, err)
		}
	} else if len(diags) > 0 {
		var buf bytes.Buffer
		if err := diag.WriteText(&buf, diags, diag.TextOptions{Color: diagColor(e), Source: diag.FileSource()}); err != nil {
			return nil, fail(exitUsage, err)
		}
		e.stderr.Write(buf.Bytes())
		rec.diagnostics = buf.Bytes()
	}
	if diags.HasErrors() {
		return nil, fail(exitFail, nil)
	}
	// A replay could not print the same diagnostics: no record.
	rec.recording = rec.path != "" && replayable
	return cat, nil
}
