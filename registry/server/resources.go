package server

import (
	"net/http"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
)

// Resource groups and the resources of user-defined types. The service
// resolves a resource request's type (and whether it goes to an address),
// admits, checks references, seals and stores; these handlers decode and
// encode.

// ---- resource groups ----

func (s *Server) getGroup(w http.ResponseWriter, r *http.Request) error {
	id, err := groupFromRequest(r)
	if err != nil {
		return err
	}
	g, err := s.svc.GetGroup(r.Context(), id)
	if err != nil {
		return err
	}
	writeTagged(w, http.StatusOK, g.ETag, g.Wire())
	return nil
}

func (s *Server) putGroup(w http.ResponseWriter, r *http.Request) error {
	id, err := groupFromRequest(r)
	if err != nil {
		return err
	}
	env, err := s.readEnvelope(w, r)
	if err != nil {
		return err
	}
	g, created, err := s.svc.PutGroup(r.Context(), service.GroupWrite{ID: id, Body: env, If: preconditions(r), Actor: callerFrom(r.Context())})
	if err != nil {
		return err
	}
	writeTagged(w, createdStatus(created), g.ETag, g.Wire())
	return nil
}

func (s *Server) deleteGroup(w http.ResponseWriter, r *http.Request) error {
	id, err := groupFromRequest(r)
	if err != nil {
		return err
	}
	deleted, err := s.svc.DeleteGroup(r.Context(), id, preconditions(r))
	return writeDeleted(w, deleted, err)
}

func (s *Server) listGroups(w http.ResponseWriter, r *http.Request) error {
	plane := r.PathValue("plane")
	if err := registry.ValidatePlane(plane); err != nil {
		return err
	}
	return listPage(w, r, func(opts registry.ListOptions) ([]registry.Group, string, error) {
		page, err := s.svc.ListGroups(r.Context(), plane, opts)
		return page.Items, page.Next, err
	}, func(g registry.Group) (api.ResourceGroup, error) { return g.Wire(), nil })
}

// readEnvelope reads and decodes a PUT body.
func (s *Server) readEnvelope(w http.ResponseWriter, r *http.Request) (service.Envelope, error) {
	body, err := s.readBody(w, r)
	if err != nil {
		return service.Envelope{}, err
	}
	return service.DecodeEnvelope(body)
}

// ---- resources of user-defined types ----

// groupResourcePath is the resource ID (or list ID) a request under
// /planes/radius/{plane}/resourceGroups/{group}/providers/{namespace}/{path...}
// names, and whether it names one resource (true) or a list. No segment
// holds an escaped '/' (rejectUncleanPaths refused those), so the decoded
// path values rebuild the ID segment for segment.
func groupResourcePath(r *http.Request) (path string, item bool) {
	rest := r.PathValue("path")
	path = "/planes/radius/" + r.PathValue("plane") + "/resourceGroups/" + r.PathValue("group") +
		"/providers/" + r.PathValue("namespace") + "/" + rest
	return path, strings.Count(rest, "/")%2 == 1
}

// resource serves GET, PUT and DELETE of one resource, GET of the lists
// in a group or under a parent (the path's segment count tells which) and
// POST of an action.
func (s *Server) resource(w http.ResponseWriter, r *http.Request) error {
	path, item := groupResourcePath(r)
	if r.Method == http.MethodPost {
		return s.resourceAction(w, r, path, item)
	}
	if !item {
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			return registry.Errorf(registry.CodeMethodNotAllowed, "", "method %s is not allowed on the list %s", r.Method, r.URL.Path)
		}
		lid, err := api.ParseResourceListID(path)
		if err != nil {
			return registry.Errorf(registry.CodeInvalid, "", "%v", err)
		}
		return s.listResources(w, r, registry.InstanceQuery{Plane: lid.Plane, Namespace: lid.Namespace, Type: lid.Type, Group: lid.Group, Parent: lid.Parent})
	}
	id, err := api.ParseResourceID(path)
	if err != nil {
		return registry.Errorf(registry.CodeInvalid, "", "%v", err)
	}
	version, err := resourceAPIVersion(r)
	if err != nil {
		return err
	}
	ref := service.TypeRef{Plane: id.Plane, Namespace: id.Namespace, Type: id.TypeName(), APIVersion: version}
	// One read of the generation for the request: the lifecycle's headers
	// and the handler resolve the type at it.
	at := s.svc.Generation(r.Context())
	s.announceLifecycle(w, r, at, ref)
	switch r.Method {
	case http.MethodPut:
		return s.putResource(w, r, at, id, ref)
	case http.MethodDelete:
		return s.deleteResource(w, r, at, id, ref)
	}
	return s.getResource(w, r, at, id, ref)
}

// ActionListSecrets is the one action on a resource:
// POST {resource ID}/listSecrets returns its sensitive values.
const ActionListSecrets = "listSecrets"

// resourceAction serves POST {resource ID}/{action}; path is the request's
// path and item whether it names a resource (then it names no action).
func (s *Server) resourceAction(w http.ResponseWriter, r *http.Request, path string, item bool) error {
	i := strings.LastIndexByte(path, '/')
	base, action := path[:i], path[i+1:]
	if item || !strings.EqualFold(action, ActionListSecrets) {
		allow := http.MethodGet
		if item {
			allow = "GET, PUT, DELETE"
		}
		w.Header().Set("Allow", allow)
		return registry.Errorf(registry.CodeMethodNotAllowed, "",
			"method POST is not allowed on %s; the one action is POST {resource ID}/%s", r.URL.Path, ActionListSecrets)
	}
	id, err := api.ParseResourceID(base)
	if err != nil {
		return registry.Errorf(registry.CodeInvalid, "", "%v", err)
	}
	return s.listSecrets(w, r, id)
}

