package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
)

// DefaultServer is the registry address commands use without --server.
const DefaultServer = "http://127.0.0.1:7443"

// serverFlags are shared by the commands that talk to a registry.
type serverFlags struct {
	server    string
	plane     string
	tokenFile string
	timeout   time.Duration
	output    string
}

func (f *serverFlags) flags() []cli.Flag {
	return append(f.connectionFlags(DefaultServer, "registry URL"),
		&cli.StringFlag{Name: "output", Value: "text", Usage: "text or json", Destination: &f.output})
}

// connectionFlags are the flags that reach a registry: --server with its
// default ("" for none: its presence then chooses what a command does)
// and usage, --plane, --token-file and --timeout.
func (f *serverFlags) connectionFlags(server, serverUsage string) []cli.Flag {
	f.output = "text" // commands without --output print text
	return []cli.Flag{
		&cli.StringFlag{Name: "server", Value: server, EnvVars: []string{"UDTC_SERVER"}, Usage: serverUsage, Destination: &f.server},
		&cli.StringFlag{Name: "plane", Value: api.DefaultPlane, Usage: "radius plane", Destination: &f.plane},
		&cli.StringFlag{Name: "token-file", EnvVars: []string{"UDTC_TOKEN_FILE"}, Usage: "file holding the bearer token for servers that require auth", Destination: &f.tokenFile},
		&cli.DurationFlag{Name: "timeout", Value: 5 * time.Minute, Usage: "give up after this long", Destination: &f.timeout},
	}
}

// checkOutput is the usage error for an --output that is neither text nor json.
func checkOutput(output string) error { return choice("output", output, choicesOf("", "output")...) }

// client validates the flags and returns a registry client.
func (f *serverFlags) client() (*client.Client, error) {
	if err := checkOutput(f.output); err != nil {
		return nil, err
	}
	if p := api.AddressProblem(f.server); p != "" {
		return nil, usageErrorf("--server must be an http(s) URL like %s, not %q: it %s", DefaultServer, f.server, p)
	}
	// A write waits for a server's asynchronous operation (Radius's UCP)
	// up to 3 minutes, within --timeout.
	ops := client.DefaultOperations
	ops.Timeout = min(ops.Timeout, f.timeout)
	opts := []client.Option{client.WithPlane(f.plane), client.WithOperations(ops)}
	if f.tokenFile != "" {
		tok, err := readTokenFile("--token-file", f.tokenFile)
		if err != nil {
			return nil, err
		}
		opts = append(opts, client.WithToken(tok))
	}
	c, err := client.New(f.server, opts...)
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	return c, nil
}

// readTokenFile reads the one token a client flag's file holds (surrounding
// white space trimmed); a missing or empty file is a usage error naming flag.
func readTokenFile(flag, path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fail(exitUsage, fmt.Errorf("reading %s: %w", flag, err))
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", usageErrorf("%s %s is empty", flag, path)
	}
	return tok, nil
}

// connect starts the command's --timeout and checks that the registry
// answers and the plane exists, so an unreachable server or a typo in
// --plane is one clear error, not one per resource. Callers defer cancel.
func (f *serverFlags) connect(parent context.Context, reg *client.Client) (context.Context, context.CancelFunc, error) {
	ctx, cancel := context.WithTimeout(parent, f.timeout)
	if err := f.ping(ctx, reg); err != nil {
		cancel()
		return nil, nil, err
	}
	return ctx, cancel, nil
}

// dial is client and connect in one: a client of the registry that
// answers, and the command's context. Callers defer cancel.
func (f *serverFlags) dial(parent context.Context) (*client.Client, context.Context, context.CancelFunc, error) {
	reg, err := f.client()
	if err != nil {
		return nil, nil, nil, err
	}
	ctx, cancel, err := f.connect(parent, reg)
	if err != nil {
		return nil, nil, nil, err
	}
	return reg, ctx, cancel, nil
}

