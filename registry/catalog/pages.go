package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// Home is the data of the home page: every namespace and type, optionally
// narrowed by a filter.
type Home struct {
	Filter     string      `json:"filter,omitempty"`
	Namespaces []Namespace `json:"namespaces"`
	// Types counts the types listed.
	Types int `json:"types"`
}

// Home returns the home page listing the types whose full name, description
// or capabilities contain filter (case-insensitive); "" lists every type.
// The page's script applies the same rule as the user types.
func (c *Catalog) Home(filter string) Home {
	h := Home{Filter: strings.TrimSpace(filter), Namespaces: []Namespace{}}
	q := strings.ToLower(h.Filter)
	for _, ns := range c.Namespaces {
		out := Namespace{Name: ns.Name, Types: []*Type{}}
		for _, t := range ns.Types {
			if q == "" || strings.Contains(t.FilterText(), q) {
				out.Types = append(out.Types, t)
			}
		}
		h.Types += len(out.Types)
		if len(out.Types) > 0 || q == "" {
			h.Namespaces = append(h.Namespaces, out)
		}
	}
	return h
}

// homeOver returns h with the namespaces of the earlier home page prev
// (its JSON) that h does not list, in the order New sorts namespaces.
func homeOver(prev []byte, h Home) (Home, error) {
	var old Home
	if err := json.Unmarshal(prev, &old); err != nil {
		return h, fmt.Errorf("the previous home page: %w", err)
	}
	have := map[string]bool{}
	for _, ns := range h.Namespaces {
		have[strings.ToLower(ns.Name)] = true
	}
	for _, ns := range old.Namespaces {
		if !have[strings.ToLower(ns.Name)] {
			h.Namespaces = append(h.Namespaces, ns)
		}
	}
	slices.SortFunc(h.Namespaces, func(a, b Namespace) int { return compareNamespaces(a.Name, b.Name) })
	h.Types = 0
	for _, ns := range h.Namespaces {
		h.Types += len(ns.Types)
	}
	return h, nil
}

// FilterText is what the filter matches: the lower-cased full name,
// description and capabilities.
func (t *Type) FilterText() string {
	return strings.ToLower(t.FullName + " " + t.Description + " " + strings.Join(t.Capabilities, " "))
}

// TypePage is the data of the page of one API version of a type.
type TypePage struct {
	Type       *Type      `json:"type"`
	APIVersion Version    `json:"apiVersion"`
	Parent     *TypeLink  `json:"parent,omitempty"`
	Children   []TypeLink `json:"children,omitempty"`
	// Undeclared is true for a schema of {}: any properties are accepted.
	Undeclared  bool       `json:"undeclared,omitempty"`
	Description string     `json:"schemaDescription,omitempty"`
	Properties  []Property `json:"properties"`
	Snippets    Snippets   `json:"snippets"`
	Compare     []Version  `json:"compare,omitempty"` // other versions to compare with
	// Changes compare the version with each older one, newest first. The
	// static site fills them, in place of pages of changes (Site); the
	// server leaves them out and serves a changes page per pair.
	Changes []Changes       `json:"changes,omitempty"`
	Schema  json.RawMessage `json:"schema"`
	// Resources of the type, at any API version; the server sets them, a
	// static copy has none.
	Resources *Resources `json:"resources,omitempty"`
}

// Resources are resources of a type that the registry holds.
type Resources struct {
	Items []Resource `json:"items"`
	// More is true when the type has more resources than Items.
	More bool `json:"more,omitempty"`
}

// Resource is one resource of a type. Properties are as the registry
// stores them, which never includes sensitive values: the registry keeps
// those sealed apart and never returns them.
type Resource struct {
	ID         string          `json:"id"`
	Name       string          `json:"name"`
	Group      string          `json:"resourceGroup"`
	APIVersion string          `json:"apiVersion"`
	Location   string          `json:"location,omitempty"`
	Properties json.RawMessage `json:"properties"`
}

// TypeLink links to a type's page.
type TypeLink struct {
	FullName string `json:"fullName"`
	Page     string `json:"page"`
}

