package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/source"
)

type breakingFlags struct {
	against string
	format  string
	failOn  string
	allow   allowBreaking // allowbreaking.go
}

func (f *breakingFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "against", Usage: "git revision or directory to compare with (required)", Destination: &f.against},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output: text, json, sarif or github", Destination: &f.format},
		&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 at findings of this severity or worse: error, warning or info", Destination: &f.failOn},
		f.allow.flag("report breaking changes as warnings: all of them, or (repeated) those of one API version"),
	}
}

func (f *breakingFlags) run(c *cli.Context, e *env) error {
	paths := c.Args().Slice()
	if f.against == "" {
		return usageErrorf("--against REV|DIR is required")
	}
	if err := choice("format", f.format, choicesOf("breaking", "format")...); err != nil {
		return err
	}
	if err := choice("fail-on", f.failOn, choicesOf("breaking", "fail-on")...); err != nil {
		return err
	}
	threshold := map[string]diag.Severity{"error": diag.Error, "warning": diag.Warning, "info": diag.Note}[f.failOn]
	proj, err := findProject() // breaking.previews, and the inputs without PATH
	if err != nil {
		return err
	}
	// Without PATH, the manifests udtc.yaml selects, as for check and gen;
	// at a git revision, the files it selected then (deleted ones too).
	oldPaths := paths
	var selects func(abs string) bool
	if len(paths) == 0 {
		cf := compileFlags{proj: proj, projLoaded: true}
		if paths, err = cf.inputs(""); err != nil {
			return err
		}
		oldPaths, selects = []string{proj.Dir}, proj.Selects
	}
	if err := misplacedAllowBreaking(paths); err != nil {
		return err
	}

	// The old side first: an unknown revision or a path outside the
	// repository is a usage error before anything is compiled.
	old, err := f.loadOld(c, oldPaths, selects)
	if err != nil {
		return err
	}
	newCat, diags, err := generator.Compile(c.Context, paths, generator.Options{})
	if err != nil {
		return fail(exitUsage, err)
	}
	if diags.HasErrors() {
		return f.notCompiling(e, "the manifests", diags)
	}
	if old.Diags.HasErrors() {
		return f.notCompiling(e, "the manifests at "+f.against, old.Diags)
	}
	findings, err := compat.Compare(old.Catalog, newCat)
	if err != nil {
		return fail(exitUsage, err)
	}
	findings = f.allow.policy(proj.BreakingPolicy()).Apply(findings)
	_, noColor := os.LookupEnv("NO_COLOR")
	if err := old.WriteFindings(e.stdout, f.format, findings, e.isTerminal && !noColor); err != nil {
		return fail(exitUsage, err)
	}
	for _, fd := range findings {
		if fd.Severity <= threshold {
			return fail(exitFail, nil)
		}
	}
	return nil
}

// loadOld compiles the manifests at --against (generator.CompileAgainst):
// an unknown revision or a path outside a repository is a usage error.
func (f *breakingFlags) loadOld(c *cli.Context, paths []string, selects func(string) bool) (*generator.Against, error) {
	old, err := generator.CompileAgainstSelected(c.Context, f.against, paths, selects)
	var unknown *generator.UnknownRevisionError
	switch {
	case errors.Is(err, source.ErrNotRepository):
		return nil, usageErrorf("--against %s: %v (and it is not a directory)", f.against, err)
	case errors.As(err, &unknown):
		return nil, usageErrorf("--against %s: unknown revision (and not a directory) in the repository at %s", f.against, unknown.Root)
	case err != nil:
		return nil, fail(exitUsage, err)
	}
	return old, nil
}

// notCompiling prints the diagnostics of manifests that do not compile.
func (f *breakingFlags) notCompiling(e *env, what string, diags diag.List) error {
	format := f.format
	if format == "github" {
		format = "text"
	}
	if err := printDiagnostics(e, format, diags); err != nil {
		return fail(exitUsage, err)
	}
	return fail(exitFail, fmt.Errorf("%s do not compile; nothing compared", what))
}
