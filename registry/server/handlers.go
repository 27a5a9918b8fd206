package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/udtc/udtc/internal/jsonscan"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// idFromRequest builds the ID of kind from the route's path values and
// validates its names.
func idFromRequest(r *http.Request, kind registry.Kind) (registry.ID, error) {
	typ := r.PathValue("type")
	if strings.Contains(typ, "/") {
		// "contosoBuses%2Fqueues": child types are addressed as contosoBuses_queues only.
		return registry.ID{}, &httpError{status: http.StatusNotFound, code: api.CodeNotFound,
			message: fmt.Sprintf("no route for %s (child resource types are addressed with '_' in place of '/')", r.URL.Path)}
	}
	id := registry.ID{
		Kind:     kind,
		Plane:    r.PathValue("plane"),
		Provider: r.PathValue("namespace"),
		Type:     api.UnescapeTypeName(typ),
		Name:     r.PathValue("name"),
	}
	if err := id.Validate(); err != nil {
		return registry.ID{}, err
	}
	return id, nil
}

func (s *Server) get(kind registry.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := idFromRequest(r, kind)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		gen, cache, served := s.serveCached(w, r, r.URL.Path)
		if served {
			return
		}
		res, err := s.store.Get(r.Context(), id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		body, err := toWire(res)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.writeCacheable(w, r, gen, cache, res.ETag, body)
	}
}

// writeCacheable writes v as a 200 response with etag ("" for none) and,
// when cache is set, keeps the encoded response in the response cache
// under the request's path at gen (respcache.go).
func (s *Server) writeCacheable(w http.ResponseWriter, r *http.Request, gen string, cache bool, etag string, v any) {
	b, err := marshal(v)
	if err != nil {
		if etag != "" {
			w.Header().Set("ETag", `"`+etag+`"`)
		}
		writeJSON(w, http.StatusOK, v) // writes the encoding error's 500
		return
	}
	e := cachedResponse{etag: etag, body: append(b, '\n')}
	if cache {
		s.cache.store(gen, r.URL.Path, e)
	}
	writeEncoded(w, http.StatusOK, e)
}

func (s *Server) put(kind registry.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := idFromRequest(r, kind)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		cond, err := preconditions(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		res, err := s.decodeResource(w, r, id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		stored, created, err := s.store.Put(r.Context(), registry.Write{
			Resource: res, If: cond, Now: s.now().UTC(), Actor: callerFrom(r.Context()),
		})
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		status := http.StatusOK
		if created {
			status = http.StatusCreated
		}
		s.writeResource(w, r, status, stored, res.Properties)
	}
}

func (s *Server) delete(kind registry.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := idFromRequest(r, kind)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		cond, err := preconditions(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		force, err := forceParam(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		deleted, _, err := s.store.DeleteRegistration(r.Context(), id, cond, force)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeDeleted(w, deleted)
	}
}

// forceParam reads ?force=true|false of a registration DELETE: with true,
// the resources of the types being unregistered are deleted too.
func forceParam(r *http.Request) (bool, error) {
	v, present := r.URL.Query()["force"]
	if !present {
		return false, nil
	}
	if len(v) == 1 {
		if b, err := strconv.ParseBool(v[0]); err == nil {
			return b, nil
		}
	}
	return false, &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent, target: "force",
		message: fmt.Sprintf("force must be true or false, got %q", strings.Join(v, ","))}
}

func (s *Server) list(kind registry.Kind) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var parent registry.ID
		if kind != registry.KindPlane {
			pk := registry.KindProvider
			switch kind {
			case registry.KindProvider:
				pk = registry.KindPlane
			case registry.KindAPIVersion:
				pk = registry.KindResourceType
			}
			var err error
			if parent, err = idFromRequest(r, pk); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		opts, err := listOptions(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		page, err := s.store.List(r.Context(), parent, kind, opts)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeList(s, w, r, opts.Top, len(page.Items), page.Next, func(i int) (any, error) {
			return toWire(page.Items[i])
		})
	}
}

// writeList writes one page of a list of n items, item(i) giving the wire
// form of the i-th, and when more follow (next is not empty) the nextLink
// that resumes after the page.
func writeList[W any](s *Server, w http.ResponseWriter, r *http.Request, top, n int, next string, item func(i int) (W, error)) {
	out := api.List[W]{Value: make([]W, 0, n)}
	for i := range n {
		v, err := item(i)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out.Value = append(out.Value, v)
	}
	if next != "" {
		out.NextLink = nextLink(r, top, next)
	}
	writeJSON(w, http.StatusOK, out)
}

func listOptions(r *http.Request) (registry.ListOptions, error) {
	var opts registry.ListOptions
	q := r.URL.Query()
	if v := q.Get("$top"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return opts, &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent,
				message: fmt.Sprintf("$top must be a positive integer, got %q", v)}
		}
		opts.Top = min(n, registry.MaxPageSize)
	}
	if v := q.Get("$skipToken"); v != "" {
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil {
			return opts, &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent,
				message: "$skipToken is not a token this server issued"}
		}
		opts.After = string(b)
	}
	return opts, nil
}

