// Package docs emits reference documentation for a checked catalog: one
// Markdown page per Bicep extension (by default one per namespace, see
// bicep.Extensions), at docs/<extension name>.md. A page documents every
// resource type (description, API versions, capabilities), and for every
// API version an example Bicep declaration and a table of every property,
// nested ones included, with its type, flags, constraints and description.
//
// Pages are rendered from templates/docs.md.tmpl, their property tables by
// propertyTable. Like every emitter it reads only the model and returns
// files.
package docs

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/bufpool"
	"github.com/udtc/udtc/templates"
)

// Options configures Emit; they are the Bicep emitter's options, since a
// page documents one Bicep extension and shows how to use it.
type Options struct {
	// ExtensionName puts every namespace on one page of this name; "" gives
	// one page per namespace, named like its Bicep extension.
	ExtensionName string
	// ExtensionVersion is the extension version the page mentions; "" means
	// bicep.DefaultVersion.
	ExtensionVersion string
}

var pageTemplate = template.Must(template.New("docs.md.tmpl").Funcs(template.FuncMap{
	"anchorOf": anchor,
}).ParseFS(templates.FS, "docs.md.tmpl"))

// Emit returns docs/<name>.md for every extension, sorted by path. With
// error diagnostics (bad extension names, as the Bicep emitter reports
// them) it returns no files. The error is non-nil only for a bug.
func Emit(cat *model.Catalog, opts Options) ([]emit.File, diag.List, error) {
	return emit.Collect(func(put emit.Put) (diag.List, error) { return EmitFunc(cat, opts, put) })
}

// EmitFunc makes the files of Emit and hands each page to put as soon as it
// is rendered (see emit.Each), one extension per goroutine. With error
// diagnostics it puts nothing.
func EmitFunc(cat *model.Catalog, opts Options, put emit.Put) (diag.List, error) {
	exts, diags := bicep.Extensions(cat, opts.ExtensionName)
	if diags.HasErrors() {
		return diags.Sorted(), nil
	}
	version := opts.ExtensionVersion
	if version == "" {
		version = bicep.DefaultVersion
	}
	err := emit.Each(len(exts), func(i int) ([]emit.File, error) {
		b := bufpool.Get()
		defer bufpool.Put(b)
		if err := pageTemplate.Execute(b, newPage(exts[i], version)); err != nil {
			return nil, fmt.Errorf("docs for %s: %w", exts[i].Name, err)
		}
		return []emit.File{{Path: "docs/" + exts[i].Name + ".md", Data: bytes.Clone(b.Bytes())}}, nil
	}, put)
	return diags.Sorted(), err
}

// page is the data of docs.md.tmpl.
type page struct {
	Extension, Version string
	Namespaces         []string
	Types              []typeDoc
	// Example is the first resource type's default version, for the
	// "use from Bicep" section.
	Example *versionDoc
}

type typeDoc struct {
	Anchor, FullName, Description string
	Parent                        string
	Capabilities                  []string
	DefaultVersion                string
	Versions                      []versionDoc // newest first
}

type versionDoc struct {
	Anchor, Name, ResourceType string
	Default, Preview           bool
	Undeclared                 bool
	Description                string
	Example                    string
	// Table is the Markdown table of every property (propertyTable), ""
	// for none.
	Table string
	// Lifecycle is the version's deprecation (udtc.yaml), nil for none;
	// ReplacementAnchor the anchor of its replacement's section.
	Lifecycle         *model.Lifecycle
	ReplacementAnchor string
}

// row documents one property; Path is dotted ("status.binding.host"), with
// "*" for the values of a map and "[]" for the items of an array.
type row struct {
	Path, Type, Flags, Description string
}

// propertyTable is the Markdown table of rows, without a final newline;
// "" for no rows. It is written in code rather than in the page template,
// where a table of many thousand rows took most of the page's time.
func propertyTable(rows []row) string {
	if len(rows) == 0 {
		return ""
	}
	b := bufpool.Get()
	defer bufpool.Put(b)
	b.WriteString("| Property | Type | Flags | Description |\n|---|---|---|---|")
	for _, r := range rows {
		for _, s := range []string{"\n| `", cell(r.Path), "` | ", cell(r.Type), " | ", r.Flags, " | ", cell(r.Description), " |"} {
			b.WriteString(s)
		}
	}
	return b.String()
}

