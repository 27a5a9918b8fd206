package server

import (
	"net/http"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
)

// The registrations (planes, providers, types, API versions, locations),
// the provider summaries, health and the answer of unknown routes.

func (s *Server) get(kind registry.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := idFromRequest(r, kind)
		if err != nil {
			return err
		}
		at, served := s.serveCached(w, r, r.URL.Path)
		if served {
			return nil
		}
		res, err := s.svc.Get(r.Context(), id)
		if err != nil {
			return err
		}
		body, err := res.Wire()
		if err != nil {
			return err
		}
		s.writeCacheable(w, r.URL.Path, at, res.ETag, body)
		return nil
	}
}

func (s *Server) put(kind registry.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := idFromRequest(r, kind)
		if err != nil {
			return err
		}
		body, err := s.readBody(w, r)
		if err != nil {
			return err
		}
		stored, created, err := s.putRegistration(r, id, preconditions(r), body)
		if err != nil {
			return err
		}
		return writeResource(w, createdStatus(created), stored)
	}
}

// putRegistration decodes the PUT body of the registration id and has the
// service store it; a write of a batch takes this path too.
func (s *Server) putRegistration(r *http.Request, id registry.ID, cond registry.Precondition, body []byte) (registry.Resource, bool, error) {
	env, err := service.DecodeEnvelope(body)
	if err != nil {
		return registry.Resource{}, false, err
	}
	return s.svc.PutRegistration(r.Context(), service.RegistrationWrite{ID: id, Body: env, If: cond, Actor: callerFrom(r.Context())})
}

func (s *Server) delete(kind registry.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := idFromRequest(r, kind)
		if err != nil {
			return err
		}
		force, err := forceParam(r)
		if err != nil {
			return err
		}
		deleted, err := s.svc.DeleteRegistration(r.Context(), id, preconditions(r), force)
		return writeDeleted(w, deleted, err)
	}
}

// resourceCounts answers the resources of a provider's types by API
// version (api.ResourceCount), the counts a DELETE without ?force=true
// refuses on.
func (s *Server) resourceCounts(w http.ResponseWriter, r *http.Request) error {
	id, err := idFromRequest(r, api.KindProvider)
	if err != nil {
		return err
	}
	counts, err := s.svc.ResourceCounts(r.Context(), id.Plane, id.Provider)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, api.List[api.ResourceCount]{Value: counts})
	return nil
}

// checkResources answers which stored resources of an API version a
// candidate schema, sent as the API version's PUT body, would refuse
// (service.CheckResources): one bounded page, and the nextLink to POST
// the same body to for the next.
func (s *Server) checkResources(w http.ResponseWriter, r *http.Request) error {
	id, err := idFromRequest(r, api.KindAPIVersion)
	if err != nil {
		return err
	}
	opts, err := listOptions(r)
	if err != nil {
		return err
	}
	body, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	env, err := service.DecodeEnvelope(body)
	if err != nil {
		return err
	}
	check, next, err := s.svc.CheckResources(r.Context(), id, env, opts)
	if err != nil {
		return err
	}
	if next != "" {
		check.NextLink = nextLink(r, opts.Top, next)
	}
	writeJSON(w, http.StatusOK, check)
	return nil
}

func (s *Server) list(kind registry.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var parent registry.ID
		if kind != api.KindPlane {
			var err error
			if parent, err = idFromRequest(r, parentKind(kind)); err != nil {
				return err
			}
		}
		return listPage(w, r, func(opts registry.ListOptions) ([]registry.Resource, string, error) {
			page, err := s.svc.List(r.Context(), parent, kind, opts)
			return page.Items, page.Next, err
		}, registry.Resource.Wire)
	}
}

// parentKind is the kind of the parent of a registration of kind (not a
// plane).
func parentKind(kind registry.Kind) registry.Kind {
	switch kind {
	case api.KindProvider:
		return api.KindPlane
	case api.KindAPIVersion:
		return api.KindResourceType
	}
	return api.KindProvider
}