func nextLink(r *http.Request, top int, after string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	q := url.Values{}
	v := r.URL.Query().Get("api-version") // checked by the handler: the registry's, or a type's
	if v == "" {
		v = api.Version
	}
	q.Set("api-version", v)
	if top > 0 {
		q.Set("$top", strconv.Itoa(top))
	}
	q.Set("$skipToken", base64.RawURLEncoding.EncodeToString([]byte(after)))
	u := url.URL{Scheme: scheme, Host: r.Host, Path: r.URL.Path, RawQuery: q.Encode()}
	return u.String()
}

func (s *Server) summaries(w http.ResponseWriter, r *http.Request) {
	plane := r.PathValue("plane")
	if err := registry.ValidatePlane(plane); err != nil {
		s.writeError(w, r, err)
		return
	}
	gen, cache, served := s.serveCached(w, r, r.URL.Path)
	if served {
		return
	}
	sums, err := s.store.Summaries(r.Context(), plane, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := api.ProviderSummaryList{Value: make([]api.ProviderSummary, 0, len(sums))}
	for _, sum := range sums {
		out.Value = append(out.Value, summaryToWire(sum))
	}
	s.writeCacheable(w, r, gen, cache, "", out)
}

func (s *Server) summary(w http.ResponseWriter, r *http.Request) {
	plane, ns := r.PathValue("plane"), r.PathValue("namespace")
	if err := registry.ValidatePlane(plane); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := registry.ValidateNamespace(ns); err != nil {
		s.writeError(w, r, err)
		return
	}
	gen, cache, served := s.serveCached(w, r, r.URL.Path)
	if served {
		return
	}
	sums, err := s.store.Summaries(r.Context(), plane, ns)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeCacheable(w, r, gen, cache, "", summaryToWire(sums[0]))
}

func summaryToWire(sum registry.ProviderSummary) api.ProviderSummary {
	out := api.ProviderSummary{
		Name:          sum.Name,
		Locations:     make(map[string]api.LocationSummary, len(sum.Locations)),
		ResourceTypes: make(map[string]api.ResourceTypeSummary, len(sum.ResourceTypes)),
	}
	for name, l := range sum.Locations {
		out.Locations[name] = api.LocationSummary{Address: l.Address}
	}
	for name, t := range sum.ResourceTypes {
		ts := api.ResourceTypeSummary{
			APIVersions:       make(map[string]api.APIVersionSummary, len(t.APIVersions)),
			DefaultAPIVersion: t.DefaultAPIVersion,
			Description:       t.Description,
			Capabilities:      t.Capabilities,
		}
		for v, schema := range t.APIVersions {
			ts.APIVersions[v] = api.APIVersionSummary{Schema: schema}
		}
		out.ResourceTypes[name] = ts
	}
	return out
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if !s.ready.Load() {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "starting"})
		return
	}
	if err := s.store.Ping(r.Context()); err != nil {
		s.log.ErrorContext(r.Context(), "store ping failed", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "store unavailable"})
		return
	}
	body := map[string]string{"status": "ready"}
	if sync := s.syncReadiness(); sync != "" {
		body["sync"] = sync
	}
	writeJSON(w, http.StatusOK, body)
}

