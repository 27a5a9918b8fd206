package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// Resource groups and the resources of user-defined types: the control
// plane for the registered types. Every resource request resolves its
// type's registration first (resolveType); a PUT then checks the location,
// admits the properties against the registered schema, checks references,
// and only then stores.

// ---- resource groups ----

func groupFromRequest(r *http.Request) (registry.GroupID, error) {
	g := registry.GroupID{Plane: r.PathValue("plane"), Name: r.PathValue("group")}
	return g, g.Validate()
}

func (s *Server) getGroup(w http.ResponseWriter, r *http.Request) {
	id, err := groupFromRequest(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	g, err := s.store.GetGroup(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeGroup(w, http.StatusOK, g)
}

func (s *Server) putGroup(w http.ResponseWriter, r *http.Request) {
	id, err := groupFromRequest(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cond, err := preconditions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	env, err := s.readEnvelope(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(env.Properties) > 0 && string(bytes.TrimSpace(env.Properties)) != "null" {
		var p api.ResourceGroupProperties
		if err := decodeStrict(env.Properties, &p); err != nil {
			s.writeError(w, r, badRequest("invalid properties: %v", err))
			return
		}
	}
	if env.Location == "" {
		env.Location = DefaultLocation
	}
	g, created, err := s.store.PutGroup(r.Context(), registry.GroupWrite{
		Group: registry.Group{ID: id, Location: env.Location, Tags: env.Tags},
		If:    cond, Now: s.now().UTC(), Actor: callerFrom(r.Context()),
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeGroup(w, status, g)
}

func (s *Server) deleteGroup(w http.ResponseWriter, r *http.Request) {
	id, err := groupFromRequest(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cond, err := preconditions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	deleted, err := s.store.DeleteGroup(r.Context(), id, cond)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeDeleted(w, deleted)
}

func (s *Server) listGroups(w http.ResponseWriter, r *http.Request) {
	plane := r.PathValue("plane")
	if err := registry.ValidatePlane(plane); err != nil {
		s.writeError(w, r, err)
		return
	}
	opts, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.store.ListGroups(r.Context(), plane, opts)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeList(s, w, r, opts.Top, len(page.Items), page.Next, func(i int) (api.ResourceGroup, error) {
		return groupToWire(page.Items[i]), nil
	})
}

func groupToWire(g registry.Group) api.ResourceGroup {
	return api.ResourceGroup{
		ID: g.ID.String(), Name: g.ID.Name, Type: api.TypeResourceGroup,
		Location: g.Location, Tags: g.Tags,
		Properties: api.ResourceGroupProperties{ProvisioningState: api.ProvisioningSucceeded},
		SystemData: systemDataToWire(g.System),
	}
}

func writeGroup(w http.ResponseWriter, status int, g registry.Group) {
	w.Header().Set("ETag", `"`+g.ETag+`"`)
	writeJSON(w, status, groupToWire(g))
}

func writeDeleted(w http.ResponseWriter, deleted bool) {
	if deleted {
		w.WriteHeader(http.StatusOK)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func systemDataToWire(sd registry.SystemData) *api.SystemData {
	out := &api.SystemData{
		CreatedBy:      sd.CreatedBy,
		CreatedAt:      formatTime(sd.CreatedAt),
		LastModifiedBy: sd.LastModifiedBy,
		LastModifiedAt: formatTime(sd.LastModifiedAt),
	}
	if sd.CreatedBy != "" {
		out.CreatedByType = "User"
	}
	if sd.LastModifiedBy != "" {
		out.LastModifiedByType = "User"
	}
	return out
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

// resource serves GET, PUT and DELETE of one resource and GET of the lists
// in a group or under a parent: the path's segment count tells which.
func (s *Server) resource(w http.ResponseWriter, r *http.Request) {
	path, item := groupResourcePath(r)
	if r.Method == http.MethodPost {
		s.resourceAction(w, r, path, item)
		return
	}
	if !item {
		if r.Method != http.MethodGet {
			w.Header().Set("Allow", http.MethodGet)
			s.writeError(w, r, &httpError{status: http.StatusMethodNotAllowed, code: api.CodeMethodNotAllowed,
				message: fmt.Sprintf("method %s is not allowed on the list %s", r.Method, r.URL.Path)})
			return
		}
		lid, err := api.ParseResourceListID(path)
		if err != nil {
			s.writeError(w, r, badRequest("%v", err))
			return
		}
		s.listResources(w, r, registry.InstanceQuery{Plane: lid.Plane, Namespace: lid.Namespace, Type: lid.Type, Group: lid.Group, Parent: lid.Parent})
		return
	}
	id, err := api.ParseResourceID(path)
	if err != nil {
		s.writeError(w, r, badRequest("%v", err))
		return
	}
	switch r.Method {
	case http.MethodGet:
		s.getResource(w, r, id)
	case http.MethodPut:
		s.putResource(w, r, id)
	case http.MethodDelete:
		s.deleteResource(w, r, id)
	}
}

// ActionListSecrets is the one action on a resource:
// POST {resource ID}/listSecrets returns its sensitive values.
const ActionListSecrets = "listSecrets"

// resourceAction serves POST {resource ID}/{action}; path is the request's
// path and item whether it names a resource (then it names no action).
func (s *Server) resourceAction(w http.ResponseWriter, r *http.Request, path string, item bool) {
	base, action, _ := cutLast(path)
	if item || !strings.EqualFold(action, ActionListSecrets) {
		allow := http.MethodGet
		if item {
			allow = "GET, PUT, DELETE"
		}
		w.Header().Set("Allow", allow)
		s.writeError(w, r, &httpError{status: http.StatusMethodNotAllowed, code: api.CodeMethodNotAllowed,
			message: fmt.Sprintf("method POST is not allowed on %s; the one action is POST {resource ID}/%s", r.URL.Path, ActionListSecrets)})
		return
	}
	id, err := api.ParseResourceID(base)
	if err != nil {
		s.writeError(w, r, badRequest("%v", err))
		return
	}
	s.listSecrets(w, r, id)
}

func cutLast(path string) (before, last string, ok bool) {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return path, "", false
	}
	return path[:i], path[i+1:], true
}

// listSecrets returns the sensitive values of a resource at their paths
// in its properties ({} when it has none), as ARM's listSecrets does. It
// is a POST, so it needs the token whenever the server has tokens, even
// when reads are open.
func (s *Server) listSecrets(w http.ResponseWriter, r *http.Request, id api.ResourceID) {
	version, err := resourceAPIVersion(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.forwarded(w, r, id.Plane, id.Namespace, id.TypeName(), version) {
		return
	}
	in, err := s.store.GetInstance(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	plain, err := s.openSecrets(in)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, plain)
}

// planeResources serves the plane-wide list
// /planes/radius/{plane}/providers/{namespace}/{type...}.
func (s *Server) planeResources(w http.ResponseWriter, r *http.Request) {
	ns, typ := r.PathValue("namespace"), r.PathValue("type")
	if !isPlaneResourceList(r) {
		s.noRoute(w, r) // a registration path that no route matched
		return
	}
	plane := r.PathValue("plane")
	if err := registry.ValidatePlane(plane); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := registry.ValidateNamespace(ns); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := registry.ValidateTypeName(typ); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.listResources(w, r, registry.InstanceQuery{Plane: plane, Namespace: ns, Type: typ})
}

func (s *Server) listResources(w http.ResponseWriter, r *http.Request, q registry.InstanceQuery) {
	version, err := resourceAPIVersion(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.forwarded(w, r, q.Plane, q.Namespace, q.Type, version) {
		return
	}
	opts, err := listOptions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.store.ListInstances(r.Context(), q, opts)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeList(s, w, r, opts.Top, len(page.Items), page.Next, func(i int) (api.Instance, error) {
		return instanceToWire(page.Items[i]), nil
	})
}

func (s *Server) getResource(w http.ResponseWriter, r *http.Request, id api.ResourceID) {
	version, err := resourceAPIVersion(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The response depends on the registration (errors, forwarding) and
	// the stored instance: any write changes the generation.
	key := r.URL.Path + "?api-version=" + version
	gen, cache, served := s.serveCached(w, r, key)
	if served {
		return
	}
	if s.forwardedAt(w, r, gen, cache, id.Plane, id.Namespace, id.TypeName(), version) {
		return
	}
	in, err := s.store.GetInstance(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, err := marshal(instanceToWire(in))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	e := cachedResponse{etag: in.ETag, body: append(b, '\n')}
	if cache {
		s.cache.store(gen, key, e)
	}
	writeEncoded(w, http.StatusOK, e)
}

func (s *Server) deleteResource(w http.ResponseWriter, r *http.Request, id api.ResourceID) {
	version, err := resourceAPIVersion(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if s.forwarded(w, r, id.Plane, id.Namespace, id.TypeName(), version) {
		return
	}
	cond, err := preconditions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	deleted, err := s.store.DeleteInstance(r.Context(), id, cond)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeDeleted(w, deleted)
}

// putResource is the write path: registration, location, admission,
// references, then the secrets split, then forwarding or storing.
func (s *Server) putResource(w http.ResponseWriter, r *http.Request, id api.ResourceID) {
	ctx := r.Context()
	version, err := resourceAPIVersion(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	gen, cache := s.cache.generation(ctx)
	t, err := s.typeInfo(ctx, gen, cache, id.Plane, id.Namespace, id.TypeName(), version)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	verRow := t.ver
	cond, err := preconditions(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	env, err := s.readEnvelope(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	location, address, err := checkLocation(verRow.ID, t.locs, env.Location)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	props, err := clientProperties(env.Properties)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	adm, err := s.admit(ctx, id, verRow, props)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if address != "" {
		s.forwardPut(w, r, id, address, location, env.Tags, adm.doc)
		return
	}
	stored, created, err := s.store.PutInstance(ctx, registry.InstanceWrite{
		Instance: registry.Instance{
			ID: id, APIVersion: verRow.ID.Name, Location: location, Tags: env.Tags,
			Properties: adm.public, Secrets: adm.sealed,
		},
		If: cond, Now: s.now().UTC(), Actor: callerFrom(ctx),
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeInstance(w, status, stored)
}

// forwarded resolves the registration of a GET, DELETE, LIST or
// listSecrets request and, when its type is served at an address (see
// routeAddress), forwards the request there. It reports whether it
// answered (an error, or the provider's response); false means the
// registry serves the request itself.
func (s *Server) forwarded(w http.ResponseWriter, r *http.Request, plane, ns, typ, version string) bool {
	gen, cache := s.cache.generation(r.Context())
	return s.forwardedAt(w, r, gen, cache, plane, ns, typ, version)
}

// forwardedAt is forwarded with the store generation read by the caller
// (gen, cache: respCache.generation's).
func (s *Server) forwardedAt(w http.ResponseWriter, r *http.Request, gen string, cache bool, plane, ns, typ, version string) bool {
	t, err := s.typeInfo(r.Context(), gen, cache, plane, ns, typ, version)
	if err != nil {
		s.writeError(w, r, err)
		return true
	}
	address := routeAddress(t.locs)
	if address == "" {
		return false
	}
	s.fwd.forward(w, r, address, nil)
	return true
}

// forwardPut sends an admitted PUT to the provider at address: the body is
// the admitted document (defaults applied, read-only values dropped,
// sensitive values included: the provider keeps them) with the location's
// registered spelling. The resource group must exist (404 otherwise); the
// registry stores nothing.
func (s *Server) forwardPut(w http.ResponseWriter, r *http.Request, id api.ResourceID, address, location string, tags map[string]string, doc json.RawMessage) {
	if _, err := s.store.GetGroup(r.Context(), registry.GroupID{Plane: id.Plane, Name: id.Group}); errors.Is(err, registry.ErrNotFound) {
		s.writeError(w, r, fmt.Errorf("resource group %s of %s: %w", id.Scope(), id, registry.ErrGroupNotFound))
		return
	} else if err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := marshal(struct {
		Location   string            `json:"location"`
		Tags       map[string]string `json:"tags,omitempty"`
		Properties json.RawMessage   `json:"properties"`
	}{location, tags, doc})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.fwd.forward(w, r, address, body)
}

// resourceAPIVersion returns ?api-version of a resource request: one value,
// a well-formed API version (whether it is registered is resolveType's).
func resourceAPIVersion(r *http.Request) (string, error) {
	v := r.URL.Query()["api-version"]
	if len(v) != 1 || v[0] == "" {
		return "", &httpError{status: http.StatusBadRequest, code: api.CodeInvalidAPIVersion, target: "api-version",
			message: "api-version is required once: a registered API version of the resource's type"}
	}
	if p := api.APIVersionProblem(v[0]); p != "" {
		return "", &httpError{status: http.StatusBadRequest, code: api.CodeInvalidAPIVersion, target: "api-version",
			message: fmt.Sprintf("api-version %q %s", v[0], p)}
	}
	return v[0], nil
}

// resolveType returns the registered API version version of type typ (one
// store lookup), or an error naming what is missing and what is
// registered: NamespaceNotFound, ResourceTypeNotFound (both 404) or
// InvalidResourceTypeApiVersion (400).
func (s *Server) resolveType(ctx context.Context, plane, ns, typ, version string) (registry.Resource, error) {
	row, err := s.store.Get(ctx, registry.APIVersionID(plane, ns, typ, version))
	if err == nil || !errors.Is(err, registry.ErrNotFound) {
		return row, err
	}
	if _, err := s.store.Get(ctx, registry.PlaneID(plane)); err != nil {
		return row, err
	}
	if _, err := s.store.Get(ctx, registry.ProviderID(plane, ns)); errors.Is(err, registry.ErrNotFound) {
		names, err := s.childNames(ctx, registry.PlaneID(plane), registry.KindProvider)
		if err != nil {
			return row, err
		}
		return row, &httpError{status: http.StatusNotFound, code: api.CodeNamespaceNotFound, target: "namespace",
			message: fmt.Sprintf("resource provider namespace %q is not registered in plane %q; registered: %s", ns, plane, names)}
	} else if err != nil {
		return row, err
	}
	if _, err := s.store.Get(ctx, registry.TypeID(plane, ns, typ)); errors.Is(err, registry.ErrNotFound) {
		names, err := s.childNames(ctx, registry.ProviderID(plane, ns), registry.KindResourceType)
		if err != nil {
			return row, err
		}
		return row, &httpError{status: http.StatusNotFound, code: api.CodeResourceTypeNotFound, target: "type",
			message: fmt.Sprintf("resource type %q is not registered in namespace %s; registered: %s", typ, ns, names)}
	} else if err != nil {
		return row, err
	}
	names, err := s.childNames(ctx, registry.TypeID(plane, ns, typ), registry.KindAPIVersion)
	if err != nil {
		return row, err
	}
	return row, &httpError{status: http.StatusBadRequest, code: api.CodeAPIVersionNotFound, target: "api-version",
		message: fmt.Sprintf("API version %q of %s/%s is not registered; registered: %s", version, ns, typ, names)}
}

// childNames lists the names of the first page of children of kind under
// parent, for messages.
func (s *Server) childNames(ctx context.Context, parent registry.ID, kind registry.Kind) (string, error) {
	page, err := s.store.List(ctx, parent, kind, registry.ListOptions{})
	if err != nil {
		return "", err
	}
	var names []string
	for _, res := range page.Items {
		names = append(names, res.ID.Leaf())
	}
	return nameList(names, page.Next != ""), nil
}

func nameList(names []string, more bool) string {
	if len(names) == 0 {
		return "none"
	}
	s := strings.Join(names, ", ")
	if more {
		s += ", ..."
	}
	return s
}

// DefaultLocation is the location of a resource, resource group, plane or
// provider whose body names none.
const DefaultLocation = "global"

// checkLocation returns the registered spelling of the resource's location
// (DefaultLocation when requested is "") and the address requests for the
// type go to there ("" when the registry stores them itself), among locs,
// the locations serving verID (servingLocations). The
// location must register the type and API version of verID, else 400
// LocationNotRegistered naming the locations that do.
func checkLocation(verID registry.ID, locs []servingLocation, requested string) (name, address string, err error) {
	if requested == "" {
		requested = DefaultLocation
	}
	var serving []string
	for _, l := range locs {
		if strings.EqualFold(l.name, requested) {
			return l.name, l.address, nil
		}
		serving = append(serving, l.name)
	}
	return "", "", &httpError{status: http.StatusBadRequest, code: api.CodeLocationNotRegistered, target: "location",
		message: fmt.Sprintf("location %q is not registered for %s/%s API version %s; registered: %s",
			requested, verID.Provider, verID.Type, verID.Name, nameList(serving, false))}
}

// routeAddress is where the requests without a body location (GET,
// DELETE, LIST, listSecrets) of a type and API version served at locs
// (servingLocations) go: the
// address of the location DefaultLocation when it registers them, else of
// the first location by name that does; "" when that location has no
// address (or none registers them): the registry serves the request.
func routeAddress(locs []servingLocation) string {
	if len(locs) == 0 {
		return ""
	}
	for _, l := range locs {
		if strings.EqualFold(l.name, DefaultLocation) {
			return l.address
		}
	}
	return locs[0].address
}

type servingLocation struct{ name, address string }

// servingLocations returns the locations of verID's provider that
// register its type and API version, ordered by name, each with the
// address the type's requests go to there (the type's own address, else
// the location's; "" for none).
func (s *Server) servingLocations(ctx context.Context, verID registry.ID) ([]servingLocation, error) {
	page, err := s.store.List(ctx, registry.ProviderID(verID.Plane, verID.Provider), registry.KindLocation, registry.ListOptions{Top: registry.MaxPageSize})
	if err != nil {
		return nil, err
	}
	var out []servingLocation
	for _, res := range page.Items {
		var lp registry.LocationProperties
		if err := json.Unmarshal(res.Properties, &lp); err != nil {
			return nil, fmt.Errorf("stored properties of %s: %w", res.ID, err)
		}
		lt, ok := lookupFold(lp.ResourceTypes, verID.Type)
		if !ok {
			continue
		}
		if _, ok := lookupFold(lt.APIVersions, verID.Name); !ok {
			continue
		}
		address := lp.Address
		if lt.Address != "" {
			address = lt.Address
		}
		out = append(out, servingLocation{res.ID.Name, address})
	}
	slices.SortFunc(out, func(a, b servingLocation) int {
		return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
	})
	return out, nil
}

func lookupFold[V any](m map[string]V, key string) (V, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	var zero V
	return zero, false
}

// clientProperties checks the body's properties: a JSON object (absent or
// null means {}). provisioningState is read-only and dropped, so that a GET
// body can be PUT back.
func clientProperties(raw json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if t[0] != '{' {
		return nil, &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent, target: "properties",
			message: "properties must be a JSON object"}
	}
	if !bytes.Contains(t, []byte(`"provisioningState"`)) {
		return t, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(t, &m); err != nil {
		return nil, badRequest("invalid properties: %v", err)
	}
	delete(m, "provisioningState")
	return marshal(m)
}

// withProvisioningState adds provisioningState to a stored properties
// object (compact JSON, as stores return it).
func withProvisioningState(props json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(props)
	if len(t) < 2 || t[0] != '{' {
		t = []byte(`{}`)
	}
	out := make([]byte, 0, len(t)+40)
	out = append(out, t[:len(t)-1]...)
	if len(bytes.TrimSpace(t[1:len(t)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"provisioningState":"`+api.ProvisioningSucceeded+`"}`...)
	return out
}

func instanceToWire(in registry.Instance) api.Instance {
	return api.Instance{
		ID: in.ID.String(), Name: in.ID.Name(), Type: in.ID.Type(),
		Location: in.Location, Tags: in.Tags,
		Properties: withProvisioningState(in.Properties),
		SystemData: systemDataToWire(in.System),
	}
}

func writeInstance(w http.ResponseWriter, status int, in registry.Instance) {
	w.Header().Set("ETag", `"`+in.ETag+`"`)
	writeJSON(w, status, instanceToWire(in))
}
