package goclient

import (
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
)

// SymbolKind says what a Symbol declares.
type SymbolKind int

// Symbol kinds.
const (
	// Struct is the struct type of an object schema.
	Struct SymbolKind = iota + 1
	// Field is a struct field of a property.
	Field
	// Enum is the named string type of an enum.
	Enum
	// Const is the constant of one enum value.
	Const
)

// Symbol is one exported identifier the Go client declares for a schema
// node of a resource type at one API version, named exactly as Emit names it
// (Surface runs Emit's planner). Identifiers of shared built-in ($ref)
// schemas are not listed: they do not depend on the manifests.
type Symbol struct {
	Kind      SymbolKind
	Namespace string
	// Type is the resource type name ("contosoBuses/queues").
	Type    string
	Version string
	// Key identifies the node across two catalogs: the property path inside
	// the version's schema ("status.binding.host", "tags[*]"), plus
	// "=value" for a Const.
	Key string
	// Name is the Go identifier.
	Name string
	Span diag.Span
}

// Surface lists the exported identifiers of the Go client of cat, in
// emission order. cat is assumed valid; an error is a bug.
func Surface(cat *model.Catalog) ([]Symbol, error) {
	var out []Symbol
	var diags diag.List // the renames are Emit's warnings, not needed here
	const prefix = "example.com/surface"
	nss, err := planNamespaces(cat, prefix, &diags)
	if err != nil {
		return nil, err
	}
	for _, ns := range nss {
		for _, v := range versions(ns.prov) {
			p := newPkgPlan(ns, v, prefix, &diags)
			for _, vt := range p.types {
				out = append(out, p.surface(vt)...)
			}
		}
	}
	return out, nil
}

// surface lists one type's structs, fields, enums and constants. Keys are
// derived from schema paths relative to the version's schema.
func (p *pkgPlan) surface(vt *verType) []Symbol {
	root := vt.av.Schema.Path
	sym := func(kind SymbolKind, s *model.Schema, key, name string) Symbol {
		return Symbol{Kind: kind, Namespace: p.ns.prov.Namespace, Type: vt.rt.Name, Version: p.version,
			Key: key, Name: name, Span: diag.Span(s.Span)}
	}
	var out []Symbol
	for _, st := range vt.structs {
		out = append(out, sym(Struct, st.schema, keyOf(root, st.schema.Path), st.name))
		for _, fp := range st.fields {
			s := sym(Field, fp.prop.Schema, keyOf(root, fp.prop.Schema.Path), fp.name)
			s.Span = diag.Span(fp.prop.Span)
			out = append(out, s)
		}
	}
	for _, e := range vt.enums {
		key := keyOf(root, e.schema.Path)
		out = append(out, sym(Enum, e.schema, key, e.name))
		for i, c := range e.consts {
			out = append(out, sym(Const, e.schema, key+"="+e.schema.Enum[i].Str, c))
		}
	}
	return out
}

// keyOf turns a schema path below root into a property path:
// "/properties/a/properties/b" → "a.b", "/additionalProperties" and "/items" → "[*]".
func keyOf(root, path string) string {
	rest := strings.TrimPrefix(path, root)
	var b strings.Builder
	parts := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	for i := 0; i < len(parts); i++ {
		switch parts[i] {
		case "properties":
			if i+1 < len(parts) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(api.UnescapePointerToken(parts[i+1]))
				i++
			}
		case "additionalProperties", "items":
			b.WriteString("[*]")
		}
	}
	return b.String()
}
