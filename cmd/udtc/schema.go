package main

import (
	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/manifest"
)

// schemaFlags are the flags of `udtc schema`.
type schemaFlags struct{ project bool }

func (f *schemaFlags) flags() []cli.Flag {
	return []cli.Flag{&cli.BoolFlag{Name: "project", Usage: "print the JSON Schema of the project file (udtc.yaml) instead", Destination: &f.project}}
}

func (f *schemaFlags) run(_ *cli.Context, e *env) error {
	if f.project {
		return writeProjectSchema(e)
	}
	b, err := manifest.JSONSchema()
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(b)
	return err
}
