// Package udtc is the runtime of the Go client that udtc gen writes: the
// emitter copies this file once into every output, as
// go/internal/udtc/udtc_gen.go, and the generated packages import it from
// there (the version packages export aliases of what users need). It is
// compiled, vetted and tested here like any other package, and imports only
// the standard library.
//
// Everything before the package clause is dropped when the file is copied.
package udtc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ValidationError is one violation found by Validate. Validate returns all
// of them joined with errors.Join; use errors.As for the first, or the
// Unwrap() []error method of the joined error for all.
type ValidationError struct {
	// Path is the JSON path of the offending value.
	Path string
	// Message says what is wrong, e.g. "is required".
	Message string
}

// Error returns "path: message".
func (e *ValidationError) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

// Validator collects violations.
type Validator struct{ errs []error }

// Check records msg at path.name unless ok. It is not inlined: generated
// code calls it once per constraint, and inlining every call would make the
// generated packages slow to compile for no gain.
//
//go:noinline
func (v *Validator) Check(ok bool, path, name, msg string) {
	if !ok {
		v.errs = append(v.errs, &ValidationError{Path: Join(path, name), Message: msg})
	}
}

// Missing records that the required property name of path is absent.
//
//go:noinline
func (v *Validator) Missing(path, name string) {
	v.errs = append(v.errs, &ValidationError{Path: Join(path, name), Message: "is required"})
}

// Required records that the required property name of path is absent
// unless present.
//
//go:noinline
func (v *Validator) Required(present bool, path, name string) {
	if !present {
		v.Missing(path, name)
	}
}

// String checks the length of *s in characters (Unicode code points, as
// JSON Schema counts them) against min and max (-1: no bound) and matches it
// against re (nil: no pattern). A nil s is not checked.
//
//go:noinline
func (v *Validator) String(p *string, path, name string, min, max int, re *regexp.Regexp) {
	if p == nil {
		return
	}
	s := *p
	if min >= 0 || max >= 0 {
		n := utf8.RuneCountInString(s)
		v.Check(min < 0 || n >= min, path, name, "must be at least "+strconv.Itoa(min)+" characters long")
		v.Check(max < 0 || n <= max, path, name, "must be at most "+strconv.Itoa(max)+" characters long")
	}
	if re != nil {
		v.Check(re.MatchString(s), path, name, "must match the pattern "+re.String())
	}
}

// Err joins the violations; nil when there are none.
func (v *Validator) Err() error { return errors.Join(v.errs...) }

// Join appends a property name to a JSON path.
func Join(path, name string) string {
	switch {
	case path == "":
		return name
	case name == "":
		return path
	}
	return path + "." + name
}

// Key appends a map key to a JSON path.
func Key(path, k string) string { return path + "[" + strconv.Quote(k) + "]" }

// Index appends an array index to a JSON path.
func Index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// SortedKeys returns the keys of m in order, so violations come out in a
// stable order.
func SortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// UniqueItems reports whether xs has no duplicates.
func UniqueItems[T comparable](xs []T) bool {
	seen := make(map[T]struct{}, len(xs))
	for _, x := range xs {
		if _, dup := seen[x]; dup {
			return false
		}
		seen[x] = struct{}{}
	}
	return true
}

// UniqueJSON reports whether xs has no two items with the same JSON encoding.
func UniqueJSON[T any](xs []T) bool {
	seen := make(map[string]struct{}, len(xs))
	for _, x := range xs {
		b, err := json.Marshal(x)
		if err != nil {
			return false
		}
		if _, dup := seen[string(b)]; dup {
			return false
		}
		seen[string(b)] = struct{}{}
	}
	return true
}

// MultipleOf reports whether x is a multiple of m, allowing for rounding.
func MultipleOf(x, m float64) bool {
	q := x / m
	return math.Abs(q-math.Round(q)) <= 1e-9*math.Max(1, math.Abs(q))
}

// Ptr returns a pointer to a copy of v.
func Ptr[T any](v T) *T { return &v }

// SystemData is metadata the server records about a resource.
type SystemData struct {
	CreatedBy          *string    `json:"createdBy,omitempty"`
	CreatedByType      *string    `json:"createdByType,omitempty"`
	CreatedAt          *time.Time `json:"createdAt,omitempty"`
	LastModifiedBy     *string    `json:"lastModifiedBy,omitempty"`
	LastModifiedByType *string    `json:"lastModifiedByType,omitempty"`
	LastModifiedAt     *time.Time `json:"lastModifiedAt,omitempty"`
}

