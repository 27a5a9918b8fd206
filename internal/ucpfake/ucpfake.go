// Package ucpfake is test support: an in-memory stand-in for Radius's UCP
// registration API that answers as UCP does, so that the client and
// publish can be tested against UCP's wire without Radius's binaries. It
// serves only under api.BasePath, matches the description's lower-case
// segments case-sensitively (anything else is UCP's 404 "The request ...
// is invalid."), refuses what UCP refuses (child types' '_', unknown
// capabilities, names its patterns refuse), writes asynchronously (PUT
// 201 and DELETE 202 with Azure-AsyncOperation, Location and Retry-After;
// operations go Accepted → Updating → Succeeded, Failed or Canceled as
// polls go by; a write during one is 409 "in progress"), fails a type's
// operation when its provider's has not succeeded and a version's when
// its type's has not, lists locations, types and versions plane-wide,
// sends no udtc marker, and records every request. It also holds
// resources of the registered types (SeedResource), as Radius's dynamic
// resource provider behind UCP does: listed plane-wide per type, deleted
// asynchronously, and left behind when their type is deleted. Its own answers are
// checked against Radius's description in its tests.
package ucpfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/api"
)

// Kinds of the resources the fake holds, as the segment that names them.
const (
	kindProvider = "resourceproviders"
	kindType     = "resourcetypes"
	kindVersion  = "apiversions"
	kindLocation = "locations"
)

// wireTypes are the "type" of each kind's bodies, as UCP answers them.
var wireTypes = map[string]string{
	kindProvider: "System.Resources/resourceProviders",
	kindType:     "System.Resources/resourceProviders/resourceTypes",
	kindVersion:  "System.Resources/resourceProviders/resourceTypes/apiVersions",
	kindLocation: "System.Resources/resourceProviders/locations",
}

// Request is a request the fake received.
type Request struct {
	Method, Path string // the path with api.BasePath
	Time         time.Time
	Status       int
}

// Server is the fake. Set its fields before the first request.
type Server struct {
	// URL is the server's root; clients add api.BasePath, as rad does.
	URL string
	// Steps is how many polls an operation takes to end (default 2: one
	// Updating, then terminal).
	Steps int
	// RetryAfter is the Retry-After, in seconds, of write answers.
	RetryAfter int

	mu       sync.Mutex
	res      map[string]*resource // by lower-cased id
	inst     map[string]*instance // resources of user-defined types, by lower-cased id
	ops      map[string]*operation
	requests []Request
	fail     map[string]string // lower-cased id → Failed or Canceled
	held     map[string]bool   // lower-cased id → its operations stay Updating
	nextOp   int
}

// resource is a stored registration.
type resource struct {
	id, kind, name string
	ns, typ        string // the namespace; the type of a version
	location       string // a provider's "location" field
	props          map[string]any
	state          string
	ok             map[string]any // the properties of the last write that succeeded; nil when none did
}

// operation is an asynchronous write.
type operation struct {
	id, method, target string // target: the lower-cased id written
	status             string
	polls              int
	start, end         time.Time
	err                *api.ErrorDetail
	orphan             *api.ErrorDetail // how it fails: its parent had not succeeded when it was written
}

