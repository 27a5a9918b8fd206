// Package client is a typed Go client for the registry's HTTP API: every
// registration resource (Get/Put/Delete/List), planes, provider summaries,
// resource groups and the resources of the registered types, of udtc serve
// or of Radius's UCP (Detect tells which). It retries connection errors,
// 429, 5xx and the 409 of a concurrent write (api.Retryable) with bounded
// exponential backoff and UCP's 409 of a write in progress
// (api.InProgress) for longer, waits for the asynchronous operations of
// UCP's writes (async.go), honours ctx, sends a bearer token when given
// one (to the server's origin only), and returns *Error carrying the ARM
// error code and HTTP status.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/udtc/udtc/internal/sameorigin"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// Client talks to one registry server and one plane.
type Client struct {
	base        *url.URL
	hc          *http.Client
	token       string
	plane       string
	maxAttempts int
	baseDelay   time.Duration
	maxDelay    time.Duration
	ops         Operations // async.go
	target      Target     // detect.go
}

// Option configures a Client.
type Option func(*Client)

// WithToken sends "Authorization: Bearer token" on every request.
func WithToken(token string) Option { return func(c *Client) { c.token = token } }

// WithHTTPClient replaces the default HTTP client (http.DefaultTransport's
// settings, with up to 32 idle connections per host).
func WithHTTPClient(hc *http.Client) Option { return func(c *Client) { c.hc = hc } }

// WithPlane selects the radius plane (default api.DefaultPlane, "local").
func WithPlane(plane string) Option { return func(c *Client) { c.plane = plane } }

// WithRetry sets the number of attempts per call (1 disables retries) and
// the backoff bounds: the n-th retry waits about base·2ⁿ⁻¹, at most maxDelay.
func WithRetry(attempts int, base, maxDelay time.Duration) Option {
	return func(c *Client) {
		c.maxAttempts = max(attempts, 1)
		c.baseDelay, c.maxDelay = base, maxDelay
	}
}

// defaultHTTP is the HTTP client of Clients without WithHTTPClient:
// http.DefaultTransport's settings, but keeping up to 32 idle connections
// per host instead of 2, so that concurrent calls (publish writes 8 at a
// time) reuse their connections instead of opening new ones all along.
var defaultHTTP = func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 32
	return &http.Client{Transport: t}
}()

// New returns a client for the server at baseURL ("http://127.0.0.1:7443").
func New(baseURL string, opts ...Option) (*Client, error) {
	if p := api.AddressProblem(baseURL); p != "" {
		return nil, fmt.Errorf("client: base URL %q %s", baseURL, p)
	}
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("client: base URL %q: %w", baseURL, err)
	}
	c := &Client{base: u, hc: defaultHTTP, plane: api.DefaultPlane, maxAttempts: 5, baseDelay: 100 * time.Millisecond, maxDelay: 3 * time.Second,
		ops: DefaultOperations, target: Target{URL: u.String()}}
	for _, o := range opts {
		o(c)
	}
	// The token is set on requests to the base's origin only (send); a
	// redirect keeps it only to that origin, and never leaves https.
	c.hc = sameorigin.Client(c.hc)
	return c, nil
}

// Error is an error response from the server.
type Error struct {
	StatusCode int
	Code       string
	Message    string
	Target     string
	Details    []api.ErrorDetail
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "registry: %d %s: %s", e.StatusCode, e.Code, e.Message)
	for _, d := range e.Details {
		fmt.Fprintf(&b, "\n  %s: %s", d.Code, d.Message)
		if d.Target != "" {
			fmt.Fprintf(&b, " (at %s)", d.Target)
		}
	}
	return b.String()
}

