package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionCommand prints shell completion scripts generated from the
// command table, so they always list today's commands and flags.
func completionCommand(e *env) *cli.Command {
	shells := map[string]func(io.Writer, []*cli.Command) error{
		"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion,
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
				return write(e.stdout, visible(c.App.Commands))
			},
		})
	}
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		Description: "Prints a completion script for commands, subcommands and flags. Load it in the current shell\n" +
			"(bash: source <(udtc completion bash)) or install it where the shell looks for completions.",
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

func names(cmds []*cli.Command) string {
	var n []string
	for _, c := range cmds {
		n = append(n, c.Name)
	}
	return strings.Join(n, " ")
}

func flagNames(c *cli.Command) string {
	var n []string
	for _, f := range c.Flags {
		for _, name := range f.Names() {
			if len(name) == 1 {
				n = append(n, "-"+name)
			} else {
				n = append(n, "--"+name)
			}
		}
	}
	n = append(n, "--help")
	return strings.Join(n, " ")
}

// bashCompletion completes the command at position 1, a subcommand at
// position 2 for command groups, flags after "-", and files otherwise.
func bashCompletion(w io.Writer, cmds []*cli.Command) error {
	var b strings.Builder
	b.WriteString("# bash completion for udtc (udtc completion bash)\n_udtc() {\n")
	b.WriteString("  local cur=\"${COMP_WORDS[COMP_CWORD]}\" cmd=\"${COMP_WORDS[1]}\" sub=\"${COMP_WORDS[2]}\" words=\"\"\n")
	fmt.Fprintf(&b, "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", names(cmds)+" --version --help")
	b.WriteString("  case \"$cmd\" in\n")
	for _, c := range cmds {
		if len(c.Subcommands) > 0 {
			subs := visible(c.Subcommands)
			fmt.Fprintf(&b, "  %s)\n    if [ \"$COMP_CWORD\" -eq 2 ]; then words=%q\n    else case \"$sub\" in\n", c.Name, names(subs))
			for _, s := range subs {
				fmt.Fprintf(&b, "      %s) words=%q ;;\n", s.Name, flagNames(s))
			}
			b.WriteString("    esac; fi ;;\n")
			continue
		}
		fmt.Fprintf(&b, "  %s) words=%q ;;\n", c.Name, flagNames(c))
	}
	b.WriteString("  esac\n")
	b.WriteString("  if [[ \"$cur\" == -* || ( \"$COMP_CWORD\" -eq 2 && -n \"$words\" && \"$words\" != -* ) ]]; then\n")
	b.WriteString("    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n")
	b.WriteString("complete -o filenames -F _udtc udtc\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// zshCompletion loads the bash script through zsh's bashcompinit.
func zshCompletion(w io.Writer, cmds []*cli.Command) error {
	if _, err := io.WriteString(w, "#compdef udtc\n# zsh completion for udtc (udtc completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n"); err != nil {
		return err
	}
	return bashCompletion(w, cmds)
}

// fishCompletion declares each command, subcommand and flag with its usage.
func fishCompletion(w io.Writer, cmds []*cli.Command) error {
	var b strings.Builder
	b.WriteString("# fish completion for udtc (udtc completion fish)\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c udtc -f -n __fish_use_subcommand -a %s -d %s\n", c.Name, fishQuote(c.Usage))
		cond := "__fish_seen_subcommand_from " + c.Name
		for _, s := range visible(c.Subcommands) {
			fmt.Fprintf(&b, "complete -c udtc -f -n '%s' -a %s -d %s\n", cond, s.Name, fishQuote(s.Usage))
			fishFlags(&b, cond+"; and __fish_seen_subcommand_from "+s.Name, s)
		}
		fishFlags(&b, cond, c)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fishFlags(b *strings.Builder, cond string, c *cli.Command) {
	for _, f := range c.Flags {
		usage := ""
		if d, ok := f.(cli.DocGenerationFlag); ok {
			usage = d.GetUsage()
		}
		for _, name := range f.Names() {
			opt := "-l"
			if len(name) == 1 {
				opt = "-s"
			}
			fmt.Fprintf(b, "complete -c udtc -n '%s' %s %s -d %s\n", cond, opt, name, fishQuote(usage))
		}
	}
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