func (s *Server) summaries(w http.ResponseWriter, r *http.Request) error {
	plane := r.PathValue("plane")
	if err := registry.ValidatePlane(plane); err != nil {
		return err
	}
	return s.serveSummary(w, r, func(icons bool) (any, error) {
		sums, err := s.svc.Summaries(r.Context(), plane, "")
		if err != nil {
			return nil, err
		}
		list := api.ProviderSummaryList{Value: registry.WireSummaries(sums)}
		if !icons {
			for i, sum := range list.Value {
				list.Value[i] = withoutIcons(sum)
			}
		}
		return list, nil
	})
}

func (s *Server) summary(w http.ResponseWriter, r *http.Request) error {
	plane, ns := r.PathValue("plane"), r.PathValue("namespace")
	if err := registry.ValidatePlane(plane); err != nil {
		return err
	}
	if err := registry.ValidateNamespace(ns); err != nil {
		return err
	}
	return s.serveSummary(w, r, func(icons bool) (any, error) {
		sum, err := s.svc.ProviderSummary(r.Context(), plane, ns)
		if err != nil {
			return nil, err
		}
		if !icons {
			sum = withoutIcons(sum)
		}
		return sum, nil
	})
}

// serveSummary answers a summary request from the response cache, or
// with the body build makes (with the types' icons when icons) and keeps
// it there.
func (s *Server) serveSummary(w http.ResponseWriter, r *http.Request, build func(icons bool) (any, error)) error {
	key, icons := summaryKey(r)
	at, served := s.serveCached(w, r, key)
	if served {
		return nil
	}
	body, err := build(icons)
	if err != nil {
		return err
	}
	s.writeCacheable(w, key, at, "", body)
	return nil
}

// summaryKey returns the response cache key of a summary request and
// whether it asks for the types' icons (includeIcons).
func summaryKey(r *http.Request) (key string, icons bool) {
	if includeIcons(r) {
		return r.URL.Path + "?includeIcons", true
	}
	return r.URL.Path, false
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "starting"})
		return
	}
	if err := s.svc.Ping(r.Context()); err != nil {
		s.log.ErrorContext(r.Context(), "store ping failed", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "store unavailable"})
		return
	}
	body := map[string]string{"status": "ready"}
	if sync := s.syncReadiness(r.Context()); sync != "" {
		body["sync"] = sync
	}
	writeJSON(w, http.StatusOK, body)
}

// noRoute answers every request no route matched.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) error {
	return s.noRouteError(w.Header(), r)
}

// noRouteError is the error of a request no route matched: 405 with
// Allow (set in h) when the path exists for other methods, 404 otherwise.
func (s *Server) noRouteError(h http.Header, r *http.Request) error {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodDelete} {
		r2 := r.Clone(r.Context())
		r2.Method = m
		_, pat := s.mux.Handler(r2)
		if strings.HasSuffix(pat, planeResourcePattern) && !isPlaneResourceList(r) {
			continue
		}
		if pat != "/" && pat != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		h.Set("Allow", strings.Join(allow, ", "))
		return registry.Errorf(registry.CodeMethodNotAllowed, "", "method %s is not allowed on %s", r.Method, r.URL.Path)
	}
	return registry.Errorf(registry.CodeNotFound, "", "no route for %s %s", r.Method, r.URL.Path)
}

// isRegistrationPath reports whether r is under
// /planes/radius/{plane}/providers/System.Resources/.
func isRegistrationPath(r *http.Request) bool {
	parts := strings.SplitN(r.URL.Path, "/", 7)
	return len(parts) > 5 && parts[4] == "providers" && strings.EqualFold(parts[5], "System.Resources")
}

// isPlaneResourceList reports whether a path planeResourcePattern matches
// is a plane-wide list: not a registration path no route matched, nor a
// provider summary with a trailing slash.
func isPlaneResourceList(r *http.Request) bool {
	return !isRegistrationPath(r) && !strings.HasSuffix(r.URL.Path, "/")
}
