package server

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/catalog"
)

// catalogRoutes registers the catalog pages (registry/catalog) of the
// plane "local": HTML for browsers, the same data as JSON for
// Accept: application/json. Every other path still falls to noRoute.
func (s *Server) catalogRoutes() {
	s.mux.HandleFunc("GET /{$}", s.handle(s.catalogHome))
	s.mux.HandleFunc("GET /types/{namespace}/{type}", s.handle(s.catalogTypeDefault))
	s.mux.HandleFunc("GET /types/{namespace}/{type}/{version}", s.handle(s.catalogType))
	s.mux.HandleFunc("GET /types/{namespace}/{type}/changes/{from}/{to}", s.handle(s.catalogChanges))
	s.mux.HandleFunc("GET "+catalog.AssetsDir+"{name}", s.handle(s.catalogAsset))
}

// catalogOf builds the catalog of one namespace ("" for every one) from
// the provider summaries: one store query.
func (s *Server) catalogOf(r *http.Request, namespace string) (*catalog.Catalog, error) {
	sums, err := s.svc.Summaries(r.Context(), DefaultPlane, namespace)
	if err != nil {
		return nil, err
	}
	return catalog.New(registry.WireSummaries(sums)), nil
}

// wantsJSON reports whether the request asks for a page's JSON twin: its
// Accept header names application/json (or a +json type) and not text/html.
func wantsJSON(r *http.Request) bool {
	json, html := false, false
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch {
		case mt == "text/html":
			html = true
		case mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")):
			json = true
		}
	}
	return json && !html
}

// pageHeaders are the headers of every catalog response.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", catalog.ContentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Add("Vary", "Accept")
}

// writePage answers with the page's JSON twin or its HTML.
func writePage(w http.ResponseWriter, r *http.Request, data any, html func() ([]byte, error)) error {
	pageHeaders(w)
	if wantsJSON(r) {
		writeJSON(w, http.StatusOK, data)
		return nil
	}
	b, err := html()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	return nil
}

// missingPage is the error of a catalog page that does not exist: the
// adapter (handle) answers it with pageNotFound.
type missingPage struct{ msg string }

func (e *missingPage) Error() string { return e.msg }

func notFoundPage(format string, args ...any) error {
	return &missingPage{msg: fmt.Sprintf(format, args...)}
}

// pageNotFound answers 404: the ARM error envelope for JSON, a page for
// browsers.
func (s *Server) pageNotFound(w http.ResponseWriter, r *http.Request, msg string) {
	pageHeaders(w)
	if wantsJSON(r) {
		refuse(w, &registry.Error{Code: registry.CodeNotFound, Message: msg})
		return
	}
	b, err := catalog.RenderNotFound(catalog.ServerLinks(), msg)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	w.Write(b)
}

func (s *Server) catalogHome(w http.ResponseWriter, r *http.Request) error {
	c, err := s.catalogOf(r, "")
	if err != nil {
		return err
	}
	home := c.Home(r.URL.Query().Get("q"))
	if s.ext != nil {
		home = home.WithSync(requestOrigin(r)) // extensions.go
	}
	return writePage(w, r, home, func() ([]byte, error) { return catalog.RenderHome(catalog.ServerLinks(), home) })
}

