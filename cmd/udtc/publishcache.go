package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/outdir"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/publish"
)

// publishRecord is the machine-local record of the last publish that left
// the registry matching the manifests (a plan of zero writes, read back
// after applying): the inputs' key (inputKey: the udtc binary, every flag,
// each manifest's path and contents), the namespaces it read, what it read
// of the registry (publish.Plan.State), and the diagnostics (warnings) and
// plan text it printed. A
// publish whose inputs have that key and which reads that state again
// would plan zero writes again, so it prints the same and compiles
// nothing. It lives in the user cache directory
// (os.UserCacheDir()/udtc/publish/), one file per server, plane and paths.
type publishRecord struct {
	Key        string   `json:"key"`
	Namespaces []string `json:"namespaces"`
	State      string   `json:"state"`
	Plan       string   `json:"plan"`
	// Diagnostics is the text the compile printed on stderr.
	Diagnostics string `json:"diagnostics"`
}

// publishKey fingerprints a publish run's inputs (inputKey); color is
// whether its diagnostics are in color.
func (f *publishFlags) publishKey(color bool, paths []string) (string, error) {
	inputs, err := generator.Expand(paths)
	if err != nil {
		return "", err
	}
	return outdir.InputKey(inputs, "publish", f.server, f.plane, f.location, f.address, f.output, f.format,
		strconv.FormatBool(f.strict), strconv.FormatBool(f.prune), strconv.FormatBool(f.dryRun),
		strconv.FormatBool(f.review.verbose), strconv.FormatBool(f.review.allowBreaking),
		strconv.FormatBool(f.review.detailedExitcode), strconv.FormatBool(f.review.yes), strconv.FormatBool(color))
}

// startPublishKey computes publishKey in the background, so that reading
// and hashing the manifests overlaps their compile, and returns the
// function that waits for it: "" when there is no key (Expand's error,
// which the compile reports).
func (f *publishFlags) startPublishKey(e *env, paths []string) func() string {
	ch := make(chan string, 1)
	color := diagColor(e)
	go func() {
		key, err := f.publishKey(color, paths)
		if err != nil {
			key = ""
		}
		ch <- key
	}()
	return sync.OnceValue(func() string { return <-ch })
}

// publishRecordPath returns the file of the record of a publish of paths
// to f's server and plane: "" when there is no user cache directory.
func (f *publishFlags) publishRecordPath(paths []string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%q %q\n", f.server, f.plane)
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%q\n", abs)
	}
	return filepath.Join(base, "udtc", "publish", hex.EncodeToString(h.Sum(nil)[:16]))
}

// unchangedSincePublish reports whether the record at path has the key
// and the registry still holds the state it recorded; it returns the
// record.
func unchangedSincePublish(ctx context.Context, reg publish.Registry, path, key string) (publishRecord, bool, error) {
	var rec publishRecord
	if path == "" {
		return rec, false, nil
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &rec) != nil || rec.Key != key || rec.State == "" {
		return rec, false, nil
	}
	state, err := publish.ReadState(ctx, reg, rec.Namespaces)
	if err != nil {
		return rec, false, err
	}
	return rec, state == rec.State, nil
}

// recordPublish saves the record of a zero-write plan. It is best effort:
// without a record the next publish just compiles.
func (f *publishFlags) recordPublish(path, key string, want []api.Registration, plan *publish.Plan, diagnostics []byte) {
	if path == "" || key == "" || plan.Writes() != 0 || plan.State == "" {
		return
	}
	var text bytes.Buffer
	printPlan(&text, plan, f.server, f.plane, f.review.verbose)
	b, err := json.Marshal(publishRecord{Key: key, Namespaces: publish.Namespaces(want), State: plan.State, Plan: text.String(), Diagnostics: string(diagnostics)})
	if err != nil {
		return
	}
	_ = atomicfile.WriteFile(path, b, 0o644)
}

// compileRecorded is compile for publish: it also returns the text
// diagnostics (warnings) it printed, so that a replay of the run prints
// them again; replayable is false when it cannot (JSON or SARIF
// diagnostics, printed on stdout).
func (f *publishFlags) compileRecorded(c *cli.Context, e *env, paths []string) (cat *model.Catalog, text []byte, replayable bool, err error) {
	cat, diags, err := f.collect(c, paths)
	if err != nil {
		return nil, nil, false, err
	}
	if len(diags) == 0 {
		return cat, nil, true, nil
	}
	if f.format != "text" {
		if err := printDiagnostics(e, f.format, diags); err != nil {
			return nil, nil, false, fail(exitUsage, err)
		}
	} else {
		var buf bytes.Buffer
		if err := diag.WriteText(&buf, diags, diag.TextOptions{Color: diagColor(e), Source: diag.FileSource()}); err != nil {
			return nil, nil, false, fail(exitUsage, err)
		}
		e.stderr.Write(buf.Bytes())
		text, replayable = buf.Bytes(), true
	}
	if diags.HasErrors() {
		return nil, nil, false, fail(exitFail, nil)
	}
	return cat, text, replayable, nil
}
