// Package catalog owns the registry's catalog pages: the view model of every
// registered resource type (built from provider summaries, the registered
// schemas as JSON), the property tables, snippets and version comparisons
// derived from it, and their rendering as HTML (templates/catalog*.tmpl) and
// JSON. `udtc serve` renders it per request from the store; `udtc gen
// --target site` renders the same pages as static files from the
// registration documents of compiled manifests (FromRegistrations). It
// imports neither the generator nor net/http: it reads the registered
// schemas with schema.Decode, the model the checker produces too, and shows
// their keywords as written; names in snippets come from internal/naming,
// the rules the emitters use.
package catalog

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry/api"
)

// Paths of the pages. Every page's canonical path starts with "/"; the
// server serves it there and the static site writes it with ".html".
const (
	HomePath  = "/"
	AssetsDir = "/assets/"
)

// TypePath is the page of one API version of a type:
// /types/Contoso.Data/postgresDatabases/2025-06-01. A child type's "/" is
// written "_" as in the registry API (contosoBuses_queues).
func TypePath(namespace, typ, version string) string {
	return "/types/" + namespace + "/" + escapeType(typ) + "/" + version
}

// ChangesPath is the comparison of two API versions of a type.
func ChangesPath(namespace, typ, from, to string) string {
	return "/types/" + namespace + "/" + escapeType(typ) + "/changes/" + from + "/" + to
}

// escapeType is the registry's child type convention (api.EscapeTypeName).
func escapeType(t string) string { return api.EscapeTypeName(t) }

// Catalog is every registered namespace with its types.
type Catalog struct {
	Namespaces []Namespace `json:"namespaces"`
	// byKey indexes types by lower-cased "namespace/type".
	byKey map[string]*Type
	// goTypes memoizes goNames: the Go names of each namespace's types.
	goTypes *goTypeCache
}

// Namespace is one resource provider.
type Namespace struct {
	Name  string  `json:"name"`
	Types []*Type `json:"types"`
	// Sync is how a project gets the namespace's Bicep extension from the
	// server showing the page (Home.WithSync); nil elsewhere.
	Sync *Sync `json:"sync,omitempty"`
}

// Sync is the command that fetches a namespace's Bicep extension from a
// `udtc serve` into a project, and the bicepconfig.json entry that names
// the extension on that server's OCI API.
type Sync struct {
	Extension string `json:"extension"`
	Command   string `json:"command"`
	// Entry is the member of "extensions" in bicepconfig.json naming the
	// server's artifact (for Bicep's OCI transport); the command pins a
	// local copy by digest instead.
	Entry string `json:"entry"`
}

// WithSync returns h with each namespace's Sync for the server at
// serverURL (scheme://host[:port]).
func (h Home) WithSync(serverURL string) Home {
	host := serverURL[strings.Index(serverURL, "://")+3:]
	out := h
	out.Namespaces = make([]Namespace, len(h.Namespaces))
	for i, ns := range h.Namespaces {
		ext := naming.BicepExtension(ns.Name)
		ns.Sync = &Sync{Extension: ext,
			Command: "udtc bicep sync --server " + serverURL + " " + ns.Name,
			Entry:   strconv.Quote(ext) + ": " + strconv.Quote("br:"+host+"/bicep/"+ext+":latest")}
		out.Namespaces[i] = ns
	}
	return out
}

// Type is one resource type with its API versions.
type Type struct {
	Namespace         string    `json:"namespace"`
	Name              string    `json:"name"`
	FullName          string    `json:"fullName"`
	Description       string    `json:"description,omitempty"`
	Capabilities      []string  `json:"capabilities,omitempty"`
	DefaultAPIVersion string    `json:"defaultApiVersion,omitempty"`
	APIVersions       []Version `json:"apiVersions"` // newest first
	Parent            string    `json:"parent,omitempty"`
	Children          []string  `json:"children,omitempty"`
	// Page is the path of the default (else newest) version's page.
	Page string `json:"page,omitempty"`

	schemas map[string]json.RawMessage
}

// Version is an API version of a type.
type Version struct {
	Name    string `json:"name"`
	Default bool   `json:"default,omitempty"`
	Preview bool   `json:"preview,omitempty"`
	Page    string `json:"page"`
	// Lifecycle is the version's deprecation (udtc.yaml's lifecycle), nil
	// for none; ReplacementPage the page of its replacement, "" when the
	// replacement is not registered.
	Lifecycle       *api.Lifecycle `json:"lifecycle,omitempty"`
	ReplacementPage string         `json:"replacementPage,omitempty"`
}

