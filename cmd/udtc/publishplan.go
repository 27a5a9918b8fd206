package main

// The reviewable side of `udtc publish`: the exit code of a dry run, the
// question before a prune, and the refusal of breaking changes to
// published API versions. publish.go calls these.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
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
	allowUnviolated  bool
}

func (f *planFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "list unchanged registrations in the plan too", Destination: &f.verbose},
		&cli.BoolFlag{Name: "detailed-exitcode", Usage: "with --dry-run: exit 0 when there is nothing to do, 2 when changes are pending, 1 on errors", Destination: &f.detailedExitcode},
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "delete what --prune plans to delete without asking on a terminal", Destination: &f.yes},
		f.allowBreaking.flag("apply changes to published API versions that break their clients: all of them, or (repeated) those of one API version"),
		&cli.BoolFlag{Name: "allow-breaking-unviolated", Usage: "apply the breaking changes that no stored resource violates: the registry checks each resource of the API version against the new schema first", Destination: &f.allowUnviolated},
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
// breaking` (generator.CompareRegistered), has the registry judge each
// breaking change against the resources it stores (judgeStored), prints
// the findings and returns them with the refusal of the breaking ones
// that policy (udtc.yaml's breaking section), --allow-breaking and
// --allow-breaking-unviolated do not allow; those allowed are printed as
// warnings, as is a change of ManualResourceProvisioning.
func (f *planFlags) refuseBreaking(ctx context.Context, e *env, reg *client.Client, policy compat.Policy, cat *model.Catalog, plan *publish.Plan) ([]compat.Finding, error) {
	published := plan.Published()
	findings, err := generator.CompareRegistered(ctx, published.Registered, cat, published.Updates)
	if err != nil && f.allowBreaking.all {
		fmt.Fprintf(e.stderr, "udtc publish: warning: %v; --allow-breaking applies every change unchecked\n", err)
		return nil, nil
	}
	if err != nil {
		return nil, fail(exitFail, err)
	}
	if len(findings) == 0 {
		return nil, nil
	}
	if findings, err = judgeStored(ctx, reg, findings, published.Candidate); err != nil {
		return nil, err
	}
	findings = f.policy(policy).Apply(findings)
	if err := printDiagnostics(e, "text", compat.Diagnostics(findings)); err != nil {
		return nil, err
	}
	return findings, refusal(findings)
}

// policy adds the allowances of the flags to the project's policy.
func (f *planFlags) policy(p compat.Policy) compat.Policy {
	p = f.allowBreaking.policy(p)
	p.AllowUnviolated = f.allowUnviolated
	return p
}

// refusal is the error of the breaking changes findings still has after
// the policy, nil when there are none: how many, how many stored
// resources they would refuse, how many no stored resource violates
// (which --allow-breaking-unviolated allows), and what to do.
func refusal(findings []compat.Finding) error {
	refused, unviolated := 0, 0
	stranded := map[string]bool{}
	for _, fd := range findings {
		if fd.Severity != diag.Error {
			continue
		}
		refused++
		if fd.Unviolated() {
			unviolated++
		}
		if fd.Stored != nil {
			for _, r := range fd.Stored.Refused {
				stranded[strings.ToLower(r.ID)] = true
			}
		}
	}
	if refused == 0 {
		return nil
	}
	msg := "refusing " + plural(refused, "breaking change") + " to published API versions (nothing written)"
	if len(stranded) > 0 {
		msg += fmt.Sprintf("; they would refuse %s at their next write", plural(len(stranded), "stored resource"))
	}
	if unviolated > 0 {
		msg += fmt.Sprintf("; %d of them no stored resource violates, which %s applies", unviolated, compat.UnviolatedFlag)
	}
	return fail(exitFail, errors.New(msg+": publish them as a new API version, or allow them with --allow-breaking=NAMESPACE/TYPE@VERSION (or --allow-breaking for all)"))
}

// judgeStored has the registry judge each breaking change of findings
// against the resources it stores of the API version (compat.JudgeStored):
// one dry-run admission per API version, of the body candidate returns
// for it (the one publish would PUT). A registry that cannot tell
// (client.ErrCannotCheck: Radius's UCP) leaves the findings as they are,
// saying so.
func judgeStored(ctx context.Context, reg *client.Client, findings []compat.Finding, candidate func(namespace, typ, version string) *api.APIVersion) ([]compat.Finding, error) {
	stored := map[string]compat.Stored{}
	for _, fd := range findings {
		key := compat.StoredKey(fd.Namespace, fd.Type, fd.Version)
		if _, done := stored[key]; done || fd.Severity != diag.Error || fd.Version == "" || !compat.JudgedByAdmission(fd.Rule) {
			continue
		}
		body := candidate(fd.Namespace, fd.Type, fd.Version)
		if body == nil {
			continue
		}
		check, err := reg.CheckResources(ctx, fd.Namespace, fd.Type, fd.Version, *body)
		switch {
		case errors.Is(err, client.ErrCannotCheck):
			stored[key] = compat.Stored{Why: reg.Target().String() + " cannot tell which would be refused"}
		case err != nil:
			return nil, fail(exitFail, fmt.Errorf("checking the stored resources of %s/%s@%s against the new schema: %w", fd.Namespace, fd.Type, fd.Version, err))
		default:
			stored[key] = compat.Stored{Known: true, Checked: check.Checked, Refused: check.Refused}
		}
	}
	return compat.JudgeStored(findings, stored), nil
}
