package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/project"
	"github.com/udtc/udtc/internal/gctune"
)

// compileFlags are shared by every command that compiles manifests.
type compileFlags struct {
	format string
	strict bool
	// base is --base-properties (see noBase).
	base bool
	// profile is --profile (see radius).
	profile string
	// proj is the udtc.yaml found from the working directory upward, or
	// nil (loadProject, projectcmd.go).
	proj       *project.Project
	projLoaded bool
	projErr    error
	// opts are the command's own compiler options: gen's inputs (Inputs),
	// those to compile (Only; nil: all), the bytes it read (Contents) and
	// whether its targets need the registered schemas (NoSource); check's
	// Outline.
	opts generator.Options
	// excerpts are the source lines of the last compile's diagnostics,
	// kept as it checked the files (text format only).
	excerpts *diag.Excerpts
}

func (f *compileFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "format", Value: "text", Usage: "diagnostics format: text, json or sarif", Destination: &f.format},
		&cli.BoolFlag{Name: "strict", Usage: "treat every warning as an error", Destination: &f.strict},
		&cli.StringFlag{Name: "profile", Destination: &f.profile,
			Usage: "what the manifests are for: radius (the default) refuses what today's Radius refuses at registration or cannot deploy; udtc allows udtc's extensions, for udtc serve alone (udtc.yaml: target)"},
		&cli.BoolFlag{Name: "base-properties", Value: true, Destination: &f.base,
			Usage: "merge Radius's base resource properties (application, environment, connections, codeReference) into every schema, as rad does since radius-project/radius #12252; --base-properties=false for an older Radius or none (udtc.yaml: baseProperties)"},
	}
}

// noBase reports whether Radius's base properties stay out of the schemas:
// --base-properties=false, else udtc.yaml's `baseProperties: false`. The
// project file must be loaded.
func (f *compileFlags) noBase(c *cli.Context) bool {
	if c.IsSet("base-properties") {
		return !f.base
	}
	return f.proj.NoBaseProperties()
}

func (f *compileFlags) validate() error {
	if f.profile != "" {
		if err := choice("profile", f.profile, choicesOf("", "profile")...); err != nil {
			return err
		}
	}
	return choice("format", f.format, choicesOf("", "format")...)
}

// radius reports whether the manifests are checked as today's Radius
// checks them: --profile, else udtc.yaml's target, else yes. The project
// file must be loaded.
func (f *compileFlags) radius() bool {
	if f.profile != "" {
		return f.profile == "radius"
	}
	return f.proj.Radius()
}

// compile runs the compiler and prints its diagnostics. It returns the
// catalog, or an exit error when there were errors (exit 1) or the input
// could not be read (exit 2). alwaysPrint prints an empty JSON/SARIF report
// too (check); other commands print diagnostics only when there are some.
func (f *compileFlags) compile(c *cli.Context, e *env, paths []string, alwaysPrint bool) (*model.Catalog, error) {
	cat, diags, err := f.collect(c, paths)
	if err != nil {
		return nil, err
	}
	if len(diags) > 0 || alwaysPrint {
		if err := f.printDiagnostics(e, diags); err != nil {
			return nil, fail(exitUsage, err)
		}
	}
	if diags.HasErrors() {
		return nil, fail(exitFail, nil)
	}
	return cat, nil
}

