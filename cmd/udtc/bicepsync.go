package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/internal/bicepsync"
	"github.com/udtc/udtc/registry/api"
)

// bicepCommand is `udtc bicep`: the Bicep side of a project.
func bicepCommand(e *env) *cli.Command {
	sync := &bicepSyncFlags{}
	return &cli.Command{
		Name:        "bicep",
		Description: description("bicep"),
		Usage:       "keep a project's Bicep extensions in step with a registry",
		Subcommands: []*cli.Command{
			{
				Name:        "sync",
				Usage:       "fetch the Bicep extensions of a udtc serve into the project and pin them in bicepconfig.json",
				ArgsUsage:   "[NAMESPACE...]",
				Description: description("bicep"),
				Flags:       sync.flags(),
				Action:      func(c *cli.Context) error { return sync.run(c, e) },
			},
		},
	}
}

// bicepSyncFlags are the flags of `udtc bicep sync`.
type bicepSyncFlags struct {
	serverFlags
	config string
	dir    string
	check  bool
}

func (f *bicepSyncFlags) flags() []cli.Flag {
	return append(f.serverFlags.flags(),
		&cli.StringFlag{Name: "config", Value: "bicepconfig.json", Usage: "the bicepconfig.json to pin the extensions in (created when missing)", Destination: &f.config},
		&cli.StringFlag{Name: "dir", Value: bicepsync.DefaultDir, Usage: "where the archives go, relative to --config's directory", Destination: &f.dir},
		&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when a local copy is stale or missing (for CI and editors)", Destination: &f.check},
	)
}

// run is `udtc bicep sync [NAMESPACE...]`.
func (f *bicepSyncFlags) run(c *cli.Context, e *env) error {
	if fi, err := os.Stat(f.config); err == nil && fi.IsDir() {
		return usageErrorf("--config %s is a directory: name the bicepconfig.json file", f.config)
	}
	if f.plane != api.DefaultPlane {
		return usageErrorf("--plane %s: udtc serve hands out the Bicep extensions of the plane %q only (/bicep/, /v2/)", f.plane, api.DefaultPlane)
	}
	reg, ctx, cancel, err := f.dial(c.Context)
	if err != nil {
		return err
	}
	defer cancel()
	res, err := bicepsync.Sync(ctx, bicepsync.Options{Client: reg, Namespaces: c.Args().Slice(), Config: f.config, Dir: f.dir, Check: f.check})
	if err != nil {
		if aerr := f.authError(err); aerr != nil {
			return aerr
		}
		return fail(exitFail, err)
	}
	if f.output == "json" {
		if err := writeJSON(e.stdout, res); err != nil {
			return err
		}
	} else {
		f.report(e, res)
	}
	if f.check && res.Stale() {
		return fail(exitFail, nil)
	}
	return nil
}

// report prints a line per extension and what the run did.
func (f *bicepSyncFlags) report(e *env, res bicepsync.Result) {
	config := filepath.Clean(f.config)
	for _, x := range res.Extensions {
		digest := x.Digest
		if len(digest) > len("sha256:")+12 {
			digest = digest[:len("sha256:")+12]
		}
		switch {
		case x.State == bicepsync.Current:
			fmt.Fprintf(e.stdout, "%s (%s): current, %s\n", x.Name, x.Namespace, digest)
		case f.check && x.State == bicepsync.Added:
			fmt.Fprintf(e.stdout, "%s (%s): missing from %s; the server has %s\n", x.Name, x.Namespace, config, digest)
		case f.check:
			fmt.Fprintf(e.stdout, "%s (%s): stale; the server has %s (was %s)\n", x.Name, x.Namespace, digest, x.Was)
		case x.State == bicepsync.Added:
			fmt.Fprintf(e.stdout, "%s (%s): added %s\n", x.Name, x.Namespace, x.Entry)
		default:
			fmt.Fprintf(e.stdout, "%s (%s): updated to %s\n", x.Name, x.Namespace, x.Entry)
		}
	}
	switch {
	case f.check && res.Stale():
		fmt.Fprintf(e.stdout, "%s is stale: run udtc bicep sync --server %s\n", config, f.server)
	case f.check:
		fmt.Fprintf(e.stdout, "%s is current\n", config)
	case !res.Wrote:
		fmt.Fprintf(e.stdout, "nothing to do: every extension in %s is current; nothing was written\n", config)
	default:
		n := len(slices.DeleteFunc(slices.Clone(res.Extensions), func(x bicepsync.Extension) bool { return x.State == bicepsync.Current }))
		fmt.Fprintf(e.stdout, "%s: %d extension(s) pinned by digest\n", config, n)
	}
}
