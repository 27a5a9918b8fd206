// Package compat compares two checked catalogs (model vs model, never YAML)
// and reports what changed for clients of the resource types: breaks within
// an existing API version, warnings, compatible additions, and breaks of the
// generated Go client. `udtc breaking` runs it; the rules are in Rules.
//
// Types are matched by namespace and name (case-insensitively, as the
// registry looks them up), so moving a type between files is no change.
// Direction matters: a change to what clients write (writable properties) is
// judged differently from a change to what they read (read-only ones).
package compat

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// Finding is one change between the old and the new catalog.
type Finding struct {
	Rule     string
	Severity diag.Severity
	Category Category
	// Namespace, Type and Version locate the change; Version is "" for a
	// change of the whole type.
	Namespace string
	Type      string
	Version   string
	// Path is the property path inside the version's schema
	// ("status.binding.hostname", "tags[*]"); "" for the schema root.
	Path    string
	Message string
	// New is the position in the new manifests, Old the one in the old
	// manifests; either is zero when the thing does not exist there.
	New, Old diag.Span
	// Allowed says what allowed a breaking change (an error rule), which is
	// then a warning (Policy.Apply): "breaking.previews: allow",
	// "--allow-breaking" or "--allow-breaking=NAMESPACE/TYPE@VERSION";
	// "" when nothing did.
	Allowed string
	// Stored is the judgement of a breaking change against the resources
	// a registry stores (JudgeStored); nil when none was asked. Hint then
	// names the first resources refused.
	Stored *StoredImpact
	Hint   string
}

// Compare reports every finding between old and new, sorted (see Sort).
// Both catalogs must be valid (nil means empty). The error is a bug in the
// Go client's planner, never a property of the input.
func Compare(old, new *model.Catalog) ([]Finding, error) {
	c := &comparer{}
	oldTypes, newTypes := typesOf(old), typesOf(new)
	newProv := providersOf(new)
	for _, key := range sortedKeys(oldTypes) {
		o := oldTypes[key]
		n := newTypes[key]
		if n == nil {
			f := c.at(o, nil, "")
			// At the namespace in the new files when the file the type was
			// removed from still declares it; else (the file was deleted, or
			// the namespace's first file is another) at the old position
			// only, never at another file's namespace.
			if p := newProv[strings.ToLower(o.Namespace)]; sameFile(o.Span.File, p.File) {
				f.New = p
			}
			c.add(f, RuleTypeRemoved, "type %s removed (with API versions %s)", o.FullName(), versionNames(o))
			continue
		}
		c.compareType(o, n)
	}
	for _, key := range sortedKeys(newTypes) {
		if n := newTypes[key]; oldTypes[key] == nil {
			c.add(c.at(n, nil, ""), RuleTypeAdded, "type %s added with API versions %s", n.FullName(), versionNames(n))
		}
	}
	if err := c.compareGo(old, new, oldTypes, newTypes); err != nil {
		return nil, err
	}
	Sort(c.out)
	return c.out, nil
}