// StatusCode returns the HTTP status of err when it is (or wraps) an *Error,
// and 0 otherwise.
func StatusCode(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

// IsNotFound reports whether err is a 404 from the server, or the error a
// read of the registry's service in process returns where its request
// would get that 404 (registry.CodeNotFound: the git sync reads so).
func IsNotFound(err error) bool {
	return StatusCode(err) == http.StatusNotFound || registry.CodeOf(err) == registry.CodeNotFound
}

// IsPreconditionFailed reports whether err is a 412 from the server.
func IsPreconditionFailed(err error) bool { return StatusCode(err) == http.StatusPreconditionFailed }

// Condition is an optional precondition on Put and Delete.
type Condition func(h http.Header)

// IfMatch makes the write conditional on the resource's current ETag ("*":
// on its existence).
func IfMatch(etag string) Condition {
	return func(h http.Header) {
		if etag != "*" && !strings.HasPrefix(etag, `"`) {
			etag = `"` + etag + `"`
		}
		h.Set("If-Match", etag)
	}
}

// IfNoneMatch makes the write conditional on the resource not existing.
func IfNoneMatch() Condition { return func(h http.Header) { h.Set("If-None-Match", "*") } }

// do sends a request with retries and returns the final response with its
// body read. target is a path (with ?api-version added here unless it has a
// query) or an absolute URL. A 409 in progress (api.InProgress) is retried
// for up to the Operations' Timeout, the other retryable answers
// (api.Retryable) and connection errors up to the client's attempts.
func (c *Client) do(ctx context.Context, method, target string, body []byte, conds []Condition) (*http.Response, []byte, error) {
	u := c.url(target)
	start := time.Now()
	var lastErr error
	busyWait := c.ops.Busy
	for attempt := 1; ; {
		resp, data, err := c.send(ctx, method, u, body, conds)
		if ctx.Err() != nil {
			return nil, nil, fmt.Errorf("registry: %s %s: %w", method, u, ctx.Err())
		}
		var wait time.Duration
		counted := true // one of the attempts; a write in progress is not
		switch {
		case err != nil:
			lastErr = err
		case inProgress(resp, data):
			counted = false
			lastErr = responseError(resp, data)
			if time.Since(start) >= c.ops.Timeout {
				return nil, nil, fmt.Errorf("%w (still in progress after %s)", lastErr, c.ops.Timeout.Round(time.Second))
			}
			wait = busyWait
			if d, ok := retryAfter(resp.Header); ok && d > 0 {
				wait = d
			}
			busyWait = min(busyWait*2, c.ops.MaxBusy)
			progress(ctx, "waiting for another write", start)
		case retryable(resp, data):
			lastErr = responseError(resp, data)
			if d, ok := retryAfter(resp.Header); ok && d > 0 {
				wait = min(d, c.maxDelay)
			}
		default:
			return resp, data, nil
		}
		if counted {
			if attempt >= c.maxAttempts {
				return nil, nil, lastErr
			}
			if wait == 0 {
				wait = c.backoff(attempt)
			}
			attempt++
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, nil, fmt.Errorf("registry: %s %s: %w (last error: %v)", method, u, ctx.Err(), lastErr)
		case <-t.C:
		}
	}
}

// url returns the URL of a request target: an absolute URL as it is, a
// path under the client's base with ?api-version unless it has a query.
func (c *Client) url(target string) string {
	if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") {
		return target
	}
	ref := *c.base
	path, query, ok := strings.Cut(target, "?")
	if !ok {
		query = "api-version=" + api.Version
	}
	ref.Path = c.base.Path + path
	ref.RawPath = ""
	ref.RawQuery = query
	return ref.String()
}

// send sends one request to u and returns its answer with the body read.
// The token goes only to the base's origin: a URL the server gave (an
// operation to poll, a nextLink) may name another host.
func (c *Client) send(ctx context.Context, method, u string, body []byte, conds []Condition) (*http.Response, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, nil, fmt.Errorf("registry: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	if c.token != "" && sameorigin.Same(req.URL, c.base) {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for _, cond := range conds {
		cond(req.Header)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("registry: %s %s: %w", method, u, err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("registry: %s %s: %w", method, u, err)
	}
	return resp, data, nil
}

// backoff returns the wait before retry n (1-based): exponential with
// jitter in [d/2, d].
func (c *Client) backoff(n int) time.Duration {
	d := c.baseDelay << min(n-1, 20)
	if d <= 0 || d > c.maxDelay {
		d = c.maxDelay
	}
	if d <= 1 {
		return d
	}
	return d/2 + rand.N(d/2+1)
}

// retryable reports whether a response is worth retrying (api.Retryable:
// 429, 5xx, and the 409 of a concurrent write, not a 409 Conflict such as
// unregistering a type that still has resources).
func retryable(resp *http.Response, data []byte) bool {
	if resp.StatusCode < 400 {
		return false
	}
	var env api.ErrorResponse
	_ = json.Unmarshal(data, &env) // no envelope: no code
	return api.Retryable(resp.StatusCode, env.Error.Code)
}

// inProgress reports whether a response is UCP's 409 of a write in
// progress (api.InProgress).
func inProgress(resp *http.Response, data []byte) bool {
	if resp.StatusCode != http.StatusConflict {
		return false
	}
	var env api.ErrorResponse
	_ = json.Unmarshal(data, &env)
	return api.InProgress(resp.StatusCode, env.Error.Code, env.Error.Message)
}

func responseError(resp *http.Response, data []byte) error {
	e := &Error{StatusCode: resp.StatusCode}
	var env api.ErrorResponse
	if json.Unmarshal(data, &env) == nil && env.Error.Code != "" {
		e.Code, e.Message, e.Target, e.Details = env.Error.Code, env.Error.Message, env.Error.Target, env.Error.Details
	} else {
		e.Code = http.StatusText(resp.StatusCode)
		e.Message = strings.TrimSpace(string(data))
		if len(e.Message) > 200 {
			e.Message = e.Message[:200] + "..."
		}
	}
	return e
}

func decode[T any](resp *http.Response, data []byte) (T, error) {
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return v, fmt.Errorf("registry: decoding %s response: %w", resp.Request.URL.Path, err)
	}
	return v, nil
}

