package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// Keys of the manifest structure, taken from the wire structs.
var (
	fileKeys    = manifest.Keys(manifest.File{})
	typeKeys    = manifest.Keys(manifest.TypeDecl{})
	versionKeys = manifest.Keys(manifest.VersionDecl{})
)

// fileDecl is what one file declares, checked in isolation.
type fileDecl struct {
	file      string
	namespace string
	nsNode    *yaml.Node
	locations []*locationDecl
	types     []*typeDecl
}

type locationDecl struct {
	loc *model.Location
	key *yaml.Node
}

type typeDecl struct {
	t           *model.ResourceType
	key         *yaml.Node
	path        string
	defaultNode *yaml.Node
}

// checkFile checks the structure of one loaded document and converts what
// it can. The diagnostics are in r.
func checkFile(r *reporter, doc *manifest.Document) *fileDecl {
	fd := &fileDecl{file: doc.File}
	if doc.Root == nil {
		r.report(nil, RuleEmptyFile, "", "a manifest starts with `namespace: Contoso.Data` and a `types` mapping", "file is empty")
		return fd
	}
	entries, ok := r.mapping(doc.Root, "", "the manifest")
	if !ok {
		return fd
	}
	var nameEntry, nsEntry, typesEntry *entry
	for i := range entries {
		e := &entries[i]
		switch e.name {
		case "namespace":
			nsEntry = e
		case "name":
			nameEntry = e
		case "location":
			fd.locations = checkLocations(r, e)
		case "types":
			typesEntry = e
		default:
			r.unknownKey(e, fileKeys, "manifest")
		}
	}
	switch {
	case nsEntry != nil && nameEntry != nil:
		r.report(nameEntry.key, RuleNamespaceConflict, nameEntry.ptr(), "keep `namespace` (the Radius spelling) and remove `name`",
			"both `namespace` (line %d) and `name` are given", nsEntry.key.Line)
	case nsEntry == nil && nameEntry == nil:
		r.report(doc.Root, RuleMissingKey, "", "add `namespace: Contoso.Data`", "the manifest has no `namespace`")
	case nameEntry != nil:
		nsEntry = nameEntry
		if r.radius {
			r.report(nameEntry.key, RuleRadiusUnsupported, nameEntry.ptr(), "write `namespace:`, the key rad reads (or set `target: udtc` in udtc.yaml)",
				"rad refuses the `name` key (unknown field)")
		}
	}
	if nsEntry != nil {
		if ns, ok := r.str(nsEntry.value, nsEntry.ptr(), "the namespace"); ok {
			if msg := api.NamespaceProblem(ns); msg != "" {
				r.report(nsEntry.value, RuleNamespaceName, nsEntry.ptr(), "a namespace looks like Contoso.Data", "namespace %q %s", ns, msg)
			} else {
				fd.namespace, fd.nsNode = ns, resolve(nsEntry.value)
				if !api.RadNamespaceOK(ns) {
					r.report(nsEntry.value, r.radiusRule(RuleRadiusName), nsEntry.ptr(), "Radius wants PascalCase segments, like Contoso.Data",
						"Radius would reject namespace %q", ns)
				}
			}
		}
	}
	if typesEntry == nil {
		r.report(doc.Root, RuleMissingKey, "", "add a `types` mapping with at least one type", "the manifest has no `types`")
		return fd
	}
	types, ok := r.mapping(typesEntry.value, typesEntry.ptr(), "`types`")
	if !ok {
		return fd
	}
	if len(types) == 0 {
		r.report(typesEntry.key, RuleEmpty, typesEntry.ptr(), "declare at least one resource type", "`types` is empty")
	}
	for _, e := range types {
		if td := checkType(r, e); td != nil {
			fd.types = append(fd.types, td)
		}
	}
	return fd
}

// unknownKey reports a key that is not part of the manifest structure.
func (r *reporter) unknownKey(e *entry, allowed []string, where string) {
	hint := ""
	if s := suggest(e.name, allowed); s != "" {
		hint = fmt.Sprintf("did you mean `%s`?", s)
	} else {
		hint = "allowed keys: " + strings.Join(allowed, ", ")
	}
	r.report(e.key, RuleUnknownKey, e.ptr(), hint, "unknown %s key %q", where, e.name)
}