// New builds the catalog from provider summaries (the registry's
// GET /planes/radius/{plane}/providers documents). Namespaces and types are
// sorted by name; API versions newest first.
func New(sums []api.ProviderSummary) *Catalog {
	c := &Catalog{byKey: map[string]*Type{}, goTypes: &goTypeCache{byNamespace: map[string][]naming.GoType{}}}
	for _, s := range sums {
		ns := Namespace{Name: s.Name}
		for name, ts := range s.ResourceTypes {
			t := &Type{
				Namespace:         s.Name,
				Name:              name,
				FullName:          s.Name + "/" + name,
				Description:       strings.TrimSpace(ts.Description),
				Capabilities:      ts.Capabilities,
				DefaultAPIVersion: ts.Default(),
				schemas:           map[string]json.RawMessage{},
			}
			if i := strings.LastIndexByte(name, '/'); i > 0 {
				t.Parent = name[:i]
			}
			for v, av := range ts.APIVersions {
				t.schemas[v] = av.Schema
				t.APIVersions = append(t.APIVersions, Version{
					Name:    v,
					Default: v == t.DefaultAPIVersion,
					Preview: strings.HasSuffix(v, "-preview"),
					Page:    TypePath(s.Name, name, v),
				})
				if l := av.Lifecycle; l != nil {
					last := &t.APIVersions[len(t.APIVersions)-1]
					last.Lifecycle = l
					if _, ok := ts.APIVersions[l.Replacement]; ok {
						last.ReplacementPage = TypePath(s.Name, name, l.Replacement)
					}
				}
			}
			slices.SortFunc(t.APIVersions, func(a, b Version) int { return api.CompareVersions(b.Name, a.Name) })
			if v := t.pageVersion(); v != "" {
				t.Page = TypePath(s.Name, name, v)
			}
			ns.Types = append(ns.Types, t)
			c.byKey[strings.ToLower(t.FullName)] = t
		}
		// Byte order, as the model sorts types (and so as the Go client
		// hands out names): a parent sorts before its children.
		slices.SortFunc(ns.Types, func(a, b *Type) int { return cmp.Compare(a.Name, b.Name) })
		for _, t := range ns.Types {
			if p := c.byKey[strings.ToLower(t.Namespace+"/"+t.Parent)]; t.Parent != "" && p != nil {
				p.Children = append(p.Children, t.Name)
			}
		}
		c.Namespaces = append(c.Namespaces, ns)
	}
	slices.SortFunc(c.Namespaces, func(a, b Namespace) int { return compareNamespaces(a.Name, b.Name) })
	return c
}

// compareNamespaces orders namespaces by name, case aside first.
func compareNamespaces(a, b string) int {
	return cmp.Or(cmp.Compare(strings.ToLower(a), strings.ToLower(b)), cmp.Compare(a, b))
}

// goTypeCache holds the Go names of each namespace's types, handed out
// once per namespace rather than once per page; safe for concurrent use.
type goTypeCache struct {
	mu          sync.Mutex
	byNamespace map[string][]naming.GoType
}

// pageVersion is the version a link to the type shows: the default, else
// the newest.
func (t *Type) pageVersion() string {
	if _, ok := t.schemas[t.DefaultAPIVersion]; ok {
		return t.DefaultAPIVersion
	}
	if len(t.APIVersions) > 0 {
		return t.APIVersions[0].Name
	}
	return ""
}

// Lookup finds a type by namespace and name, case-insensitively as the
// registry does; nil when it is not registered.
func (c *Catalog) Lookup(namespace, typ string) *Type {
	return c.byKey[strings.ToLower(namespace+"/"+typ)]
}

// namespace returns the namespace of t.
func (c *Catalog) namespace(name string) *Namespace {
	for i := range c.Namespaces {
		if c.Namespaces[i].Name == name {
			return &c.Namespaces[i]
		}
	}
	return nil
}

// Schema is the registered schema of API version v of t, as stored; nil
// when t has no such version.
func (t *Type) Schema(v string) json.RawMessage { return t.schemas[v] }

// version returns t's API version named v (case-insensitively), and
// whether it exists.
func (t *Type) version(v string) (Version, bool) {
	for _, av := range t.APIVersions {
		if strings.EqualFold(av.Name, v) {
			return av, true
		}
	}
	return Version{}, false
}

// FromRegistrations converts the registration documents of compiled
// manifests (generator/emit/registration) into provider summaries, so the
// static site and the server render the same view model.
func FromRegistrations(regs []api.Registration) []api.ProviderSummary {
	out := make([]api.ProviderSummary, 0, len(regs))
	for _, reg := range regs {
		s := api.ProviderSummary{
			Name:          reg.Namespace,
			Locations:     map[string]api.LocationSummary{},
			ResourceTypes: map[string]api.ResourceTypeSummary{},
		}
		for _, l := range reg.Locations {
			s.Locations[l.Name] = api.LocationSummary{Address: l.Properties.Address}
		}
		for _, t := range reg.Types {
			ts := api.ResourceTypeSummary{
				APIVersions:       map[string]api.APIVersionSummary{},
				DefaultAPIVersion: t.Type.Properties.DefaultAPIVersion,
				Description:       t.Type.Properties.Description,
				Capabilities:      t.Type.Properties.Capabilities,
			}
			for _, v := range t.APIVersions {
				ts.APIVersions[v.Name] = api.APIVersionSummary{Schema: v.Properties.Schema, Lifecycle: v.Properties.Lifecycle}
			}
			s.ResourceTypes[t.Type.Name] = ts
		}
		out = append(out, s)
	}
	return out
}

// ReferencedNamespaces lists the namespaces other than t's that the
// x-resource-type annotations of t's schemas name, sorted. A page of t
// needs only t's namespace and these, so the server can load those
// summaries instead of the whole plane.
func (t *Type) ReferencedNamespaces() []string {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if k != "x-resource-type" {
					walk(e)
					continue
				}
				var refs []any
				switch r := e.(type) {
				case string:
					refs = []any{r}
				case []any:
					refs = r
				}
				for _, r := range refs {
					s, _ := r.(string)
					if ns, _, ok := strings.Cut(s, "/"); ok && !strings.EqualFold(ns, t.Namespace) {
						seen[ns] = true
					}
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	for _, raw := range t.schemas {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			walk(v)
		}
	}
	out := make([]string, 0, len(seen))
	for ns := range seen {
		out = append(out, ns)
	}
	slices.Sort(out)
	return out
}
