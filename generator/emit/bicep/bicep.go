// Package bicep emits Bicep extensions from a checked catalog: for each
// extension the type files Bicep and @azure/bicep-types 0.6.x read
// (index.json, types.json), their Markdown (index.md, types.md) and the
// archive `bicep publish-extension` would write (<name>.tgz).
//
// By default every namespace is one extension named after it
// (DefaultExtensionName); Options.ExtensionName puts every namespace into
// one extension. index.json is byte-identical to what the reference writer
// (writeIndexJson) produces; types.json is the JSON its writeTypesJson
// produces for the same types, one type per line instead of indented (see
// table.json). Structurally identical types are written once.
//
// The emitter reads only the model and may assume it is valid; it returns
// diagnostics for bad options (an extension name that is not a Bicep
// identifier, two namespaces with the same default name).
package bicep

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/naming"
)

// DefaultVersion is the extension version when Options.ExtensionVersion is empty.
const DefaultVersion = "0.0.1"

// Options configures Emit. The CLI exposes them as `udtc gen
// --extension-name N --extension-version V`.
type Options struct {
	// ExtensionName puts every namespace into one extension of this name;
	// "" emits one extension per namespace, named by DefaultExtensionName.
	ExtensionName string
	// ExtensionVersion is settings.version in index.json; "" means DefaultVersion.
	ExtensionVersion string
}

// version is the extension version the options give.
func (o Options) version() string {
	if o.ExtensionVersion == "" {
		return DefaultVersion
	}
	return o.ExtensionVersion
}

// Rule ids of the diagnostics Emit reports.
const (
	RuleExtensionName     = "bicep-extension-name"
	RuleExtensionConflict = "bicep-extension-name-conflict"
	RuleExtensionReserved = "bicep-extension-name-reserved"
)

