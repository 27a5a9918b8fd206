package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/internal/buildinfo"
)

// versionFlags are the flags of `udtc version`.
type versionFlags struct{ output string }

func (f *versionFlags) flags() []cli.Flag {
	return []cli.Flag{&cli.StringFlag{Name: "output", Value: "text", Usage: "text or json", Destination: &f.output}}
}

func (f *versionFlags) run(_ *cli.Context, e *env) error { return printVersion(e, f.output) }

func printVersion(e *env, output string) error {
	if err := checkOutput(output); err != nil {
		return err
	}
	v := buildinfo.Read()
	if output == "json" {
		return writeJSON(e.stdout, v)
	}
	_, err := fmt.Fprint(e.stdout, v.Text())
	return err
}
