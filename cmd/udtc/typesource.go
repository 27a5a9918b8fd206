package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/project"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

// typeSourceFlags choose where validate and explain read a type's schemas:
// compiled local manifests (--manifests) or a registry (--server).
type typeSourceFlags struct {
	manifests cli.StringSlice
	compile   compileFlags
	server    serverFlags
}

func (f *typeSourceFlags) flags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringSliceFlag{Name: "manifests", Aliases: []string{"m"}, Usage: "read the types from these manifest files or directories", Destination: &f.manifests},
	}, f.server.flags()...)
}

// resolved is one API version of a type, with the type's summary.
type resolved struct {
	ref     api.TypeRef // with the registered casing and the version filled in
	summary api.ResourceTypeSummary
	schema  []byte
}

// typeArg is the start of explain and validate: it checks --output, then
// argsOK (the command's argument count, refused with usage), then parses
// the first argument as NAMESPACE/TYPE[@VERSION][.path]. Errors are usage errors.
func (f *typeSourceFlags) typeArg(c *cli.Context, argsOK bool, usage string) (api.TypeRef, error) {
	if err := checkOutput(f.server.output); err != nil {
		return api.TypeRef{}, err
	}
	if !argsOK {
		return api.TypeRef{}, usageErrorf("%s", usage)
	}
	ref, err := api.ParseTypeRef(c.Args().First())
	if err != nil {
		return api.TypeRef{}, usageErrorf("%v", err)
	}
	return ref, nil
}

// lookup finds ref's type and API version (the default version when ref has
// none) in the manifests or on the server. Errors are exit errors.
func (f *typeSourceFlags) lookup(c *cli.Context, e *env, ref api.TypeRef) (resolved, error) {
	sum, err := f.provider(c, e, ref.Namespace)
	if err != nil {
		return resolved{}, err
	}
	ref, t, err := sum.Resolve(ref)
	if err != nil {
		return resolved{}, fail(exitFail, err)
	}
	return resolved{ref: ref, summary: t, schema: t.APIVersions[ref.Version].Schema}, nil
}

func (f *typeSourceFlags) provider(c *cli.Context, e *env, namespace string) (api.ProviderSummary, error) {
	manifests := f.manifests.Value()
	if len(manifests) > 0 && c.IsSet("server") {
		return api.ProviderSummary{}, usageErrorf("give either --manifests or --server, not both")
	}
	if len(manifests) == 0 && !c.IsSet("server") {
		// Neither: the manifests udtc.yaml selects, as check and gen read
		// them without PATH.
		if err := f.compile.loadProject(); err != nil {
			return api.ProviderSummary{}, err
		}
		if f.compile.proj == nil {
			return api.ProviderSummary{}, usageErrorf("give --manifests PATH (local manifests) or --server URL (a registry), or run it in a project (%s)", project.FileName)
		}
	}
	if !c.IsSet("server") {
		cat, err := f.compile.compile(c, e, manifests, false) // none: the project's inputs
		if err != nil {
			return api.ProviderSummary{}, err
		}
		s, declared, ok := bridge.ProviderSummary(cat, namespace)
		if !ok {
			where := strings.Join(manifests, ", ")
			if where == "" {
				where = "the manifests " + f.compile.proj.Path + " selects"
			}
			return s, fail(exitFail, fmt.Errorf("namespace %s is not declared in %s (namespaces: %s)",
				namespace, where, strings.Join(declared, ", ")))
		}
		return s, nil
	}
	reg, ctx, cancel, err := f.server.dial(c.Context)
	if err != nil {
		return api.ProviderSummary{}, err
	}
	defer cancel()
	s, err := reg.ProviderSummary(ctx, namespace)
	if client.IsNotFound(err) {
		return api.ProviderSummary{}, fail(exitFail, fmt.Errorf("namespace %s is not registered at %s", namespace, f.server.server))
	}
	if err != nil {
		return api.ProviderSummary{}, fail(exitFail, err)
	}
	return s, nil
}
