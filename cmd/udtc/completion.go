package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/check"
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
				return write(e.stdout, completionTree(c.App.Commands, ""))
			},
		})
	}
	return &cli.Command{
		Name:        "completion",
		Usage:       "print a shell completion script: bash, zsh or fish",
		ArgsUsage:   "bash|zsh|fish",
		Description: description("completion"),
		Subcommands: subs,
		// Runs when no shell matched: the argument is a shell udtc has no
		// script for (powershell), not a command.
		Action: func(c *cli.Context) error {
			if !c.Args().Present() {
				return cli.ShowSubcommandHelp(c)
			}
			msg := fmt.Sprintf("%q is not a supported shell: bash, zsh, fish", c.Args().First())
			if s := check.Suggest(c.Args().First(), []string{"bash", "zsh", "fish"}); s != "" {
				msg += fmt.Sprintf(": did you mean `udtc completion %s`?", s)
			}
			return usageErrorf("%s", msg)
		},
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
// visible commands, each with its flags (the values of those that take a
// fixed set: flagChoices) and visible subcommands. parent is the path of
// the commands' parent ("" at the top). --help is left to the scripts,
// which offer it everywhere.
func completionTree(cmds []*cli.Command, parent string) []completion.Command {
	var out []completion.Command
	for _, c := range visible(cmds) {
		path := strings.TrimSpace(parent + " " + c.Name)
		cc := completion.Command{Name: c.Name, Usage: c.Usage, Subcommands: completionTree(c.Subcommands, path)}
		for _, f := range c.Flags {
			if slices.Contains(f.Names(), "help") {
				continue
			}
			usage := ""
			if d, ok := f.(cli.DocGenerationFlag); ok {
				usage = d.GetUsage()
			}
			cc.Flags = append(cc.Flags, completion.Flag{Names: f.Names(), Usage: usage, Values: choicesOf(path, f.Names()[0])})
		}
		out = append(out, cc)
	}
	return out
}
