package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// DefaultForwardTimeout bounds one forwarded request, response included.
const DefaultForwardTimeout = 30 * time.Second

var errForwardTimeout = errors.New("forward timeout")

// forwarder sends resource requests that passed admission to the resource
// provider's location address (seed 000: locations route to providers): the
// same method, path and query, the admitted body, X-Forwarded-For/-Host/
// -Proto set, and the provider's response returned as it is. The caller's
// Authorization header is never forwarded: the registry's tokens are not the
// provider's.
type forwarder struct {
	transport http.RoundTripper
	timeout   time.Duration
	log       *slog.Logger
}

func newForwarder(transport http.RoundTripper, log *slog.Logger) *forwarder {
	if transport == nil {
		transport = &http.Transport{
			Proxy:                 nil, // a loopback provider must not go through $HTTP_PROXY
			MaxIdleConnsPerHost:   32,
			IdleConnTimeout:       90 * time.Second,
			ResponseHeaderTimeout: DefaultForwardTimeout,
		}
	}
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &forwarder{transport: transport, timeout: DefaultForwardTimeout, log: log}
}

// forward sends r to address (an absolute http(s) URL, checked when the
// location was registered) with body in place of r's body (nil: no body),
// and copies the provider's answer to w. When the provider cannot be reached
// it answers 502 with the ARM envelope naming the address.
func (f *forwarder) forward(w http.ResponseWriter, r *http.Request, address string, body []byte) {
	target, err := url.Parse(address)
	if err != nil || api.AddressProblem(address) != "" {
		refuse(w, registry.Errorf(registry.CodeBadGateway, "", "the provider's location address %q is not an absolute http(s) URL", address))
		return
	}
	proxy := &httputil.ReverseProxy{
		Transport: f.transport,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = target.Host
			pr.SetXForwarded()
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
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			f.log.WarnContext(r.Context(), "forwarding failed", "address", address, "method", r.Method, "path", r.URL.Path, "err", err)
			msg := fmt.Sprintf("the resource provider at %s did not answer", address)
			if errors.Is(context.Cause(r.Context()), errForwardTimeout) {
				msg = fmt.Sprintf("the resource provider at %s did not answer within %s", address, f.timeout)
			}
			refuse(w, &registry.Error{Code: registry.CodeBadGateway, Message: msg})
		},
	}
	ctx, cancel := context.WithTimeoutCause(r.Context(), f.timeout, errForwardTimeout)
	defer cancel()
	proxy.ServeHTTP(w, r.WithContext(ctx))
}