func newPage(ext bicep.Extension, version string) page {
	p := page{Extension: ext.Name, Version: version}
	for _, prov := range ext.Providers {
		p.Namespaces = append(p.Namespaces, prov.Namespace)
		for _, t := range prov.Types {
			td := typeDoc{
				Anchor:         anchor(t.FullName()),
				FullName:       t.FullName(),
				Description:    strings.TrimSpace(t.Description),
				Capabilities:   t.Capabilities,
				DefaultVersion: t.DefaultAPIVersion,
			}
			if t.Parent != "" {
				td.Parent = t.Namespace + "/" + t.Parent
			}
			for i := len(t.APIVersions) - 1; i >= 0; i-- {
				v := t.APIVersions[i]
				td.Versions = append(td.Versions, versionDoc{
					Anchor:       anchor(t.FullName() + "@" + v.Name),
					Name:         v.Name,
					ResourceType: t.FullName(),
					Default:      v.Name == t.DefaultAPIVersion,
					Preview:      v.Preview,
					Undeclared:   v.Undeclared,
					Description:  strings.TrimSpace(v.Schema.Description),
					Example:      exampleOf(t, v),
					Table:        propertyTable(rows(v)),
					Lifecycle:    v.Lifecycle,
				})
				if l := v.Lifecycle; l != nil && l.Replacement != "" {
					td.Versions[len(td.Versions)-1].ReplacementAnchor = anchor(t.FullName() + "@" + l.Replacement)
				}
			}
			p.Types = append(p.Types, td)
		}
	}
	if len(p.Types) > 0 {
		for i, v := range p.Types[0].Versions {
			if v.Default {
				p.Example = &p.Types[0].Versions[i]
			}
		}
	}
	return p
}

// anchor is the explicit HTML anchor of a heading: lower-case letters,
// digits and '-'.
func anchor(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			b.WriteRune(r)
		case r == '/' || r == '@' || r == '.':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// rows flattens a version's schema into one row per property, depth first
// in source order.
func rows(v *model.APIVersion) []row {
	var out []row
	var walk func(prefix string, s *model.Schema)
	walk = func(prefix string, s *model.Schema) {
		switch s.Kind {
		case model.Object:
			for _, p := range s.Properties {
				path := p.Name
				if prefix != "" {
					path = prefix + "." + p.Name
				}
				out = append(out, row{Path: path, Type: p.Schema.TypeWords(), Flags: flags(p), Description: description(p.Schema)})
				walk(path, p.Schema)
			}
			if s.AdditionalProperties != nil {
				walkValue(&out, prefix+".*", s.AdditionalProperties, walk)
			}
		case model.Map:
			if prefix != "" {
				walkValue(&out, prefix+".*", s.AdditionalProperties, walk)
			}
		case model.Array:
			walkValue(&out, prefix+"[]", s.Items, walk)
		}
	}
	walk("", v.Schema)
	return out
}

// walkValue adds a row for a map value or array item when it has something
// to document beyond its type (already shown in its container's row), then
// descends into it.
func walkValue(out *[]row, path string, s *model.Schema, walk func(string, *model.Schema)) {
	if d := description(s); d != "" || s.ReadOnly || s.WriteOnly {
		*out = append(*out, row{Path: path, Type: s.TypeWords(), Flags: flags(&model.Property{Schema: s}), Description: d})
	}
	walk(path, s)
}

func flags(p *model.Property) string {
	var fs []string
	if p.Required && !p.Schema.ReadOnly {
		fs = append(fs, "required")
	}
	if p.Schema.ReadOnly {
		fs = append(fs, "read-only")
	}
	if p.Schema.WriteOnly {
		fs = append(fs, "write-only")
	}
	if p.Schema.Sensitive {
		fs = append(fs, "sensitive")
	}
	return strings.Join(fs, ", ")
}

// description is a node's description (or title) followed by every fact
// about its schema (bicep.Facts without the Bicep mapping notes).
func description(s *model.Schema) string {
	text := strings.TrimSpace(s.Description)
	if text == "" {
		text = s.Title
	}
	var facts []string
	for _, f := range bicep.Facts(s) {
		if !f.Mapping {
			facts = append(facts, f.Text)
		}
	}
	if len(facts) == 0 {
		return text
	}
	if text != "" && !strings.HasSuffix(text, ".") {
		text += "."
	}
	return strings.TrimSpace(text + " " + strings.Join(facts, " "))
}

// cell makes text fit in a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "<br>")
}
