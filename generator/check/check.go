// Package check owns every rule of the supported manifest and schema subset.
// CheckFile checks one loaded document (concurrently with others) and Merge
// turns the files' results into a model.Catalog plus diagnostics; each rule
// has a stable id (see Rules) and a golden test under fixtures/.
package check

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
)

// FileResult is what one file declares, checked in isolation, with its
// diagnostics. It holds no YAML: the document can be dropped once CheckFile
// returns, so large catalogs never hold every syntax tree at once.
type FileResult struct {
	decl  *fileDecl
	diags diag.List
	// refs are the schema nodes of each API version that reference other
	// types (x-resource-type): referenceTargets checks them once every
	// file is merged, whether or not the version keeps its schema.
	refs map[*model.APIVersion][]*model.Schema
}

// Diagnostics returns what checking the file reported.
func (r *FileResult) Diagnostics() diag.List { return r.diags }

// Options tune CheckFile. The zero value checks as today's Radius does.
type Options struct {
	// NoBase leaves Radius's base resource properties (application,
	// environment, connections, codeReference; schema.MergeBase) out of
	// every API version's schema, for a Radius from before mid-2026 or none.
	NoBase bool
	// Radius checks as today's Radius does (target: radius, the CLI's
	// default): what rad refuses at registration or Radius cannot deploy is
	// an error (RuleRadiusUnsupported). Without it the design's subset
	// holds, udtc's extensions (child types, built-in $refs, ...) included.
	Radius bool
	// Outline keeps of each API version what the rules across files need
	// and drops its schema (Schema and Source are nil) once it is checked:
	// for a caller that wants the diagnostics and the catalog's outline
	// (namespaces, types, versions), such as `udtc check`. The diagnostics
	// are the same; the run holds no more than the trees of the files
	// being checked, not every schema of the catalog.
	Outline bool
	// NoSource leaves every API version's Source nil (Outline implies it):
	// for outputs made from the model alone, as the Bicep extension, the Go
	// client and the docs are. The diagnostics are the same: a value JSON
	// cannot hold is still an error.
	NoSource bool
}

// CheckFile checks one loaded document. It is safe to call concurrently;
// patterns (may be nil) caches compiled patterns across the files of a run.
func CheckFile(doc *manifest.Document, patterns *Patterns, opts Options) *FileResult {
	r := &reporter{file: doc.File, patterns: patterns, base: !opts.NoBase, radius: opts.Radius, impliedTypes: opts.Radius, outline: opts.Outline, noSource: opts.Outline || opts.NoSource}
	decl := checkFile(r, doc)
	return &FileResult{decl: decl, diags: r.diags, refs: r.refs}
}

// Merge combines the files' results into a catalog and checks the rules
// that span files. The result does not depend on the order of files. The
// catalog is nil when any error was found.
func Merge(files []*FileResult) (*model.Catalog, diag.List) {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b *FileResult) int { return cmp.Compare(a.decl.file, b.decl.file) })
	var diags diag.List
	decls := make([]*fileDecl, len(files))
	refs := map[*model.APIVersion][]*model.Schema{}
	for i, f := range files {
		diags = append(diags, f.diags...)
		decls[i] = f.decl
		maps.Copy(refs, f.refs)
	}
	cat := merge(decls, &diags)
	diags = append(diags, referenceTargets(cat, refs)...)
	diags = diags.Sorted()
	if diags.HasErrors() {
		return nil, diags
	}
	return cat, diags
}

// merge combines the files' declarations by namespace and checks the rules
// that span files. decls are in file order.
func merge(decls []*fileDecl, diags *diag.List) *model.Catalog {
	m := &merger{diags: diags, byKey: map[string]*nsState{}}
	for _, fd := range decls {
		if fd.namespace != "" {
			m.add(fd)
		}
	}
	cat := &model.Catalog{}
	for _, st := range m.order {
		cat.Providers = append(cat.Providers, m.provider(st))
	}
	slices.SortFunc(cat.Providers, func(a, b *model.Provider) int { return cmp.Compare(a.Namespace, b.Namespace) })
	return cat
}

// merger collects the declarations of every file by namespace.
type merger struct {
	diags *diag.List
	byKey map[string]*nsState // by lower-cased namespace
	order []*nsState
}

// nsState is one namespace being merged: its provider, where it was first
// declared, and its types and locations so far.
type nsState struct {
	p     *model.Provider
	file  string
	node  *yaml.Node
	types map[string]*typeDecl // by lower-cased name
	files map[*typeDecl]string
	locs  map[string]*locationDecl
	locAt map[string]string
}

// report adds a diagnostic at n of file.
func (m *merger) report(file string, n *yaml.Node, rule, path, hint, format string, args ...any) {
	r := &reporter{file: file}
	r.report(n, rule, path, hint, format, args...)
	*m.diags = append(*m.diags, r.diags...)
}

// at is "file:line:col" of n.
func at(file string, n *yaml.Node) string { return fmt.Sprintf("%s:%d:%d", file, n.Line, n.Column) }

