package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/project"
)

// loadProject finds udtc.yaml from the working directory upward (once) and
// loads it; a broken project file is a usage error.
func (f *compileFlags) loadProject() error {
	if f.projLoaded {
		return f.projErr // every caller hears of a broken file, not only the first
	}
	f.projLoaded = true
	f.proj, f.projErr = findProject()
	return f.projErr
}

// findProject finds udtc.yaml from the working directory upward and loads
// it: nil when there is none; a broken project file is a usage error.
func findProject() (*project.Project, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	path, err := project.Find(wd)
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	if path == "" {
		return nil, nil
	}
	p, err := project.Load(path)
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	return p, nil
}

// inputs are the manifests when no PATH is given: those udtc.yaml selects,
// leaving out output (default: the project's output directory).
func (f *compileFlags) inputs(output string) ([]string, error) {
	if f.proj == nil {
		return nil, usageErrorf("give at least one manifest file or directory (or list them in a %s: see docs/cli.md)", project.FileName)
	}
	if output == "" && f.proj.File.Output != "" {
		output = f.proj.Rel(f.proj.File.Output)
	}
	paths, err := f.proj.Inputs(output)
	if err != nil {
		return nil, fail(exitUsage, err)
	}
	if len(paths) == 0 {
		return nil, usageErrorf("%s selects no manifests (inputs.include, inputs.exclude)", f.proj.Path)
	}
	return paths, nil
}

// fromProject fills gen's options that no flag set from udtc.yaml.
func (f *genFlags) fromProject(c *cli.Context) {
	p := f.proj
	if p == nil {
		return
	}
	if !c.IsSet("out") && p.File.Output != "" {
		f.out = p.Rel(p.File.Output)
	}
	if !c.IsSet("target") && len(p.File.Targets) > 0 {
		f.targets = *cli.NewStringSlice(p.File.Targets...)
	}
	if !c.IsSet("go-import-prefix") && p.File.Go.ImportPrefix != "" {
		f.goImportPrefix = p.File.Go.ImportPrefix
	}
	if !c.IsSet("go-module") && p.File.Go.Module != "" {
		f.goModule = p.File.Go.Module
	}
	if !c.IsSet("go-runtime") && p.File.Go.Runtime != "" {
		f.goRuntime = p.File.Go.Runtime
	}
	bicepFromProject(c, p, &f.extensionName, &f.extensionVersion)
}

// bicepFromProject fills --extension-name and --extension-version from
// udtc.yaml where no flag set them (gen, publish-extension).
func bicepFromProject(c *cli.Context, p *project.Project, name, version *string) {
	if p == nil {
		return
	}
	if !c.IsSet("extension-name") && p.File.Bicep.ExtensionName != "" {
		*name = p.File.Bicep.ExtensionName
	}
	if !c.IsSet("extension-version") && p.File.Bicep.ExtensionVersion != "" {
		*version = p.File.Bicep.ExtensionVersion
	}
}

// projectSchemaCommand is `udtc schema --project`'s body.
func writeProjectSchema(e *env) error {
	b, err := project.JSONSchema()
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, string(b))
	return err
}