func getResource[P any](ctx context.Context, c *Client, t target) (api.Resource[P], error) {
	if t.err != nil {
		return api.Resource[P]{}, t.err
	}
	resp, data, err := c.do(ctx, http.MethodGet, t.path, nil, nil)
	if err != nil {
		return api.Resource[P]{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return api.Resource[P]{}, responseError(resp, data)
	}
	r, err := decode[api.Resource[P]](resp, data)
	r.ETag = strings.Trim(resp.Header.Get("ETag"), `"`)
	return r, err
}

func putResource[P any](ctx context.Context, c *Client, t target, body api.Resource[P], conds []Condition) (api.Resource[P], error) {
	if t.err != nil {
		return api.Resource[P]{}, t.err
	}
	path := t.path
	b, err := json.Marshal(body)
	if err != nil {
		return api.Resource[P]{}, fmt.Errorf("registry: encoding %s: %w", path, err)
	}
	start := time.Now()
	resp, data, err := c.do(ctx, http.MethodPut, path, b, conds)
	if err == nil {
		resp, data, err = c.settle(ctx, http.MethodPut, path, start, resp, data)
	}
	if err != nil {
		return api.Resource[P]{}, err
	}
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusCreated {
		return api.Resource[P]{}, responseError(resp, data)
	}
	r, err := decode[api.Resource[P]](resp, data)
	r.ETag = strings.Trim(resp.Header.Get("ETag"), `"`)
	return r, err
}

// deleteResource reports whether something was deleted (200) rather than
// absent (204).
func (c *Client) deleteResource(ctx context.Context, t target, conds []Condition) (bool, error) {
	if t.err != nil {
		return false, t.err
	}
	start := time.Now()
	resp, data, err := c.do(ctx, http.MethodDelete, t.path, nil, conds)
	if err == nil {
		resp, data, err = c.settle(ctx, http.MethodDelete, t.path, start, resp, data)
	}
	if err != nil {
		return false, err
	}
	switch resp.StatusCode {
	case http.StatusOK, http.StatusAccepted:
		return true, nil
	case http.StatusNoContent:
		return false, nil
	}
	return false, responseError(resp, data)
}

// listAll follows nextLink until the last page.
func listAll[T any](ctx context.Context, c *Client, t target) ([]T, error) {
	if t.err != nil {
		return nil, t.err
	}
	out := []T{}
	err := c.pages(ctx, http.MethodGet, t.path, nil, "listing "+t.path, func(resp *http.Response, data []byte) (string, error) {
		page, err := decode[api.List[T]](resp, data)
		out = append(out, page.Value...)
		return page.NextLink, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// pages sends method to target, then to each next page the answer names,
// with body every time, and hands each answer (200 OK) to page, which
// returns the next page's URL ("" after the last); what is the request,
// for the error of a server that never stops paging.
func (c *Client) pages(ctx context.Context, method, target string, body []byte, what string, page func(*http.Response, []byte) (string, error)) error {
	for pages := 0; target != ""; pages++ {
		if pages > 10000 {
			return fmt.Errorf("registry: %s: too many pages", what)
		}
		resp, data, err := c.do(ctx, method, target, body, nil)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return responseError(resp, data)
		}
		if target, err = page(resp, data); err != nil {
			return err
		}
	}
	return nil
}

// listWithin lists the registrations at t that are t's children: UCP's
// lists of a provider's types or locations, or of a type's API versions,
// hold those of the whole plane (ids tell them apart, compared
// case-insensitively as UCP spells them as asked).
func listWithin[P any](ctx context.Context, c *Client, t target) ([]api.Resource[P], error) {
	all, err := listAll[api.Resource[P]](ctx, c, t)
	if err != nil {
		return nil, err
	}
	parent := strings.ToLower(t.path) + "/"
	out := all[:0]
	for _, r := range all {
		if strings.HasPrefix(strings.ToLower(r.ID), parent) {
			out = append(out, r)
		}
	}
	return out, nil
}

func seg(s string) string { return url.PathEscape(s) }

// ErrInvalidName is wrapped by the error of a call given a name the
// registry's rules refuse; such a call sends nothing.
var ErrInvalidName = errors.New("invalid name")

// target is a request path built from names checked with the registry's
// rules (registry/api) before anything is sent: an invalid name ("..", a
// '/' in a namespace, a malformed API version) is an error here, never a
// request the server might resolve to another resource.
type target struct {
	path string
	err  error
}

// checked returns the target of path with its names checked: pairs of a
// description and a problem from registry/api.
func checked(path string, problems ...[2]string) target {
	for _, p := range problems {
		if p[1] != "" {
			return target{err: fmt.Errorf("registry: %w: %s %s", ErrInvalidName, p[0], p[1])}
		}
	}
	return target{path: path}
}

// join appends fixed segments to t.
func (t target) join(s string) target { t.path += s; return t }

func nameProblem(what, name, problem string) [2]string {
	if problem == "" {
		return [2]string{}
	}
	return [2]string{what, fmt.Sprintf("%q %s", name, problem)}
}

func planeTarget(name string) target {
	return checked("/planes/radius/"+seg(name), nameProblem("plane name", name, api.SegmentProblem(name)))
}

func (c *Client) providerTarget(ns string) target {
	t := planeTarget(c.plane)
	if t.err != nil {
		return t
	}
	return checked(t.path+"/providers/System.Resources/resourceproviders/"+seg(ns),
		nameProblem("resource provider namespace", ns, api.NamespaceProblem(ns)))
}

func (c *Client) typeTarget(ns, typ string) target {
	t := c.providerTarget(ns)
	if t.err != nil {
		return t
	}
	return checked(t.path+"/resourcetypes/"+seg(api.EscapeTypeName(typ)),
		nameProblem("resource type name", typ, api.TypeNameProblem(typ)))
}

func (c *Client) versionTarget(ns, typ, version string) target {
	t := c.typeTarget(ns, typ)
	if t.err != nil {
		return t
	}
	return checked(t.path+"/apiversions/"+seg(version), nameProblem("API version", version, api.APIVersionProblem(version)))
}

func (c *Client) locationTarget(ns, location string) target {
	t := c.providerTarget(ns)
	if t.err != nil {
		return t
	}
	return checked(t.path+"/locations/"+seg(location), nameProblem("location name", location, api.SegmentProblem(location)))
}

// Planes.

// GetPlane returns a plane.
func (c *Client) GetPlane(ctx context.Context, name string) (api.Plane, error) {
	return getResource[api.PlaneProperties](ctx, c, planeTarget(name))
}

// PutPlane creates or updates a plane.
func (c *Client) PutPlane(ctx context.Context, name string, body api.Plane, conds ...Condition) (api.Plane, error) {
	return putResource(ctx, c, planeTarget(name), body, conds)
}

// ListPlanes lists every radius plane.
func (c *Client) ListPlanes(ctx context.Context) ([]api.Plane, error) {
	return listAll[api.Plane](ctx, c, target{path: "/planes/radius"})
}

// Resource providers.

// GetProvider returns a resource provider.
func (c *Client) GetProvider(ctx context.Context, namespace string) (api.ResourceProvider, error) {
	return getResource[api.ResourceProviderProperties](ctx, c, c.providerTarget(namespace))
}

// PutProvider creates or updates a resource provider.
func (c *Client) PutProvider(ctx context.Context, namespace string, body api.ResourceProvider, conds ...Condition) (api.ResourceProvider, error) {
	return putResource(ctx, c, c.providerTarget(namespace), body, conds)
}

// DeleteProvider deletes a resource provider and everything under it; it
// reports whether the provider existed.
func (c *Client) DeleteProvider(ctx context.Context, namespace string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, c.providerTarget(namespace), conds)
}

// ListProviders lists the plane's resource providers.
func (c *Client) ListProviders(ctx context.Context) ([]api.ResourceProvider, error) {
	return listAll[api.ResourceProvider](ctx, c, planeTarget(c.plane).join("/providers/System.Resources/resourceproviders"))
}

// Resource types. Child types are named with "/" ("contosoBuses/queues").
// Paths spell their fixed segments as Radius's description of the API
// does (resourceproviders, resourcetypes, apiversions): UCP matches them
// case-sensitively, udtc serve in any case.

// GetResourceType returns a resource type.
func (c *Client) GetResourceType(ctx context.Context, namespace, typ string) (api.ResourceType, error) {
	return getResource[api.ResourceTypeProperties](ctx, c, c.typeTarget(namespace, typ))
}

// PutResourceType creates or updates a resource type.
func (c *Client) PutResourceType(ctx context.Context, namespace, typ string, body api.ResourceType, conds ...Condition) (api.ResourceType, error) {
	return putResource(ctx, c, c.typeTarget(namespace, typ), body, conds)
}

// DeleteResourceType deletes a resource type, its API versions and its
// child types; it reports whether the type existed.
func (c *Client) DeleteResourceType(ctx context.Context, namespace, typ string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, c.typeTarget(namespace, typ), conds)
}

// ListResourceTypes lists a provider's resource types.
func (c *Client) ListResourceTypes(ctx context.Context, namespace string) ([]api.ResourceType, error) {
	return listWithin[api.ResourceTypeProperties](ctx, c, c.providerTarget(namespace).join("/resourcetypes"))
}

// API versions.

// GetAPIVersion returns an API version of a resource type.
func (c *Client) GetAPIVersion(ctx context.Context, namespace, typ, version string) (api.APIVersion, error) {
	return getResource[api.APIVersionProperties](ctx, c, c.versionTarget(namespace, typ, version))
}

// PutAPIVersion creates or updates an API version; a schema the server's
// checker rejects is an *Error with status 400 and the diagnostics in
// Details.
func (c *Client) PutAPIVersion(ctx context.Context, namespace, typ, version string, body api.APIVersion, conds ...Condition) (api.APIVersion, error) {
	return putResource(ctx, c, c.versionTarget(namespace, typ, version), body, conds)
}

// DeleteAPIVersion deletes an API version; it reports whether it existed.
func (c *Client) DeleteAPIVersion(ctx context.Context, namespace, typ, version string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, c.versionTarget(namespace, typ, version), conds)
}

