// Package registration turns the checked model into the registry documents
// that `udtc publish` sends: one provider, its resource types, their API
// versions (with the schema exactly as written) and its locations. Emit
// renders the same documents as files (`udtc gen --target registration`),
// which is how they get golden tests and how GitOps tools can apply them.
package registration

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/jsonindent"
	"github.com/udtc/udtc/registry/api"
)

// DefaultLocation is the location registered when a manifest names none.
const DefaultLocation = "global"

// Options tune the documents.
type Options struct {
	// Location and Address are used for namespaces whose manifests declare
	// no location map: one location Location (default "global") with
	// address Address (may be empty).
	Location string
	Address  string
}

// Registrations returns the desired state of every namespace in cat, sorted
// by namespace.
func Registrations(cat *model.Catalog, opts Options) []api.Registration {
	loc := opts.Location
	if loc == "" {
		loc = DefaultLocation
	}
	out := make([]api.Registration, 0, len(cat.Providers))
	for _, p := range cat.Providers {
		reg := api.Registration{
			Namespace: p.Namespace,
			Provider: api.ResourceProvider{
				Name: p.Namespace, Type: api.TypeResourceProvider, Location: "global",
			},
		}
		served := map[string]api.LocationResourceType{}
		for _, t := range p.Types {
			// As rad sends them: defaultApiVersion only when the manifest
			// declares it (readers derive it: api.ResourceTypeSummary.Default),
			// the description as YAML gives it.
			rt := api.RegisteredType{Type: api.ResourceType{
				Name: t.Name, Type: api.TypeResourceType,
				Properties: api.ResourceTypeProperties{
					Description:  t.Description,
					Capabilities: t.Capabilities,
					Icon:         t.Icon,
				},
			}}
			if t.DefaultDeclared {
				rt.Type.Properties.DefaultAPIVersion = t.DefaultAPIVersion
			}
			versions := map[string]api.LocationAPIVersion{}
			for _, v := range t.APIVersions {
				rt.APIVersions = append(rt.APIVersions, api.APIVersion{
					Name: v.Name, Type: api.TypeAPIVersion,
					Properties: api.APIVersionProperties{Schema: compact(v.Source), Lifecycle: v.Lifecycle},
				})
				versions[v.Name] = api.LocationAPIVersion{}
			}
			served[t.Name] = api.LocationResourceType{APIVersions: versions}
			reg.Types = append(reg.Types, rt)
		}
		locations := p.Locations
		if len(locations) == 0 {
			locations = []*model.Location{{Name: loc, Address: opts.Address}}
		}
		for _, l := range locations {
			reg.Locations = append(reg.Locations, api.Location{
				Name: l.Name, Type: api.TypeLocation,
				Properties: api.LocationProperties{Address: l.Address, ResourceTypes: maps.Clone(served)},
			})
		}
		out = append(out, reg)
	}
	return out
}

func compact(src json.RawMessage) json.RawMessage {
	if isCompact(src) {
		return src // what json.Compact would return, without the copy
	}
	var b bytes.Buffer
	if err := json.Compact(&b, src); err != nil {
		return src // the checker produced it; it is valid JSON
	}
	return b.Bytes()
}

// isCompact reports whether src has no white space outside its strings
// (the checker writes schemas so): json.Compact would return it as it is.
func isCompact(src []byte) bool {
	inString := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case inString && c == '\\':
			i++ // the escaped byte
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return true
}

// Emit renders the registration documents as files under
// registration/<namespace>/: provider.json, types/<type>.json,
// types/<type>@<version>.json and locations/<location>.json, each the PUT
// body the registry receives, indented. An API version sits beside its
// type, named as Bicep names a type version, rather than in a directory
// of its own: directories cost a cold gen more than files (an inode and a
// mkdir each), and a listing shows each type followed by its versions.
func Emit(cat *model.Catalog, opts Options) ([]emit.File, diag.List, error) {
	return emit.Collect(func(put emit.Put) (diag.List, error) { return nil, EmitFunc(cat, opts, put) })
}

// EmitFunc makes the files of Emit and hands each namespace's to put as soon
// as they are encoded (see emit.Each), one namespace per goroutine.
func EmitFunc(cat *model.Catalog, opts Options, put emit.Put) error {
	regs := Registrations(cat, opts)
	return emit.Each(len(regs), func(i int) ([]emit.File, error) { return documents(regs[i]) }, put)
}

// documents encodes the documents of one namespace.
func documents(reg api.Registration) ([]emit.File, error) {
	var files []emit.File
	// One encoder and buffer for the namespace's documents: each document
	// is copied out at its size, so neither the buffer's growth nor the
	// encoder's indentation buffer is paid per document.
	var b bytes.Buffer
	var indented []byte
	enc := encoder(&b)
	add := func(path string, v any) error {
		b.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		indented = jsonindent.Append(indented[:0], b.Bytes(), "  ")
		files = append(files, emit.File{Path: path, Data: bytes.Clone(indented)})
		return nil
	}
	dir := "registration/" + reg.Namespace + "/"
	if err := add(dir+"provider.json", body(reg.Provider)); err != nil {
		return nil, err
	}
	for _, t := range reg.Types {
		typ := dir + "types/" + api.EscapeTypeName(t.Type.Name)
		if err := add(typ+".json", body(t.Type)); err != nil {
			return nil, err
		}
		for _, v := range t.APIVersions {
			if err := add(typ+"@"+v.Name+".json", body(v)); err != nil {
				return nil, err
			}
		}
	}
	for _, l := range reg.Locations {
		if err := add(dir+"locations/"+l.Name+".json", body(l)); err != nil {
			return nil, err
		}
	}
	return files, nil
}

// body strips the read-only fields: the document is what a PUT sends.
func body[P any](r api.Resource[P]) api.Resource[P] {
	return api.Resource[P]{Location: r.Location, Tags: r.Tags, Properties: r.Properties}
}

// encoder writes documents to w as the registry's API does, without HTML
// escaping, each ending in a newline; documents then indents them by two
// spaces, as the Encoder's SetIndent("", "  ") would (without its
// validating scanner: the Encoder's output is valid JSON).
func encoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// Diagnostic is a checker diagnostic as the registry's API reports it (a
// refused PUT of a schema, a refused commit of the git sync).
func Diagnostic(d diag.Diagnostic) api.Diagnostic {
	return api.Diagnostic{
		File: d.Span.File, Line: d.Span.Line, Column: d.Span.Column,
		Severity: d.Severity.String(), Rule: d.Rule, Path: d.Path, Message: d.Message, Hint: d.Hint,
	}
}