// ping finds out what the server is (client.Detect: udtc serve or
// Radius's UCP) and checks that the plane exists.
func (f *serverFlags) ping(ctx context.Context, reg *client.Client) error {
	err := reg.Ping(ctx, f.plane)
	cause, unreachable := client.Unreachable(err)
	switch {
	case err == nil:
		return nil
	case client.IsNotFound(err):
		return fail(exitFail, fmt.Errorf("plane %q does not exist on %s (udtc serve creates \"local\"; others are created with PUT /planes/radius/NAME)", f.plane, f.server))
	case f.authError(err) != nil:
		return f.authError(err) // auth.go
	case unreachable:
		return fail(exitFail, fmt.Errorf("cannot reach the registry at %s: %v (is udtc serve running?)", f.server, cause))
	}
	return fail(exitFail, err)
}

// targetName names the server in plans and messages: its URL for udtc
// serve, "Radius UCP at URL" for UCP.
func (f *serverFlags) targetName(reg *client.Client) string {
	if t := reg.Target(); t.Flavor == client.FlavorUCP {
		return t.String()
	}
	return f.server
}

type publishFlags struct {
	compileFlags
	serverFlags
	refused         []string // what a Radius UCP target cannot hold (publish.ForUCP)
	target          string   // the server as the plan names it (serverFlags.targetName)
	prune           bool
	deleteResources bool
	dryRun          bool
	location        string
	address         string
	types           cli.StringSlice  // --type: publish only these
	breaking        []compat.Finding // the plan's changes to published API versions, judged

	git    gitPublishFlags // publishgit.go
	review planFlags       // publishplan.go
}

func (f *publishFlags) flags() []cli.Flag {
	return slices.Concat(f.compileFlags.flags(), f.serverFlags.flags(), []cli.Flag{
		&cli.BoolFlag{Name: "prune", Usage: "delete what the published namespaces no longer declare", Destination: &f.prune},
		&cli.BoolFlag{Name: "delete-resources", Usage: "with --prune: delete the types (and API versions) that still have resources together with those resources; without it, such a plan is refused with nothing written", Destination: &f.deleteResources},
		&cli.BoolFlag{Name: "dry-run", Usage: "print the plan and stop", Destination: &f.dryRun},
		&cli.StringFlag{Name: "location", Value: registration.DefaultLocation, Usage: "location to register for namespaces whose manifests declare none", Destination: &f.location},
		&cli.StringFlag{Name: "address", Usage: "resource provider address of --location", Destination: &f.address},
		&cli.StringSliceFlag{Name: "type", Usage: "publish only this type, NAMESPACE/TYPE (repeatable), as rad resource-type create does; the rest of its namespace is left as registered", Destination: &f.types},
	}, f.git.flags(), f.review.flags())
}