// noRoute answers every request no route matched: 405 with Allow when the
// path exists for other methods, 404 otherwise.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
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
		w.Header().Set("Allow", strings.Join(allow, ", "))
		s.writeError(w, r, &httpError{status: http.StatusMethodNotAllowed, code: api.CodeMethodNotAllowed,
			message: fmt.Sprintf("method %s is not allowed on %s", r.Method, r.URL.Path)})
		return
	}
	s.writeError(w, r, &httpError{status: http.StatusNotFound, code: api.CodeNotFound,
		message: fmt.Sprintf("no route for %s %s", r.Method, r.URL.Path)})
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

// requireAPIVersion checks ?api-version: it must equal api.Version, and be
// present when required.
func requireAPIVersion(required bool, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, present := r.URL.Query()["api-version"]
		if (required && !present) || (present && (len(v) != 1 || v[0] != api.Version)) {
			got := "none"
			if present {
				got = fmt.Sprintf("%q", strings.Join(v, ","))
			}
			writeErrorBody(w, http.StatusBadRequest, api.ErrorDetail{Code: api.CodeInvalidAPIVersion,
				Message: fmt.Sprintf("api-version must be %q, got %s", api.Version, got), Target: "api-version"})
			return
		}
		h(w, r)
	}
}

// preconditions parses If-Match and If-None-Match.
func preconditions(r *http.Request) (registry.Precondition, error) {
	var p registry.Precondition
	parse := func(h string) ([]string, error) {
		var out []string
		for _, v := range r.Header.Values(h) {
			for _, tag := range strings.Split(v, ",") {
				tag = strings.TrimSpace(tag)
				if tag == "" {
					continue
				}
				tag = strings.TrimPrefix(tag, "W/")
				if tag != "*" {
					if len(tag) < 2 || tag[0] != '"' || tag[len(tag)-1] != '"' {
						// Be liberal: accept unquoted ETags too.
						out = append(out, tag)
						continue
					}
					tag = tag[1 : len(tag)-1]
				}
				out = append(out, tag)
			}
		}
		return out, nil
	}
	var err error
	if p.IfMatch, err = parse("If-Match"); err != nil {
		return p, err
	}
	p.IfNoneMatch, err = parse("If-None-Match")
	return p, err
}

// wireEnvelope is the PUT body envelope; read-only fields are accepted and
// ignored so that a GET body can be PUT back.
type wireEnvelope struct {
	ID         json.RawMessage   `json:"id"`
	Name       json.RawMessage   `json:"name"`
	Type       json.RawMessage   `json:"type"`
	Location   string            `json:"location"`
	Tags       map[string]string `json:"tags"`
	Properties json.RawMessage   `json:"properties"`
	SystemData json.RawMessage   `json:"systemData"`
	ETag       json.RawMessage   `json:"etag"`
}

func badRequest(format string, args ...any) error {
	return &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent, message: fmt.Sprintf(format, args...)}
}

// decodeStrict decodes one JSON value into v, rejecting unknown fields and
// trailing data.
// Its errors speak of JSON, never of Go types (see jsonProblem).
func decodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return jsonProblem(err)
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

// jsonProblem translates an encoding/json error into the user's terms: the
// field and the JSON kinds involved, without the server's Go type names.
func jsonProblem(err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		if te.Field == "" {
			return fmt.Errorf("expected %s, got a JSON %s", jsonKind(te.Type), te.Value)
		}
		return fmt.Errorf("%s must be %s, not a JSON %s", te.Field, jsonKind(te.Type), te.Value)
	case errors.As(err, &se):
		return fmt.Errorf("not valid JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON text ends early")
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field ") {
		return errors.New(msg)
	}
	if strings.Contains(msg, "Go ") {
		return errors.New("the JSON value does not have the expected shape")
	}
	return errors.New(msg)
}