// Sort orders findings by position in the new files (then the old ones),
// rule and message; findings without a new position come last.
func Sort(fs []Finding) {
	slices.SortFunc(fs, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(zero(a.New), zero(b.New)),
			cmp.Compare(a.New.File, b.New.File), cmp.Compare(a.New.Line, b.New.Line), cmp.Compare(a.New.Column, b.New.Column),
			cmp.Compare(a.Old.File, b.Old.File), cmp.Compare(a.Old.Line, b.Old.Line), cmp.Compare(a.Old.Column, b.Old.Column),
			cmp.Compare(a.Severity, b.Severity), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
}

func zero(s diag.Span) int {
	if s.IsZero() {
		return 1
	}
	return 0
}

// Diagnostic converts a finding for the diagnostic printers: the span is the
// new position, else the old one; the message names the old position too.
func (f Finding) Diagnostic() diag.Diagnostic {
	d := diag.Diagnostic{Span: f.New, Severity: f.Severity, Rule: f.Rule, Path: f.Path, Message: f.Message, Hint: f.Hint}
	switch {
	case f.New.IsZero():
		d.Span = f.Old
	case !f.Old.IsZero():
		d.Message += fmt.Sprintf(" (was %s:%d:%d)", f.Old.File, f.Old.Line, f.Old.Column)
	}
	return d
}

// Diagnostics converts findings in order.
func Diagnostics(fs []Finding) diag.List {
	out := make(diag.List, len(fs))
	for i, f := range fs {
		out[i] = f.Diagnostic()
	}
	return out
}

type comparer struct {
	out []Finding
	// into, when set, collects findings instead of out (the summary of a
	// new API version).
	into *[]Finding
}

// at starts a finding for type t (new or old) at version v.
func (c *comparer) at(o, n *model.ResourceType, version string) Finding {
	t := n
	if t == nil {
		t = o
	}
	f := Finding{Namespace: t.Namespace, Type: t.Name, Version: version}
	if o != nil {
		f.Old = o.Span
	}
	if n != nil {
		f.New = n.Span
	}
	return f
}

func (c *comparer) add(f Finding, rule, format string, args ...any) {
	r, ok := ruleByID[rule]
	if !ok {
		panic("compat: rule " + rule + " is not in Rules")
	}
	f.Rule, f.Severity, f.Category = rule, r.Severity, CategoryOf(rule)
	f.Message = fmt.Sprintf(format, args...)
	if c.into != nil {
		*c.into = append(*c.into, f)
		return
	}
	c.out = append(c.out, f)
}

func (c *comparer) compareType(o, n *model.ResourceType) {
	if o.DefaultAPIVersion != n.DefaultAPIVersion {
		c.add(c.at(o, n, ""), RuleDefaultAPIVersionChanged, "default API version of %s changed from %s to %s", n.FullName(), o.DefaultAPIVersion, n.DefaultAPIVersion)
	}
	c.manualProvisioning(o, n)
	for _, ov := range o.APIVersions {
		nv := n.Version(ov.Name)
		if nv == nil {
			f := c.at(o, n, ov.Name)
			f.Old = ov.Span
			c.add(f, RuleAPIVersionRemoved, "API version %s of %s removed", ov.Name, n.FullName())
			continue
		}
		f := c.at(o, n, ov.Name)
		c.schema(f, schema.Compare(ov.Schema, nv.Schema), node{oldSpan: diag.Span(ov.Schema.Span), newSpan: diag.Span(nv.Schema.Span)})
	}
	for i, nv := range n.APIVersions {
		if o.Version(nv.Name) != nil {
			continue
		}
		f := c.at(nil, n, nv.Name)
		f.New = nv.Span
		if i == 0 {
			c.add(f, RuleAPIVersionAdded, "API version %s of %s added", nv.Name, n.FullName())
			continue
		}
		prev := n.APIVersions[i-1]
		c.add(f, RuleAPIVersionAdded, "API version %s of %s added; compared with %s: %s", nv.Name, n.FullName(), prev.Name, c.summary(n, prev, nv))
	}
}

// manualProvisioning reports the capability ManualResourceProvisioning
// turned on or off, with what Radius does differently from then on (its
// dynamic resource controller picks the inert PUT and DELETE controllers
// by this capability, read at each operation, so the change reaches
// existing resources too). Radius matches the name exactly.
func (c *comparer) manualProvisioning(o, n *model.ResourceType) {
	const manual = api.CapabilityManualResourceProvisioning
	was, is := slices.Contains(o.Capabilities, manual), slices.Contains(n.Capabilities, manual)
	switch {
	case !was && is:
		c.add(c.at(o, n, ""), RuleManualProvisioning, "%s: capability %s added: Radius stops running recipes for its resources: a PUT only stores the resource, and a DELETE removes only Radius's record, orphaning what a recipe deployed for existing resources", n.FullName(), manual)
	case was && !is:
		c.add(c.at(o, n, ""), RuleManualProvisioning, "%s: capability %s removed: Radius runs the environment's recipe on every PUT and DELETE of its resources, also of those provisioned by hand", n.FullName(), manual)
	}
}

// CompareSchemas runs the schema rules of Compare on two schemas as if new
// replaced old within one API version: what would break a client written
// for old that moves to new. The registry's catalog shows it between two
// API versions of a type. Findings have no type or version (their messages
// name only the property), are sorted as Sort does (spans are those of
// the models, typically from check.Schema), and never include the Go
// client's rules. Both schemas must be valid (check.Schema without errors).
func CompareSchemas(old, new *model.Schema) []Finding {
	var fs []Finding
	c := &comparer{into: &fs}
	c.schema(Finding{}, schema.Compare(old, new), node{oldSpan: diag.Span(old.Span), newSpan: diag.Span(new.Span)})
	Sort(fs)
	return fs
}

// location prefixes a message with the type and version of f, when known.
func (f Finding) location() string {
	if f.Namespace == "" {
		return ""
	}
	return f.Namespace + "/" + f.Type + "@" + f.Version + ": "
}

// summary describes how version nv differs from prev (same type).
func (c *comparer) summary(t *model.ResourceType, prev, nv *model.APIVersion) string {
	var fs []Finding
	sub := &comparer{into: &fs}
	sub.schema(sub.at(t, t, nv.Name), schema.Compare(prev.Schema, nv.Schema), node{})
	if len(fs) == 0 {
		return "the same schema"
	}
	var parts []string
	for _, f := range fs {
		where := f.Path
		if where == "" {
			where = "properties"
		}
		parts = append(parts, f.Rule+" "+where)
	}
	slices.Sort(parts)
	parts = slices.Compact(parts)
	const most = 12
	if len(parts) > most {
		parts = append(parts[:most], fmt.Sprintf("and %d more", len(parts)-most))
	}
	return strings.Join(parts, ", ")
}

// compareGo reports renamed identifiers and changed pointer-ness of the Go
// client within API versions present in both catalogs.
func (c *comparer) compareGo(old, new *model.Catalog, oldTypes, newTypes map[string]*model.ResourceType) error {
	if old == nil || new == nil {
		return nil
	}
	oldSyms, err := goclient.Surface(old)
	if err != nil {
		return err
	}
	newSyms, err := goclient.Surface(new)
	if err != nil {
		return err
	}
	type key struct {
		typ, version, key string
		kind              goclient.SymbolKind
	}
	keyOf := func(s goclient.Symbol) key {
		return key{strings.ToLower(s.Namespace + "/" + s.Type), s.Version, s.Key, s.Kind}
	}
	newBy := map[key]goclient.Symbol{}
	for _, s := range newSyms {
		newBy[keyOf(s)] = s
	}
	for _, o := range oldSyms {
		n, ok := newBy[keyOf(o)]
		if !ok {
			continue
		}
		ot, nt := oldTypes[strings.ToLower(o.Namespace+"/"+o.Type)], newTypes[strings.ToLower(n.Namespace+"/"+n.Type)]
		f := c.at(ot, nt, n.Version)
		f.Path, f.Old, f.New = n.Key, o.Span, n.Span
		where := fmt.Sprintf("%s/%s@%s", n.Namespace, n.Type, n.Version)
		if o.Name != n.Name {
			switch o.Kind {
			case goclient.Field:
				c.add(f, RuleGoFieldRenamed, "%s: the Go field of property %s is renamed from %s to %s", where, n.Key, o.Name, n.Name)
			case goclient.Const:
				c.add(f, RuleGoConstantRenamed, "%s: the Go constant of %s is renamed from %s to %s", where, n.Key, o.Name, n.Name)
			default:
				c.add(f, RuleGoTypeRenamed, "%s: the Go type of %s is renamed from %s to %s", where, orRoot(n.Key), o.Name, n.Name)
			}
		}
	}
	return nil
}

func orRoot(key string) string {
	if key == "" {
		return "the properties"
	}
	return key
}

func typesOf(cat *model.Catalog) map[string]*model.ResourceType {
	m := map[string]*model.ResourceType{}
	if cat == nil {
		return m
	}
	for _, p := range cat.Providers {
		for _, t := range p.Types {
			m[strings.ToLower(t.FullName())] = t
		}
	}
	return m
}

// sameFile reports whether old, a file of the old manifests, is file of
// the new ones: the same path; file at a git revision ("REV:file", as the
// old manifests of `udtc breaking --against REV` are named); or, old
// being a path of another directory (`--against DIR`), a file of the same
// base name. A file at a revision is never matched by base name only: it
// may be the one that was deleted.
func sameFile(old, file string) bool {
	switch {
	case file == "":
		return false
	case old == file || strings.HasSuffix(old, ":"+file):
		return true
	}
	return !strings.Contains(old, ":") && filepath.Base(old) == filepath.Base(file)
}

func providersOf(cat *model.Catalog) map[string]diag.Span {
	m := map[string]diag.Span{}
	if cat == nil {
		return m
	}
	for _, p := range cat.Providers {
		m[strings.ToLower(p.Namespace)] = p.Span
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func versionNames(t *model.ResourceType) string {
	var names []string
	for _, v := range t.APIVersions {
		names = append(names, v.Name)
	}
	return strings.Join(names, ", ")
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func jsonEqual(a, b *model.Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	return bytes.Equal(a.JSON, b.JSON)
}

func literal(v *model.Value) string {
	if v == nil {
		return "none"
	}
	return string(v.JSON)
}

func containsValue(vs []model.Value, v model.Value) bool {
	return slices.ContainsFunc(vs, func(w model.Value) bool { return bytes.Equal(w.JSON, v.JSON) })
}

func values(vs []model.Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = string(v.JSON)
	}
	return strings.Join(parts, ", ")
}

func intText(p *int64) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprint(*p)
}

func bound(n *json.Number, exclusive bool) string {
	if n == nil {
		return "none"
	}
	if exclusive {
		return string(*n) + " (exclusive)"
	}
	return string(*n)
}

// compareNumbers compares two bounds numerically (b nil sorts as equal).
func compareNumbers(a, b *json.Number) int {
	if a == nil || b == nil {
		return 0
	}
	x, errx := a.Float64()
	y, erry := b.Float64()
	if errx != nil || erry != nil {
		return strings.Compare(string(*a), string(*b))
	}
	return cmp.Compare(x, y)
}

// fingerprint is a node's schema without positions, paths and prose: two
// properties with the same fingerprint accept and return the same values.
func fingerprint(s *model.Schema) string {
	var b strings.Builder
	var walk func(*model.Schema)
	walk = func(s *model.Schema) {
		if s == nil {
			b.WriteString("-")
			return
		}
		fmt.Fprintf(&b, "{%s %s ro=%t wo=%t null=%t sens=%t", s.Kind, s.Format, s.ReadOnly, s.WriteOnly, s.Nullable, s.Sensitive)
		fmt.Fprintf(&b, " def=%s enum=%s", literal(s.Default), values(s.Enum))
		fmt.Fprintf(&b, " len=%s..%s pat=%q", intText(s.MinLength), intText(s.MaxLength), s.Pattern)
		fmt.Fprintf(&b, " num=%s..%s mult=%s", bound(s.Minimum, s.ExclusiveMinimum), bound(s.Maximum, s.ExclusiveMaximum), bound(s.MultipleOf, false))
		fmt.Fprintf(&b, " items=%s..%s uniq=%t props=%s..%s", intText(s.MinItems), intText(s.MaxItems), s.UniqueItems, intText(s.MinProperties), intText(s.MaxProperties))
		for _, p := range s.Properties {
			fmt.Fprintf(&b, " %q req=%t:", p.Name, p.Required)
			walk(p.Schema)
		}
		b.WriteString(" ap=")
		walk(s.AdditionalProperties)
		b.WriteString(" it=")
		walk(s.Items)
		b.WriteString("}")
	}
	walk(s)
	return b.String()
}
