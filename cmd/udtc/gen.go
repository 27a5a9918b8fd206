package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"
	"golang.org/x/mod/module"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/outdir"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/internal/gctune"
)

// genFlags are the flags of `udtc gen`.
type genFlags struct {
	compileFlags
	out              string
	targets          cli.StringSlice
	extensionName    string
	extensionVersion string
	goImportPrefix   string
	goModule         string
	goRuntime        string
	check            bool
	force            bool
	w                watchFlags  // watch.go
	state            *outdir.Run // the run under way: what it redoes and keeps
}

// genTargets makes gen's targets (a variable, so tests can watch them).
var genTargets = bridge.Targets

func genCommand(e *env) *cli.Command {
	f := &genFlags{}
	return &cli.Command{
		Name:        "gen",
		Usage:       "generate the Bicep extension, Go client and docs from manifests",
		ArgsUsage:   "PATH...",
		Description: description("gen"),
		Flags: append(append(f.flags(),
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Value: "out", Usage: "output directory", Destination: &f.out},
			&cli.StringSliceFlag{Name: "target", Usage: "targets to generate: " + strings.Join(bridge.TargetNames, ", ") + " (default: all)", Destination: &f.targets},
			&cli.StringFlag{Name: "extension-name", Usage: "put every namespace into one Bicep extension of this name (default: one per namespace)", Destination: &f.extensionName},
			&cli.StringFlag{Name: "extension-version", Value: bicep.DefaultVersion, Usage: "Bicep extension version", Destination: &f.extensionVersion},
			&cli.StringFlag{Name: "go-import-prefix", Usage: "Go import path of --out (default: from the go.mod above --out, else " + fallbackImportPrefix + ")", Destination: &f.goImportPrefix},
			&cli.StringFlag{Name: "go-module", Usage: "write a go.mod of this module path at the root of --out, which is then the Go import prefix", Destination: &f.goModule},
			&cli.StringFlag{Name: "go-runtime", Value: goclient.RuntimeCopy, Usage: "Go client runtime: copy (into --out) or module (import " + goclient.RuntimeImportPath + ")", Destination: &f.goRuntime},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when --out is not up to date", Destination: &f.check},
			&cli.BoolFlag{Name: "force", Usage: "regenerate even when the inputs are unchanged since the last run", Destination: &f.force},
		), f.w.flags()...),
		Action: func(c *cli.Context) error { return f.run(c, e) },
	}
}

// validate checks the flag values before anything is read: a bad value is
// a usage error that names the flag.
func (f *genFlags) validate() error {
	if err := f.compileFlags.validate(); err != nil {
		return err
	}
	if f.extensionName != "" {
		if p := bicep.ExtensionNameProblem(f.extensionName); p != "" {
			return usageErrorf("--extension-name %q %s", f.extensionName, p)
		}
	}
	if strings.TrimSpace(f.extensionVersion) == "" {
		return usageErrorf("--extension-version must not be empty (default %s)", bicep.DefaultVersion)
	}
	if f.goImportPrefix != "" {
		if err := module.CheckImportPath(f.goImportPrefix); err != nil {
			return usageErrorf("--go-import-prefix %q is not a Go import path: %v", f.goImportPrefix, errors.Unwrap(err))
		}
	}
	if strings.TrimSpace(f.out) == "" {
		return usageErrorf("--out must not be empty")
	}
	return f.validateGo()
}

// validateGo checks --go-module and --go-runtime, and gives --go-module's
// path to an unset import prefix.
func (f *genFlags) validateGo() error {
	if err := choice("go-runtime", f.goRuntime, choicesOf("gen", "go-runtime")...); err != nil {
		return err
	}
	if f.goModule == "" {
		return nil
	}
	if err := module.CheckPath(f.goModule); err != nil {
		return usageErrorf("--go-module %q is not a Go module path: %v", f.goModule, errors.Unwrap(err))
	}
	if f.goImportPrefix != "" && f.goImportPrefix != f.goModule {
		return usageErrorf("--go-module %s is the import path of --out, but the Go import prefix is %s: drop one", f.goModule, f.goImportPrefix)
	}
	f.goImportPrefix = f.goModule
	return nil
}