// ListAPIVersions lists a resource type's API versions, by name.
func (c *Client) ListAPIVersions(ctx context.Context, namespace, typ string) ([]api.APIVersion, error) {
	return listWithin[api.APIVersionProperties](ctx, c, c.typeTarget(namespace, typ).join("/apiversions"))
}

// Locations.

// GetLocation returns a provider location.
func (c *Client) GetLocation(ctx context.Context, namespace, location string) (api.Location, error) {
	return getResource[api.LocationProperties](ctx, c, c.locationTarget(namespace, location))
}

// PutLocation creates or updates a provider location.
func (c *Client) PutLocation(ctx context.Context, namespace, location string, body api.Location, conds ...Condition) (api.Location, error) {
	return putResource(ctx, c, c.locationTarget(namespace, location), body, conds)
}

// DeleteLocation deletes a provider location; it reports whether it existed.
func (c *Client) DeleteLocation(ctx context.Context, namespace, location string, conds ...Condition) (bool, error) {
	return c.deleteResource(ctx, c.locationTarget(namespace, location), conds)
}

// ListLocations lists a provider's locations.
func (c *Client) ListLocations(ctx context.Context, namespace string) ([]api.Location, error) {
	return listWithin[api.LocationProperties](ctx, c, c.providerTarget(namespace).join("/locations"))
}

