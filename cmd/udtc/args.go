package main

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// interspersed moves the flags of a subcommand in front of its positional
// arguments, so `udtc gen PATH... --out DIR` works: urfave/cli v2 stops
// parsing flags at the first positional argument. Everything after "--"
// stays positional.
func interspersed(args []string, cmds []*cli.Command) []string {
	if len(args) < 2 {
		return args
	}
	// Find the command path (e.g. "registry show") and its flags.
	i := 1
	var cmd *cli.Command
	for list := cmds; i < len(args); i++ {
		next := find(list, args[i])
		if next == nil {
			break
		}
		cmd, list = next, next.Subcommands
	}
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		takes := true
		if d, ok := f.(cli.DocGenerationFlag); ok {
			takes = d.TakesValue() // false for a BoolFlag and an optionalValueFlag
		}
		for _, n := range f.Names() {
			takesValue[n] = takes
		}
	}
	out := append([]string{}, args[:i]...)
	var flags, positional []string
	for j := i; j < len(args); j++ {
		a := args[j]
		switch {
		case a == "--":
			positional = append(positional, args[j:]...)
			j = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && j+1 < len(args) {
				flags = append(flags, args[j+1])
				j++
			}
		default:
			positional = append(positional, a)
		}
	}
	return append(append(out, flags...), positional...)
}

func find(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}