// Start starts a fake on 127.0.0.1; it stops with the test.
func Start(t testing.TB) *Server {
	s := &Server{Steps: 2, res: map[string]*resource{}, ops: map[string]*operation{}, fail: map[string]string{},
		held: map[string]bool{}, inst: map[string]*instance{}}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// Fail makes the next operations on the resource id (a path under the
// plane, as the description spells it) end in state (Failed or Canceled).
func (s *Server) Fail(id, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail[strings.ToLower(id)] = state
}

// Hold keeps the operations on the resource id Updating until Release.
func (s *Server) Hold(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held[strings.ToLower(id)] = true
}

// Release lets the operations on the resource id end.
func (s *Server) Release(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.held, strings.ToLower(id))
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Seed stores a provider namespace with one location, as if written and
// succeeded long ago: another tenant of the plane.
func (s *Server) Seed(plane, namespace, location, address string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rp := "/planes/radius/" + plane + "/providers/System.Resources/resourceproviders/" + namespace
	for _, r := range []*resource{
		{id: rp, kind: kindProvider, name: namespace, ns: namespace, location: "global", props: map[string]any{}},
		{id: rp + "/locations/" + location, kind: kindLocation, name: location, ns: namespace,
			props: map[string]any{"address": address, "resourceTypes": map[string]any{}}},
	} {
		r.state, r.ok = "Succeeded", r.props
		s.res[strings.ToLower(r.id)] = r
	}
}

// State returns the provisioning state of the resource id, "" when it
// does not exist.
func (s *Server) State(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.res[strings.ToLower(id)]; r != nil {
		return r.state
	}
	return ""
}

// recorder keeps the status of an answer for the request log.
type recorder struct {
	http.ResponseWriter
	status int
}

func (r *recorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rec := &recorder{ResponseWriter: w, status: http.StatusOK}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.route(rec, r)
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Time: time.Now(), Status: rec.status})
}

// writeJSON answers v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// armError answers UCP's ARM error envelope.
func armError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, api.ErrorResponse{Error: api.ErrorDetail{Code: code, Message: msg}})
}

// invalid is UCP's answer to a request no route matches.
func invalid(w http.ResponseWriter, r *http.Request) {
	armError(w, http.StatusNotFound, "NotFound", fmt.Sprintf("The request '%s %s' is invalid.", r.Method, r.URL.Path))
}

// specInvalid is UCP's answer to a request its validator refuses.
func specInvalid(w http.ResponseWriter, detailCode, detail string) {
	writeJSON(w, http.StatusBadRequest, api.ErrorResponse{Error: api.ErrorDetail{
		Code: "HttpRequestPayloadAPISpecValidationFailed", Target: "ucp/openapi",
		Message: "HTTP request payload failed validation against API specification with one or more errors. Please see details for more information.",
		Details: []api.ErrorDetail{{Code: detailCode, Message: detail}},
	}})
}

// route serves r; the fake's lock is held.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, api.BasePath)
	switch {
	case !ok:
		invalid(w, r)
		return
	case rest == "" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, api.Discovery())
		return
	}
	seg := strings.Split(rest, "/")
	if len(seg) < 4 || seg[0] != "" || seg[1] != "planes" || seg[2] != "radius" {
		invalid(w, r)
		return
	}
	if isInstancePath(seg) {
		s.instances(w, r, seg)
		return
	}
	if v := r.URL.Query().Get("api-version"); v != api.Version && !isPoll(seg) {
		armError(w, http.StatusBadRequest, "InvalidApiVersionParameter",
			fmt.Sprintf("API version '%s' for type 'ucp/openapi' is not supported. The supported api-versions are '%s'.", v, api.Version))
		return
	}
	plane := seg[3]
	switch {
	case len(seg) == 4 && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"id": "/planes/radius/" + plane, "name": plane, "type": "System.Radius/planes",
			"location": "global", "properties": map[string]any{"resourceProviders": map[string]any{}, "provisioningState": "Succeeded"}})
	case len(seg) == 5 && seg[4] == "providers" && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"value": s.summaries(plane, "")})
	case len(seg) == 6 && seg[4] == "providers" && seg[5] != "System.Resources" && r.Method == http.MethodGet:
		s.summary(w, r, plane, seg[5])
	case len(seg) > 6 && seg[4] == "providers" && seg[5] == "System.Resources":
		s.registrations(w, r, plane, seg[6:])
	default:
		invalid(w, r)
	}
}

// isPoll reports whether a path (split) is an operation's status or result.
func isPoll(seg []string) bool {
	return len(seg) == 10 && seg[6] == "locations" && (seg[8] == "operationStatuses" || seg[8] == "operationResults")
}