// add merges one file's declarations into its namespace.
func (m *merger) add(fd *fileDecl) {
	key := strings.ToLower(fd.namespace)
	st := m.byKey[key]
	if st == nil {
		st = &nsState{
			p:    &model.Provider{Namespace: fd.namespace, Span: (&reporter{file: fd.file}).span(fd.nsNode)},
			file: fd.file, node: fd.nsNode,
			types: map[string]*typeDecl{}, files: map[*typeDecl]string{},
			locs: map[string]*locationDecl{}, locAt: map[string]string{},
		}
		m.byKey[key] = st
		m.order = append(m.order, st)
	} else if st.p.Namespace != fd.namespace {
		m.report(fd.file, fd.nsNode, RuleNamespaceCase, "/namespace", fmt.Sprintf("spell it %s", st.p.Namespace),
			"namespace %q differs only in case from %q at %s", fd.namespace, st.p.Namespace, at(st.file, st.node))
		return
	}
	st.p.Files = append(st.p.Files, fd.file)
	for _, l := range fd.locations {
		m.addLocation(st, fd.file, l)
	}
	for _, td := range fd.types {
		tk := strings.ToLower(td.t.Name)
		if prev, ok := st.types[tk]; ok {
			how := "is declared again"
			if prev.t.Name != td.t.Name {
				how = fmt.Sprintf("collides with %q (names are case-insensitive)", prev.t.Name)
			}
			m.report(fd.file, td.key, RuleDuplicateType, td.path, "declare each type once; split versions across files only by type",
				"type %q %s: first declared at %s", td.t.Name, how, at(st.files[prev], prev.key))
			continue
		}
		td.t.Namespace = st.p.Namespace
		st.types[tk], st.files[td] = td, fd.file
	}
}

// addLocation merges a location of file into st; the same name must map
// to the same address everywhere.
func (m *merger) addLocation(st *nsState, file string, l *locationDecl) {
	lk := strings.ToLower(l.loc.Name)
	if prev, ok := st.locs[lk]; ok {
		if prev.loc.Address != l.loc.Address || prev.loc.Name != l.loc.Name {
			m.report(file, l.key, RuleLocationConflict, pointer("/location", l.loc.Name), "",
				"location %q (%s) conflicts with %q (%s) at %s", l.loc.Name, l.loc.Address, prev.loc.Name, prev.loc.Address, st.locAt[lk])
		}
		return
	}
	st.locs[lk], st.locAt[lk] = l, at(file, l.key)
	st.p.Locations = append(st.p.Locations, l.loc)
}

// provider finishes a merged namespace: files, locations and types sorted,
// parents checked, default API versions settled.
func (m *merger) provider(st *nsState) *model.Provider {
	p := st.p
	slices.Sort(p.Files)
	slices.SortFunc(p.Locations, func(a, b *model.Location) int { return cmp.Compare(a.Name, b.Name) })
	for _, td := range st.types {
		t := td.t
		if t.Parent != "" {
			if _, ok := st.types[strings.ToLower(t.Parent)]; !ok {
				m.report(st.files[td], td.key, RuleParentMissing, td.path, fmt.Sprintf("declare `%s` in namespace %s", t.Parent, p.Namespace),
					"parent type %q of %q is not declared", t.Parent, t.Name)
			}
		}
		m.defaultVersion(st.files[td], td)
		p.Types = append(p.Types, t)
	}
	slices.SortFunc(p.Types, func(a, b *model.ResourceType) int { return cmp.Compare(a.Name, b.Name) })
	return p
}

// defaultVersion checks a declared default API version, or settles the
// default of a type that declares none.
func (m *merger) defaultVersion(file string, td *typeDecl) {
	t := td.t
	names := make([]string, len(t.APIVersions))
	for i, v := range t.APIVersions {
		names[i] = v.Name
	}
	if !t.DefaultDeclared {
		t.DefaultAPIVersion = api.DefaultVersion(names)
		return
	}
	if !slices.Contains(names, t.DefaultAPIVersion) {
		m.report(file, td.defaultNode, RuleDefaultAPIVersion, pointer(td.path, "defaultApiVersion"), "one of: "+strings.Join(names, ", "),
			"defaultApiVersion %q is not one of the type's API versions", t.DefaultAPIVersion)
	}
}

// MaxSchemaErrors is the most errors Schema records; it counts the rest
// and reports their number in one RuleTooManyErrors diagnostic, so that a
// hostile schema costs bounded memory. `udtc check` reports every error.
const MaxSchemaErrors = 1000

// Schema checks one API version's schema given as JSON (the registry's
// input), with the same rules `udtc check` applies. The text is read as
// JSON (manifest.LoadJSON), not as YAML. Paths in the diagnostics are JSON
// pointers relative to the schema; file is used in spans. At most
// MaxSchemaErrors errors are recorded. patterns, when not nil, caches the
// compiled patterns across calls.
func Schema(file string, schema json.RawMessage, patterns *Patterns) (*model.Schema, diag.List) {
	doc, diags := manifest.LoadJSON(file, schema)
	if doc == nil {
		return nil, diags
	}
	r := &reporter{file: file, maxErrors: MaxSchemaErrors, patterns: patterns, impliedTypes: true}
	if doc.Root == nil {
		r.report(nil, RuleSchemaRoot, "", "send a JSON object: {} or {\"type\":\"object\",...}", "the schema is empty")
		return nil, r.diags
	}
	sc := &schemaChecker{r: r}
	s, _ := sc.root(nil, doc.Root, "")
	if r.dropped > 0 {
		r.diags.Add(diag.Diagnostic{Span: diag.Span{File: file, Line: 1, Column: 1, EndLine: 1, EndColumn: 1},
			Severity: diag.Error, Rule: RuleTooManyErrors,
			Message: fmt.Sprintf("the schema has %d errors; the first %d are reported", r.errors+r.dropped, r.errors),
			Hint:    "fix the reported errors and check again"})
	}
	diags = r.diags.Sorted()
	if diags.HasErrors() {
		return nil, diags
	}
	return s, diags
}
