package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/project"
	"github.com/udtc/udtc/internal/buildinfo"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/oci"
)

// initFlags are the flags of `udtc init`.
type initFlags struct {
	namespace string
	typeName  string
}

func (f *initFlags) flags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "namespace", Usage: "resource provider namespace, e.g. Contoso.Data (required)", Destination: &f.namespace},
		&cli.StringFlag{Name: "type", Usage: "the first resource type, e.g. postgresDatabases (required)", Destination: &f.typeName},
	}
}

func (f *initFlags) run(c *cli.Context, e *env) error {
	if c.Args().Len() > 1 {
		return usageErrorf("init takes at most one argument: the project directory")
	}
	dir := c.Args().First()
	if dir == "" {
		dir = "."
	}
	if f.namespace == "" || f.typeName == "" {
		return usageErrorf("init needs --namespace and --type, e.g. udtc init %s --namespace Contoso.Data --type postgresDatabases", dir)
	}
	if p := api.NamespaceProblem(f.namespace); p != "" {
		return usageErrorf("--namespace %q: %s", f.namespace, p)
	}
	if p := api.TypeNameProblem(f.typeName); p != "" || strings.Contains(f.typeName, "/") {
		if p == "" {
			p = "give a top-level type; add child types (parent/child) to the manifest afterwards"
		}
		return usageErrorf("--type %q: %s", f.typeName, p)
	}
	files, err := project.Starter(f.namespace, f.typeName, buildinfo.Read().Pin())
	if err != nil {
		return err
	}
	written, err := project.WriteStarter(dir, files)
	for _, p := range written {
		fmt.Fprintf(e.stderr, "wrote %s\n", p)
	}
	if err != nil {
		return fail(exitUsage, err)
	}
	fmt.Fprintf(e.stderr, "next: cd %s && udtc check && udtc gen\n", dir)
	fmt.Fprint(e.stderr, registryWay(bicep.DefaultExtensionName(f.namespace)))
	return nil
}

// exampleTarget is the registry target init's hint shows.
const exampleTarget = "br:myregistry.azurecr.io/bicep/" + oci.Placeholder

// registryWay tells the other way to wire the extension ext into
// bicepconfig.json: published to an OCI registry, named by its br:
// reference.
func registryWay(ext string) string {
	ref := exampleTarget
	if t, err := oci.ParseTarget(exampleTarget); err == nil {
		if r, err := t.For(ext, bicep.DefaultVersion); err == nil {
			ref = r.String()
		}
	}
	return fmt.Sprintf("bicepconfig.json names the local archive ./out/bicep/%s.tgz; to share the extension, push it to an OCI registry\n"+
		"  udtc publish-extension --target '%s'\n"+
		"and name it in bicepconfig.json instead: \"%s\": \"%s\" (docs/bicep.md)\n", ext, exampleTarget, ext, ref)
}
