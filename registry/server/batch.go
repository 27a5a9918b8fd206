package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
)

// batchConcurrency is how many writes of one batch run at a time. Writes
// that run together share a commit (group commit, on SQLite), and their
// schema checks share the service's check slots with every other request.
const batchConcurrency = 8

// batch serves POST /planes/radius/{plane}/providers/System.Resources/batch
// (api.BatchRequest): each write is served as the separate request it
// describes (path checks, the route, the sync guard, the route's checks
// and errors, one log line), with the batch's caller, by calling the
// service; the writes run concurrently and independently, and the answer
// lists what each request answered. A batch that is not a valid document
// is refused whole with 400; a write the batch cannot describe as a
// registration write of its plane gets its own 400 and the others run.
func (s *Server) batch(w http.ResponseWriter, r *http.Request) error {
	plane := r.PathValue("plane")
	if err := registry.ValidatePlane(plane); err != nil {
		return err
	}
	body, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	// A document of too many writes is refused before its writes are
	// decoded: a 4 MiB body of {} elements would otherwise cost hundreds
	// of MB of BatchWrites before it could be refused.
	if n := batchLength(body); n > api.MaxBatchWrites {
		return registry.Errorf(registry.CodeInvalid, "", "the batch has %d writes; at most %d are allowed", n, api.MaxBatchWrites)
	}
	var req api.BatchRequest
	if err := service.DecodeBody(body, &req); err != nil {
		return err
	}
	out := api.BatchResponse{Responses: make([]api.BatchResult, len(req.Requests))}
	par.EachOn(batchConcurrency, len(req.Requests), func(i int) {
		out.Responses[i] = s.batchWrite(r, plane, i, req.Requests[i])
	})
	writeJSON(w, http.StatusOK, out)
	return nil
}

// batchLength returns how many writes the batch document body carries
// without decoding any: the most elements of a top-level member that
// encoding/json decodes into api.BatchRequest.Requests (its key is
// "requests" in any case, escaped or not; with the key given more than
// once the last one is decoded, but each costs memory). It is 0 for a body
// that is not valid JSON: decoding it reports why.
func batchLength(body []byte) int {
	var doc struct {
		Requests writeCount `json:"requests"`
	}
	_ = json.Unmarshal(body, &doc) // errors are decoding's to report
	return doc.Requests.most
}

// writeCount counts the elements of each JSON array decoded into it and
// keeps the most; decoding each element into a skip allocates nothing.
type writeCount struct{ most int }

func (c *writeCount) UnmarshalJSON(b []byte) error {
	var elems []skip // zero-size elements: no memory, whatever their number
	_ = json.Unmarshal(b, &elems)
	c.most = max(c.most, len(elems))
	return nil
}

// skip decodes any JSON value into nothing.
type skip struct{}

func (*skip) UnmarshalJSON([]byte) error { return nil }

// batchWriteProblem says why bw is not a write a batch of plane may carry
// ("" when it is): a PUT with a body or a DELETE without one, of a path
// under the plane's /providers/System.Resources/resourceProviders/, with
// no query or fragment. Everything else about the path is the route's
// business, as for a separate request.
func batchWriteProblem(plane string, bw api.BatchWrite) string {
	switch {
	case bw.Method != http.MethodPut && bw.Method != http.MethodDelete:
		return fmt.Sprintf("method %q: a batch carries PUT and DELETE writes only", bw.Method)
	case bw.Method == http.MethodPut && len(bw.Body) == 0:
		return "a PUT needs a body"
	case bw.Method == http.MethodDelete && len(bw.Body) > 0:
		return "a DELETE has no body"
	case strings.ContainsAny(bw.Path, "?#"):
		return fmt.Sprintf("path %.200q: a write's path has no query or fragment", bw.Path)
	}
	seg := strings.SplitN(bw.Path, "/", 8) // "", planes, radius, {plane}, providers, System.Resources, resourceProviders, rest
	fixed := len(seg) == 8 && seg[0] == "" && strings.EqualFold(seg[1], "planes") && strings.EqualFold(seg[2], "radius") &&
		strings.EqualFold(seg[4], "providers") && strings.EqualFold(seg[5], "System.Resources") &&
		strings.EqualFold(seg[6], "resourceProviders") && seg[7] != ""
	if !fixed {
		return fmt.Sprintf("path %.200q is not a registration of the plane: it starts /planes/radius/%s/providers/System.Resources/resourceProviders/", bw.Path, plane)
	}
	if p, err := url.PathUnescape(seg[3]); err != nil || !strings.EqualFold(p, plane) {
		return fmt.Sprintf("path %.200q is not in the batch's plane %s", bw.Path, plane)
	}
	return ""
}

