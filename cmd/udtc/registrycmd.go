package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/explain"
)

func registryCommand(e *env) *cli.Command {
	list := &serverFlags{}
	show := &serverFlags{}
	return &cli.Command{
		Name:  "registry",
		Usage: "read a registry: list providers and types, show a namespace or a type",
		Subcommands: []*cli.Command{
			{
				Name:   "list",
				Usage:  "list every resource type in the registry (like rad resource-type list)",
				Flags:  list.flags(),
				Action: func(c *cli.Context) error { return registryList(c, e, list) },
			},
			{
				Name:      "show",
				Usage:     "show a namespace or one resource type with its schemas (like rad resource-type show)",
				ArgsUsage: "NAMESPACE[/TYPE]",
				Flags:     show.flags(),
				Action:    func(c *cli.Context) error { return registryShow(c, e, show) },
			},
		},
	}
}

// registryList is `udtc registry list`.
func registryList(c *cli.Context, e *env, f *serverFlags) error {
	if c.Args().Len() > 0 {
		return usageErrorf("list takes no arguments")
	}
	reg, ctx, cancel, err := f.dial(c.Context)
	if err != nil {
		return err
	}
	defer cancel()
	sums, err := reg.ProviderSummaries(ctx)
	if err != nil {
		return fail(exitFail, err)
	}
	if f.output == "json" {
		return writeJSON(e.stdout, api.ProviderSummaryList{Value: sums})
	}
	if len(sums) == 0 {
		fmt.Fprintf(e.stdout, "No resource types are registered in plane %s of %s (udtc publish registers manifests).\n", f.plane, f.server)
		return nil
	}
	return explain.WriteList(e.stdout, sums)
}

// registryShow is `udtc registry show`.
func registryShow(c *cli.Context, e *env, f *serverFlags) error {
	if c.Args().Len() != 1 {
		return usageErrorf("show takes one argument: NAMESPACE or NAMESPACE/TYPE")
	}
	ns, typ, _ := strings.Cut(c.Args().First(), "/")
	reg, ctx, cancel, err := f.dial(c.Context)
	if err != nil {
		return err
	}
	defer cancel()
	s, err := reg.ProviderSummary(ctx, ns)
	if client.IsNotFound(err) {
		return fail(exitFail, fmt.Errorf("namespace %s is not registered", ns))
	}
	if err != nil {
		return fail(exitFail, err)
	}
	if typ != "" {
		name, ok := api.LookupFold(s.ResourceTypes, typ)
		if !ok {
			return fail(exitFail, fmt.Errorf("type %s/%s is not registered", ns, typ))
		}
		s.ResourceTypes = map[string]api.ResourceTypeSummary{name: s.ResourceTypes[name]}
	}
	if f.output == "json" {
		return writeJSON(e.stdout, s)
	}
	return explain.WriteSummary(e.stdout, s, typ != "")
}
