package server

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/egress"
)

// The defaults and fixed limits of forwarding (ForwardOptions).
const (
	// DefaultForwardTimeout bounds one forwarded exchange: connecting,
	// the provider's response headers and its whole body.
	DefaultForwardTimeout = 30 * time.Second
	// DefaultForwardMaxConcurrent is how many requests may be forwarded to
	// one provider (scheme, host and port) at a time.
	DefaultForwardMaxConcurrent = 32
	// DefaultForwardMaxBodyBytes is the largest response body a provider
	// may answer: 8 MiB.
	DefaultForwardMaxBodyBytes = 8 << 20
	// ForwardConnectTimeout bounds each attempt to connect to a provider
	// (within the forward timeout).
	ForwardConnectTimeout = 5 * time.Second
	// MaxForwardHeaderBytes bounds a provider's response headers.
	MaxForwardHeaderBytes = MaxHeaderBytes
	// HopHeader is set on every request the registry forwards. A request
	// that carries it has been forwarded once already: a registry serves
	// it when it stores the type itself and never forwards it again, so a
	// location address that leads back to a registry costs one request,
	// not a loop.
	HopHeader = "Udtc-Forwarded"
)

// ForwardOptions configure forwarding to the resource providers at the
// locations' addresses.
type ForwardOptions struct {
	// Allow are the rules of where forwarded requests may go
	// (egress.Parse); nil means the default: loopback addresses when every
	// Listen address is loopback, else nowhere.
	Allow []egress.Rule
	// Listen are the addresses the server listens on: a forwarded request
	// never goes there (nor to any local address at the port of a listener
	// on 0.0.0.0 or ::). Empty for a server that does not know them yet
	// (tests); the hop header still stops a loop after one hop.
	Listen []netip.AddrPort
	// MaxConcurrent bounds the requests forwarded to one provider at a
	// time; 0 means DefaultForwardMaxConcurrent.
	MaxConcurrent int
	// MaxBodyBytes bounds a provider's response body; 0 means
	// DefaultForwardMaxBodyBytes.
	MaxBodyBytes int64
	// Timeout bounds a forwarded exchange; 0 means DefaultForwardTimeout.
	Timeout time.Duration
}

var (
	errForwardTimeout = errors.New("forward timeout")
	errBodyTooLarge   = errors.New("response body too large")
)

// forwarder sends resource requests that passed admission to the resource
// provider's location address (seed 000: locations route to providers): the
// same method, path and query, the admitted body, X-Forwarded-For/-Host/
// -Proto and the hop header set, and the provider's response returned as
// it is once it arrived whole. The caller's Authorization header is never
// forwarded: the registry's tokens are not the provider's.
type forwarder struct {
	transport http.RoundTripper
	policy    *egress.Policy
	timeout   time.Duration
	maxBody   int64
	limit     *providerLimit
	log       *slog.Logger
	dialer    *net.Dialer
	// lookup resolves a host name to its addresses (tests replace it).
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
}

func newForwarder(opts ForwardOptions, policy *egress.Policy, log *slog.Logger) *forwarder {
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	f := &forwarder{
		policy:  policy,
		timeout: cmp.Or(opts.Timeout, DefaultForwardTimeout),
		maxBody: cmp.Or(opts.MaxBodyBytes, DefaultForwardMaxBodyBytes),
		limit:   &providerLimit{max: cmp.Or(opts.MaxConcurrent, DefaultForwardMaxConcurrent), busy: map[string]int{}},
		log:     log,
		dialer:  &net.Dialer{Timeout: ForwardConnectTimeout, KeepAlive: 30 * time.Second},
		lookup: func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		},
	}
	f.transport = &http.Transport{
		Proxy:                  nil, // a loopback provider must not go through $HTTP_PROXY
		DialContext:            f.dial,
		TLSHandshakeTimeout:    ForwardConnectTimeout,
		MaxIdleConnsPerHost:    32,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: MaxForwardHeaderBytes,
	}
	return f
}

// schemeKey carries the scheme of a forwarded request to dial, which only
// sees host:port.
type schemeKey struct{}

// dial connects to addr (host:port) for a forwarded request: it resolves
// the host and checks every address against the egress policy before
// connecting, so that what the name resolves to now, not when the location
// was registered, is what counts. A loop refuses the whole dial; other
// refused addresses are skipped, and the dial fails when none is left.
func (f *forwarder) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("port %q: %w", portText, err)
	}
	ips, err := f.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	scheme, _ := ctx.Value(schemeKey{}).(string)
	var allowed []netip.Addr
	var refused error
	for _, ip := range ips {
		err := f.policy.CheckIP(scheme, host, ip, uint16(port))
		var r *egress.Refusal
		if errors.As(err, &r) && r.Loop {
			return nil, err
		}
		if err != nil {
			refused = cmp.Or(refused, err)
			continue
		}
		allowed = append(allowed, ip)
	}
	if len(allowed) == 0 {
		return nil, cmp.Or(refused, fmt.Errorf("%s resolves to no address", host))
	}
	var first error
	for _, ip := range allowed {
		c, err := f.dialer.DialContext(ctx, network, netip.AddrPortFrom(ip, uint16(port)).String())
		if err == nil {
			return c, nil
		}
		first = cmp.Or(first, err)
	}
	return nil, first
}

func (f *forwarder) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	return f.lookup(ctx, host)
}

// providerLimit counts the requests in flight to each provider.
type providerLimit struct {
	max  int
	mu   sync.Mutex
	busy map[string]int
}

// acquire takes a slot of provider, or reports false when all are taken.
func (l *providerLimit) acquire(provider string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.busy[provider] >= l.max {
		return false
	}
	l.busy[provider]++
	return true
}

