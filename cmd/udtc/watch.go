package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/project"
)

// watchFlags are the --watch flags of check and gen.
type watchFlags struct {
	watch    bool
	interval time.Duration
}

func (f *watchFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "watch", Aliases: []string{"w"}, Usage: "run again whenever an input changes, until interrupted", Destination: &f.watch},
		&cli.DurationFlag{Name: "watch-interval", Value: 500 * time.Millisecond, Usage: "how often --watch looks for changes", Destination: &f.interval},
	}
}

// loop runs once, or with --watch runs again whenever the fingerprint of
// the inputs changes, until ctx is done or SIGINT or SIGTERM arrives (then
// it returns nil: Ctrl-C ends a watch normally, for check as for gen).
// Each run starts on a cleared terminal; its errors are printed and the
// watch goes on. after, when not nil, is told whether the run failed (gen
// says that the last good output is kept).
func (f *watchFlags) loop(ctx context.Context, e *env, paths func() []string, once func() error, after func(failed bool)) error {
	if !f.watch {
		return once()
	}
	if f.interval <= 0 {
		return usageErrorf("--watch-interval must be positive, not %s", f.interval)
	}
	project.Watch(ctx, f.interval, paths, func() {
		if e.isTerminal {
			fmt.Fprint(e.stdout, "\x1b[H\x1b[2J") // clear the screen for the new run
		}
		err := once()
		report(e.stderr, err)
		if after != nil {
			after(err != nil)
		}
		fmt.Fprintf(e.stderr, "watching %s for changes (Ctrl-C stops)\n", strings.Join(paths(), ", "))
	})
	return nil
}

// watchedPaths are the paths a watch looks at: the arguments, or the
// project's inputs (re-read each time, so new files are seen).
func (f *compileFlags) watchedPaths(args []string, output string) func() []string {
	return func() []string {
		if len(args) > 0 {
			return args
		}
		if p, err := f.inputs(output); err == nil {
			return p
		}
		if f.proj != nil {
			return []string{filepath.Dir(f.proj.Path)}
		}
		return nil
	}
}