// catalogTypeOf finds the type of the request's path (a missingPage error
// when it is not registered). A type's pages depend only on its namespace
// and the namespaces its references name, so only their summaries are
// read, not the whole plane's (on a 1,000-type catalog that is most of a
// page's time).
func (s *Server) catalogTypeOf(r *http.Request) (*catalog.Catalog, *catalog.Type, error) {
	ns, name := r.PathValue("namespace"), api.UnescapeTypeName(r.PathValue("type"))
	c, err := s.catalogOf(r, ns)
	if errors.Is(err, registry.ErrNotFound) || errors.Is(err, registry.ErrInvalid) {
		return nil, nil, notFoundPage("resource type %s/%s is not registered", ns, name)
	}
	if err != nil {
		return nil, nil, err
	}
	t := c.Lookup(ns, name)
	if t == nil {
		return nil, nil, notFoundPage("resource type %s/%s is not registered", ns, name)
	}
	refs := t.ReferencedNamespaces()
	if len(refs) == 0 {
		return c, t, nil
	}
	sums, err := s.svc.Summaries(r.Context(), DefaultPlane, t.Namespace)
	if err != nil {
		return nil, nil, err
	}
	for _, other := range refs {
		more, err := s.svc.Summaries(r.Context(), DefaultPlane, other)
		if errors.Is(err, registry.ErrNotFound) || errors.Is(err, registry.ErrInvalid) {
			continue // not registered: the reference is shown without a link
		}
		if err != nil {
			return nil, nil, err
		}
		sums = append(sums, more...)
	}
	c = catalog.New(registry.WireSummaries(sums))
	return c, c.Lookup(ns, name), nil
}

// catalogTypeDefault redirects to the page of the type's default (else
// newest) API version.
func (s *Server) catalogTypeDefault(w http.ResponseWriter, r *http.Request) error {
	_, t, err := s.catalogTypeOf(r)
	if err != nil {
		return err
	}
	if t.Page == "" {
		return notFoundPage("resource type %s has no API versions", t.FullName)
	}
	http.Redirect(w, r, t.Page, http.StatusFound)
	return nil
}

func (s *Server) catalogType(w http.ResponseWriter, r *http.Request) error {
	c, t, err := s.catalogTypeOf(r)
	if err != nil {
		return err
	}
	v := r.PathValue("version")
	page, ok := c.TypePage(t, v, catalog.Options{BicepReference: s.extensionRef, GoProperties: s.goProperties})
	if !ok {
		return notFoundPage("resource type %s has no API version %s", t.FullName, v)
	}
	if page.Resources, err = s.typeResources(r, t); err != nil {
		return err
	}
	return writePage(w, r, page, func() ([]byte, error) { return catalog.RenderType(catalog.ServerLinks(), page) })
}

// catalogResourceLimit is the most resources a type page lists.
const catalogResourceLimit = 100

// typeResources lists the first resources of t in the plane, at any API
// version. Stored properties hold no sensitive values (they are sealed
// apart), so nothing here can show one.
func (s *Server) typeResources(r *http.Request, t *catalog.Type) (*catalog.Resources, error) {
	pg, err := s.svc.ListResources(r.Context(), registry.InstanceQuery{Plane: DefaultPlane, Namespace: t.Namespace, Type: t.Name},
		registry.ListOptions{Top: catalogResourceLimit})
	if err != nil {
		return nil, err
	}
	out := &catalog.Resources{Items: make([]catalog.Resource, 0, len(pg.Items)), More: pg.Next != ""}
	for _, in := range pg.Items {
		out.Items = append(out.Items, catalog.Resource{ID: in.ID.String(), Name: in.ID.Name(), Group: in.ID.Group,
			APIVersion: in.APIVersion, Location: in.Location, Properties: in.Properties})
	}
	return out, nil
}

func (s *Server) catalogChanges(w http.ResponseWriter, r *http.Request) error {
	c, t, err := s.catalogTypeOf(r)
	if err != nil {
		return err
	}
	from, to := r.PathValue("from"), r.PathValue("to")
	ch, ok := c.Changes(t, from, to, catalog.Options{Compare: s.compareSchemas})
	if !ok {
		return notFoundPage("resource type %s does not have both API versions %s and %s", t.FullName, from, to)
	}
	return writePage(w, r, ch, func() ([]byte, error) { return catalog.RenderChanges(catalog.ServerLinks(), ch) })
}

func (s *Server) catalogAsset(w http.ResponseWriter, r *http.Request) error {
	b, typ, ok := catalog.Asset(r.PathValue("name"))
	if !ok {
		return registry.Errorf(registry.CodeNotFound, "", "no asset %s", r.URL.Path)
	}
	pageHeaders(w)
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
	return nil
}