// listSecrets returns the sensitive values of a resource at their paths
// in its properties ({} when it has none), as ARM's listSecrets does. It
// is a POST, so it needs the token whenever the server has tokens, even
// when reads are open.
func (s *Server) listSecrets(w http.ResponseWriter, r *http.Request, id api.ResourceID) error {
	version, err := resourceAPIVersion(r)
	if err != nil {
		return err
	}
	ref := service.TypeRef{Plane: id.Plane, Namespace: id.Namespace, Type: id.TypeName(), APIVersion: version}
	if done, err := s.forwarded(w, r, s.svc.Generation(r.Context()), ref); done || err != nil {
		return err
	}
	plain, err := s.svc.ListSecrets(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, plain)
	return nil
}

// planeResources serves the plane-wide list
// /planes/radius/{plane}/providers/{namespace}/{type...}.
func (s *Server) planeResources(w http.ResponseWriter, r *http.Request) error {
	if !isPlaneResourceList(r) {
		return s.noRoute(w, r) // a registration path that no route matched
	}
	q := registry.InstanceQuery{Plane: r.PathValue("plane"), Namespace: r.PathValue("namespace"), Type: r.PathValue("type")}
	if err := registry.ValidatePlane(q.Plane); err != nil {
		return err
	}
	if err := registry.ValidateNamespace(q.Namespace); err != nil {
		return err
	}
	if err := registry.ValidateTypeName(q.Type); err != nil {
		return err
	}
	return s.listResources(w, r, q)
}

func (s *Server) listResources(w http.ResponseWriter, r *http.Request, q registry.InstanceQuery) error {
	version, err := resourceAPIVersion(r)
	if err != nil {
		return err
	}
	ref := service.TypeRef{Plane: q.Plane, Namespace: q.Namespace, Type: q.Type, APIVersion: version}
	at := s.svc.Generation(r.Context())
	s.announceLifecycle(w, r, at, ref)
	if done, err := s.forwarded(w, r, at, ref); done || err != nil {
		return err
	}
	return listPage(w, r, func(opts registry.ListOptions) ([]registry.Instance, string, error) {
		page, err := s.svc.ListResources(r.Context(), q, opts)
		return page.Items, page.Next, err
	}, func(in registry.Instance) (api.Instance, error) { return in.Wire(), nil })
}

func (s *Server) getResource(w http.ResponseWriter, r *http.Request, at service.At, id api.ResourceID, ref service.TypeRef) error {
	// The response depends on the registration (errors, forwarding) and
	// the stored instance: any write changes the generation.
	key := r.URL.Path + "?api-version=" + ref.APIVersion
	if s.serveCachedAt(w, at, key) {
		return nil
	}
	if done, err := s.forwarded(w, r, at, ref); done || err != nil {
		return err
	}
	in, err := s.svc.GetResource(r.Context(), id)
	if err != nil {
		return err
	}
	b, err := service.Marshal(in.Wire())
	if err != nil {
		return err
	}
	s.writeCached(w, key, at, cachedResponse{etag: in.ETag, body: append(b, '\n')})
	return nil
}

func (s *Server) deleteResource(w http.ResponseWriter, r *http.Request, at service.At, id api.ResourceID, ref service.TypeRef) error {
	if done, err := s.forwarded(w, r, at, ref); done || err != nil {
		return err
	}
	deleted, err := s.svc.DeleteResource(r.Context(), id, preconditions(r))
	return writeDeleted(w, deleted, err)
}

// putResource is the write path: the service resolves the type, then
// checks, admits and stores the decoded body, or hands back the PUT to
// forward to the address the type is served at.
func (s *Server) putResource(w http.ResponseWriter, r *http.Request, at service.At, id api.ResourceID, ref service.TypeRef) error {
	ctx := r.Context()
	t, err := s.svc.Resolve(ctx, at, ref)
	if err != nil {
		return err
	}
	env, err := s.readEnvelope(w, r)
	if err != nil {
		return err
	}
	put, err := s.svc.PutResource(ctx, t, service.ResourceWrite{ID: id, Body: env, If: preconditions(r), Actor: callerFrom(ctx)})
	if err != nil {
		return err
	}
	if put.Forward != nil {
		s.fwd.forward(w, r, put.Forward.Address, put.Forward.Body)
		return nil
	}
	writeTagged(w, createdStatus(put.Created), put.Stored.ETag, put.Stored.Wire())
	return nil
}

// announceLifecycle sets the headers of a deprecated API version
// (api.Lifecycle.Headers: Deprecation, Sunset, Warning) on the answer to
// a request for its resources, whatever the answer. A ref that does not
// resolve sets none: the handler reports why.
func (s *Server) announceLifecycle(w http.ResponseWriter, r *http.Request, at service.At, ref service.TypeRef) {
	t, err := s.svc.Resolve(r.Context(), at, ref)
	if err != nil {
		return
	}
	for k, v := range t.LifecycleHeaders() {
		w.Header().Set(k, v)
	}
}

// forwarded resolves the registration of a GET, DELETE, LIST or
// listSecrets request at the generation at and, when its type is served
// at an address (service.Type.Address), forwards the request there. It
// reports whether it answered; false means the registry serves the
// request itself.
func (s *Server) forwarded(w http.ResponseWriter, r *http.Request, at service.At, ref service.TypeRef) (bool, error) {
	t, err := s.svc.Resolve(r.Context(), at, ref)
	if err != nil {
		return false, err
	}
	address := t.Address()
	if address == "" {
		return false, nil
	}
	s.fwd.forward(w, r, address, nil)
	return true, nil
}
