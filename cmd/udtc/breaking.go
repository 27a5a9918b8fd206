package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/generator/source"
)

type breakingFlags struct {
	against string
	format  string
	failOn  string
}

func breakingCommand(e *env) *cli.Command {
	var f breakingFlags
	return &cli.Command{
		Name:      "breaking",
		Usage:     "report API changes of the manifests against a git revision or a directory",
		ArgsUsage: "PATH... --against REV|DIR",
		Description: "Compares the manifests under PATH with the same paths at a git revision (branch, tag,\n" +
			"commit, HEAD~N) of the repository that contains them, or with the manifests under DIR.\n" +
			"Types are matched by namespace and name. Findings are printed to stdout. Exit code 0: no\n" +
			"finding at or above --fail-on; 1: at least one, or the manifests do not compile; 2: usage\n" +
			"error (an unknown revision, a path outside a repository). Rules: docs/rules.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "against", Usage: "git revision or directory to compare with (required)", Destination: &f.against},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output: text, json, sarif or github", Destination: &f.format},
			&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "exit 1 at findings of this severity or worse: error, warning or info", Destination: &f.failOn},
		},
		Action: func(c *cli.Context) error { return f.run(c, e) },
	}
}

func (f *breakingFlags) run(c *cli.Context, e *env) error {
	paths := c.Args().Slice()
	if len(paths) == 0 {
		return usageErrorf("give at least one manifest file or directory")
	}
	if f.against == "" {
		return usageErrorf("--against REV|DIR is required")
	}
	switch f.format {
	case "text", "json", "sarif", "github":
	default:
		return usageErrorf("--format must be text, json, sarif or github, not %q", f.format)
	}
	threshold, ok := map[string]diag.Severity{"error": diag.Error, "warning": diag.Warning, "info": diag.Note}[f.failOn]
	if !ok {
		return usageErrorf("--fail-on must be error, warning or info, not %q", f.failOn)
	}

	// The old side first: an unknown revision or a path outside the
	// repository is a usage error before anything is compiled.
	old, err := f.loadOld(c, paths)
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
	if old.diags.HasErrors() {
		return f.notCompiling(e, "the manifests at "+f.against, old.diags)
	}
	findings, err := compat.Compare(old.cat, newCat)
	if err != nil {
		return fail(exitUsage, err)
	}
	if err := f.print(e, old, findings); err != nil {
		return fail(exitUsage, err)
	}
	for _, fd := range findings {
		if fd.Severity <= threshold {
			return fail(exitFail, nil)
		}
	}
	return nil
}

// oldSide is what the manifests are compared with.
type oldSide struct {
	cat    *model.Catalog
	diags  diag.List
	base   compat.Base
	source diag.Source // excerpts of the old files
}

// loadOld compiles the manifests at --against: a directory when it names
// one, else a revision of the repository containing the first PATH.
func (f *breakingFlags) loadOld(c *cli.Context, paths []string) (*oldSide, error) {
	if st, err := os.Stat(f.against); err == nil && st.IsDir() {
		cat, diags, err := generator.Compile(c.Context, []string{f.against}, generator.Options{})
		if err != nil {
			return nil, fail(exitUsage, err)
		}
		return &oldSide{cat: cat, diags: diags, base: compat.Base{Against: f.against}, source: diag.FileSource()}, nil
	}
	repo, err := source.Discover(paths[0])
	if err != nil {
		if errors.Is(err, source.ErrNotRepository) {
			return nil, usageErrorf("--against %s: %v (and it is not a directory)", f.against, err)
		}
		return nil, fail(exitUsage, err)
	}
	snap, err := repo.Resolve(f.against)
	if err != nil {
		if errors.Is(err, source.ErrUnknownRevision) {
			return nil, usageErrorf("--against %s: unknown revision (and not a directory) in the repository at %s", f.against, repo.Root)
		}
		return nil, fail(exitUsage, err)
	}
	fsys := snap.FS()
	var rels []string
	for _, p := range paths {
		rel, err := repo.Rel(p)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		// A path that did not exist at the revision contributes nothing.
		if _, err := fs.Stat(fsys, rel); err == nil {
			rels = append(rels, rel)
		}
	}
	side := &oldSide{base: compat.Base{Against: f.against, Commit: snap.Hash()}}
	prefix := f.against + ":"
	side.source = func(file string) []byte {
		if name, ok := strings.CutPrefix(file, prefix); ok {
			b, _ := fs.ReadFile(fsys, name)
			return b
		}
		return nil
	}
	if len(rels) == 0 {
		return side, nil
	}
	side.cat, side.diags, err = generator.CompileFS(c.Context, fsys, rels, generator.Options{FilePrefix: prefix})
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	return side, nil
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

func (f *breakingFlags) print(e *env, old *oldSide, findings []compat.Finding) error {
	diags := compat.Diagnostics(findings)
	switch f.format {
	case "json":
		return compat.WriteJSON(e.stdout, old.base, findings)
	case "sarif":
		return diag.WriteSARIF(e.stdout, diags, generator.Rules(), "https://github.com/udtc/udtc/blob/main/docs/rules.md")
	case "github":
		return diag.WriteGitHub(e.stdout, diags)
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	disk := diag.FileSource()
	err := diag.WriteText(e.stdout, diags, diag.TextOptions{
		Color: e.isTerminal && !noColor,
		Source: func(file string) []byte {
			if b := old.source(file); b != nil {
				return b
			}
			return disk(file)
		},
	})
	if err != nil {
		return err
	}
	against := f.against
	if old.base.Commit != "" {
		against += " (" + old.base.Commit[:12] + ")"
	}
	if len(findings) == 0 {
		_, err = fmt.Fprintf(e.stdout, "no API changes against %s\n", against)
	} else {
		_, err = fmt.Fprintf(e.stdout, "compared with %s\n", against)
	}
	return err
}
