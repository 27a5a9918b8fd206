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
)

// Options configure the Go client emitter.
type Options struct {
	// ImportPrefix is the Go import path of the output directory: the
	// package of namespace ns at version v is imported as
	// ImportPrefix + "/go/<ns>/<v>", and the version packages import
	// ImportPrefix + "/go/<ns>/resourceids". Required when the catalog
	// declares any resource type.
	ImportPrefix string
}

// ErrNoImportPrefix is returned by Emit when Options.ImportPrefix is empty
// and there is something to emit.
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
	if opts.ImportPrefix == "" && slices.ContainsFunc(cat.Providers, func(p *model.Provider) bool { return len(p.Types) > 0 }) {
		return nil, ErrNoImportPrefix
	}
	nss, err := planNamespaces(cat, opts.ImportPrefix, &diags)
	if err != nil {
		return nil, err
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
		return newPkgPlan(j.ns, j.version, opts.ImportPrefix, &j.diags).files()
	}, put)
	if err != nil {
		return nil, err
	}
	if len(jobs) > 0 {
		if err := put([]emit.File{runtimeFile()}); err != nil {
			return nil, err
		}
	}
	for _, j := range jobs {
		diags = append(diags, j.diags...)
	}
	return diags.Sorted(), nil
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
	slices.SortFunc(out, model.CompareVersions)
	return out
}
