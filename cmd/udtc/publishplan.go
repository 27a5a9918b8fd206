package main

// The reviewable side of `udtc publish`: how the plan is printed, the exit
// code of a dry run, the question before a prune, and the refusal of
// breaking changes to published API versions. publish.go calls these.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing/fstest"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/publish"
)

// exitChanges is --detailed-exitcode's "a dry run found changes to make".
const exitChanges = 2

// planFlags are publish's flags about reviewing the plan.
type planFlags struct {
	verbose          bool
	detailedExitcode bool
	yes              bool
	allowBreaking    bool
}

func (f *planFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "list unchanged registrations in the plan too", Destination: &f.verbose},
		&cli.BoolFlag{Name: "detailed-exitcode", Usage: "with --dry-run: exit 0 when there is nothing to do, 2 when changes are pending, 1 on errors", Destination: &f.detailedExitcode},
		&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "delete what --prune plans to delete without asking on a terminal", Destination: &f.yes},
		&cli.BoolFlag{Name: "allow-breaking", Usage: "apply changes to published API versions that break their clients", Destination: &f.allowBreaking},
	}
}

// printPlan writes the plan: every write with the old and new value of
// every field it changes, unchanged registrations only when verbose.
func printPlan(w io.Writer, p *publish.Plan, server, plane string, verbose bool) {
	fmt.Fprintf(w, "Plan for %s (plane %s):\n", server, plane)
	for _, c := range p.Changes {
		if c.Action == publish.Unchanged && !verbose {
			continue
		}
		fmt.Fprintf(w, "  %s %-9s %-16s %s\n", actionMarks[c.Action], c.Action, c.Kind.Ident(), c.Name())
		for _, d := range c.Diff {
			fmt.Fprintf(w, "      %s: %s → %s\n", d.Field, shown(d.Old), shown(d.New))
		}
	}
	hidden := ""
	if n := p.Count(publish.Unchanged); n > 0 && !verbose {
		hidden = " (not listed; -v lists them)"
	}
	fmt.Fprintf(w, "Plan: %d to create, %d to update, %d to delete, %d unchanged%s.\n",
		p.Count(publish.Create), p.Count(publish.Update), p.Count(publish.Delete), p.Count(publish.Unchanged), hidden)
}

// shown is a FieldDiff value in a plan line: "(none)" where it is absent.
func shown(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
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
	fmt.Fprintf(e.stdout, "Delete %s listed above (with everything below them)? Type yes to apply the plan: ", plural(n, "registration"))
	line, _ := bufio.NewReader(e.stdin).ReadString('\n')
	if strings.TrimSpace(strings.ToLower(line)) != "yes" {
		return fail(exitFail, fmt.Errorf("publish cancelled: nothing written (--yes skips the question)"))
	}
	return nil
}

func readerIsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// summaryReader is what breaking needs of the registry.
type summaryReader interface {
	ProviderSummary(ctx context.Context, namespace string) (api.ProviderSummary, error)
}

// breaking returns the breaking-change findings (generator/compat, the
// rules of `udtc breaking`) of the plan's updates to API versions the
// registry already serves: what the registry holds is compiled like a
// manifest and compared with the manifests. Only errors of the wire
// category count, and only for versions the plan updates.
func breaking(ctx context.Context, reg summaryReader, cat *model.Catalog, p *publish.Plan) ([]compat.Finding, error) {
	updated := map[string]bool{}
	var namespaces []string
	for _, c := range p.Changes {
		if c.Kind == publish.KindAPIVersion && c.Action == publish.Update {
			if !updated[strings.ToLower(c.Namespace)] {
				namespaces = append(namespaces, c.Namespace)
			}
			updated[strings.ToLower(c.Namespace)] = true
			updated[strings.ToLower(c.Name())] = true
		}
	}
	if len(namespaces) == 0 {
		return nil, nil
	}
	fsys := fstest.MapFS{}
	for _, ns := range namespaces {
		sum, err := reg.ProviderSummary(ctx, ns)
		if err != nil {
			return nil, fmt.Errorf("reading %s for the breaking-change check: %w", ns, err)
		}
		b, err := registeredManifest(sum)
		if err != nil {
			return nil, err
		}
		fsys[ns+".json"] = &fstest.MapFile{Data: b}
	}
	old, diags, err := generator.CompileFS(ctx, fsys, []string{"."}, generator.Options{FilePrefix: "registry:"})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("the registered schemas of %s do not compile, so they cannot be compared (--allow-breaking skips the check): %s",
			strings.Join(namespaces, ", "), firstError(diags))
	}
	findings, err := compat.Compare(old, cat)
	if err != nil {
		return nil, err
	}
	var out []compat.Finding
	for _, fd := range findings {
		name := strings.ToLower(fd.Namespace + "/" + fd.Type + "@" + fd.Version)
		if fd.Severity == diag.Error && fd.Category == compat.Wire && fd.Version != "" && updated[name] {
			fd.Old = diag.Span{} // a position in the synthetic manifest of the registry's state
			out = append(out, fd)
		}
	}
	return out, nil
}

func firstError(l diag.List) string {
	for _, d := range l {
		if d.Severity == diag.Error {
			return d.Message
		}
	}
	return ""
}

// registeredManifest writes a provider summary as a JSON manifest.
func registeredManifest(sum api.ProviderSummary) ([]byte, error) {
	type version struct {
		Schema json.RawMessage `json:"schema"`
	}
	type typ struct {
		Description       string             `json:"description,omitempty"`
		Capabilities      []string           `json:"capabilities,omitempty"`
		DefaultAPIVersion string             `json:"defaultApiVersion,omitempty"`
		APIVersions       map[string]version `json:"apiVersions"`
	}
	m := struct {
		Namespace string         `json:"namespace"`
		Types     map[string]typ `json:"types"`
	}{Namespace: sum.Name, Types: map[string]typ{}}
	for name, t := range sum.ResourceTypes {
		vs := map[string]version{}
		for v, s := range t.APIVersions {
			schema := s.Schema
			if len(schema) == 0 {
				schema = json.RawMessage("{}")
			}
			vs[v] = version{Schema: schema}
		}
		m.Types[name] = typ{t.Description, t.Capabilities, t.DefaultAPIVersion, vs}
	}
	return json.Marshal(m)
}

// refuseBreaking prints the breaking findings and returns the refusal,
// unless --allow-breaking (then they are printed as warnings).
func (f *planFlags) refuseBreaking(e *env, findings []compat.Finding) error {
	if len(findings) == 0 {
		return nil
	}
	ds := compat.Diagnostics(findings)
	if f.allowBreaking {
		for i := range ds {
			ds[i].Severity = diag.Warning
		}
	}
	if err := printDiagnostics(e, "text", ds); err != nil {
		return err
	}
	if f.allowBreaking {
		return nil
	}
	return fail(exitFail, fmt.Errorf("refusing %s to published API versions (nothing written): publish them as a new API version, or pass --allow-breaking",
		plural(len(findings), "breaking change")))
}
