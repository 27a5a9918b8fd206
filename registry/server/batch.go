package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/udtc/udtc/internal/jsonscan"
	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// batchConcurrency is how many writes of one batch run at a time. Writes
// that run together share a commit (group commit, on SQLite), and their
// schema checks share the checkSlots with every other request.
const batchConcurrency = 8

// batch serves POST /planes/radius/{plane}/providers/System.Resources/batch
// (api.BatchRequest): each write is served as the separate request it
// describes, through the whole handler (path checks, authentication, the
// sync guard, the route's checks and errors, one log line), with the
// batch's headers; the writes run concurrently and independently, and the
// answer lists what each request answered. A batch that is not a valid
// document is refused whole with 400; a write the batch cannot describe as
// a registration write of its plane gets its own 400 and the others run.
func (s *Server) batch(w http.ResponseWriter, r *http.Request) {
	plane := r.PathValue("plane")
	if err := registry.ValidatePlane(plane); err != nil {
		s.writeError(w, r, err)
		return
	}
	body, err := s.readBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req api.BatchRequest
	if !isObject(body) {
		s.writeError(w, r, badRequest("the request body must be a JSON object"))
		return
	}
	// The usual document is decoded in one walk (quickBatch, which stops
	// past api.MaxBatchWrites writes). Anything else is counted before it
	// is decoded: a 4 MiB body of {} elements would otherwise cost hundreds
	// of MB of BatchWrites before it could be refused. Invalid JSON is left
	// to decodeStrict, which reports it (encoding/json checks a whole value
	// before it decodes any of it, so that costs no elements either).
	valid := json.Valid(body)
	fast, ok := api.BatchRequest{}, false
	if valid {
		fast, ok = quickBatch(body)
	}
	if valid && !ok {
		if n := batchLength(body); n > api.MaxBatchWrites {
			s.writeError(w, r, badRequest("the batch has %d writes; at most %d are allowed", n, api.MaxBatchWrites))
			return
		}
	}
	if ok {
		req = fast
	} else if err := decodeStrict(body, &req); err != nil {
		s.writeError(w, r, badRequest("invalid request body: %v", err))
		return
	}
	out := api.BatchResponse{Responses: make([]api.BatchResult, len(req.Requests))}
	par.EachOn(batchConcurrency, len(req.Requests), func(i int) {
		bw := req.Requests[i]
		if p := batchWriteProblem(plane, bw); p != "" {
			out.Responses[i] = api.BatchResult{Status: http.StatusBadRequest, Error: &api.ErrorDetail{
				Code: api.CodeInvalidRequestContent, Target: fmt.Sprintf("requests[%d]", i), Message: p}}
			return
		}
		// A panic that gets past recoverPanics (http.ErrAbortHandler,
		// which it re-panics, or one in logRequests or batchWrite) would
		// end the whole server from this goroutine: it is this write's
		// 500 instead, as recoverPanics answers a request.
		defer func() {
			if v := recover(); v != nil {
				err := fmt.Errorf("panic: %v", v)
				s.log.ErrorContext(r.Context(), "request failed", "method", bw.Method, "path", bw.Path, "err", err)
				status, detail := errorStatus(err)
				out.Responses[i] = api.BatchResult{Status: status, Error: &detail}
			}
		}()
		out.Responses[i] = s.batchWrite(r, bw)
	})
	writeJSON(w, http.StatusOK, out)
}

// batchLength returns how many writes the batch document body, which must
// be valid JSON, carries, without decoding any: the most elements of a
// top-level member that encoding/json decodes into BatchRequest.Requests
// (its key is "requests" in any case, escaped or not; with the key given
// more than once, the last one is decoded, but each costs memory).
func batchLength(body []byte) int {
	n := 0
	jsonscan.Members(body, func(key, value []byte) bool {
		if !strings.EqualFold(jsonscan.Unquote(key), "requests") {
			return true
		}
		elems := 0
		jsonscan.Elements(value, func([]byte) bool { elems++; return true })
		n = max(n, elems)
		return true
	})
	return n
}

