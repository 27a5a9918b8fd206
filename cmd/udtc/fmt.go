package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/internal/linediff"
)

// fmtFlags are udtc fmt's flags.
type fmtFlags struct {
	compileFlags
	check, diff bool
}

func (f *fmtFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "check", Usage: "list the files that would change and exit 1 if there are any; write nothing", Destination: &f.check},
		&cli.BoolFlag{Name: "diff", Usage: "print the changes as a unified diff and exit 1 if there are any; write nothing", Destination: &f.diff},
	}
}

func (f *fmtFlags) run(c *cli.Context, e *env) error {
	if err := f.loadProject(); err != nil {
		return err
	}
	paths := c.Args().Slice()
	if len(paths) == 0 {
		var err error
		if paths, err = f.inputs(""); err != nil {
			return err
		}
	}
	inputs, err := generator.Expand(paths)
	if err != nil {
		return fail(exitUsage, err)
	}
	var bad, warnings diag.List
	changed := 0
	for _, in := range inputs {
		data, err := os.ReadFile(in.Path)
		if err != nil {
			return fail(exitUsage, err)
		}
		out, diags := generator.FormatInput(in, data)
		if diags.HasErrors() {
			bad = append(bad, diags...)
			continue
		}
		warnings = append(warnings, diags...)
		if bytes.Equal(out, data) {
			continue
		}
		changed++
		switch {
		case f.diff:
			fmt.Fprint(e.stdout, linediff.Unified(in.Path, data, out))
		case f.check:
			fmt.Fprintln(e.stdout, in.Path)
		default:
			if err := replaceKeepingMode(in.Path, out); err != nil {
				return fail(exitUsage, err)
			}
			fmt.Fprintf(e.stderr, "formatted %s\n", in.Path)
		}
	}
	if len(warnings) > 0 {
		if err := printDiagnostics(e, "text", warnings.Sorted()); err != nil {
			return fail(exitUsage, err)
		}
	}
	if len(bad) > 0 {
		if err := printDiagnostics(e, "text", bad.Sorted()); err != nil {
			return fail(exitUsage, err)
		}
		return fail(exitUsage, nil)
	}
	if changed > 0 && (f.check || f.diff) {
		return fail(exitFail, nil)
	}
	return nil
}

// replaceKeepingMode replaces path with data (atomicfile.WriteFile),
// keeping the file's mode.
func replaceKeepingMode(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, st.Mode().Perm())
}
