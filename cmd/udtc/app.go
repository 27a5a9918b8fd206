package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/internal/bridge"
)

// Exit codes shared by every command.
const (
	exitOK    = 0
	exitFail  = 1 // the input has errors, or an operation failed
	exitUsage = 2 // usage or I/O error
)

// exitError carries an exit code out of a command's action.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// fail returns an error that makes run exit with code, printing err when non-nil.
func fail(code int, err error) error { return &exitError{code: code, err: err} }

// usageErrorf is an exitUsage error with a message.
func usageErrorf(format string, args ...any) error {
	return fail(exitUsage, fmt.Errorf(format, args...))
}

// flagChoices lists the values of every flag that takes one of a fixed
// set: "COMMAND --flag" for one command's flag (a subcommand as
// "registry show --flag"), "--flag" for that flag of every other command.
// The flags' checks (choice) and the completion scripts both read it.
var flagChoices = map[string][]string{
	"--format":          {"text", "json", "sarif"},
	"breaking --format": {"text", "json", "sarif", "github"},
	"--output":          {"text", "json"},
	"--profile":         {"radius", "udtc"},
	"--fail-on":         {"error", "warning", "info"},
	"--log-format":      {"json", "text"},
	"--go-runtime":      goclient.Runtimes,
	"gen --target":      bridge.TargetNames,
}

// choicesOf returns the values flag (without dashes) of command path takes,
// or nil when it takes any value (flagChoices).
func choicesOf(path, flag string) []string {
	if v, ok := flagChoices[path+" --"+flag]; ok {
		return v
	}
	return flagChoices["--"+flag]
}

// choice is the usage error for a flag whose value is none of allowed
// ("--format must be text, json or sarif, not \"x\""), or nil.
func choice(flag, value string, allowed ...string) error {
	if slices.Contains(allowed, value) {
		return nil
	}
	list := strings.Join(allowed[:len(allowed)-1], ", ") + " or " + allowed[len(allowed)-1]
	return usageErrorf("--%s must be %s, not %q", flag, list, value)
}

// runner is a command's flags: their definitions and what they run.
type runner interface {
	flags() []cli.Flag
	run(c *cli.Context, e *env) error
}

// command is the command name running f. args is its ArgsUsage: "" for a
// command that takes no arguments, which refuses any.
func command(e *env, f runner, name, args, usage string) *cli.Command {
	return &cli.Command{Name: name, Usage: usage, ArgsUsage: args, Description: description(name), Flags: f.flags(),
		Action: func(c *cli.Context) error {
			if args == "" && c.Args().Present() {
				return usageErrorf("%s takes no arguments", name)
			}
			return f.run(c, e)
		}}
}

// atLeast is the usage error for a flag whose value is below min
// ("--forward-timeout must be at least 1s, not 10ms"), or nil.
func atLeast[T int | int64 | time.Duration](flag string, value, min T) error {
	if value < min {
		return usageErrorf("--%s must be at least %v, not %v", flag, min, value)
	}
	return nil
}

// commands is the composition root: every command, one line each (its
// flags, name, arguments and usage; its long help is help/NAME.txt).
func commands(env *env) []*cli.Command {
	return []*cli.Command{
		bicepCommand(env),
		command(env, &breakingFlags{}, "breaking", "PATH... --against REV|DIR | --server URL", "report API changes of the manifests against a git revision, a directory or a registry"),
		command(env, &checkFlags{}, "check", "PATH...", "check manifests and report every problem"),
		completionCommand(env),
		command(env, &explainFlags{}, "explain", "NAMESPACE/TYPE[@VERSION][.path]", "describe a resource type or one of its properties (like kubectl explain)"),
		command(env, &fmtFlags{}, "fmt", "PATH...", "rewrite manifests in the canonical layout"),
		genCommand(env),
		command(env, &initFlags{}, "init", "[DIR]", "start a project: a commented manifest, bicepconfig.json and a CI workflow"),
		command(env, &publishFlags{}, "publish", "PATH...", "register compiled manifests in a registry: plan, then apply"),
		command(env, &publishExtFlags{}, "publish-extension", "PATH...", "push the Bicep extensions of manifests (or of udtc gen's .tgz) to an OCI registry"),
		registryCommand(env),
		command(env, &schemaFlags{}, "schema", "", "print the JSON Schema of the manifest format"),
		command(env, &serveFlags{}, "serve", "", "serve the resource type registry (UCP-compatible registration APIs) and resources of its types"),
		command(env, &validateFlags{}, "validate", "NAMESPACE/TYPE[@VERSION] FILE...", "check resource documents against a type's schema, as the registry would admit them"),
		command(env, &versionFlags{}, "version", "", "print udtc's version, commit, Go version and registration API version"),
	}
}

// env is what a command may touch besides its flags.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// isTerminal reports whether stdout is a terminal (colour, progress).
	isTerminal bool
	// stdinTerminal reports whether stdin is one too (questions).
	stdinTerminal bool
}

// run is the whole CLI, callable in-process by tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, isTerminal: isTerminal(stdout), stdinTerminal: isTerminal(stdin)}
	cmds := commands(e)
	decorate(cmds, "")
	app := &cli.App{
		Name:                 "udtc",
		Usage:                "compile, serve and publish user-defined resource types",
		Writer:               stdout,
		ErrWriter:            stderr,
		Reader:               stdin,
		Commands:             cmds,
		EnableBashCompletion: true,
		HideVersion:          true, // --version below prints what `udtc version` prints
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "version", Usage: "print the version (udtc version)"},
		},
		// Runs when no command matched: --version, an unknown command, or none.
		Action: func(c *cli.Context) error {
			if c.Bool("version") {
				return printVersion(e, "text")
			}
			if c.Args().Present() {
				return unknownCommand("udtc", c.Args().First(), cmds)
			}
			// No command is a usage error, as with go or git: the help
			// goes to stderr and a script that forgot its command fails.
			c.App.Writer = e.stderr
			if err := cli.ShowAppHelp(c); err != nil {
				return err
			}
			return usageErrorf("no command given (udtc --help lists them)")
		},
		ExitErrHandler: func(*cli.Context, error) {}, // run decides the exit code
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return fail(exitUsage, err)
		},
	}
	return report(stderr, app.RunContext(ctx, interspersed(args, app.Commands)))
}

// report prints a command's error, if any, and returns its exit code: an
// exitError's, else exitUsage.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		ee = &exitError{code: exitUsage, err: err}
	}
	if ee.err != nil && ee.err.Error() != "" {
		fmt.Fprintf(stderr, "udtc: %v\n", ee.err)
	}
	return ee.code
}
