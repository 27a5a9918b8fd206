// Package completion writes shell completion scripts (bash, zsh, fish) for
// a tree of commands and flags: `udtc completion` gives it the CLI's
// command table, so the scripts always list today's commands and flags.
package completion

import (
	"fmt"
	"io"
	"strings"
)

// Command is a command as the scripts complete it: Subcommands and Flags
// are those a user should see, in the order to list them.
type Command struct {
	Name, Usage string
	Flags       []Flag
	Subcommands []Command
}

// Flag is a flag's names (one letter for a short flag), its usage, and
// the values it takes when they are a fixed set (completed in place of file
// names after the flag).
type Flag struct {
	Names  []string
	Usage  string
	Values []string
}

func names(cmds []Command) string {
	var n []string
	for _, c := range cmds {
		n = append(n, c.Name)
	}
	return strings.Join(n, " ")
}

func flagNames(c Command) string {
	var n []string
	for _, f := range c.Flags {
		for _, name := range f.Names {
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

// valueCases is the bash case statement that sets vals to the values of
// the flag in prev, for c's flags that take a fixed set ("" when none do).
func valueCases(c Command) string {
	var arms []string
	for _, f := range c.Flags {
		if len(f.Values) == 0 {
			continue
		}
		var pats []string
		for _, name := range f.Names {
			if len(name) == 1 {
				pats = append(pats, "-"+name)
			} else {
				pats = append(pats, "--"+name)
			}
		}
		arms = append(arms, fmt.Sprintf("%s) vals=%q ;;", strings.Join(pats, "|"), strings.Join(f.Values, " ")))
	}
	if len(arms) == 0 {
		return ""
	}
	return " case \"$prev\" in " + strings.Join(arms, " ") + " esac;"
}

// Bash writes the bash script: it completes the command at position 1, a
// subcommand at position 2 for command groups, flags after "-", the values
// of a flag that takes a fixed set after the flag (`--format j`, `--format=j`),
// and files otherwise.
func Bash(w io.Writer, cmds []Command) error {
	var b strings.Builder
	b.WriteString("# bash completion for udtc (udtc completion bash)\n_udtc() {\n")
	b.WriteString("  local cur=\"${COMP_WORDS[COMP_CWORD]}\" cmd=\"${COMP_WORDS[1]}\" sub=\"${COMP_WORDS[2]}\" words=\"\" vals=\"\"\n")
	// bash splits --format=j at the "=" (COMP_WORDBREAKS): the flag is the
	// word before it.
	b.WriteString("  local prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	b.WriteString("  if [ \"$cur\" = \"=\" ]; then cur=\"\"; fi\n")
	b.WriteString("  if [ \"$prev\" = \"=\" ] && [ \"$COMP_CWORD\" -ge 2 ]; then prev=\"${COMP_WORDS[COMP_CWORD-2]}\"; fi\n")
	fmt.Fprintf(&b, "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n    COMPREPLY=($(compgen -W %q -- \"$cur\"))\n    return\n  fi\n", names(cmds)+" --version --help")
	b.WriteString("  case \"$cmd\" in\n")
	for _, c := range cmds {
		if len(c.Subcommands) > 0 {
			subs := c.Subcommands
			fmt.Fprintf(&b, "  %s)\n    if [ \"$COMP_CWORD\" -eq 2 ]; then words=%q\n    else case \"$sub\" in\n", c.Name, names(subs))
			for _, s := range subs {
				fmt.Fprintf(&b, "      %s) words=%q;%s ;;\n", s.Name, flagNames(s), valueCases(s))
			}
			b.WriteString("    esac; fi ;;\n")
			continue
		}
		fmt.Fprintf(&b, "  %s) words=%q;%s ;;\n", c.Name, flagNames(c), valueCases(c))
	}
	b.WriteString("  esac\n")
	b.WriteString("  if [ -n \"$vals\" ]; then\n    COMPREPLY=($(compgen -W \"$vals\" -- \"$cur\"))\n    return\n  fi\n")
	b.WriteString("  if [[ \"$cur\" == -* || ( \"$COMP_CWORD\" -eq 2 && -n \"$words\" && \"$words\" != -* ) ]]; then\n")
	b.WriteString("    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n  else\n    COMPREPLY=($(compgen -f -- \"$cur\"))\n  fi\n}\n")
	b.WriteString("complete -o filenames -F _udtc udtc\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Zsh writes the zsh script: the bash script, loaded through zsh's
// bashcompinit.
func Zsh(w io.Writer, cmds []Command) error {
	if _, err := io.WriteString(w, "#compdef udtc\n# zsh completion for udtc (udtc completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n"); err != nil {
		return err
	}
	return Bash(w, cmds)
}

// Fish writes the fish script: it declares each command, subcommand and
// flag with its usage.
func Fish(w io.Writer, cmds []Command) error {
	var b strings.Builder
	b.WriteString("# fish completion for udtc (udtc completion fish)\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c udtc -f -n __fish_use_subcommand -a %s -d %s\n", c.Name, fishQuote(c.Usage))
		cond := "__fish_seen_subcommand_from " + c.Name
		for _, s := range c.Subcommands {
			fmt.Fprintf(&b, "complete -c udtc -f -n '%s' -a %s -d %s\n", cond, s.Name, fishQuote(s.Usage))
			fishFlags(&b, cond+"; and __fish_seen_subcommand_from "+s.Name, s)
		}
		fishFlags(&b, cond, c)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fishFlags(b *strings.Builder, cond string, c Command) {
	for _, f := range c.Flags {
		usage := f.Usage
		for _, name := range f.Names {
			opt := "-l"
			if len(name) == 1 {
				opt = "-s"
			}
			if len(f.Values) > 0 {
				// -x: the flag takes one of these values, no file name.
				fmt.Fprintf(b, "complete -c udtc -n '%s' %s %s -x -a %s -d %s\n", cond, opt, name, fishQuote(strings.Join(f.Values, " ")), fishQuote(usage))
				continue
			}
			fmt.Fprintf(b, "complete -c udtc -n '%s' %s %s -d %s\n", cond, opt, name, fishQuote(usage))
		}
	}
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