// Rules documents the rules Emit reports (see generator.Rules).
var Rules = []diag.Rule{
	{ID: RuleExtensionName, Severity: diag.Error, Doc: "A Bicep extension name (`--extension-name`, or the one derived from a namespace) is a Bicep identifier: letters, digits and underscores, not starting with a digit (`udtc gen`, see bicep.md)."},
	{ID: RuleExtensionConflict, Severity: diag.Error, Doc: "Two namespaces do not derive the same extension name; put them into one extension with `--extension-name` (`udtc gen`)."},
	{ID: RuleExtensionReserved, Severity: diag.Warning, Doc: "An extension name is not one Bicep uses for its own namespaces (`az`, `sys`, `microsoftgraph`, `kubernetes`); such an extension needs an alias (`udtc gen`)."},
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// DefaultExtensionName is the extension name of a namespace (the rule
// lives in internal/naming, shared with the registry's catalog pages): lower-cased,
// dots removed ("Contoso.Platform" → "contosoplatform"). To stay a Bicep
// identifier it also drops every other character that is not an ASCII
// letter, digit or underscore ("Contoso.Data-Plane" → "contosodataplane")
// and puts an underscore before a leading digit.
func DefaultExtensionName(namespace string) string { return naming.BicepExtension(namespace) }

// settingsPrefix starts settings.name in the index.json of every extension
// (see SettingsName).
const settingsPrefix = "radius"

// SettingsName is settings.name in the index.json of the extension named
// name (the name of its directory, archive and bicepconfig.json entry):
// "radius" + name ("contosodata" → "radiuscontosodata"). For the extension of
// one namespace Radius accepts, that is the name Radius's manifest-to-bicep
// (bicep-tools/pkg/converter), and so `rad bicep publish-extension`, gives
// it: "radius" + the namespace lower-cased without dots. A compiled
// template carries it as the extension's name, which Radius's deployment
// engine reads (docs/bicep.md, "The extension's name in templates").
func SettingsName(name string) string { return settingsPrefix + name }

// extensionOfSettings is the extension name of an index whose settings.name
// is s: the name SettingsName was given, or s itself when SettingsName did
// not make it (an index of another generator, such as Radius's own
// "Radius").
func extensionOfSettings(s string) string {
	if rest, ok := strings.CutPrefix(s, settingsPrefix); ok && identifier.MatchString(rest) {
		return rest
	}
	return s
}

// ExtensionNameProblem explains why name cannot be an extension name (it is
// not a Bicep identifier), or returns "".
func ExtensionNameProblem(name string) string {
	if identifier.MatchString(name) {
		return ""
	}
	return "is not a Bicep identifier: use letters, digits and underscores, not starting with a digit"
}

// Extension is one Bicep extension and the providers it holds, in catalog order.
type Extension struct {
	Name      string
	Providers []*model.Provider
}

// Extensions groups the catalog's providers into extensions as Emit does.
// name is Options.ExtensionName. It reports an error diagnostic when a name
// is not a Bicep identifier or two namespaces share a default name.
func Extensions(cat *model.Catalog, name string) ([]Extension, diag.List) {
	var diags diag.List
	if name != "" {
		if p := ExtensionNameProblem(name); p != "" {
			diags.Add(diag.Diagnostic{
				Severity: diag.Error,
				Rule:     RuleExtensionName,
				Message:  fmt.Sprintf("extension name %q %s", name, p),
				Hint:     "use letters, digits and underscores, not starting with a digit",
			})
			return nil, diags
		}
		diags = append(diags, reserved(name, diag.Span{})...)
		if len(cat.Providers) == 0 {
			return nil, diags
		}
		return []Extension{{Name: name, Providers: cat.Providers}}, diags
	}
	var exts []Extension
	byName := map[string]*model.Provider{}
	for _, p := range cat.Providers {
		n := DefaultExtensionName(p.Namespace)
		if !identifier.MatchString(n) {
			diags.Add(diag.Diagnostic{
				Span:     p.Span,
				Severity: diag.Error,
				Rule:     RuleExtensionName,
				Message:  fmt.Sprintf("namespace %s gives the extension name %q, which is not a Bicep identifier", p.Namespace, n),
				Hint:     "name the extension with --extension-name",
			})
			continue
		}
		if other, ok := byName[n]; ok {
			diags.Add(diag.Diagnostic{
				Span:     p.Span,
				Severity: diag.Error,
				Rule:     RuleExtensionConflict,
				Message:  fmt.Sprintf("namespaces %s and %s both give the extension name %q", other.Namespace, p.Namespace, n),
				Hint:     "put them into one extension with --extension-name",
			})
			continue
		}
		byName[n] = p
		diags = append(diags, reserved(n, p.Span)...)
		exts = append(exts, Extension{Name: n, Providers: []*model.Provider{p}})
	}
	return exts, diags
}

// reserved warns about names of Bicep's built-in namespaces, which a Bicep
// file can then only use with an alias (`extension az as contoso`).
func reserved(name string, span diag.Span) diag.List {
	switch name {
	case "az", "sys", "microsoftgraph", "kubernetes":
		return diag.List{{
			Span:     span,
			Severity: diag.Warning,
			Rule:     RuleExtensionReserved,
			Message:  fmt.Sprintf("extension name %q is also the name of a Bicep built-in namespace", name),
			Hint:     "choose another name with --extension-name, or import it with an alias",
		}}
	}
	return nil
}

// Emit returns, for every extension, the files bicep/<name>/index.json,
// types.json, index.md, types.md and bicep/<name>.tgz, sorted by path. With
// error diagnostics it returns no files. The error is non-nil only for a bug.
func Emit(cat *model.Catalog, opts Options) ([]emit.File, diag.List, error) {
	return emit.Collect(func(put emit.Put) (diag.List, error) { return EmitFunc(cat, opts, put) })
}

// EmitFunc makes the files of Emit and hands each extension's to put as
// soon as they are made (see emit.Each); extensions share nothing but the
// read-only catalog and are built concurrently. With error diagnostics it
// puts nothing.
func EmitFunc(cat *model.Catalog, opts Options, put emit.Put) (diag.List, error) {
	exts, diags := Extensions(cat, opts.ExtensionName)
	if diags.HasErrors() {
		return diags.Sorted(), nil
	}
	version := opts.version()
	err := emit.Each(len(exts), func(i int) ([]emit.File, error) {
		files, err := emitExtension(exts[i], version)
		if err != nil {
			return nil, fmt.Errorf("extension %s: %w", exts[i].Name, err)
		}
		return files, nil
	}, put)
	return diags.Sorted(), err
}

// built is the type table of one extension: what Emit writes as types.json
// and index.json, before archiving.
type built struct {
	tb *table
	// keys are the index.json resource keys ("Ns/type@version") in
	// types.json order, refs their types.
	keys []string
	refs []ref
	docs []mdResourceInput
}

// build converts every resource type and API version of ext, walking
// providers, types and versions in catalog order.
func build(ext Extension) *built {
	b := &built{tb: newTable()}
	c := &converter{tb: b.tb}
	for _, p := range ext.Providers {
		for _, t := range p.Types {
			for _, v := range t.APIVersions {
				r := c.resource(t, v)
				b.keys = append(b.keys, t.FullName()+"@"+v.Name)
				b.refs = append(b.refs, r)
				b.docs = append(b.docs, mdResourceInput{ref: r, description: deprecation(t, v) + t.Description})
			}
		}
	}
	b.tb.finish()
	return b
}

// TypesJSON is the content of types.json.
func (b *built) TypesJSON() []byte { return b.tb.json() }

// IndexJSON is the content of index.json for an extension name and version
// (settings.name is SettingsName(name)).
func (b *built) IndexJSON(name, version string) []byte {
	resources := make(obj, len(b.keys))
	for i, k := range b.keys {
		resources[i] = member{k, obj{{"$ref", str(fmt.Sprintf("types.json#/%d", b.refs[i]))}}}
	}
	index := obj{
		{"resources", resources},
		{"resourceFunctions", obj{}},
		{"namespaceFunctions", arr{}},
		{"settings", obj{{"name", str(SettingsName(name))}, {"version", str(version)}, {"isSingleton", boolean(false)}}},
	}
	var out bytes.Buffer
	writeJSON(&out, index, 0)
	return out.Bytes()
}

func emitExtension(ext Extension, version string) ([]emit.File, error) {
	b := build(ext)
	typesJSON := b.TypesJSON()
	indexJSON := b.IndexJSON(ext.Name, version)
	namespaces := make([]string, len(ext.Providers))
	for i, p := range ext.Providers {
		namespaces[i] = p.Namespace
	}
	typesMD := typesMarkdown(b.tb, ext.Name, version, namespaces, b.docs)
	archive, err := Archive(indexJSON, typesJSON)
	if err != nil {
		return nil, err
	}
	dir := "bicep/" + ext.Name + "/"
	return []emit.File{
		{Path: dir + "index.json", Data: indexJSON},
		{Path: dir + "types.json", Data: typesJSON},
		{Path: dir + "index.md", Data: indexMarkdown(b.keys)},
		{Path: dir + "types.md", Data: typesMD},
		{Path: "bicep/" + ext.Name + ".tgz", Data: archive},
	}, nil
}
