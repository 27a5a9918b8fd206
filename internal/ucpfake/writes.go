package ucpfake

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/udtc/udtc/registry/api"
)

var versionPattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(-preview)?$`)

// body is the answer body of r.
func (r *resource) body(state string) map[string]any {
	props := maps.Clone(r.props)
	props["provisioningState"] = state
	b := map[string]any{"id": r.id, "name": r.name, "type": wireTypes[r.kind], "properties": props}
	if r.kind == kindProvider {
		b["location"] = r.location
	}
	return b
}

func (s *Server) get(w http.ResponseWriter, p path) {
	r := s.res[strings.ToLower(p.id)]
	if r == nil {
		armError(w, http.StatusNotFound, "NotFound", fmt.Sprintf("the resource with id '%s' was not found", p.id))
		return
	}
	writeJSON(w, http.StatusOK, r.body(r.state))
}

// list lists the resources of kind of the whole plane, as UCP does for
// any provider's (or type's) list.
func (s *Server) list(plane, kind string) []map[string]any {
	prefix := strings.ToLower("/planes/radius/" + plane + "/")
	out := []map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(s.res)) {
		if r := s.res[key]; r.kind == kind && strings.HasPrefix(key, prefix) {
			out = append(out, r.body(r.state))
		}
	}
	return out
}

// inProgress answers 409 when r has an operation running.
func inProgress(w http.ResponseWriter, r *resource) bool {
	if r == nil || (r.state != "Accepted" && r.state != "Updating") {
		return false
	}
	armError(w, http.StatusConflict, "Conflict", fmt.Sprintf("The target resource is in progress state: %s.", r.state))
	return true
}

func (s *Server) put(w http.ResponseWriter, req *http.Request, p path) {
	var in struct {
		Location   string         `json:"location"`
		Properties map[string]any `json:"properties"`
	}
	data, _ := io.ReadAll(req.Body)
	if err := json.Unmarshal(data, &in); err != nil {
		specInvalid(w, "InvalidProperties", "the body is not JSON: "+err.Error())
		return
	}
	if in.Properties == nil {
		in.Properties = map[string]any{}
	}
	delete(in.Properties, "provisioningState")
	if msg := propertiesProblem(p.kind, in.Properties); msg != "" {
		armError(w, http.StatusBadRequest, "BadRequest", msg)
		return
	}
	key := strings.ToLower(p.id)
	r := s.res[key]
	if inProgress(w, r) {
		return
	}
	if r == nil {
		r = &resource{id: p.id, kind: p.kind, name: p.name, ns: p.ns, typ: p.typ, location: "global"}
		s.res[key] = r
	}
	if in.Location != "" {
		r.location = in.Location
	}
	r.props, r.state = in.Properties, "Accepted"
	s.accepted(w, req, http.MethodPut, key, http.StatusCreated, r.body("Accepted"))
}

// propertiesProblem is UCP's refusal of the properties of a PUT of kind.
func propertiesProblem(kind string, props map[string]any) string {
	switch kind {
	case kindType:
		caps, _ := props["capabilities"].([]any)
		for _, c := range caps {
			if c != "ManualResourceProvisioning" {
				return fmt.Sprintf("capability %q is not recognized. Supported capabilities: ManualResourceProvisioning", c)
			}
		}
		if icon, ok := props["icon"].(string); ok {
			if p := api.IconProblem(icon); p != "" {
				return "invalid icon: " + p
			}
			props["iconHash"] = api.IconHash(icon)
		}
	case kindLocation:
		// UCP keeps apiVersions only: a per-type address is dropped.
		types, _ := props["resourceTypes"].(map[string]any)
		out := map[string]any{}
		for t, v := range types {
			entry, _ := v.(map[string]any)
			vs, _ := entry["apiVersions"].(map[string]any)
			if vs == nil {
				vs = map[string]any{}
			}
			out[t] = map[string]any{"apiVersions": vs}
		}
		props["resourceTypes"] = out
	}
	return ""
}

func (s *Server) delete(w http.ResponseWriter, req *http.Request, p path) {
	key := strings.ToLower(p.id)
	r := s.res[key]
	switch {
	case r == nil:
		w.WriteHeader(http.StatusNoContent)
	case inProgress(w, r):
	default:
		r.state = "Accepted"
		s.accepted(w, req, http.MethodDelete, key, http.StatusAccepted, r.body("Accepted"))
	}
}

// accepted starts an operation of method on the resource key and answers
// as UCP's asynchronous controllers do.
func (s *Server) accepted(w http.ResponseWriter, req *http.Request, method, key string, status int, body map[string]any) {
	s.nextOp++
	op := &operation{id: fmt.Sprintf("op-%04d", s.nextOp), method: method, target: key, status: "Accepted", start: time.Now()}
	if method == http.MethodPut {
		op.orphan = s.orphaned(key)
	}
	s.ops[op.id] = op
	plane := strings.Split(key, "/")[3]
	base := "http://" + req.Host + api.BasePath + "/planes/radius/" + plane + "/providers/System.Resources/locations/global/"
	h := w.Header()
	h.Set("Azure-AsyncOperation", base+"operationStatuses/"+op.id+"?api-version="+api.Version)
	h.Set("Location", base+"operationResults/"+op.id+"?api-version="+api.Version)
	h.Set("Retry-After", s.retryAfter())
	writeJSON(w, status, body)
}

// advance counts a poll of op and moves it on: Updating, then terminal
// after Steps polls unless its resource is held.
func (s *Server) advance(op *operation) {
	if !op.end.IsZero() {
		return
	}
	op.polls++
	if op.polls < s.Steps || s.held[op.target] {
		op.status = "Updating"
		s.setState(op.target, "Updating")
		return
	}
	op.status, op.err = s.outcome(op)
	op.end = time.Now()
	if in := s.inst[op.target]; in != nil && op.method == http.MethodDelete && op.status == "Succeeded" {
		delete(s.inst, op.target)
	}
	r := s.res[op.target]
	switch {
	case r == nil:
	case op.status != "Succeeded":
		r.state = op.status
	case op.method == http.MethodDelete:
		s.remove(op.target)
	default:
		r.state, r.ok = "Succeeded", maps.Clone(r.props)
	}
}

func (s *Server) setState(key, state string) {
	if r := s.res[key]; r != nil {
		r.state = state
	}
}

// outcome decides how op ends: as forced with Fail, or as its parent
// stood when it was written (orphaned).
func (s *Server) outcome(op *operation) (string, *api.ErrorDetail) {
	if state, ok := s.fail[op.target]; ok {
		msg := "forced failure"
		if state == "Canceled" {
			msg = "Operation (PUT) has timed out because it was processing longer than 120 s."
		}
		return state, &api.ErrorDetail{Code: "Internal", Message: msg}
	}
	if op.orphan != nil {
		return "Failed", op.orphan
	}
	return "Succeeded", nil
}

// orphaned is how UCP's backend fails the PUT of the resource key when
// its parent's write has not succeeded yet (the summary it updates does
// not have the parent): nil when the parent has succeeded.
func (s *Server) orphaned(key string) *api.ErrorDetail {
	r := s.res[key]
	if r == nil || (r.kind != kindType && r.kind != kindVersion) {
		return nil
	}
	parent := key[:strings.LastIndex(key, "/"+r.kind+"/")]
	if p := s.res[parent]; p != nil && p.ok != nil {
		return nil
	}
	if r.kind == kindType {
		return &api.ErrorDetail{Code: "Internal", Message: fmt.Sprintf("the resource %s was not found", parent)}
	}
	return &api.ErrorDetail{Code: "Internal", Message: fmt.Sprintf("resource type entry %q not found", r.typ)}
}

// remove deletes the resource key and, as UCP's cascades do, those under it.
func (s *Server) remove(key string) {
	for k := range s.res {
		if k == key || strings.HasPrefix(k, key+"/") {
			delete(s.res, k)
		}
	}
}

func (s *Server) operationStatus(w http.ResponseWriter, id string) {
	op := s.ops[id]
	if op == nil {
		armError(w, http.StatusNotFound, "NotFound", "the operation "+id+" was not found")
		return
	}
	s.advance(op)
	body := map[string]any{"id": "/planes/radius/local/providers/system.resources/locations/global/operationstatuses/" + op.id,
		"name": op.id, "status": op.status, "startTime": op.start.UTC().Format(time.RFC3339Nano)}
	if !op.end.IsZero() {
		body["endTime"] = op.end.UTC().Format(time.RFC3339Nano)
	}
	if op.err != nil {
		body["error"] = op.err
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Server) operationResult(w http.ResponseWriter, r *http.Request, id string) {
	op := s.ops[id]
	if op == nil {
		armError(w, http.StatusNotFound, "NotFound", "the operation "+id+" was not found")
		return
	}
	s.advance(op)
	if op.end.IsZero() {
		w.Header().Set("Location", "http://"+r.Host+r.URL.RequestURI())
		w.Header().Set("Retry-After", s.retryAfter())
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// summaries are the provider summaries of plane (of namespace ns when not
// ""), from the writes that succeeded only, as UCP's backend keeps them.
func (s *Server) summaries(plane, ns string) []map[string]any {
	prefix := strings.ToLower("/planes/radius/" + plane + "/providers/system.resources/resourceproviders/")
	out := []map[string]any{}
	for _, key := range slices.Sorted(maps.Keys(s.res)) {
		p := s.res[key]
		if p.kind != kindProvider || p.ok == nil || !strings.HasPrefix(key, prefix) || (ns != "" && !strings.EqualFold(ns, p.ns)) {
			continue
		}
		locs, types := map[string]any{}, map[string]any{}
		for k, r := range s.res {
			if !strings.HasPrefix(k, key+"/") || r.ok == nil {
				continue
			}
			switch r.kind {
			case kindLocation:
				locs[r.name] = map[string]any{}
			case kindType:
				t := maps.Clone(r.ok)
				t["apiVersions"] = s.versions(k)
				if _, ok := t["capabilities"]; !ok {
					t["capabilities"] = []any{}
				}
				types[r.name] = t
			}
		}
		out = append(out, map[string]any{"name": p.ns, "locations": locs, "resourceTypes": types})
	}
	return out
}

// versions are the API versions of the type key in a summary.
func (s *Server) versions(key string) map[string]any {
	out := map[string]any{}
	for k, r := range s.res {
		if r.kind == kindVersion && r.ok != nil && strings.HasPrefix(k, key+"/") {
			out[r.name] = map[string]any{"schema": r.ok["schema"]}
		}
	}
	return out
}

func (s *Server) summary(w http.ResponseWriter, r *http.Request, plane, ns string) {
	sums := s.summaries(plane, ns)
	if len(sums) == 0 {
		armError(w, http.StatusNotFound, "NotFound", fmt.Sprintf("the resource with id '/planes/radius/%s/providers/System.Resources/resourceproviders/%s' was not found", plane, ns))
		return
	}
	if !strings.EqualFold(r.URL.Query().Get("includeIcons"), "true") {
		for _, t := range sums[0]["resourceTypes"].(map[string]any) {
			delete(t.(map[string]any), "icon")
		}
	}
	writeJSON(w, http.StatusOK, sums[0])
}