// quickBatch decodes the usual batch document, {"requests":[{"method":
// ...,"path":...,"body":...},...]} with each key spelled so and given
// once, method and path strings, without scanning the bodies with
// encoding/json more than once (the caller's json.Valid, then
// jsonscan.Members). body must be valid JSON. ok is false for anything else,
// which decodeStrict decodes, with its errors, and for a document of more
// than api.MaxBatchWrites writes (batchLength counts them); when ok, req is
// what decodeStrict gives.
func quickBatch(body []byte) (req api.BatchRequest, ok bool) {
	seen := false
	ok = jsonscan.Members(body, func(key, value []byte) bool {
		if string(key) != "requests" || seen {
			return false
		}
		seen = true
		if string(value) == "null" {
			return true
		}
		req.Requests = []api.BatchWrite{}
		return jsonscan.Elements(value, func(elem []byte) bool {
			if len(req.Requests) == api.MaxBatchWrites {
				return false
			}
			var bw api.BatchWrite
			var method, path, body bool
			ok := jsonscan.Members(elem, func(k, v []byte) bool {
				switch {
				case string(k) == "method" && !method:
					method = true
					return v[0] == '"' && json.Unmarshal(v, &bw.Method) == nil
				case string(k) == "path" && !path:
					path = true
					return v[0] == '"' && json.Unmarshal(v, &bw.Path) == nil
				case string(k) == "body" && !body:
					body = true
					bw.Body = v
					return true
				}
				return false
			})
			req.Requests = append(req.Requests, bw)
			return ok
		})
	})
	return req, ok
}

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

// batchWrite serves one write of the batch r as a request of its own.
func (s *Server) batchWrite(r *http.Request, bw api.BatchWrite) api.BatchResult {
	var body io.Reader = http.NoBody
	if len(bw.Body) > 0 {
		body = &batchBody{Reader: bytes.NewReader(bw.Body), data: bw.Body}
	}
	sub, err := http.NewRequestWithContext(context.WithValue(r.Context(), batchKey{}, true), bw.Method, bw.Path+"?api-version="+api.Version, body)
	if err != nil {
		return api.BatchResult{Status: http.StatusBadRequest, Error: &api.ErrorDetail{Code: api.CodeInvalidRequestContent,
			Message: fmt.Sprintf("path %.200q: %v", bw.Path, err)}}
	}
	sub.ContentLength = int64(len(bw.Body))
	// The batch's headers (the caller's credentials, the sync's mark),
	// without those about the batch's own body or conditions.
	sub.Header = r.Header.Clone()
	for _, h := range []string{"If-Match", "If-None-Match", "Content-Encoding", "Content-Length", "Transfer-Encoding", "Expect"} {
		sub.Header.Del(h)
	}
	if bw.Body != nil {
		sub.Header.Set("Content-Type", "application/json")
	} else {
		sub.Header.Del("Content-Type")
	}
	sub.RemoteAddr, sub.Host, sub.TLS = r.RemoteAddr, r.Host, r.TLS
	rec := &batchRecorder{header: http.Header{}}
	s.handler.ServeHTTP(rec, sub)
	res := api.BatchResult{Status: rec.status}
	if rec.status == 0 {
		res.Status = http.StatusOK
	}
	if res.Status < 400 {
		res.ETag = strings.Trim(rec.header.Get("ETag"), `"`)
		return res
	}
	var env api.ErrorResponse
	if err := json.Unmarshal(rec.body.Bytes(), &env); err != nil || env.Error.Code == "" {
		env.Error = api.ErrorDetail{Code: http.StatusText(res.Status), Message: strings.TrimSpace(rec.body.String())}
	}
	res.Error = &env.Error
	return res
}

// batchKey marks the context of a batch's write (batchWrite's).
type batchKey struct{}

// inBatch reports whether r is a write of a batch: its success is answered
// with the status and ETag alone, so the handler need not encode a body
// that batchRecorder would drop.
func inBatch(r *http.Request) bool { return r.Context().Value(batchKey{}) != nil }

// batchBody is the body of a batch's write: one JSON value of the batch
// document, which was checked whole (valid JSON, within the body limit).
// readBody takes data as it is instead of copying it, and decodeEnvelope
// does not check its syntax again. A handler that wraps or replaces the
// body reads it as any other.
type batchBody struct {
	*bytes.Reader
	data []byte
}

// Close implements io.ReadCloser.
func (*batchBody) Close() error { return nil }

// batchRecorder is the http.ResponseWriter of a batch's write: it keeps
// the status and headers, and the body of a failure.
type batchRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *batchRecorder) Header() http.Header { return b.header }

func (b *batchRecorder) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *batchRecorder) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	if b.status >= 400 {
		b.body.Write(p)
	}
	return len(p), nil
}
