package main

import (
	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/explain"
)

// explainFlags are the flags of `udtc explain`.
type explainFlags struct{ typeSourceFlags }

func explainCommand(e *env) *cli.Command {
	return command(e, &explainFlags{}, "explain", "NAMESPACE/TYPE[@VERSION][.path]", "describe a resource type or one of its properties (like kubectl explain)")
}

func (f *explainFlags) run(c *cli.Context, e *env) error {
	if err := checkOutput(f.server.output); err != nil {
		return err
	}
	if c.Args().Len() != 1 {
		return usageErrorf("explain takes one argument: NAMESPACE/TYPE[@VERSION][.path]")
	}
	ref, err := api.ParseTypeRef(c.Args().First())
	if err != nil {
		return usageErrorf("%v", err)
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