func (f *publishFlags) run(c *cli.Context, e *env) error {
	if err := f.compileFlags.validate(); err != nil {
		return err
	}
	// Flags that go together, before anything is compiled or dialled.
	switch {
	case f.git.repo != "" && (len(f.types.Value()) > 0 || f.deleteResources):
		return usageErrorf("--git commits every manifest and deletes no resources: --type and --delete-resources are for a registry")
	case len(f.types.Value()) > 0 && f.prune:
		return usageErrorf("--type publishes part of a namespace and --prune deletes what it does not declare: give one of them")
	case f.deleteResources && !f.prune:
		return usageErrorf("--delete-resources deletes resources with the types --prune deletes: pass --prune too")
	}
	if f.git.repo != "" {
		return f.publishGit(c, e)
	}
	if err := misplacedAllowBreaking(c.Args().Slice()); err != nil {
		return err
	}
	reg, err := f.serverFlags.client()
	if err != nil {
		return err
	}
	if f.address != "" {
		if p := api.AddressProblem(f.address); p != "" {
			return usageErrorf("--address must be an absolute http(s) URL, not %q: it %s", f.address, p)
		}
	}
	rec := f.startRecord(c, e, c.Args().Slice()) // publishcache.go
	if replayed, err := f.replay(c, e, reg, rec); replayed || err != nil {
		return err
	}
	cat, err := f.compileRecorded(c, e, c.Args().Slice(), rec)
	if err != nil {
		return err
	}
	ctx, cancel, err := f.serverFlags.connect(c.Context, reg)
	if err != nil {
		return err
	}
	defer cancel()
	want := registration.Registrations(cat, registration.Options{Location: f.location, Address: f.address})
	if len(f.types.Value()) > 0 {
		if want, err = onlyTypes(want, f.types.Value()); err != nil {
			return err
		}
	}
	refusedNamespaces := 0
	if reg.Target().Flavor == client.FlavorUCP {
		all := len(want)
		want, f.refused = publish.ForUCP(want)
		refusedNamespaces = all - len(want)
		for _, line := range f.refused {
			fmt.Fprintln(e.stderr, "udtc publish: "+line)
		}
		var notes []string
		want, notes = publish.WithoutLifecycle(want)
		for _, line := range notes {
			fmt.Fprintln(e.stderr, "udtc publish: note: "+line)
		}
	}
	plan, err := publish.MakePlan(ctx, reg, want, publish.Options{Prune: f.prune, DeleteResources: f.deleteResources})
	if err != nil {
		return fail(exitFail, err)
	}
	f.target = f.targetName(reg)
	if f.output == "text" {
		plan.WriteText(e.stdout, f.target, f.plane, f.review.verbose)
	}
	// Also under --allow-breaking: the warnings, and the JSON report's
	// "breaking", say which stored resources a forced change strands.
	if f.breaking, err = f.review.refuseBreaking(ctx, e, reg, f.proj.BreakingPolicy(), cat, plan); err != nil { // publishplan.go
		if f.output == "json" && f.breaking != nil { // the refused changes, each stored resource they refuse
			if werr := writeJSON(e.stdout, f.newReport(plan)); werr != nil {
				return werr
			}
		}
		return err
	}
	err = f.finish(ctx, e, reg, plan, rec)
	if err == nil && refusedNamespaces > 0 {
		err = fail(exitFail, fmt.Errorf("%s not published: %s cannot hold what the lines above name",
			plural(refusedNamespaces, "namespace"), reg.Target()))
	}
	return err
}

// finish ends a publish whose plan is made: a dry run, nothing to write,
// or the writes.
func (f *publishFlags) finish(ctx context.Context, e *env, reg *client.Client, plan *publish.Plan, rec *publishRecord) error {
	if len(plan.Refused()) > 0 {
		return f.refuse(e, plan)
	}
	if f.dryRun || plan.Writes() == 0 {
		return f.noWrites(e, plan, rec)
	}
	if err := f.review.confirmPrune(e, plan); err != nil {
		return err
	}
	return f.apply(ctx, e, reg, plan, rec)
}

// refuse ends a publish (or a dry run) whose plan has deletes the
// registry would refuse: nothing is written, since applying the rest
// would leave the registry half-pruned.
func (f *publishFlags) refuse(e *env, plan *publish.Plan) error {
	if f.output == "json" {
		if err := writeJSON(e.stdout, f.newReport(plan)); err != nil {
			return err
		}
	}
	return refusedError(plan, "pass --delete-resources to delete them with their types, delete them first, or publish without --prune")
}

// refusedError is the error of a plan the registry would refuse part of
// (publish.Plan.Refused); hint says what the user can do.
func refusedError(plan *publish.Plan, hint string) error {
	refused := plan.Refused()
	var why []string
	for _, c := range refused {
		why = append(why, c.Name()+": "+c.Refused)
	}
	return fail(exitFail, fmt.Errorf("the registry would refuse %s (%s); nothing written: %s",
		plural(len(refused), "delete"), strings.Join(why, "; "), hint))
}

// publishReport is the --output json document: the plan and what was
// applied (publish.Report), and the breaking changes to published API
// versions, each with every stored resource it would refuse.
type publishReport struct {
	publish.Report
	Breaking []compat.Finding `json:"breaking,omitempty"`
}

// newReport starts the --output json document of plan.
func (f *publishFlags) newReport(plan *publish.Plan) publishReport {
	return publishReport{Report: publish.NewReport(f.server, f.plane, f.dryRun, plan, f.refused), Breaking: f.breaking}
}