// jsonKind names the JSON value a Go type accepts.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Name() == "RawMessage" {
			return "a JSON value"
		}
		return "a list"
	case reflect.Map:
		if t.Elem().Kind() == reflect.String {
			return "an object of strings"
		}
		return "an object"
	case reflect.Struct:
		return "an object"
	}
	return "another kind of value"
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// readEnvelope reads a PUT body (JSON, within the size limit) and decodes
// its envelope strictly.
func (s *Server) readEnvelope(w http.ResponseWriter, r *http.Request) (wireEnvelope, error) {
	_, valid := r.Body.(*batchBody)
	body, err := s.readBody(w, r)
	if err != nil {
		return wireEnvelope{}, err
	}
	return decodeEnvelope(body, valid)
}

// readBodyReserve is the most buffer readBody reserves for a body before
// reading it, whatever length the request announces.
const readBodyReserve = 64 << 10

// readBody reads a request body that must be JSON, not empty, within the
// size limit.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !(mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
			return nil, &httpError{status: http.StatusUnsupportedMediaType, code: api.CodeUnsupportedMediaType,
				message: fmt.Sprintf("content type %q is not JSON; send application/json", ct)}
		}
	}
	if r.ContentLength > s.maxBody {
		return nil, tooLarge(s.maxBody)
	}
	var body []byte
	if b, ok := r.Body.(*batchBody); ok && int64(len(b.data)) <= s.maxBody {
		body = b.data // a batch's write: its body is already in memory
	} else {
		// Read into one buffer of the announced size (io.ReadAll would
		// grow one from 512 bytes, copying as it goes), up to
		// readBodyReserve: a client's announcement alone does not reserve
		// maxBody; a larger body grows the buffer as it arrives.
		buf := bytes.NewBuffer(make([]byte, 0, min(max(r.ContentLength, 0), readBodyReserve)+bytes.MinRead))
		_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.maxBody))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, tooLarge(s.maxBody)
			}
			return nil, badRequest("reading the request body: %v", err)
		}
		body = buf.Bytes()
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, badRequest("the request body is empty; send a JSON object")
	}
	return body, nil
}

// decodeEnvelope decodes and checks the JSON body of a registration PUT;
// valid says that body is known to be one valid JSON value (a batch's
// write, checked with the whole batch), so its syntax is not checked again.
func decodeEnvelope(body []byte, valid bool) (wireEnvelope, error) {
	var env wireEnvelope
	if !isObject(body) {
		// null, a list or a scalar: never read as {}.
		return env, badRequest("the request body must be a JSON object")
	}
	if fast, ok := quickEnvelope(body, valid); ok {
		env = fast
	} else if err := decodeStrict(body, &env); err != nil {
		return env, badRequest("invalid request body: %v", err)
	}
	if p := api.ResourceLocationProblem(env.Location); p != "" {
		return env, &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent, target: "location",
			message: fmt.Sprintf("location %.80q %s", env.Location, p)}
	}
	if p := api.TagsProblem(env.Tags); p != "" {
		return env, &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent, target: "tags",
			message: "tags: " + p}
	}
	return env, nil
}

// decodeResource reads and checks a PUT body for id.
func (s *Server) decodeResource(w http.ResponseWriter, r *http.Request, id registry.ID) (registry.Resource, error) {
	env, err := s.readEnvelope(w, r)
	if err != nil {
		return registry.Resource{}, err
	}
	return s.envelopeResource(r.Context(), id, env)
}