func checkLocations(r *reporter, e *entry) []*locationDecl {
	entries, ok := r.mapping(e.value, e.ptr(), "`location`")
	if !ok {
		return nil
	}
	var out []*locationDecl
	for _, l := range entries {
		valid := true
		if msg := api.SegmentProblem(l.name); msg != "" {
			r.report(l.key, RuleLocationName, l.ptr(), "", "location name %q %s", l.name, msg)
			valid = false
		}
		addr, ok := r.str(l.value, l.ptr(), "a location address")
		if !ok {
			continue
		}
		if msg := api.AddressProblem(addr); msg != "" {
			r.report(l.value, RuleLocationAddress, l.ptr(), "for example http://localhost:8080", "location address %q %s", addr, msg)
			continue
		}
		if valid {
			out = append(out, &locationDecl{loc: &model.Location{Name: l.name, Address: addr, Span: r.span(l.key)}, key: l.key})
		}
	}
	return out
}

func checkType(r *reporter, e entry) *typeDecl {
	valid := true
	if msg := api.TypeNameProblem(e.name); msg != "" {
		r.report(e.key, RuleTypeName, e.ptr(), "type names look like postgresDatabases, or parent/child for a child type", "type name %q %s", e.name, msg)
		valid = false
	} else {
		for _, seg := range strings.Split(e.name, "/") {
			if !api.RadTypeNameOK(seg) {
				r.report(e.key, r.radiusRule(RuleRadiusName), e.ptr(), "Radius wants camelCase type names, like postgresDatabases",
					"Radius would reject type name %q", e.name)
				break
			}
		}
		if r.radius && strings.Contains(e.name, "/") {
			r.report(e.key, RuleRadiusUnsupported, e.ptr(), "declare it as a type of its own, with a reference (x-resource-type) to its parent, or set `target: udtc` in udtc.yaml for udtc serve alone",
				"Radius has no child resource types (%q)", e.name)
		}
	}
	entries, ok := r.mapping(e.value, e.ptr(), fmt.Sprintf("type %q", e.name))
	if !ok {
		return nil
	}
	t := &model.ResourceType{Name: e.name, Span: r.span(e.key)}
	if i := strings.LastIndexByte(e.name, '/'); i >= 0 {
		t.Parent = e.name[:i]
	}
	td := &typeDecl{t: t, key: e.key, path: e.ptr()}
	var versions *entry
	for i := range entries {
		f := &entries[i]
		switch f.name {
		case "description":
			t.Description, _ = r.str(f.value, f.ptr(), "`description`")
		case "capabilities":
			t.Capabilities = checkCapabilities(r, f)
		case "defaultApiVersion":
			if v, ok := r.str(f.value, f.ptr(), "`defaultApiVersion`"); ok {
				t.DefaultAPIVersion, t.DefaultDeclared, td.defaultNode = v, true, resolve(f.value)
			}
		case "apiVersions":
			versions = f
		default:
			r.unknownKey(f, typeKeys, "type")
		}
	}
	if versions == nil {
		r.report(e.key, RuleMissingKey, e.ptr(), "add `apiVersions:` with at least one version and its schema", "type %q has no `apiVersions`", e.name)
		return nil
	}
	vs, ok := r.mapping(versions.value, versions.ptr(), "`apiVersions`")
	if !ok {
		return nil
	}
	if len(vs) == 0 {
		r.report(versions.key, RuleEmpty, versions.ptr(), "declare at least one API version", "type %q has no API versions", e.name)
	}
	for _, v := range vs {
		if av := checkVersion(r, v); av != nil {
			t.APIVersions = append(t.APIVersions, av)
		}
	}
	slices.SortFunc(t.APIVersions, func(a, b *model.APIVersion) int { return api.CompareVersions(a.Name, b.Name) })
	if !valid || len(t.APIVersions) == 0 {
		return nil
	}
	return td
}

