package server

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// Decoding the parts of a request: path values, query parameters,
// conditions and the body.

// idFromRequest builds the ID of kind from the route's path values and
// validates its names.
func idFromRequest(r *http.Request, kind registry.Kind) (registry.ID, error) {
	return idFromValues(r.PathValue, kind, r.URL.Path)
}

// idFromValues builds the ID of kind from a route's path values (value)
// and validates its names; path is the request's, for messages.
func idFromValues(value func(name string) string, kind registry.Kind, path string) (registry.ID, error) {
	typ := value("type")
	if strings.Contains(typ, "/") {
		// "contosoBuses%2Fqueues": child types are addressed as contosoBuses_queues only.
		return registry.ID{}, registry.Errorf(registry.CodeNotFound, "",
			"no route for %s (child resource types are addressed with '_' in place of '/')", path)
	}
	id := registry.ID{
		Kind:     kind,
		Plane:    value("plane"),
		Provider: value("namespace"),
		Type:     api.UnescapeTypeName(typ),
		Name:     value("name"),
	}
	if err := id.Validate(); err != nil {
		return registry.ID{}, err
	}
	return id, nil
}

func groupFromRequest(r *http.Request) (registry.GroupID, error) {
	g := registry.GroupID{Plane: r.PathValue("plane"), Name: r.PathValue("group")}
	return g, g.Validate()
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
	return false, registry.Errorf(registry.CodeInvalid, "force", "force must be true or false, got %q", strings.Join(v, ","))
}

func listOptions(r *http.Request) (registry.ListOptions, error) {
	var opts registry.ListOptions
	q := r.URL.Query()
	if v := q.Get("$top"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return opts, registry.Errorf(registry.CodeInvalid, "", "$top must be a positive integer, got %q", v)
		}
		opts.Top = min(n, registry.MaxPageSize)
	}
	if v := q.Get("$skipToken"); v != "" {
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil {
			return opts, registry.Errorf(registry.CodeInvalid, "", "$skipToken is not a token this server issued")
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
	orig := requestURL(r) // with the base path the request came with (ucp.go)
	u := url.URL{Scheme: scheme, Host: r.Host, Path: orig.Path, RawPath: orig.RawPath, RawQuery: q.Encode()}
	return u.String()
}

// requireAPIVersion checks ?api-version: it must equal api.Version, and be
// present when required.
func requireAPIVersion(required bool, h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		v, present := r.URL.Query()["api-version"]
		if (required && !present) || (present && (len(v) != 1 || v[0] != api.Version)) {
			got := "none"
			if present {
				got = fmt.Sprintf("%q", strings.Join(v, ","))
			}
			return registry.Errorf(registry.CodeInvalidAPIVersion, "api-version", "api-version must be %q, got %s", api.Version, got)
		}
		return h(w, r)
	}
}

// resourceAPIVersion returns ?api-version of a resource request: one value,
// a well-formed API version (whether it is registered is the service's
// Resolve's).
func resourceAPIVersion(r *http.Request) (string, error) {
	v := r.URL.Query()["api-version"]
	if len(v) != 1 || v[0] == "" {
		return "", registry.Errorf(registry.CodeInvalidAPIVersion, "api-version",
			"api-version is required once: a registered API version of the resource's type")
	}
	if p := api.APIVersionProblem(v[0]); p != "" {
		return "", registry.Errorf(registry.CodeInvalidAPIVersion, "api-version", "api-version %q %s", v[0], p)
	}
	return v[0], nil
}

// preconditions parses If-Match and If-None-Match: ETags with or without
// quotes (and W/), or "*".
func preconditions(r *http.Request) registry.Precondition {
	parse := func(h string) []string {
		var out []string
		for _, v := range r.Header.Values(h) {
			for _, tag := range strings.Split(v, ",") {
				tag = strings.TrimSpace(tag)
				if tag == "" {
					continue
				}
				tag = strings.TrimPrefix(tag, "W/")
				if tag != "*" && len(tag) >= 2 && tag[0] == '"' && tag[len(tag)-1] == '"' {
					tag = tag[1 : len(tag)-1]
				}
				out = append(out, tag)
			}
		}
		return out
	}
	return registry.Precondition{IfMatch: parse("If-Match"), IfNoneMatch: parse("If-None-Match")}
}

// readBodyReserve is the most buffer readBody reserves for a body before
// reading it, whatever length the request announces.
const readBodyReserve = 64 << 10

// readBody reads a request body that must not be empty, within the size
// limit; guardRequests saw that it is declared JSON.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > s.maxBody {
		return nil, tooLarge(s.maxBody)
	}
	// Read into one buffer of the announced size (io.ReadAll would grow
	// one from 512 bytes, copying as it goes), up to readBodyReserve: a
	// client's announcement alone does not reserve maxBody; a larger body
	// grows the buffer as it arrives.
	buf := bytes.NewBuffer(make([]byte, 0, min(max(r.ContentLength, 0), readBodyReserve)+bytes.MinRead))
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, s.maxBody)); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(s.maxBody)
		}
		return nil, registry.Errorf(registry.CodeInvalid, "", "reading the request body: %v", err)
	}
	body := buf.Bytes()
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, registry.Errorf(registry.CodeInvalid, "", "the request body is empty; send a JSON object")
	}
	return body, nil
}

func tooLarge(limit int64) error {
	return registry.Errorf(registry.CodeTooLarge, "", "the request body is larger than %d bytes", limit)
}
