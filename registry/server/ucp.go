package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/udtc/udtc/internal/buildinfo"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// What Radius's clients need beyond the routes: the API under UCP's base
// path with its discovery answer, the marker header that tells udtc from
// UCP, and resource type icons.

// markResponses adds api.VersionHeader, naming udtc's version, to every
// response: clients tell udtc serve from Radius's UCP by it.
func markResponses(next http.Handler) http.Handler {
	version := buildinfo.Read().Version
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(api.VersionHeader, version)
		next.ServeHTTP(w, r)
	})
}

type requestURLKey struct{}

// requestURL returns the URL r arrived with, before basePath removed
// api.BasePath from it: links the server gives (nextLink) use it.
func requestURL(r *http.Request) *url.URL {
	if u, ok := r.Context().Value(requestURLKey{}).(*url.URL); ok {
		return u
	}
	return r.URL
}

// basePath serves the API under api.BasePath too, where Radius's clients
// (rad, with a workspace's overrides.ucp) send every request: it answers
// GET of api.BasePath itself with UCP's discovery document (rad's test of
// a connection, open without a token as it carries none) and passes a
// request for /planes... under it on without the prefix.
func basePath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, under := strings.CutPrefix(r.URL.Path, api.BasePath)
		switch {
		case !under || (rest != "" && rest[0] != '/'):
			next.ServeHTTP(w, r)
		case rest == "" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
			writeJSON(w, http.StatusOK, api.Discovery())
		case rest == "":
			w.Header().Set("Allow", "GET, HEAD")
			refuse(w, registry.Errorf(registry.CodeMethodNotAllowed, "", "method %s is not allowed on %s", r.Method, api.BasePath))
		case rest != "/planes" && !strings.HasPrefix(rest, "/planes/"):
			// The catalog and the health and sync endpoints are at the
			// root only.
			refuse(w, registry.Errorf(registry.CodeNotFound, "", "no route for %s %s", r.Method, r.URL.Path))
		default:
			u := *r.URL
			u.Path = rest
			if raw, ok := strings.CutPrefix(r.URL.RawPath, api.BasePath); ok {
				u.RawPath = raw
			}
			r2 := r.WithContext(context.WithValue(r.Context(), requestURLKey{}, r.URL))
			r2.URL = &u
			next.ServeHTTP(w, r2)
		}
	})
}

// includeIcons reads ?includeIcons of a provider summary request: the
// summaries carry each type's icon only when it is "true" (in any case).
func includeIcons(r *http.Request) bool {
	return strings.EqualFold(r.URL.Query().Get("includeIcons"), "true")
}

// withoutIcons removes the icons (not their hashes) from sum.
func withoutIcons(sum api.ProviderSummary) api.ProviderSummary {
	types := make(map[string]api.ResourceTypeSummary, len(sum.ResourceTypes))
	for name, t := range sum.ResourceTypes {
		t.Icon = ""
		types[name] = t
	}
	sum.ResourceTypes = types
	return sum
}

// icon serves GET RP/{namespace}/resourceTypes/{type}/icons/{hash}: the
// type's icon, as it was stored, when hash names it. As UCP, it takes any
// api-version, or none.
func (s *Server) icon(w http.ResponseWriter, r *http.Request) error {
	id, err := idFromRequest(r, api.KindResourceType)
	if err != nil {
		return err
	}
	icon, stored, err := s.svc.Icon(r.Context(), id)
	if err != nil {
		return err
	}
	hash := r.PathValue("hash")
	if !strings.EqualFold(hash, stored) {
		return registry.Errorf(registry.CodeNotFound, id.String(), "resource type %s has no icon with hash %.80q", id.Type, hash)
	}
	h := w.Header()
	h.Set("Content-Type", api.IconMediaType)
	h.Set("Cache-Control", "public, max-age=31536000, immutable") // the hash names the bytes
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	h.Set("ETag", `"`+stored+`"`)
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write([]byte(icon))
	}
	return nil
}