func checkCapabilities(r *reporter, e *entry) []string {
	n := resolve(e.value)
	if n.Kind != yaml.SequenceNode {
		r.report(n, RuleValueType, e.ptr(), "for example: capabilities: [SupportsRecipes]", "`capabilities` must be a list, not %s", kindName(n))
		return nil
	}
	// The strings are judged by the registry's rule (api.CapabilitiesProblems).
	var (
		caps  []string
		nodes []*yaml.Node
		paths []string
	)
	for i, c := range n.Content {
		path := indexPointer(e.ptr(), i)
		if s, ok := r.str(c, path, "a capability"); ok {
			caps, nodes, paths = append(caps, s), append(nodes, c), append(paths, path)
		}
	}
	bad := map[int]bool{}
	for _, p := range api.CapabilitiesProblems(caps) {
		bad[p.Index] = true
		hint := "capabilities are PascalCase, like SupportsRecipes"
		if p.Problem == "is listed twice" {
			hint = ""
		}
		r.report(nodes[p.Index], RuleCapability, paths[p.Index], hint, "capability %q %s", caps[p.Index], p.Problem)
	}
	for i, c := range caps {
		if r.radius && !bad[i] && !slices.Contains(api.UCPCapabilities, c) {
			r.report(nodes[i], RuleRadiusUnsupported, paths[i], "Radius runs recipes without a capability; set `target: udtc` in udtc.yaml for udtc serve alone",
				"Radius knows only the capability %s, not %q", strings.Join(api.UCPCapabilities, ", "), c)
			bad[i] = true
		}
	}
	var out []string
	for i, c := range caps {
		if !bad[i] {
			out = append(out, c)
		}
	}
	return out
}

func checkVersion(r *reporter, e entry) *model.APIVersion {
	if msg := api.APIVersionProblem(e.name); msg != "" {
		r.report(e.key, RuleAPIVersion, e.ptr(), "for example '2025-01-01' or '2025-01-01-preview'", "API version %q %s", e.name, msg)
	}
	entries, ok := r.mapping(e.value, e.ptr(), fmt.Sprintf("API version %q", e.name))
	if !ok {
		return nil
	}
	var schema *entry
	for i := range entries {
		f := &entries[i]
		if f.name == "schema" {
			schema = f
			continue
		}
		r.unknownKey(f, versionKeys, "API version")
	}
	if schema == nil {
		r.report(e.key, RuleMissingKey, e.ptr(), "add `schema:` with `type: object` and its properties (or `schema: {}` for no declared schema)",
			"API version %q has no `schema`", e.name)
		return nil
	}
	av := &model.APIVersion{Name: e.name, Preview: api.IsPreview(e.name), Span: r.span(e.key)}
	sc := &schemaChecker{r: r}
	errs := r.errors + r.dropped
	av.Schema, av.Undeclared = sc.root(schema.key, schema.value, schema.ptr())
	if av.Schema == nil {
		return nil
	}
	// A schema the schema checker found no error in is one the base
	// properties merge into (mergeBase): a run that keeps no Source (the
	// outline, and Options.NoSource) then only asks whether it converts to
	// JSON.
	clean := r.errors+r.dropped == errs
	var err error
	if r.noSource && clean {
		err = checkJSON(schema.value)
	} else {
		av.Source, err = toJSON(schema.value)
	}
	if err != nil {
		reportJSON(r, schema, err)
		return nil
	}
	if r.base && !mergeBase(r, av, schema, clean) {
		return nil
	}
	// A version with an invalid name (reported above) is checked through
	// and stays in the type, so that Radius's rules, the base properties and
	// the checks across the type and its files (defaultApiVersion,
	// references to it) still run: one run reports every problem, and the
	// error keeps it out of every output.
	if refs := references(av.Schema); len(refs) > 0 {
		if r.refs == nil {
			r.refs = map[*model.APIVersion][]*model.Schema{}
		}
		r.refs[av] = refs
	}
	if r.outline {
		av.Schema, av.Source = nil, nil
	}
	return av
}

