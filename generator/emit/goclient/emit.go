package goclient

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry/api"
)

// Options configure the Go client emitter.
type Options struct {
	// ImportPrefix is the Go import path of the output directory: the
	// package of namespace ns at version v is imported as
	// ImportPrefix + "/go/<ns>/<v>", and the version packages import
	// ImportPrefix + "/go/<ns>/resourceids". Required when the catalog
	// declares any resource type, unless Module gives it.
	ImportPrefix string
	// Module, when set, is the module path of a go.mod written at the root
	// of the output, so that another module can require the output and
	// replace it with its directory. It is the import prefix too: an
	// ImportPrefix that differs is an error.
	Module string
	// Runtime is where the generated packages find the runtime: RuntimeCopy
	// (the default, "") or RuntimeModule.
	Runtime string
	// RuntimeVersion is the version of module github.com/udtc/udtc that the
	// go.mod of Module requires with RuntimeModule; when empty, the go.mod
	// says to add the requirement.
	RuntimeVersion string
	// Format, when set, formats each Go file in place of the emitter: path
	// is the file's path in the output, src its source as rendered (valid
	// only during the call), and format formats it. gen passes one that
	// answers a source formatted in its last run with that run's file
	// (outdir.Run.FormatGo).
	Format func(path string, src []byte, format func([]byte) ([]byte, error)) ([]byte, error)
	// Literals, when set, is handed the Go literal of the example
	// properties of every type and API version, as ExampleLiterals writes
	// and keys them, from the packages EmitFunc plans anyway: gen's site,
	// which shows them, then plans no package again. It is called from
	// several goroutines at once.
	Literals func(key string, lit Literal)
}

// The values of Options.Runtime.
const (
	// RuntimeCopy copies the runtime into every output, as
	// go/internal/udtc/udtc_gen.go: the generated code imports only the
	// standard library.
	RuntimeCopy = "copy"
	// RuntimeModule imports the published runtime package,
	// RuntimeImportPath, instead of a copy: the output is smaller, and its
	// module requires udtc's module.
	RuntimeModule = "module"
)

// Runtimes are the values of Options.Runtime, the default first.
var Runtimes = []string{RuntimeCopy, RuntimeModule}

// CheckRuntime reports why r is not one of Runtimes ("" is the default).
func CheckRuntime(r string) error {
	if r == "" || slices.Contains(Runtimes, r) {
		return nil
	}
	return fmt.Errorf("%q is not %s", r, strings.Join(Runtimes, " or "))
}

// RuntimeImportPath is the import path of the published runtime, the
// package the generated code imports with RuntimeModule.
const RuntimeImportPath = RuntimeModulePath + "/generator/emit/goclient/udtc"

// RuntimeModulePath is the module of RuntimeImportPath: udtc's own.
const RuntimeModulePath = "github.com/udtc/udtc"

// goVersion is the least Go version of the generated code: omitzero JSON
// tags need Go 1.24.
const goVersion = "1.24"

// ErrNoImportPrefix is returned by Emit when Options.ImportPrefix and
// Options.Module are empty and there is something to emit.
var ErrNoImportPrefix = errors.New("goclient: the Go import prefix is required (the generated packages import each other)")

// Emit returns the Go client of every namespace in cat: per namespace a
// version-independent package go/<ns>/resourceids and one package
// go/<ns>/v<version> per API version, each file gofmt'd and byte-identical
// from run to run. The diagnostics are warnings about renamed identifiers
// and patterns Go cannot check. A non-nil error is a bug or a missing
// ImportPrefix, never a problem with the manifests (cat is assumed valid).
func Emit(cat *model.Catalog, opts Options) ([]emit.File, diag.List, error) {
	return emit.Collect(func(put emit.Put) (diag.List, error) { return EmitFunc(cat, opts, put) })
}

// EmitFunc produces the files of Emit and hands them to put a package at a
// time as soon as the package is rendered, so a caller that writes them
// holds no more than the packages in flight. Packages are planned and
// rendered on several goroutines at once: put is called concurrently, with
// batches in no set order. Its first error stops the work and is returned.
// The diagnostics are those of Emit, sorted.
func EmitFunc(cat *model.Catalog, opts Options, put emit.Put) (diag.List, error) {
	var diags diag.List
	if err := opts.check(); err != nil {
		return nil, err
	}
	if opts.ImportPrefix == "" {
		opts.ImportPrefix = opts.Module
	}
	if opts.ImportPrefix == "" && slices.ContainsFunc(cat.Providers, func(p *model.Provider) bool { return len(p.Types) > 0 }) {
		return nil, ErrNoImportPrefix
	}
	nss, err := planNamespaces(cat, opts.ImportPrefix, &diags)
	if err != nil {
		return nil, err
	}
	for _, ns := range nss {
		if opts.Runtime == RuntimeModule {
			ns.runtime = RuntimeImportPath
		}
		ns.format = opts.Format
		if ns.format == nil {
			ns.format = formatItself
		}
	}
	// A job is one package: a namespace's resourceids (version "") or one
	// of its version packages. Each plans with diagnostics of its own,
	// merged in job order.
	type job struct {
		ns      *nsPlan
		version string
		diags   diag.List
	}
	var jobs []*job
	for _, ns := range nss {
		jobs = append(jobs, &job{ns: ns})
		for _, v := range versions(ns.prov) {
			jobs = append(jobs, &job{ns: ns, version: v})
		}
	}
	err = emit.Each(len(jobs), func(i int) ([]emit.File, error) {
		j := jobs[i]
		if j.version == "" {
			f, err := j.ns.idsFile()
			return []emit.File{f}, err
		}
		p := newPkgPlan(j.ns, j.version, opts.ImportPrefix, &j.diags)
		if opts.Literals != nil {
			p.exampleLiterals(opts.Literals)
		}
		return p.files()
	}, put)
	if err != nil {
		return nil, err
	}
	if len(jobs) > 0 {
		if err := put(opts.outputFiles()); err != nil {
			return nil, err
		}
	}
	for _, j := range jobs {
		diags = append(diags, j.diags...)
	}
	return diags.Sorted(), nil
}