// envelopeResource checks a decoded PUT body for id and converts it to the
// resource to store.
func (s *Server) envelopeResource(ctx context.Context, id registry.ID, env wireEnvelope) (registry.Resource, error) {
	props := env.Properties
	if len(props) == 0 || string(bytes.TrimSpace(props)) == "null" {
		props = json.RawMessage(`{}`)
	}
	if !isObject(props) {
		return registry.Resource{}, badRequest("properties must be a JSON object")
	}
	res := registry.Resource{ID: id, Location: env.Location, Tags: env.Tags}
	var canon any
	switch id.Kind {
	case registry.KindPlane:
		// UCP clients may send plane properties this registry does not use
		// (e.g. resourceProviders); they are accepted and not stored.
		canon = struct{}{}
		if res.Location == "" {
			res.Location = DefaultLocation
		}
	case registry.KindProvider:
		var p api.ResourceProviderProperties
		if err := decodeStrict(props, &p); err != nil {
			return res, badRequest("invalid properties: %v", err)
		}
		canon = struct{}{}
		if res.Location == "" {
			res.Location = DefaultLocation
		}
	case registry.KindResourceType:
		var p api.ResourceTypeProperties
		if err := decodeStrict(props, &p); err != nil {
			return res, badRequest("invalid properties: %v", err)
		}
		tp := registry.TypeProperties{DefaultAPIVersion: p.DefaultAPIVersion, Description: p.Description, Capabilities: p.Capabilities}
		if err := tp.Validate(); err != nil {
			return res, err
		}
		canon = tp
	case registry.KindAPIVersion:
		schema, ok := apiVersionSchema(props)
		if !ok {
			var p api.APIVersionProperties
			if err := decodeStrict(props, &p); err != nil {
				return res, badRequest("invalid properties: %v", err)
			}
			schema = p.Schema
		}
		stored, err := s.validSchema(ctx, schema)
		if err != nil {
			return res, err
		}
		res.Properties = stored
		return res, nil
	case registry.KindLocation:
		var p api.LocationProperties
		if err := decodeStrict(props, &p); err != nil {
			return res, badRequest("invalid properties: %v", err)
		}
		lp := registry.LocationProperties{Address: p.Address}
		if len(p.ResourceTypes) > 0 {
			lp.ResourceTypes = map[string]registry.LocationType{}
			for t, lt := range p.ResourceTypes {
				vs := map[string]json.RawMessage{}
				for v := range lt.APIVersions {
					vs[v] = json.RawMessage(`{}`)
				}
				lp.ResourceTypes[t] = registry.LocationType{Address: lt.Address, APIVersions: vs}
			}
		}
		if err := lp.Validate(); err != nil {
			return res, err
		}
		canon = lp
	}
	b, err := marshal(canon)
	if err != nil {
		return res, err
	}
	res.Properties = b
	return res, nil
}

// quickEnvelope decodes a PUT body the usual way, without scanning it
// with encoding/json more than once (json.Valid, then jsonscan.Members): it
// handles a JSON object whose members are the envelope's fields spelled
// so, each once, location a string or null and tags an object of strings
// or null. ok is false for anything else, which decodeStrict decodes,
// with its errors; when ok, env is what decodeStrict gives. valid says
// that body is known to be valid JSON (decodeEnvelope).
func quickEnvelope(body []byte, valid bool) (env wireEnvelope, ok bool) {
	if !valid && !json.Valid(body) {
		return env, false
	}
	seen := map[string]bool{}
	ok = jsonscan.Members(body, func(key, value []byte) bool {
		k := string(key)
		if seen[k] {
			return false // decoding twice merges tags: decodeStrict decides
		}
		seen[k] = true
		switch k {
		case "id", "name", "type", "systemData", "etag":
			return true // accepted and ignored
		case "properties":
			env.Properties = json.RawMessage(value)
			return true
		case "location":
			return (value[0] == '"' || string(value) == "null") && json.Unmarshal(value, &env.Location) == nil
		case "tags":
			return (value[0] == '{' || string(value) == "null") && json.Unmarshal(value, &env.Tags) == nil
		}
		return false
	})
	return env, ok
}

// apiVersionSchema returns the schema of the properties of an API version
// PUT, a JSON object the envelope's decoding found valid, when they hold
// nothing but "schema" and "provisioningState" (a string or null), spelled
// so: the usual body, taken apart without scanning the schema with
// encoding/json twice more. ok is false for anything else, which
// decodeStrict decodes, with its errors; when ok, the schema is what
// decodeStrict would give (nil when absent; the last of repeated keys).
func apiVersionSchema(props json.RawMessage) (schema json.RawMessage, ok bool) {
	ok = jsonscan.Members(props, func(key, value []byte) bool {
		switch string(key) {
		case "schema":
			schema = value
			return true
		case "provisioningState":
			return value[0] == '"' || string(value) == "null" // else decodeStrict's type error
		}
		return false // unknown, escaped or differently cased: decodeStrict decides
	})
	if !ok {
		return nil, false
	}
	return schema, true
}