// mergeBase merges Radius's base resource properties into av's schema, in
// the model and in its Source, as `rad` does before it validates and
// registers (schema.MergeBase). What the author declared stays theirs, and
// is checked against what Radius requires of it: diagnostics point at the
// author's lines only. It reports false when the schema cannot take them.
//
// clean says the schema checker found no error in the schema. Merging
// into its Source then cannot fail: the merge refuses only a schema whose
// `properties` is not a mapping or whose `required` is not a list of
// names, which the schema checker reports. So a run without Source merges
// the model alone, and a failed merge is reported only for a clean
// schema, where it would be a problem of its own.
func mergeBase(r *reporter, av *model.APIVersion, e *entry, clean bool) bool {
	root := av.Schema
	if !schema.CanMergeBase(root) {
		r.report(e.value, RuleBaseProperty, e.ptr(), "declare the values as a property of type object, or set `baseProperties: false` in udtc.yaml for a Radius without the base manifest",
			"a schema that is a map cannot take Radius's base properties (%s): Radius refuses a schema with both `properties` and `additionalProperties`", strings.Join(schema.BaseNames(), ", "))
		return false
	}
	ok := true
	for _, name := range schema.BaseNames() {
		p := root.Property(name)
		if p == nil {
			continue
		}
		want := schema.BaseProperty(name, "").Schema.Kind
		if p.Schema.Kind != want {
			what := "a string (`type: string`)"
			if want == schema.Map {
				what = "a map (`type: object` with `additionalProperties`)"
			}
			r.reportAt(diag.Span(p.Span), RuleBaseProperty, schema.AppendPointer(schema.AppendPointer(root.Path, "properties"), name),
				"drop the declaration to inherit Radius's, or declare it as "+what,
				"property %q is one of Radius's base properties and must be %s, not %s", name, what, p.Schema.Kind)
			ok = false
		}
	}
	if !ok {
		return false
	}
	var src json.RawMessage
	if av.Source != nil {
		var err error
		src, err = schema.MergeBaseValidJSON(av.Source) // toJSON's, or a JSON manifest's, checked when loaded
		if err != nil {
			if clean {
				r.report(e.value, RuleBaseProperty, e.ptr(), "", "cannot merge Radius's base properties: %v", err)
			}
			return false
		}
	}
	// `schema: {}` is no longer undeclared: it is an object of the base
	// properties, as Radius types it.
	av.Schema, av.Source, av.Undeclared = schema.MergeBase(root), src, false
	return true
}

// reportJSON reports that the schema at e cannot be converted to JSON
// (toJSON's err): at the value that cannot, unless the schema checker has
// reported an error there already (a default, an enum value, an
// extension it converts itself).
func reportJSON(r *reporter, e *entry, err error) {
	var je *jsonError
	if !errors.As(err, &je) || je.At == nil {
		r.report(e.value, RuleKeywordValue, e.ptr(), "", "schema cannot be represented as JSON: %v", err)
		return
	}
	span := r.span(je.At)
	for _, d := range r.diags {
		if d.Severity == diag.Error && d.Span.Line == span.Line && d.Span.Column == span.Column {
			return
		}
	}
	r.reportAt(span, RuleKeywordValue, je.Pointer(e.ptr()), "", "schema cannot be represented as JSON: %v", err)
}

// Suggest returns the candidate closest to s (case-insensitive edit distance
// at most a third of its length, at least 1), or "": the did-you-mean of
// every diagnostic and of the CLI's unknown commands.
func Suggest(s string, candidates []string) string { return suggest(s, candidates) }

// suggest returns the candidate closest to s (case-insensitive edit
// distance at most a third of its length, at least 1), or "".
func suggest(s string, candidates []string) string {
	best, bestD := "", -1
	ls := strings.ToLower(s)
	for _, c := range candidates {
		d := distance(ls, strings.ToLower(c))
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(1, len(s)/3)
	if bestD >= 0 && bestD <= limit {
		return best
	}
	return ""
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