// check reports options that do not go together.
func (o Options) check() error {
	if err := CheckRuntime(o.Runtime); err != nil {
		return fmt.Errorf("goclient: runtime: %w", err)
	}
	if o.Module != "" && o.ImportPrefix != "" && o.Module != o.ImportPrefix {
		return fmt.Errorf("goclient: the module path %s is the import prefix of the output, not %s", o.Module, o.ImportPrefix)
	}
	return nil
}

// outputFiles are the files of the output as a whole: the runtime's copy
// and the go.mod, when asked for.
func (o Options) outputFiles() []emit.File {
	var out []emit.File
	if o.Runtime != RuntimeModule {
		out = append(out, runtimeFile())
	}
	if o.Module != "" {
		out = append(out, o.goMod())
	}
	return out
}

// goMod is the go.mod of Options.Module. With RuntimeModule it requires
// udtc's module at RuntimeVersion, or says to when the version is unknown.
func (o Options) goMod() emit.File {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s\n\nmodule %s\n\ngo %s\n", header, o.Module, goVersion)
	switch {
	case o.Runtime != RuntimeModule:
	case o.RuntimeVersion != "":
		fmt.Fprintf(&b, "\nrequire %s %s // the runtime, %s\n", RuntimeModulePath, o.RuntimeVersion, RuntimeImportPath)
	default:
		fmt.Fprintf(&b, "\n// The generated code imports %s.\n// This udtc was built without a module version: require %s\n// at the version you generate with (go get %s@VERSION).\n", RuntimeImportPath, RuntimeModulePath, RuntimeModulePath)
	}
	return emit.File{Path: "go.mod", Data: []byte(b.String())}
}

// runtimeSource is the shared runtime (package udtc), copied once into every
// output as go/internal/udtc/udtc_gen.go.
//
//go:embed udtc/udtc.go
var runtimeSource string

// runtimeDir is where the runtime goes, relative to the output directory.
const runtimeDir = "go/internal/udtc"

// runtimePath is the import path of the runtime package.
func runtimePath(importPrefix string) string { return importPrefix + "/" + runtimeDir }

// runtimeFile is the runtime with the generated-code header in place of
// everything before its package clause.
func runtimeFile() emit.File {
	src := runtimeSource[strings.Index(runtimeSource, "\npackage udtc\n")+1:]
	doc := "// Package udtc is the runtime of the generated client: validation, errors,\n" +
		"// HTTP requests and resource IDs. It is internal to the generated packages,\n" +
		"// which export aliases of what their users need.\n"
	return emit.File{Path: runtimeDir + "/udtc_gen.go", Data: []byte("// " + header + "\n\n" + doc + src)}
}

// planNamespaces names every namespace's types and directory. Every
// namespace is planned before any package is generated, so a reference
// (x-resource-type) can name the ID type of a type of another namespace.
func planNamespaces(cat *model.Catalog, importPrefix string, diags *diag.List) ([]*nsPlan, error) {
	var out []*nsPlan
	dirs := naming.NewNamer()
	known := map[string]*typeNames{}
	re2 := &re2Cache{}
	for _, prov := range cat.Providers {
		if len(prov.Types) == 0 {
			continue
		}
		dir, renamed := dirs.Claim(naming.GoPackageDir(prov.Namespace))
		if renamed {
			diags.Add(diag.Diagnostic{
				Span: prov.Span, Severity: diag.Warning, Rule: ruleNameCollision,
				Message: fmt.Sprintf("namespace %s maps to Go directory go/%s, which another namespace uses; using go/%s", prov.Namespace, naming.GoPackageDir(prov.Namespace), dir),
			})
		}
		ns, err := planNamespace(prov, dir, importPrefix, diags)
		if err != nil {
			return nil, err
		}
		ns.known = known
		ns.re2 = re2
		for _, t := range ns.types {
			known[strings.ToLower(t.rt.FullName())] = t
		}
		out = append(out, ns)
	}
	return out, nil
}

// versions lists every API version of a provider's types, oldest first.
func versions(prov *model.Provider) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range prov.Types {
		for _, v := range t.APIVersions {
			if !seen[v.Name] {
				seen[v.Name] = true
				out = append(out, v.Name)
			}
		}
	}
	slices.SortFunc(out, api.CompareVersions)
	return out
}
