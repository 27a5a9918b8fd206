package main

import (
	"io"
	"sort"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/internal/completion"
)

// completionCommand prints shell completion scripts generated from the
// command table, so they always list today's commands and flags.
func completionCommand(e *env) *cli.Command {
	shells := map[string]func(io.Writer, []completion.Command) error{
		"bash": completion.Bash, "zsh": completion.Zsh, "fish": completion.Fish,
	}
	var subs []*cli.Command
	for _, name := range []string{"bash", "zsh", "fish"} {
		write := shells[name]
		subs = append(subs, &cli.Command{
			Name:  name,
			Usage: "print the " + name + " completion script",
			Action: func(c *cli.Context) error {
				if c.Args().Present() {
					return usageErrorf("completion %s takes no arguments", name)
				}
				return write(e.stdout, completionTree(c.App.Commands))
			},
		})
	}
	return &cli.Command{
		Name:        "completion",
		Usage:       "print a shell completion script: bash, zsh or fish",
		ArgsUsage:   "bash|zsh|fish",
		Description: description("completion"),
		Subcommands: subs,
	}
}

// visible returns the commands a user should see (no hidden ones, no help).
func visible(cmds []*cli.Command) []*cli.Command {
	var out []*cli.Command
	for _, c := range cmds {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// completionTree is the command table as completion scripts list it: the
// visible commands, each with its flags and visible subcommands.
func completionTree(cmds []*cli.Command) []completion.Command {
	var out []completion.Command
	for _, c := range visible(cmds) {
		cc := completion.Command{Name: c.Name, Usage: c.Usage, Subcommands: completionTree(c.Subcommands)}
		for _, f := range c.Flags {
			usage := ""
			if d, ok := f.(cli.DocGenerationFlag); ok {
				usage = d.GetUsage()
			}
			cc.Flags = append(cc.Flags, completion.Flag{Names: f.Names(), Usage: usage})
		}
		out = append(out, cc)
	}
	return out
}