// noWrites ends a dry run, or a publish whose plan writes nothing.
func (f *publishFlags) noWrites(e *env, plan *publish.Plan, rec *publishRecord) error {
	if f.output == "json" {
		if err := writeJSON(e.stdout, f.newReport(plan)); err != nil {
			return err
		}
		return f.review.dryRunExit(plan)
	}
	switch {
	case plan.Writes() == 0 && len(f.refused) > 0: // not all the manifests: the error after says why
		fmt.Fprintln(e.stdout, "The registry already matches the namespaces it can hold: 0 writes.")
	case plan.Writes() == 0:
		f.save(rec, plan)
		fmt.Fprintln(e.stdout, "The registry already matches the manifests: 0 writes.")
	default:
		fmt.Fprintln(e.stdout, "Dry run: nothing written.")
	}
	return f.review.dryRunExit(plan)
}

// apply applies plan and reports what it did.
func (f *publishFlags) apply(ctx context.Context, e *env, reg *client.Client, plan *publish.Plan, rec *publishRecord) error {
	opts := publish.ApplyOptions{
		Batch:   reg.Target().Flavor != client.FlavorUCP, // UCP takes no batches
		Waiting: publish.WaitingPrinter(e.stderr),
	}
	if isTerminal(e.stderr) { // progress on a terminal only
		opts.Progress = publish.ProgressPrinter(e.stderr, plan.Writes())
	}
	res := publish.Apply(ctx, reg, plan, opts)
	// A 401 or 403 stops Apply (auth.go): one line says why, not one per write.
	var authErr error
	for _, fl := range res.Failed {
		if authErr = f.authError(fl.Err); authErr != nil {
			break
		}
	}
	if f.output == "json" {
		report := f.newReport(plan)
		report.AddResult(res)
		if err := writeJSON(e.stdout, report); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "Applied %d of %s.\n", len(res.Applied), plural(plan.Writes(), "write"))
		for _, fl := range res.Failed {
			if authErr == nil {
				fmt.Fprintf(e.stdout, "  ! failed  %-16s %s: %v\n", fl.Change.Kind.Ident(), fl.Change.Name(), fl.Err)
			}
		}
	}
	if authErr != nil {
		return authErr
	}
	if len(res.Failed) > 0 {
		hint := "run publish again to converge"
		for _, fl := range res.Failed {
			if fl.Change.Action == publish.Delete && client.StatusCode(fl.Err) == http.StatusConflict {
				// A delete refused since the plan was made (a resource
				// created meanwhile): the next plan says so up front.
				hint = "run publish again: its plan names what the registry refuses and why"
			}
		}
		return fail(exitFail, fmt.Errorf("%d of %s failed; %s", len(res.Failed), plural(plan.Writes(), "write"), hint))
	}
	f.recordApplied(ctx, reg, plan, rec)
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// onlyTypes keeps of want the types named NAMESPACE/TYPE (case-insensitive,
// as the registry looks names up) and their namespaces' providers and
// locations, each location serving the kept types only: what rad
// resource-type create registers of a manifest. A name that no manifest
// declares is a usage error naming what there is.
func onlyTypes(want []api.Registration, names []string) ([]api.Registration, error) {
	keep := map[string]bool{}
	for _, n := range names {
		if p := api.FullTypeNameProblem(n); p != "" {
			return nil, usageErrorf("--type %q %s", n, p)
		}
		keep[strings.ToLower(n)] = false
	}
	var out []api.Registration
	var declared []string
	for _, reg := range want {
		var types []api.RegisteredType
		served := map[string]bool{}
		for _, rt := range reg.Types {
			full := reg.Namespace + "/" + rt.Type.Name
			declared = append(declared, full)
			if _, ok := keep[strings.ToLower(full)]; ok {
				keep[strings.ToLower(full)] = true
				types = append(types, rt)
				served[rt.Type.Name] = true
			}
		}
		if len(types) == 0 {
			continue
		}
		reg.Types = types
		locs := make([]api.Location, len(reg.Locations))
		for i, l := range reg.Locations {
			rts := map[string]api.LocationResourceType{}
			for name, v := range l.Properties.ResourceTypes {
				if served[name] {
					rts[name] = v
				}
			}
			l.Properties.ResourceTypes = rts
			locs[i] = l
		}
		reg.Locations = locs
		out = append(out, reg)
	}
	for _, n := range names {
		if !keep[strings.ToLower(n)] {
			return nil, usageErrorf("--type %s: no manifest declares it (types: %s)", n, strings.Join(declared, ", "))
		}
	}
	return out, nil
}