// batchWrite serves the i-th write of the batch r of plane as its own
// request would be served, with its own log line, and returns its result.
// A panic is this write's 500, as recoverPanics answers a request.
func (s *Server) batchWrite(r *http.Request, plane string, i int, bw api.BatchWrite) (res api.BatchResult) {
	if rest, ok := strings.CutPrefix(bw.Path, api.BasePath+"/"); ok { // as a request under the base path
		bw.Path = "/" + rest
	}
	if p := batchWriteProblem(plane, bw); p != "" {
		return api.BatchResult{Status: http.StatusBadRequest, Error: &api.ErrorDetail{
			Code: api.CodeInvalidRequestContent, Target: fmt.Sprintf("requests[%d]", i), Message: p}}
	}
	u, err := url.Parse(bw.Path + "?api-version=" + api.Version)
	if err != nil {
		return api.BatchResult{Status: http.StatusBadRequest, Error: &api.ErrorDetail{Code: api.CodeInvalidRequestContent,
			Message: fmt.Sprintf("path %.200q: %v", bw.Path, err)}}
	}
	start, bytes := time.Now(), 0
	defer func() {
		if v := recover(); v != nil {
			status, detail := s.failure(r.Context(), bw.Method, u.Path, fmt.Errorf("panic: %v", v))
			res, bytes = api.BatchResult{Status: status, Error: &detail}, errorBodySize(detail)
		}
		code := ""
		if res.Error != nil {
			code = res.Error.Code
		}
		s.logRequest(r.Context(), bw.Method, u.Path, r.RemoteAddr, res.Status, code, bytes, start)
	}()
	status, etag, err := s.applyWrite(r, u, bw)
	if err != nil {
		status, detail := s.failure(r.Context(), bw.Method, u.Path, err)
		bytes = errorBodySize(detail)
		return api.BatchResult{Status: status, Error: &detail}
	}
	return api.BatchResult{Status: status, ETag: etag}
}

// errorBodySize is the size of the body that answers detail.
func errorBodySize(detail api.ErrorDetail) int {
	b, _ := service.Marshal(api.ErrorResponse{Error: detail})
	return len(b) + 1
}

// applyWrite performs the write bw of the batch r at u (its path with the
// registry's api-version) as the route of its path would: the path checks
// of the middleware, the route, the sync guard, the registration's checks.
// Its writes are never conditional.
func (s *Server) applyWrite(r *http.Request, u *url.URL, bw api.BatchWrite) (status int, etag string, err error) {
	if err := uncleanPath(u); err != nil {
		return 0, "", err
	}
	normalize(u)
	sub := (&http.Request{Method: bw.Method, URL: u, Host: r.Host, Header: http.Header{}}).WithContext(r.Context())
	_, pattern := s.mux.Handler(sub)
	kind, ok := s.writeKinds[pattern]
	if !ok {
		return 0, "", s.noRouteError(http.Header{}, sub)
	}
	value := pathValues(pattern, u.Path)
	if err := s.guard(r, value("namespace")); err != nil {
		return 0, "", err
	}
	id, err := idFromValues(value, kind, u.Path)
	if err != nil {
		return 0, "", err
	}
	if bw.Method == http.MethodDelete {
		deleted, err := s.svc.DeleteRegistration(r.Context(), id, registry.Precondition{}, false)
		if !deleted {
			return http.StatusNoContent, "", err
		}
		return http.StatusOK, "", err
	}
	stored, created, err := s.putRegistration(r, id, registry.Precondition{}, bw.Body)
	return createdStatus(created), stored.ETag, err
}

// pathValues returns the values of the wildcards of the mux pattern
// ("PUT /planes/radius/{plane}/...") in path, which the pattern matched:
// the path's segment at each wildcard's position.
func pathValues(pattern, path string) func(name string) string {
	_, pat, _ := strings.Cut(pattern, " ")
	names, segs := strings.Split(pat, "/"), strings.Split(path, "/")
	return func(name string) string {
		for i, n := range names {
			if n == "{"+name+"}" && i < len(segs) {
				return segs[i]
			}
		}
		return ""
	}
}