// collect runs the compiler and returns the catalog (nil when there are
// errors) and its diagnostics without printing them, for commands that add
// diagnostics of their own and print one report (gen). The error is an exit
// error for usage and I/O failures.
func (f *compileFlags) collect(c *cli.Context, paths []string) (*model.Catalog, diag.List, error) {
	if err := f.loadProject(); err != nil {
		return nil, nil, err
	}
	if len(paths) == 0 {
		var err error
		if paths, err = f.inputs(""); err != nil {
			return nil, nil, err
		}
	}
	// The inputs are listed once: gen's, or walked here.
	inputs := f.opts.Inputs
	if inputs == nil {
		var err error
		if inputs, err = generator.Expand(paths); err != nil {
			return nil, nil, fail(exitUsage, err)
		}
	}
	defer gctune.Set(os.LookupEnv, gctune.CompilePercent, func() int64 { return gctune.CompileLimitFor(generator.InputBytes(inputs)) })()
	// udtc.yaml's options, the flags over them, and the command's own
	// (gen's inputs: outdir's plan; check's outline).
	opts := f.proj.CompileOptions()
	opts.NoBaseProperties, opts.Radius = f.noBase(c), f.radius()
	opts.Only, opts.Contents, opts.Outline, opts.NoSource, opts.Inputs = f.opts.Only, f.opts.Contents, f.opts.Outline, f.opts.NoSource, inputs
	f.excerpts = nil
	if f.format == "text" {
		f.excerpts = new(diag.Excerpts)
		opts.Excerpts = f.excerpts
	}
	cat, diags, err := generator.Compile(c.Context, paths, opts)
	if err != nil {
		return nil, nil, fail(exitUsage, err)
	}
	diags = f.severities(diags)
	if diags.HasErrors() {
		cat = nil
	}
	return cat, diags, nil
}

// severities applies udtc.yaml's rule settings, then --strict.
func (f *compileFlags) severities(diags diag.List) diag.List {
	diags = f.proj.Apply(diags)
	if f.strict {
		diags = diags.Promote()
	}
	return diags.Sorted()
}

// printDiagnostics writes diagnostics in the chosen format: text goes to
// stderr for commands, JSON and SARIF to stdout for tools.
func printDiagnostics(e *env, format string, diags diag.List) error {
	return writeDiagnostics(e, format, diags, nil)
}

// printDiagnostics prints diagnostics in --format, with the excerpts the
// last compile kept.
func (f *compileFlags) printDiagnostics(e *env, diags diag.List) error {
	return writeDiagnostics(e, f.format, diags, f.excerpts)
}

// writeDiagnostics is printDiagnostics with the excerpt lines kept (may be
// nil); other lines are read from the files.
func writeDiagnostics(e *env, format string, diags diag.List, kept *diag.Excerpts) error {
	switch format {
	case "json":
		return diag.WriteJSON(e.stdout, diags)
	case "sarif":
		return generator.WriteSARIF(e.stdout, diags)
	}
	return diag.WriteText(e.stderr, diags, diag.TextOptions{
		Color:  diagColor(e),
		Source: diag.FileSource(),
		Kept:   kept,
	})
}

// diagColor reports whether text diagnostics are coloured.
func diagColor(e *env) bool {
	_, noColor := os.LookupEnv("NO_COLOR")
	return e.isTerminal && isTerminal(e.stderr) && !noColor
}

// checkFlags are the flags of `udtc check`.
type checkFlags struct {
	compileFlags
	watch watchFlags
}

func (f *checkFlags) flags() []cli.Flag { return append(f.compileFlags.flags(), f.watch.flags()...) }

func (f *checkFlags) run(c *cli.Context, e *env) error {
	if err := f.validate(); err != nil {
		return err
	}
	if err := f.loadProject(); err != nil {
		return err
	}
	// check reports; it needs the catalog's outline only (summary).
	f.opts.Outline = true
	return f.watch.loop(c.Context, e, f.watchedPaths(c.Args().Slice(), ""), func() error {
		cat, err := f.compile(c, e, c.Args().Slice(), f.format != "text")
		if err == nil && f.format == "text" {
			fmt.Fprintln(e.stderr, summary(cat))
		}
		return err
	}, nil)
}

// summary describes a checked catalog in one line.
func summary(cat *model.Catalog) string {
	files, types, versions := 0, 0, 0
	for _, p := range cat.Providers {
		files += len(p.Files)
		types += len(p.Types)
		for _, t := range p.Types {
			versions += len(t.APIVersions)
		}
	}
	return fmt.Sprintf("ok: %s, %s, %s, %s", plural(files, "file"), plural(len(cat.Providers), "namespace"), plural(types, "resource type"), plural(versions, "API version"))
}