func tooLarge(limit int64) error {
	return &httpError{status: http.StatusRequestEntityTooLarge, code: api.CodeRequestTooLarge,
		message: fmt.Sprintf("the request body is larger than %d bytes", limit)}
}

// validSchema compacts and checks an API version schema, one valid JSON
// value (as decodeEnvelope's envelope holds it), and returns the stored
// properties that hold it (registry.StoredSchemaHead).
// At most checkSlots schemas are checked at a time: a check costs memory
// in proportion to the schema, so this bounds the server's memory under
// many large requests; the others wait for a slot as long as their
// context allows.
func (s *Server) validSchema(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	raw = api.SchemaOrEmpty(raw)
	if !isObject(raw) {
		return nil, badRequest("properties.schema must be a JSON object")
	}
	buf := bytes.NewBuffer(make([]byte, 0, len(registry.StoredSchemaHead)+len(raw)+len(registry.StoredSchemaTail)))
	buf.WriteString(registry.StoredSchemaHead)
	if jsonscan.Compact(raw) {
		buf.Write(raw) // as json.Compact would write it, without its scan
	} else if err := json.Compact(buf, raw); err != nil {
		return nil, badRequest("properties.schema: %v", err)
	}
	buf.WriteString(registry.StoredSchemaTail)
	stored := json.RawMessage(buf.Bytes())
	if s.checkSchema == nil {
		return stored, nil
	}
	schema, _ := registry.StoredSchema(stored)
	select {
	case s.checkSlots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	diags := s.checkSchema(schema)
	<-s.checkSlots
	var details []api.ErrorDetail
	for _, d := range diags {
		if !d.IsError() {
			continue
		}
		msg := d.Message
		if d.Hint != "" {
			msg += " (" + d.Hint + ")"
		}
		details = append(details, api.ErrorDetail{Code: d.Rule, Message: msg, Target: d.Path})
	}
	if len(details) > 0 {
		return nil, &httpError{status: http.StatusBadRequest, code: api.CodeInvalidRequestContent,
			message: fmt.Sprintf("properties.schema is not valid: %d error(s)", len(details)), target: "properties.schema",
			details: api.CapDetails(details)}
	}
	return stored, nil
}

// marshal encodes v without HTML escaping, so stored JSON is returned as is.
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, `{"error":{"code":%q,"message":"encoding the response failed"}}`, api.CodeInternal)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// toWire converts a stored resource to its response body.
func toWire(res registry.Resource) (api.Resource[any], error) {
	out := api.Resource[any]{
		ID:       res.ID.String(),
		Name:     api.EscapeTypeName(res.ID.Leaf()),
		Type:     res.ID.Kind.WireType(),
		Location: res.Location,
		Tags:     res.Tags,
		SystemData: &api.SystemData{
			CreatedBy:      res.System.CreatedBy,
			CreatedAt:      formatTime(res.System.CreatedAt),
			LastModifiedBy: res.System.LastModifiedBy,
			LastModifiedAt: formatTime(res.System.LastModifiedAt),
		},
	}
	if res.System.CreatedBy != "" {
		out.SystemData.CreatedByType = "User"
	}
	if res.System.LastModifiedBy != "" {
		out.SystemData.LastModifiedByType = "User"
	}
	if res.ID.Kind == registry.KindResourceType {
		out.Name = res.ID.Type // the name is the type as registered: "contosoBuses/queues"
	}
	decode := func(v any) error {
		if len(res.Properties) == 0 {
			return nil
		}
		if err := json.Unmarshal(res.Properties, v); err != nil {
			return fmt.Errorf("stored properties of %s: %w", res.ID, err)
		}
		return nil
	}
	switch res.ID.Kind {
	case registry.KindPlane:
		out.Properties = api.PlaneProperties{ProvisioningState: api.ProvisioningSucceeded}
	case registry.KindProvider:
		out.Properties = api.ResourceProviderProperties{ProvisioningState: api.ProvisioningSucceeded}
	case registry.KindResourceType:
		var p registry.TypeProperties
		if err := decode(&p); err != nil {
			return out, err
		}
		out.Properties = api.ResourceTypeProperties{DefaultAPIVersion: p.DefaultAPIVersion, Description: p.Description,
			Capabilities: p.Capabilities, ProvisioningState: api.ProvisioningSucceeded}
	case registry.KindAPIVersion:
		var p registry.APIVersionProperties
		if err := decode(&p); err != nil {
			return out, err
		}
		out.Properties = api.APIVersionProperties{Schema: api.SchemaOrEmpty(p.Schema), ProvisioningState: api.ProvisioningSucceeded}
	case registry.KindLocation:
		var p registry.LocationProperties
		if err := decode(&p); err != nil {
			return out, err
		}
		lp := api.LocationProperties{Address: p.Address, ProvisioningState: api.ProvisioningSucceeded}
		if len(p.ResourceTypes) > 0 {
			lp.ResourceTypes = map[string]api.LocationResourceType{}
			for t, lt := range p.ResourceTypes {
				vs := map[string]api.LocationAPIVersion{}
				for v := range lt.APIVersions {
					vs[v] = api.LocationAPIVersion{}
				}
				lp.ResourceTypes[t] = api.LocationResourceType{Address: lt.Address, APIVersions: vs}
			}
		}
		out.Properties = lp
	}
	return out, nil
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// writeResource writes the stored resource res as the response to its PUT,
// whose properties were sent (envelopeResource's). The schema of an API
// version, which validSchema compacted and checked, is written as it was
// stored, not decoded and encoded again (encodeAPIVersion); the other
// kinds' small properties go through toWire. A write of a batch, whose
// answer carries the status and ETag only, gets no body.
func (s *Server) writeResource(w http.ResponseWriter, r *http.Request, status int, res registry.Resource, sent json.RawMessage) {
	if inBatch(r) {
		w.Header().Set("ETag", `"`+res.ETag+`"`)
		w.WriteHeader(status)
		return
	}
	if res.ID.Kind == registry.KindAPIVersion {
		body, err := encodeAPIVersion(res, sent)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("ETag", `"`+res.ETag+`"`)
		writeEncoded(w, status, cachedResponse{body: append(body, '\n')})
		return
	}
	body, err := toWire(res)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("ETag", `"`+res.ETag+`"`)
	writeJSON(w, status, body)
}

// encodeAPIVersion returns the body that toWire and marshal give for the
// API version res with the properties props that validSchema returned,
// splicing the compacted schema into the envelope instead of decoding and
// encoding it again.
func encodeAPIVersion(res registry.Resource, props json.RawMessage) ([]byte, error) {
	out, err := toWire(registry.Resource{ID: res.ID, Location: res.Location, Tags: res.Tags, System: res.System})
	if err != nil {
		return nil, err
	}
	// api.Resource's fields before and after properties, in its order.
	head, err := marshal(struct {
		ID       string            `json:"id,omitempty"`
		Name     string            `json:"name,omitempty"`
		Type     string            `json:"type,omitempty"`
		Location string            `json:"location,omitempty"`
		Tags     map[string]string `json:"tags,omitempty"`
	}{out.ID, out.Name, out.Type, out.Location, out.Tags})
	if err != nil {
		return nil, err
	}
	sys, err := marshal(out.SystemData)
	if err != nil {
		return nil, err
	}
	const state = `,"provisioningState":"` + api.ProvisioningSucceeded + `"}`
	schema, _ := registry.StoredSchema(props)
	b := make([]byte, 0, len(head)+len(schema)+len(sys)+80)
	b = append(b, head[:len(head)-1]...) // without its '}'
	if len(head) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"properties":{"schema":`...) // api.APIVersionProperties, in its order
	b = append(b, schema...)
	b = append(b, state...)
	b = append(b, `,"systemData":`...)
	b = append(b, sys...)
	return append(b, '}'), nil
}