// ResourceID is the ID of a resource of any type:
// {scope}/providers/{Namespace}/{type}/{name}[/{childType}/{childName}]...
// It marshals to and from its string form.
type ResourceID struct {
	scope, namespace string
	types, names     []string
}

// ParseResourceID parses s as a resource ID of any type: it must start with
// "/" and have a "providers" segment followed by the namespace and one or
// more non-empty type/name pairs.
func ParseResourceID(s string) (ResourceID, error) {
	segs := strings.Split(s, "/")
	p := -1
	for i := len(segs) - 1; i > 0; i-- {
		if strings.EqualFold(segs[i], "providers") {
			p = i
			break
		}
	}
	rest := segs[p+1:]
	if !strings.HasPrefix(s, "/") || p < 0 || len(rest) < 3 || len(rest)%2 == 0 || rest[0] == "" {
		return ResourceID{}, fmt.Errorf("%q is not a resource ID ({scope}/providers/{Namespace}/{type}/{name}...)", s)
	}
	id := ResourceID{scope: strings.Join(segs[:p], "/"), namespace: rest[0]}
	for i := 1; i < len(rest); i += 2 {
		if rest[i] == "" || rest[i+1] == "" {
			return ResourceID{}, fmt.Errorf("%q is not a resource ID: empty type or name", s)
		}
		id.types = append(id.types, rest[i])
		id.names = append(id.names, rest[i+1])
	}
	return id, nil
}

// Scope is the part of the ID before "/providers/".
func (id ResourceID) Scope() string { return id.scope }

// Namespace is the resource type's namespace ("Contoso.Data").
func (id ResourceID) Namespace() string { return id.namespace }

// Types are the type segments, outermost first (["contosoBuses", "queues"]).
func (id ResourceID) Types() []string { return slices.Clone(id.types) }

// Names are the resource names, outermost first (["bus1", "q1"]).
func (id ResourceID) Names() []string { return slices.Clone(id.names) }

// String returns the ID; "" for the zero ResourceID.
func (id ResourceID) String() string {
	if id.namespace == "" {
		return ""
	}
	return Format(id.scope, id.namespace+"/"+strings.Join(id.types, "/"), id.names...)
}

