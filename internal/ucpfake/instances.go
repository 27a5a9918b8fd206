package ucpfake

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
)

// instance is a resource of a user-defined type.
type instance struct {
	id, ns, typ, name string
}

func (in *instance) body() map[string]any {
	return map[string]any{"id": in.id, "name": in.name, "type": in.ns + "/" + in.typ,
		"properties": map[string]any{"provisioningState": "Succeeded"}}
}

// SeedResource stores the resource name of the type namespace/typ in
// resource group group of plane, as if created long ago.
func (s *Server) SeedResource(plane, group, namespace, typ, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := fmt.Sprintf("/planes/radius/%s/resourceGroups/%s/providers/%s/%s/%s", plane, group, namespace, typ, name)
	s.inst[strings.ToLower(id)] = &instance{id: id, ns: namespace, typ: typ, name: name}
}

// Resources returns the IDs of the resources the fake holds, sorted.
func (s *Server) Resources() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, k := range slices.Sorted(maps.Keys(s.inst)) {
		out = append(out, s.inst[k].id)
	}
	return out
}

// isInstancePath reports whether a path (split, from "" on) is a resource
// of a user-defined type or a plane-wide list of one: routed to Radius's
// dynamic resource provider, with the type's API version.
func isInstancePath(seg []string) bool {
	switch {
	case len(seg) == 7 && seg[4] == "providers" && seg[5] != "System.Resources":
		return true
	case len(seg) == 10 && strings.EqualFold(seg[4], "resourcegroups") && seg[6] == "providers":
		return true
	}
	return false
}

// instances serves the plane-wide list of a type (GET) and the resources
// of a group (GET, DELETE; DELETE is asynchronous).
func (s *Server) instances(w http.ResponseWriter, r *http.Request, seg []string) {
	if r.URL.Query().Get("api-version") == "" {
		armError(w, http.StatusBadRequest, "InvalidApiVersionParameter", "api-version is required")
		return
	}
	plane := seg[3]
	if len(seg) == 7 {
		if r.Method != http.MethodGet {
			invalid(w, r)
			return
		}
		ns, typ := seg[5], seg[6]
		typeID := strings.ToLower("/planes/radius/" + plane + "/providers/System.Resources/resourceproviders/" + ns + "/resourcetypes/" + typ)
		if t := s.res[typeID]; t == nil || t.ok == nil {
			armError(w, http.StatusNotFound, "NotFound", fmt.Sprintf("resource type %s/%s not found", ns, typ))
			return
		}
		prefix := strings.ToLower("/planes/radius/" + plane + "/")
		out := []map[string]any{}
		for _, k := range slices.Sorted(maps.Keys(s.inst)) {
			in := s.inst[k]
			if strings.HasPrefix(k, prefix) && strings.EqualFold(in.ns, ns) && strings.EqualFold(in.typ, typ) {
				out = append(out, in.body())
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"value": out})
		return
	}
	key := strings.ToLower(strings.Join(seg, "/"))
	in := s.inst[key]
	switch {
	case r.Method == http.MethodGet && in != nil:
		writeJSON(w, http.StatusOK, in.body())
	case r.Method == http.MethodGet:
		armError(w, http.StatusNotFound, "NotFound", fmt.Sprintf("the resource with id '%s' was not found", r.URL.Path))
	case r.Method == http.MethodDelete && in == nil:
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodDelete:
		s.accepted(w, r, http.MethodDelete, key, http.StatusAccepted, in.body())
	default:
		invalid(w, r)
	}
}
