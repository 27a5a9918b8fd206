package main

import (
	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/explain"
)

// explainFlags are the flags of `udtc explain`.
type explainFlags struct{ typeSourceFlags }

func (f *explainFlags) run(c *cli.Context, e *env) error {
	ref, err := f.typeArg(c, c.Args().Len() == 1, "explain takes one argument: NAMESPACE/TYPE[@VERSION][.path]")
	if err != nil {
		return err
	}
	res, err := f.lookup(c, e, ref)
	if err != nil {
		return err
	}
	res.ref.Path = ref.Path
	out, err := explain.Describe(res.ref, res.summary)
	if err != nil {
		return fail(exitFail, err)
	}
	if f.server.output == "json" {
		return writeJSON(e.stdout, out)
	}
	return out.WriteText(e.stdout)
}
