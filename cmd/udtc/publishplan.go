package main

// The reviewable side of `udtc publish`: the exit code of a dry run, the
// question before a prune, and the refusal of breaking changes to
// published API versions. publish.go calls these.

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/publish"
)

// exitChanges is --detailed-exitcode's "a dry run found changes to make".
const exitChanges = 2

// planFlags are publish's flags about reviewing the plan.
type planFlags struct {
	verbose          bool
	detailedExitcode bool
	yes              bool
	allowBreaking    allowBreaking // allowbreaking.go
}

func (f *planFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "list unchanged registrations in the plan too", Destination: &f.verbose},
		&cli.BoolFlag{Name: "detailed-exitcode", Usage: "with --dry-run: exit 0 when there is nothing to do, 2 when changes are pending, 1 on errors", Destination: &f.detailedExitcode},
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "delete what --prune plans to delete without asking on a terminal", Destination: &f.yes},
		f.allowBreaking.flag("apply changes to published API versions that break their clients: all of them, or (repeated) those of one API version"),
	}
}

// dryRunExit is the exit error of a dry run: with --detailed-exitcode,
// exitChanges when the plan writes anything.
func (f *planFlags) dryRunExit(p *publish.Plan) error {
	if f.detailedExitcode && p.Writes() > 0 {
		return fail(exitChanges, nil)
	}
	return nil
}

// confirmPrune asks on a terminal before a plan that deletes is applied,
// unless --yes. Elsewhere (CI, pipes) it does not ask: the plan printed
// above lists every deletion, and --dry-run reviews it first.
func (f *planFlags) confirmPrune(e *env, p *publish.Plan) error {
	n := p.Count(publish.Delete)
	if n == 0 || f.yes || !e.isTerminal || !e.stdinTerminal {
		return nil
	}
	what := plural(n, "registration")
	if r, unknown := p.ResourcesDeleted(); r > 0 || unknown {
		what += " and " + plural(r, "resource")
		if unknown {
			what += " or more"
		}
	}
	fmt.Fprintf(e.stdout, "Delete %s listed above (with everything below them)? Type yes to apply the plan: ", what)
	line, _ := bufio.NewReader(e.stdin).ReadString('\n')
	if strings.TrimSpace(strings.ToLower(line)) != "yes" {
		return fail(exitFail, fmt.Errorf("publish cancelled: nothing written (--yes skips the question)"))
	}
	return nil
}

// refuseBreaking checks the plan's updates to API versions the registry
// already serves (publish.Plan.Published) with the rules of `udtc
// breaking` (generator.CompareRegistered), prints the findings and returns
// the refusal of the breaking ones that policy (udtc.yaml's breaking
// section) and --allow-breaking do not allow; those allowed are printed as
// warnings, as is a change of ManualResourceProvisioning.
func (f *planFlags) refuseBreaking(ctx context.Context, e *env, policy compat.Policy, cat *model.Catalog, plan *publish.Plan) error {
	published := plan.Published()
	findings, err := generator.CompareRegistered(ctx, published.Registered, cat, published.Updates)
	if err != nil {
		return fail(exitFail, err)
	}
	if len(findings) == 0 {
		return nil
	}
	findings = f.allowBreaking.policy(policy).Apply(findings)
	if err := printDiagnostics(e, "text", compat.Diagnostics(findings)); err != nil {
		return err
	}
	refused := 0
	for _, fd := range findings {
		if fd.Severity == diag.Error {
			refused++
		}
	}
	if refused == 0 {
		return nil
	}
	return fail(exitFail, fmt.Errorf("refusing %s to published API versions (nothing written): publish them as a new API version, or allow them with --allow-breaking=NAMESPACE/TYPE@VERSION (or --allow-breaking for all)",
		plural(refused, "breaking change")))
}
