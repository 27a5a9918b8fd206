package main

import (
	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/manifest"
)

func schemaCommand(e *env) *cli.Command {
	return command(e, &schemaFlags{}, "schema", "", "print the JSON Schema of the manifest format",
		"Prints the JSON Schema of udtc manifests, for editors. With the YAML language server add\n"+
			"  # yaml-language-server: $schema="+manifest.SchemaID+"\n"+
			"at the top of a manifest, or point it at a local copy: udtc schema > manifest.schema.json.\n"+
			"--project prints the schema of udtc.yaml (docs/project.schema.json) instead.")
}

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
