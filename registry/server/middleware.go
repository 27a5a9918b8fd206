package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// middleware composes every middleware, outermost first, in one place.
func (s *Server) middleware(h http.Handler) http.Handler {
	chain := []func(http.Handler) http.Handler{
		markResponses, // ucp.go
		s.logRequests,
		s.recoverPanics,
		limitHeaders,
		s.guardRequests, // guard.go
		basePath,        // ucp.go
		rejectUncleanPaths,
		normalizePath,
		s.authenticate,
	}
	for i := len(chain) - 1; i >= 0; i-- {
		h = chain[i](h)
	}
	return h
}

// statusRecorder remembers the status and size of a response, and the ARM
// error code of an error response (noteErrorCode).
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
	code   string
}

// noteErrorCode records the ARM error code an error response carries in the
// statusRecorder below w, if any, for the request's log line.
func noteErrorCode(w http.ResponseWriter, code string) {
	for {
		if rec, ok := w.(*statusRecorder); ok {
			rec.code = code
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests writes one structured log line per request. The caller
// is known only once authenticate ran further in: it fills the slot
// logRequests puts in the request's context.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		r = r.WithContext(context.WithValue(r.Context(), callerKey{}, new(string)))
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		s.logRequest(r.Context(), r.Method, r.URL.Path, r.RemoteAddr, rec.status, rec.code, rec.bytes, start)
	})
}

// logRequest writes the log line of a request (or of a batch's write)
// that started at start and was answered with status and bytes of body;
// an error response has its ARM error code (code, "" for none) after the
// status. Its caller is the token's name, or "anonymous" for a request
// without a valid token.
func (s *Server) logRequest(ctx context.Context, method, path, remote string, status int, code string, bytes int, start time.Time) {
	caller := callerFrom(ctx)
	if caller == "" {
		caller = "anonymous"
	}
	attrs := []any{"method", method, "path", path, "status", status}
	if code != "" {
		attrs = append(attrs, "code", code)
	}
	s.log.InfoContext(ctx, "request", append(attrs,
		"bytes", bytes,
		"duration_ms", float64(time.Since(start).Microseconds())/1000,
		"remote", remote,
		"caller", caller,
	)...)
}

// recoverPanics turns a handler panic into a 500 instead of a dropped
// connection.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.fail(w, r, fmt.Errorf("panic: %v", v))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// rejectUncleanPaths answers 400 for a path the registry would have to
// clean ("." or ".." segments, also percent-encoded; an encoded '/' inside
// a segment; "//"), before the mux could redirect it to the cleaned path:
// a client following that redirect would act on another resource (DELETE
// .../resourceTypes/.. would delete the provider).
func rejectUncleanPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := uncleanPath(r.URL); err != nil {
			refuse(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// uncleanPath returns the refusal of a path the registry would have to
// clean; nil for a clean one.
func uncleanPath(u *url.URL) error {
	esc := u.EscapedPath()
	p := api.PathProblem(esc)
	if p == "" {
		return nil
	}
	msg := fmt.Sprintf("the path %s %s", esc, p)
	if strings.Contains(p, "escaped '/'") {
		msg += " (child resource types are addressed with '_' in place of '/')"
	}
	return &registry.Error{Code: registry.CodeInvalid, Message: msg}
}

// MaxHeaderBytes is the most request header bytes (names, values and the
// request line) a request may carry; larger requests get 431 with the ARM
// envelope. HTTPServer lets net/http read headers up to
// HTTPMaxHeaderBytes so that this check, not net/http's plain-text answer,
// decides.
const (
	MaxHeaderBytes     = 64 << 10
	HTTPMaxHeaderBytes = 1 << 20
)

// limitHeaders answers 431 for requests whose headers exceed MaxHeaderBytes.
func limitHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := len(r.Method) + len(r.RequestURI) + len(r.Proto) + 4
		for k, vs := range r.Header {
			for _, v := range vs {
				n += len(k) + len(v) + 4
			}
		}
		if n > MaxHeaderBytes {
			w.Header().Set("Connection", "close")
			refuse(w, registry.Errorf(registry.CodeHeadersTooLarge, "", "the request headers are %d bytes; the limit is %d", n, MaxHeaderBytes))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// normalizePath folds the fixed route segments (resourceProviders,
// resourceTypes, resourceGroups, ...) to their canonical spelling so that
// they match in any case; names are left alone.
func normalizePath(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		normalize(r.URL)
		next.ServeHTTP(w, r)
	})
}

// normalize folds the fixed route segments of u's path (normalizePath).
func normalize(u *url.URL) {
	esc := u.EscapedPath()
	parts := strings.Split(esc, "/")
	changed := false
	fold := func(segments map[int][]string) {
		for i, p := range parts {
			for _, c := range segments[i] {
				if p != c && strings.EqualFold(p, c) {
					parts[i] = c
					changed = true
				}
			}
		}
	}
	fold(canonicalSegments)
	switch {
	case len(parts) > 6 && parts[4] == "providers":
		// A namespace only when a path goes on after it: the summary
		// of a provider named system.resources keeps its spelling.
		fold(registrationNamespace)
		if parts[5] == "System.Resources" { // else: a plane-wide list
			fold(registrationSegments)
		}
	case len(parts) > 6 && parts[4] == "resourceGroups":
		fold(groupSegments)
	}
	if changed {
		esc = strings.Join(parts, "/")
		if p, err := url.PathUnescape(esc); err == nil {
			u.Path = p
			u.RawPath = esc
		}
	}
}

// callerKey holds a *string: the authenticated caller's name, set by
// authenticate in the slot logRequests made.
type callerKey struct{}

// callerFrom returns the authenticated caller's name, "" without auth.
func callerFrom(ctx context.Context) string {
	if p, _ := ctx.Value(callerKey{}).(*string); p != nil {
		return *p
	}
	return ""
}

// withCaller records caller as the request's caller: in the slot of
// logRequests when there is one (its log line names the caller), else in
// a new one.
func withCaller(r *http.Request, caller string) *http.Request {
	if p, _ := r.Context().Value(callerKey{}).(*string); p != nil {
		*p = caller
		return r
	}
	return r.WithContext(context.WithValue(r.Context(), callerKey{}, &caller))
}

// authenticate requires a bearer token on writes (and reads when
// AuthReads) when the server has tokens. Health endpoints are open.
func (s *Server) authenticate(next http.Handler) http.Handler {
	if len(s.tokens) == 0 {
		return next
	}
	sums := make([][32]byte, len(s.tokens))
	for i, t := range s.tokens {
		sums[i] = sha256.Sum256([]byte(t.Value))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			next.ServeHTTP(w, r)
			return
		}
		read := isRead(r.Method)
		caller := ""
		if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
			got := sha256.Sum256([]byte(strings.TrimSpace(h[7:])))
			match := -1
			for i := range sums { // no early exit: constant time in the token count
				if subtle.ConstantTimeCompare(got[:], sums[i][:]) == 1 {
					match = i
				}
			}
			if match < 0 {
				s.unauthorized(w, r, "the bearer token is not valid")
				return
			}
			caller = s.tokens[match].Name
			if caller == "" {
				caller = "bearer"
			}
		} else if !read || s.authReads {
			s.unauthorized(w, r, "this request requires Authorization: Bearer <token>")
			return
		}
		if caller != "" {
			r = withCaller(r, caller)
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) unauthorized(w http.ResponseWriter, r *http.Request, msg string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="udtc"`)
	refuse(w, &registry.Error{Code: registry.CodeUnauthorized, Message: msg})
}