func (f *genFlags) run(c *cli.Context, e *env) error {
	if err := f.loadProject(); err != nil {
		return err
	}
	f.fromProject(c)
	if err := f.validate(); err != nil {
		return err
	}
	if c.Args().Len() == 0 && f.proj == nil {
		_, err := f.inputs("") // the usage error, before any note about --out
		return err
	}
	selected, err := f.selected()
	if err != nil {
		return err
	}
	if (slices.Contains(selected, "go") || slices.Contains(selected, "site")) && f.goImportPrefix == "" {
		prefix, found := outdir.GoImportPath(f.out)
		if !found {
			prefix = fallbackImportPrefix
			fmt.Fprintf(e.stderr, "note: no go.mod above %s: the Go client imports itself as %s (set --go-import-prefix to the import path of %s)\n", f.out, prefix, f.out)
		}
		f.goImportPrefix = prefix
	}
	if f.w.watch && f.check {
		return usageErrorf("--watch and --check do not go together")
	}
	// SIGINT and SIGTERM cancel the run, so its stage is removed.
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	return f.w.loop(ctx, e, f.watchedPaths(c.Args().Slice(), f.out), func() error { return f.generate(ctx, c, e, selected) }, func(failed bool) {
		if failed && f.w.watch {
			fmt.Fprintf(e.stderr, "%s keeps the output of the last good run\n", f.out)
		}
	})
}

// generate is one run of gen: compile, emit, write what changed.
func (f *genFlags) generate(ctx context.Context, c *cli.Context, e *env, selected []string) error {
	// What a killed run left is removed first, even when the inputs are
	// unchanged; --check reports it instead.
	if left := outdir.RemoveLeftovers(f.out, f.check); f.check && len(left) > 0 {
		for _, p := range left {
			fmt.Fprintf(e.stderr, "left by an interrupted run: %s\n", p)
		}
		return fail(exitFail, fmt.Errorf("%s is not up to date: run udtc gen without --check", f.out))
	}
	paths, in, err := f.inputKey(c, selected)
	if err != nil {
		return err
	}
	if !f.force {
		if n, ok := outdir.UpToDate(f.out, in.Key); ok {
			fmt.Fprintf(e.stderr, "%s is up to date: inputs unchanged since the last run, nothing written (%s; --force regenerates)\n", f.out, plural(n, "file"))
			return nil
		}
	}
	// One report: the compiler's diagnostics and the emitters' together
	// (JSON and SARIF consumers read exactly one document).
	f.state = outdir.Plan(f.out, in, !f.force && !f.check && f.extensionName == "")
	f.opts = f.state.CompileOptions()
	f.opts.NoSource = !bridge.NeedSource(selected)
	cat, diags, err := f.collect(c, paths)
	if err == nil && !f.state.Accept(cat) {
		f.opts.Only = nil // errors, or changes that reach past their namespaces: compile everything
		cat, diags, err = f.collect(c, paths)
		f.state.Accept(cat)
	}
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		if perr := f.printDiagnostics(e, diags); perr != nil {
			return fail(exitUsage, perr)
		}
		return fail(exitFail, nil)
	}
	defer gctune.Set(os.LookupEnv, gctune.GenPercent, gctune.GenMemoryLimit)()
	res, err := f.write(ctx, e, cat, diags, selected)
	if err != nil {
		return err
	}
	if !f.check {
		f.state.Save()
	}
	return f.report(e, res)
}