func (l *providerLimit) release(provider string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.busy[provider]--; l.busy[provider] <= 0 {
		delete(l.busy, provider)
	}
}

// forward sends r to address (an absolute http(s) URL, checked when the
// location was registered) with body in place of r's body (nil: no body),
// and copies the provider's answer to w. It answers the refusals itself:
// 508 for a request that was forwarded already or an address that is the
// server's own, 502 for an address the egress policy refuses, a provider
// that cannot be reached, does not answer in time or answers too much, 503
// (with Retry-After) when MaxConcurrent requests to that provider are in
// flight. Messages and the log name the address without its credentials.
func (f *forwarder) forward(w http.ResponseWriter, r *http.Request, address string, body []byte) {
	shown := api.RedactAddress(address)
	target, err := url.Parse(address)
	if err == nil {
		target.User = nil // stored before credentials were refused: never sent either
	}
	if err != nil || api.AddressProblem(target.String()) != "" {
		refuse(w, registry.Errorf(registry.CodeBadGateway, "", "the provider's location address %q is not an absolute http(s) URL", shown))
		return
	}
	if r.Header.Get(HopHeader) != "" {
		refuse(w, registry.Errorf(registry.CodeLoopDetected, "",
			"this request was forwarded by a registry already (it carries %s); a registry does not forward a request twice: the location address %s leads back to a registry", HopHeader, shown))
		return
	}
	if err := f.policy.CheckURL(target); err != nil {
		refuse(w, refusal(err, shown))
		return
	}
	provider := strings.ToLower(target.Scheme + "://" + target.Host)
	if !f.limit.acquire(provider) {
		w.Header().Set("Retry-After", "1")
		refuse(w, registry.Errorf(registry.CodeUnavailable, "",
			"%d requests to the resource provider at %s are in flight already, the most this registry forwards to one provider at a time; retry later", f.limit.max, shown))
		return
	}
	defer f.limit.release(provider)
	ctx, cancel := context.WithTimeoutCause(r.Context(), f.timeout, errForwardTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, schemeKey{}, strings.ToLower(target.Scheme))
	f.proxy(target, shown, body).ServeHTTP(w, r.WithContext(ctx))
}

// proxy returns the reverse proxy of one forwarded request.
func (f *forwarder) proxy(target *url.URL, shown string, body []byte) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Transport: f.transport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = target.Host
			pr.SetXForwarded()
			pr.Out.Header.Set(HopHeader, "1")
			pr.Out.Header.Del("Authorization")
			pr.Out.Header.Del("Cookie")
			if body != nil {
				pr.Out.Body = io.NopCloser(bytes.NewReader(body))
				pr.Out.ContentLength = int64(len(body))
				pr.Out.Header.Set("Content-Length", strconv.Itoa(len(body)))
				pr.Out.Header.Set("Content-Type", "application/json")
			} else {
				pr.Out.Body = http.NoBody
				pr.Out.ContentLength = 0
				pr.Out.Header.Del("Content-Length")
			}
		},
		ModifyResponse: f.bufferBody,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			f.log.WarnContext(r.Context(), "forwarding failed", "address", shown, "method", r.Method, "path", r.URL.Path, "err", err)
			refuse(w, f.failure(r.Context(), err, shown))
		},
	}
}

// bufferBody reads the provider's whole response body (at most maxBody
// bytes) before anything is answered: a provider that stalls or closes
// mid-body, or answers too much, is a 502, never a truncated answer under
// the provider's status.
func (f *forwarder) bufferBody(resp *http.Response) error {
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, f.maxBody+1))
	if err != nil {
		return err
	}
	if int64(len(b)) > f.maxBody {
		return errBodyTooLarge
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if resp.Request.Method != http.MethodHead && resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusNotModified {
		resp.ContentLength = int64(len(b))
		resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
		resp.TransferEncoding = nil
	}
	return nil
}

// failure is the error answered for a forwarded request that failed with
// err: a refusal of the egress policy (met when connecting), a body or
// headers over the limits, the timeout, or a provider that cannot be
// reached.
func (f *forwarder) failure(ctx context.Context, err error, shown string) error {
	var r *egress.Refusal
	switch {
	case errors.As(err, &r):
		return refusal(r, shown)
	case errors.Is(err, errBodyTooLarge):
		return registry.Errorf(registry.CodeBadGateway, "", "the resource provider at %s answered a body larger than %d bytes, the most this registry forwards (--forward-max-body-bytes)", shown, f.maxBody)
	case strings.Contains(err.Error(), "server response headers exceeded"): // net/http has no typed error for it
		return registry.Errorf(registry.CodeBadGateway, "", "the resource provider at %s answered headers larger than %d bytes, the most this registry forwards", shown, MaxForwardHeaderBytes)
	case errors.Is(context.Cause(ctx), errForwardTimeout):
		return registry.Errorf(registry.CodeBadGateway, "", "the resource provider at %s did not answer within %s", shown, f.timeout)
	}
	return registry.Errorf(registry.CodeBadGateway, "", "the resource provider at %s did not answer", shown)
}

// refusal is the answer to an address the egress policy refuses: 508 for
// a loop, else 502.
func refusal(err error, shown string) error {
	var r *egress.Refusal
	if errors.As(err, &r) && r.Loop {
		return registry.Errorf(registry.CodeLoopDetected, "", "the location address %s leads back to this registry: %s", shown, r.Reason)
	}
	return registry.Errorf(registry.CodeBadGateway, "", "this registry does not forward to the location address %s: %v", shown, err)
}