// Options tune the pages.
type Options struct {
	// GoImportPrefix is the --go-import-prefix of the Go snippets; ""
	// means DefaultGoImportPrefix.
	GoImportPrefix string
	// BicepExtension is the --extension-name of the Bicep snippets; ""
	// means each namespace's default extension name.
	BicepExtension string
	// BicepReference returns the br: reference an extension is published
	// at (`udtc serve --extension-registry`), or ""; nil means none is known.
	BicepReference func(extension string) string
	// GoProperties writes a type's example properties as Go for the Go
	// snippets; nil, or an error, means the snippet decodes the example's
	// JSON into Properties instead.
	GoProperties GoPropertiesFunc
	// Compare judges the changes between two API versions (Changes); nil
	// means a structural comparison.
	Compare CompareFunc
	// PreviousHome is the JSON twin of the home page of an earlier Site
	// (its index.json): Site lists its namespaces beside the catalog's, the
	// catalog's replacing those of the same name. An incremental gen passes
	// the last run's, rendering only the namespaces that changed.
	PreviousHome []byte
}

// TypePage returns the page of API version v of t, and false when t has no
// such version.
func (c *Catalog) TypePage(t *Type, v string, opts Options) (TypePage, bool) {
	return c.typePage(t, v, opts, nil)
}

// parsed holds the schemas of a type read so far, by version, so that a
// static site reads each once for its page and its comparisons; nil reads
// them each time.
type parsed map[string]*schema.Schema

// of returns the schema of version v of t.
func (p parsed) of(t *Type, v string) *schema.Schema {
	if s, ok := p[v]; ok {
		return s
	}
	s := parse(t.schemas[v])
	if p != nil {
		p[v] = s
	}
	return s
}

func (c *Catalog) typePage(t *Type, v string, opts Options, known parsed) (TypePage, bool) {
	ver, ok := t.version(v)
	if !ok {
		return TypePage{}, false
	}
	raw := t.schemas[ver.Name]
	root := known.of(t, ver.Name)
	p := TypePage{
		Type:        t,
		APIVersion:  ver,
		Undeclared:  len(root.Keywords()) == 0,
		Description: strings.TrimSpace(str(root, "description")),
		Properties:  c.properties(root),
		Snippets:    snippets(t, ver.Name, root, c.goNames(t), opts, c.namespace(t.Namespace)),
		Schema:      raw,
	}
	if p.Properties == nil {
		p.Properties = []Property{}
	}
	if t.Parent != "" {
		if pt := c.Lookup(t.Namespace, t.Parent); pt != nil {
			p.Parent = &TypeLink{FullName: pt.FullName, Page: pt.Page}
		}
	}
	for _, ch := range t.Children {
		if ct := c.Lookup(t.Namespace, ch); ct != nil {
			p.Children = append(p.Children, TypeLink{FullName: ct.FullName, Page: ct.Page})
		}
	}
	for _, o := range t.APIVersions {
		if o.Name != ver.Name {
			p.Compare = append(p.Compare, o)
		}
	}
	return p, true
}

// ComparePath is the changes page from the older of a and b to the newer.
func ComparePath(t *Type, a, b string) string {
	if api.CompareVersions(a, b) > 0 {
		a, b = b, a
	}
	return ChangesPath(t.Namespace, t.Name, a, b)
}

// goNames returns the Go names of t, handed out over its namespace's types
// in model order exactly as the Go client does.
func (c *Catalog) goNames(t *Type) naming.GoType {
	ns := c.namespace(t.Namespace)
	if ns == nil {
		return naming.GoType{}
	}
	at := 0
	for i, o := range ns.Types {
		if o == t {
			at = i
			break
		}
	}
	return c.namespaceGoTypes(ns)[at]
}

// namespaceGoTypes returns naming.GoTypes of the names of ns's types, in
// model order, computed once per namespace.
func (c *Catalog) namespaceGoTypes(ns *Namespace) []naming.GoType {
	c.goTypes.mu.Lock()
	defer c.goTypes.mu.Unlock()
	all, ok := c.goTypes.byNamespace[ns.Name]
	if !ok {
		names := make([]string, len(ns.Types))
		for i, o := range ns.Types {
			names[i] = o.Name
		}
		all, _ = naming.GoTypes(names)
		c.goTypes.byNamespace[ns.Name] = all
	}
	return all
}