// Summaries.

// ProviderSummaries returns the summary of every provider of the plane.
func (c *Client) ProviderSummaries(ctx context.Context) ([]api.ProviderSummary, error) {
	t := planeTarget(c.plane)
	if t.err != nil {
		return nil, t.err
	}
	resp, data, err := c.do(ctx, http.MethodGet, t.path+"/providers", nil, nil)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, responseError(resp, data)
	}
	l, err := decode[api.ProviderSummaryList](resp, data)
	return l.Value, err
}

// ProviderSummary returns one provider's summary, with its types' icons.
func (c *Client) ProviderSummary(ctx context.Context, namespace string) (api.ProviderSummary, error) {
	t := checked("/planes/radius/"+seg(c.plane)+"/providers/"+seg(namespace),
		nameProblem("plane name", c.plane, api.SegmentProblem(c.plane)),
		nameProblem("resource provider namespace", namespace, api.NamespaceProblem(namespace)))
	if t.err != nil {
		return api.ProviderSummary{}, t.err
	}
	resp, data, err := c.do(ctx, http.MethodGet, t.path+"?api-version="+api.Version+"&includeIcons=true", nil, nil)
	if err != nil {
		return api.ProviderSummary{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return api.ProviderSummary{}, responseError(resp, data)
	}
	return decode[api.ProviderSummary](resp, data)
}

// Ready returns nil when the server's /readyz reports ready; it does not
// retry.
func (c *Client) Ready(ctx context.Context) error {
	u := *c.base
	u.Path = c.base.Path + "/readyz"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return responseError(resp, data)
	}
	return nil
}