// inputKey returns the inputs of the run and their key (outdir.InputKey,
// with every option that shapes the output).
func (f *genFlags) inputKey(c *cli.Context, selected []string) (paths []string, in *outdir.Inputs, err error) {
	paths = c.Args().Slice()
	if len(paths) == 0 {
		if paths, err = f.inputs(f.out); err != nil {
			return nil, nil, err
		}
	}
	inputs, err := generator.Expand(paths)
	if err != nil {
		return nil, nil, fail(exitUsage, err)
	}
	in, err = outdir.ReadInputs(inputs, append(slices.Clone(selected), f.extensionName, f.extensionVersion, f.goImportPrefix, f.goModule, f.goRuntime, strconv.FormatBool(f.strict), strconv.FormatBool(f.noBase(c)), strconv.FormatBool(f.radius()), f.proj.Key())...)
	if err != nil {
		return nil, nil, fail(exitUsage, err)
	}
	return paths, in, nil
}

// write runs the emitters and puts their files in --out: each target's
// files are staged as its emitter makes them (outdir.Stager); they replace
// the old ones only once every emitter is done and no diagnostic (diags,
// the compiler's, and the emitters') is an error.
func (f *genFlags) write(ctx context.Context, e *env, cat *model.Catalog, diags diag.List, selected []string) (outdir.Result, error) {
	st := outdir.NewStager(f.out, outdir.Options{Check: f.check, Targets: bridge.TargetNames, Keep: f.state.Keeps})
	defer st.Abort() // removes the stage unless Commit succeeded
	targets := genTargets(selected, bridge.GenOptions{ExtensionName: f.extensionName, ExtensionVersion: f.extensionVersion,
		Go:           goclient.Options{ImportPrefix: f.goImportPrefix, Module: f.goModule, Runtime: f.goRuntime, Format: f.state.FormatGo},
		PreviousHome: f.state.Previous("site/index.json")})
	more, err := generator.EmitTargets(ctx, cat, targets, st.Stage)
	// udtc.yaml's rule settings and --strict apply to the emitters' too.
	diags = f.state.Diagnostics(append(diags, f.severities(more)...))
	if len(diags) > 0 {
		if perr := f.printDiagnostics(e, diags); perr != nil {
			return outdir.Result{}, fail(exitUsage, perr)
		}
	}
	if err != nil {
		return outdir.Result{}, fail(exitFail, err)
	}
	if diags.HasErrors() {
		return outdir.Result{}, fail(exitFail, nil)
	}
	if err := ctx.Err(); err != nil {
		return outdir.Result{}, fail(exitFail, fmt.Errorf("interrupted: %w", err))
	}
	res, err := st.Commit(selected)
	if err != nil {
		return outdir.Result{}, fail(exitUsage, err)
	}
	return res, nil
}

// report says what the run did to --out (with --check: whether it is up
// to date).
func (f *genFlags) report(e *env, res outdir.Result) error {
	if f.check {
		if res.Changed() {
			for _, p := range res.Stale {
				fmt.Fprintf(e.stderr, "out of date: %s\n", filepath.Join(f.out, p))
			}
			return fail(exitFail, fmt.Errorf("%s is not up to date: run udtc gen without --check", f.out))
		}
		fmt.Fprintf(e.stderr, "%s is up to date (%s)\n", f.out, plural(res.Unchanged, "file"))
		return nil
	}
	if res.Changed() {
		fmt.Fprintf(e.stderr, "wrote %s to %s (%d unchanged, %d removed)\n", plural(res.Written, "file"), f.out, res.Unchanged, res.Removed)
	} else {
		fmt.Fprintf(e.stderr, "%s is up to date: nothing written (%s unchanged)\n", f.out, plural(res.Unchanged, "file"))
	}
	return nil
}

// selected returns the targets named by --target, in TargetNames order.
func (f *genFlags) selected() ([]string, error) {
	names, err := bridge.SelectTargets(f.targets.Value())
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	return names, nil
}

// fallbackImportPrefix is the Go import path of --out when no go.mod is
// found above it (gen says so).
const fallbackImportPrefix = "example.com/udtc/gen"
