package main

import (
	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/manifest"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of the manifest format",
		Description: "Prints the JSON Schema of udtc manifests, for editors. With the YAML language server add\n" +
			"  # yaml-language-server: $schema=" + manifest.SchemaID + "\n" +
			"at the top of a manifest, or point it at a local copy: udtc schema > manifest.schema.json.\n" +
			"--project prints the schema of udtc.yaml (docs/project.schema.json) instead.",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "project", Usage: "print the JSON Schema of the project file (udtc.yaml) instead"}},
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageErrorf("schema takes no arguments")
			}
			if c.Bool("project") {
				return writeProjectSchema(e)
			}
			b, err := manifest.JSONSchema()
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(b)
			return err
		},
	}
}