// MarshalText returns the ID's string form.
func (id ResourceID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText parses an ID of any type.
func (id *ResourceID) UnmarshalText(b []byte) error {
	v, err := ParseResourceID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// Parse splits s into its scope and resource names, checking the namespace
// and type segments of fullType ("Namespace/type/child") case-insensitively.
func Parse(s, fullType string) (scope string, names []string, err error) {
	want := strings.Split(fullType, "/")
	types := want[1:]
	segs := strings.Split(s, "/")
	n := 2 + 2*len(types)
	bad := fmt.Errorf("%q is not a resource ID of type %s", s, fullType)
	if !strings.HasPrefix(s, "/") || len(segs) < n+1 {
		return "", nil, bad
	}
	tail := segs[len(segs)-n:]
	if !strings.EqualFold(tail[0], "providers") || !strings.EqualFold(tail[1], want[0]) {
		return "", nil, bad
	}
	for i, t := range types {
		name := tail[3+2*i]
		if !strings.EqualFold(tail[2+2*i], t) || name == "" {
			return "", nil, bad
		}
		names = append(names, name)
	}
	return strings.Join(segs[:len(segs)-n], "/"), names, nil
}

// Format builds an ID from its scope, the type's full name and the
// resource names.
func Format(scope, fullType string, names ...string) string {
	want := strings.Split(fullType, "/")
	var b strings.Builder
	b.WriteString(scope)
	b.WriteString("/providers/")
	b.WriteString(want[0])
	for i, t := range want[1:] {
		b.WriteString("/" + t + "/" + names[i])
	}
	return b.String()
}

// ClientOptions configure the resource clients.
type ClientOptions struct {
	// Endpoint is the server's base URL, e.g. "http://127.0.0.1:7443".
	Endpoint string
	// Plane is the Radius plane for scopes given as a resource group name
	// (see the List methods); "local" when empty.
	Plane string
	// Token, when set, is sent as "Authorization: Bearer <Token>".
	Token string
	// HTTPClient sends the requests; http.DefaultClient when nil.
	HTTPClient *http.Client
}

// ResponseError is a non-2xx answer of the server, decoded from its ARM
// error body ({"error": {"code", "message", "target", "details"}}).
type ResponseError struct {
	StatusCode int
	Code       string
	Message    string
	Target     string
	Details    []ErrorDetail
}

// ErrorDetail is one detail of a ResponseError, e.g. one violation of a
// refused write: Target is the JSON path of the offending value.
type ErrorDetail struct {
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Target  string        `json:"target,omitempty"`
	Details []ErrorDetail `json:"details,omitempty"`
}

// Error returns the status, code and message followed by every detail with
// its target.
func (e *ResponseError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s: %s", e.StatusCode, e.Code, e.Message)
	if e.Target != "" {
		fmt.Fprintf(&b, " (target %s)", e.Target)
	}
	var walk func([]ErrorDetail)
	walk = func(ds []ErrorDetail) {
		for _, d := range ds {
			b.WriteString("; ")
			if d.Target != "" {
				b.WriteString(d.Target + ": ")
			}
			fmt.Fprintf(&b, "%s: %s", d.Code, d.Message)
			walk(d.Details)
		}
	}
	walk(e.Details)
	return b.String()
}

// Client sends the requests of one resource type at one API version.
type Client struct {
	opts       ClientOptions
	apiVersion string
}

// NewClient returns a client of the resources written with apiVersion.
func NewClient(opts ClientOptions, apiVersion string) *Client {
	if opts.Plane == "" {
		opts.Plane = "local"
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	opts.Endpoint = strings.TrimRight(opts.Endpoint, "/")
	return &Client{opts: opts, apiVersion: apiVersion}
}

// Scope expands a List scope: "" is the whole plane, a name without "/" a
// resource group of the plane, anything else is used as given.
func (c *Client) Scope(scope string) string {
	switch {
	case scope == "":
		return "/planes/radius/" + c.opts.Plane
	case !strings.HasPrefix(scope, "/"):
		return "/planes/radius/" + c.opts.Plane + "/resourceGroups/" + scope
	}
	return scope
}

// URL is the request URL of path with the client's API version.
func (c *Client) URL(path string) string {
	return c.opts.Endpoint + path + "?api-version=" + url.QueryEscape(c.apiVersion)
}

// Do sends a request with in (if not nil) as its JSON body and decodes a
// 2xx answer into out (if not nil). A non-2xx answer is a *ResponseError.
func (c *Client) Do(ctx context.Context, method, u string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.Token)
	}
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &ResponseError{StatusCode: resp.StatusCode}
		var env struct{ Error ErrorDetail }
		if json.Unmarshal(data, &env) == nil && env.Error.Code != "" {
			e.Code, e.Message, e.Target, e.Details = env.Error.Code, env.Error.Message, env.Error.Target, env.Error.Details
		} else {
			e.Code, e.Message = http.StatusText(resp.StatusCode), strings.TrimSpace(string(data))
		}
		return e
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decoding the answer: %w", method, u, err)
	}
	return nil
}

// Get reads the resource at path into a new T.
func Get[T any](ctx context.Context, c *Client, path string) (*T, error) {
	r := new(T)
	if err := c.Do(ctx, http.MethodGet, c.URL(path), nil, r); err != nil {
		return nil, err
	}
	return r, nil
}

// Put writes in at path and returns what the server stored.
func Put[T any](ctx context.Context, c *Client, path string, in *T) (*T, error) {
	r := new(T)
	if err := c.Do(ctx, http.MethodPut, c.URL(path), in, r); err != nil {
		return nil, err
	}
	return r, nil
}

// Post sends an empty POST to path and decodes the answer into a new T.
func Post[T any](ctx context.Context, c *Client, path string) (*T, error) {
	r := new(T)
	if err := c.Do(ctx, http.MethodPost, c.URL(path), nil, r); err != nil {
		return nil, err
	}
	return r, nil
}

// Delete deletes the resource at path; deleting an absent one is no error.
func (c *Client) Delete(ctx context.Context, path string) error {
	return c.Do(ctx, http.MethodDelete, c.URL(path), nil, nil)
}

// List yields the resources of the list at path, page after page
// (following nextLink), and stops after the first error.
func List[T any](ctx context.Context, c *Client, path string) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		u := c.URL(path)
		for u != "" {
			var page struct {
				Value    []*T   `json:"value"`
				NextLink string `json:"nextLink"`
			}
			if err := c.Do(ctx, http.MethodGet, u, nil, &page); err != nil {
				yield(nil, err)
				return
			}
			for _, r := range page.Value {
				if !yield(r, nil) {
					return
				}
			}
			u = page.NextLink
		}
	}
}
