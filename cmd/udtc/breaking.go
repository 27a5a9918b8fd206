package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/project"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

type breakingFlags struct {
	against    string
	format     string
	failOn     string
	allow      allowBreaking // allowbreaking.go
	unviolated bool
	// srv is --server and the flags that go with it: compare with what a
	// registry holds, judged against its stored resources.
	srv serverFlags
}

func (f *breakingFlags) flags() []cli.Flag {
	return append(f.srv.connectionFlags("", "compare with what the registry at this URL holds, each breaking change judged against the resources it stores (this or --against)"),
		&cli.StringFlag{Name: "against", Usage: "git revision or directory to compare with (this or --server)", Destination: &f.against},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "output: text, json, sarif or github", Destination: &f.format},
		&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 at findings of this severity or worse: error, warning or info", Destination: &f.failOn},
		f.allow.flag("report breaking changes as warnings: all of them, or (repeated) those of one API version"),
		&cli.BoolFlag{Name: "allow-breaking-unviolated", Usage: "with --server: report as warnings the breaking changes that no stored resource violates", Destination: &f.unviolated},
	)
}

func (f *breakingFlags) run(c *cli.Context, e *env) error {
	paths := c.Args().Slice()
	switch {
	case f.against == "" && f.srv.server == "":
		return usageErrorf("--against REV|DIR or --server URL is required")
	case f.against != "" && f.srv.server != "" && c.IsSet("server"):
		return usageErrorf("--against compares with manifests, --server with a registry: give one of them")
	case f.unviolated && (f.against != "" || f.srv.server == ""):
		return usageErrorf("--allow-breaking-unviolated needs --server: only a registry knows its stored resources")
	case f.against != "":
		f.srv.server = "" // UDTC_SERVER set in the environment: --against says what to compare with
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
	if f.srv.server != "" {
		return f.againstServer(c, e, proj, paths, threshold)
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
	return f.write(e, old, findings, threshold)
}

// write prints the findings in --format and returns the exit error of
// --fail-on.
func (f *breakingFlags) write(e *env, old *generator.Against, findings []compat.Finding, threshold diag.Severity) error {
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

// againstServer is `udtc breaking --server URL`: the manifests, compiled
// as publish compiles them, compared with what the registry holds of
// their namespaces (as publish's plan compares them), every breaking
// change judged against the resources the registry stores (judgeStored,
// publishplan.go). Types of namespaces the registry does not hold are
// additions.
func (f *breakingFlags) againstServer(c *cli.Context, e *env, proj *project.Project, paths []string, threshold diag.Severity) error {
	reg, ctx, cancel, err := f.srv.dial(c.Context)
	if err != nil {
		return err
	}
	defer cancel()
	cf := compileFlags{format: "text", proj: proj, projLoaded: true}
	cat, diags, err := cf.collect(c, paths)
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return f.notCompiling(e, "the manifests", diags)
	}
	want := registration.Registrations(cat, registration.Options{Location: registration.DefaultLocation})
	bodies := map[string]*api.APIVersion{}
	var registered []api.ProviderSummary
	for _, r := range want {
		for _, rt := range r.Types {
			for i := range rt.APIVersions {
				v := &rt.APIVersions[i]
				bodies[compat.StoredKey(r.Namespace, rt.Type.Name, v.Name)] = v
			}
		}
		sum, err := reg.ProviderSummary(ctx, r.Namespace)
		if client.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fail(exitFail, fmt.Errorf("reading %s from %s: %w", r.Namespace, f.srv.targetName(reg), err))
		}
		registered = append(registered, sum)
	}
	old, err := generator.CompileRegistered(ctx, registered)
	if err != nil {
		return fail(exitFail, err)
	}
	findings, err := compat.Compare(old, cat)
	if err != nil {
		return fail(exitUsage, err)
	}
	for i := range findings {
		findings[i].Old = diag.Span{} // a position in the registry's synthetic manifest
	}
	findings, err = judgeStored(ctx, reg, findings, func(ns, typ, version string) *api.APIVersion {
		return bodies[compat.StoredKey(ns, typ, version)]
	})
	if err != nil {
		return err
	}
	policy := f.allow.policy(proj.BreakingPolicy())
	policy.AllowUnviolated = f.unviolated
	findings = policy.Apply(findings)
	against := f.srv.targetName(reg)
	if f.srv.plane != api.DefaultPlane {
		against += " (plane " + f.srv.plane + ")"
	}
	return f.write(e, &generator.Against{Base: compat.Base{Against: against}, Source: diag.FileSource()}, findings, threshold)
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