// registrations serves the paths under .../providers/System.Resources/.
func (s *Server) registrations(w http.ResponseWriter, r *http.Request, plane string, seg []string) {
	if len(seg) == 4 && seg[0] == "locations" && r.Method == http.MethodGet {
		switch seg[2] {
		case "operationStatuses":
			s.operationStatus(w, seg[3])
			return
		case "operationResults":
			s.operationResult(w, r, seg[3])
			return
		}
	}
	if len(seg) == 0 || seg[0] != kindProvider {
		invalid(w, r)
		return
	}
	p, ok := parsePath(plane, seg)
	if !ok {
		invalid(w, r)
		return
	}
	if msg := p.problem(); msg != "" {
		specInvalid(w, "InvalidRequestContent", msg)
		return
	}
	switch {
	case p.list && r.Method == http.MethodGet:
		writeJSON(w, http.StatusOK, map[string]any{"value": s.list(plane, p.kind)})
	case p.list:
		invalid(w, r)
	case r.Method == http.MethodGet:
		s.get(w, p)
	case r.Method == http.MethodPut:
		s.put(w, r, p)
	case r.Method == http.MethodDelete:
		s.delete(w, r, p)
	default:
		invalid(w, r)
	}
}

// path is a registration path: one resource, or a list of a kind.
type path struct {
	id, kind, name string
	ns, typ        string
	list           bool
	params         map[string]string // path parameter → value, for validation
}

// parsePath reads seg (from "resourceproviders" on) of a path of plane.
func parsePath(plane string, seg []string) (path, bool) {
	base := "/planes/radius/" + plane + "/providers/System.Resources/" + kindProvider
	p := path{kind: kindProvider, params: map[string]string{"planeName": plane}}
	switch {
	case len(seg) == 1:
		return path{kind: kindProvider, list: true, id: base, params: p.params}, true
	case len(seg) >= 2:
		p.ns, p.name, p.id = seg[1], seg[1], base+"/"+seg[1]
		p.params["resourceProviderName"] = seg[1]
	}
	switch {
	case len(seg) == 2:
		return p, true
	case len(seg) == 3 && (seg[2] == kindType || seg[2] == kindLocation):
		return path{kind: seg[2], list: true, ns: p.ns, id: p.id + "/" + seg[2], params: p.params}, true
	case len(seg) == 4 && seg[2] == kindLocation:
		p.params["locationName"] = seg[3]
		return path{kind: kindLocation, ns: p.ns, name: seg[3], id: p.id + "/locations/" + seg[3], params: p.params}, true
	case len(seg) >= 4 && seg[2] == kindType:
		p.params["resourceTypeName"] = seg[3]
		p = path{kind: kindType, ns: p.ns, name: seg[3], typ: seg[3], id: p.id + "/resourcetypes/" + seg[3], params: p.params}
	default:
		return p, false
	}
	switch {
	case len(seg) == 4:
		return p, true
	case len(seg) == 5 && seg[4] == kindVersion:
		return path{kind: kindVersion, list: true, ns: p.ns, typ: p.typ, id: p.id + "/apiversions", params: p.params}, true
	case len(seg) == 6 && seg[4] == kindVersion:
		p.params["apiVersionName"] = seg[5]
		return path{kind: kindVersion, ns: p.ns, typ: p.typ, name: seg[5], id: p.id + "/apiversions/" + seg[5], params: p.params}, true
	}
	return p, false
}

// problem is UCP's validator's refusal of p's path parameters, "" when it
// accepts them.
func (p path) problem() string {
	for _, c := range []struct {
		name string
		re   *regexp.Regexp
	}{
		{"resourceProviderName", api.UCPNamespacePattern},
		{"resourceTypeName", api.UCPTypePattern},
		{"apiVersionName", versionPattern},
		{"locationName", api.UCPLocationPattern},
	} {
		if v, ok := p.params[c.name]; ok && (!c.re.MatchString(v) || len(v) > api.MaxNameLength) {
			return fmt.Sprintf("%s in path should match '%s'", c.name, c.re)
		}
	}
	return ""
}

// retryAfter is the Retry-After header of write answers.
func (s *Server) retryAfter() string { return strconv.Itoa(s.RetryAfter) }
