package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/explain"
	"github.com/udtc/udtc/registry/publish"
)

func registryCommand(e *env) *cli.Command {
	list := &serverFlags{}
	show := &serverFlags{}
	del := &registryDeleteFlags{}
	return &cli.Command{
		Name:  "registry",
		Usage: "read a registry: list providers and types, show a namespace or a type; delete a namespace",
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
			{
				Name:      "delete",
				Usage:     "delete a namespace's provider with its types, API versions and locations (like rad resource-provider delete): plan, then apply",
				ArgsUsage: "NAMESPACE",
				Flags:     del.flags(),
				Action:    func(c *cli.Context) error { return del.run(c, e) },
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

// registryDeleteFlags are the flags of `udtc registry delete`.
type registryDeleteFlags struct {
	serverFlags
	deleteResources bool
	dryRun          bool
	review          planFlags // its --yes
}

func (f *registryDeleteFlags) flags() []cli.Flag {
	return append(f.serverFlags.flags(),
		&cli.BoolFlag{Name: "delete-resources", Usage: "delete the resources its types still have too; without it, the delete of a namespace with resources is refused with nothing written", Destination: &f.deleteResources},
		&cli.BoolFlag{Name: "dry-run", Usage: "print the plan and stop", Destination: &f.dryRun},
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "delete without asking on a terminal", Destination: &f.review.yes},
	)
}

// run is `udtc registry delete NAMESPACE`: the plan of the provider's
// delete (publish.PlanProviderDelete), with the resources it meets; a
// refused one writes nothing; on a terminal it asks first, as a prune does.
func (f *registryDeleteFlags) run(c *cli.Context, e *env) error {
	if c.Args().Len() != 1 || strings.Contains(c.Args().First(), "/") {
		return usageErrorf("delete takes one argument: NAMESPACE (publish --prune deletes the types a namespace no longer declares)")
	}
	ns := c.Args().First()
	reg, ctx, cancel, err := f.dial(c.Context)
	if err != nil {
		return err
	}
	defer cancel()
	plan, err := publish.PlanProviderDelete(ctx, reg, ns, publish.Options{DeleteResources: f.deleteResources})
	if err != nil {
		return fail(exitFail, err)
	}
	if len(plan.Changes) == 0 {
		return fail(exitFail, fmt.Errorf("namespace %s is not registered", ns))
	}
	target := f.targetName(reg)
	report := publish.NewReport(target, f.plane, f.dryRun, plan, nil)
	if f.output == "text" {
		plan.WriteText(e.stdout, target, f.plane, false)
	}
	if len(plan.Refused()) > 0 || f.dryRun {
		if f.output == "json" {
			if err := writeJSON(e.stdout, report); err != nil {
				return err
			}
		}
		if len(plan.Refused()) > 0 {
			return refusedError(plan, "pass --delete-resources to delete them with it, or delete them first")
		}
		if f.output == "text" {
			fmt.Fprintln(e.stdout, "Dry run: nothing written.")
		}
		return nil
	}
	if err := f.review.confirmPrune(e, plan); err != nil {
		return err
	}
	res := publish.Apply(ctx, reg, plan, publish.ApplyOptions{Waiting: publish.WaitingPrinter(e.stderr)})
	if f.output == "json" {
		report.AddResult(res)
		if err := writeJSON(e.stdout, report); err != nil {
			return err
		}
	}
	if len(res.Failed) > 0 { // the first failure says why
		fl := res.Failed[0]
		if err := f.authError(fl.Err); err != nil {
			return err
		}
		return fail(exitFail, fmt.Errorf("deleting %s: %w", fl.Change.Name(), fl.Err))
	}
	if f.output == "text" {
		fmt.Fprintf(e.stdout, "Deleted %s.\n", plan.Changes[0].Name())
	}
	return nil
}
