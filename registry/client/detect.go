package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

// Flavor is the kind of server a client talks to.
type Flavor int

// The flavors. A server that does not name itself udtc (api.VersionHeader)
// is taken for Radius's UCP: what a client does for UCP (polling, up-front
// refusals, no batches) is safe against any server.
const (
	FlavorUnknown Flavor = iota // Detect was not called
	FlavorUdtc
	FlavorUCP
)

// Target is what Detect learnt of the server.
type Target struct {
	Flavor Flavor
	// URL is the base the client sends requests under: the server's root
	// for udtc serve, the root followed by api.BasePath for UCP.
	URL string
	// Version is udtc serve's version as it names it; "" for UCP.
	Version string
}

// String describes the target in one line: "Radius UCP at URL".
func (t Target) String() string {
	switch t.Flavor {
	case FlavorUdtc:
		if t.Version == "" {
			return "udtc serve at " + t.URL
		}
		return fmt.Sprintf("udtc serve %s at %s", t.Version, t.URL)
	case FlavorUCP:
		return "Radius UCP at " + t.URL
	}
	return t.URL
}

// Target returns what Detect learnt; before Detect, Flavor is
// FlavorUnknown and URL the client's base URL.
func (c *Client) Target() Target { return c.target }

// Detect asks the server what it is, and sends later requests under the
// base path it serves the API at. The base URL given to New may be a
// server's root or end with api.BasePath (as rad's workspaces name UCP).
// At a root, GET api.BasePath answers 200 on UCP and on udtc serve, which
// names itself in api.VersionHeader (udtc serve keeps serving at the
// root); a 404 there is an older udtc serve when its /readyz answers, else
// a UCP serving at the root. It returns an error when the server cannot be
// reached or refuses the probe.
func (c *Client) Detect(ctx context.Context) (Target, error) {
	root := *c.base
	if strings.HasSuffix(root.Path, api.BasePath) {
		resp, data, err := c.do(ctx, http.MethodGet, root.String(), nil, nil)
		if err != nil {
			return Target{}, err
		}
		if resp.StatusCode != http.StatusOK {
			return Target{}, fmt.Errorf("no Radius API at %s: %w", root.String(), responseError(resp, data))
		}
		return c.found(resp, &root), nil
	}
	probe := root
	probe.Path += api.BasePath
	resp, data, err := c.do(ctx, http.MethodGet, probe.String(), nil, nil)
	switch {
	case err != nil:
		return Target{}, err
	case resp.StatusCode == http.StatusOK && resp.Header.Get(api.VersionHeader) == "":
		return c.found(resp, &probe), nil
	case resp.StatusCode == http.StatusOK:
		return c.found(resp, &root), nil
	case resp.StatusCode != http.StatusNotFound:
		return Target{}, fmt.Errorf("probing %s: %w", probe.String(), responseError(resp, data))
	}
	// No API under the base path: an older udtc serve answers /readyz.
	ready := root
	ready.Path += "/readyz"
	if r, _, err := c.send(ctx, http.MethodGet, ready.String(), nil, nil); err == nil && r.StatusCode == http.StatusOK {
		c.target = Target{Flavor: FlavorUdtc, URL: root.String(), Version: r.Header.Get(api.VersionHeader)}
		return c.target, nil
	}
	return c.found(resp, &root), nil
}

// found records the target resp (a probe's answer) names, with base.
func (c *Client) found(resp *http.Response, base *url.URL) Target {
	t := Target{Flavor: FlavorUCP, URL: base.String()}
	if v := resp.Header.Get(api.VersionHeader); v != "" {
		t.Flavor, t.Version = FlavorUdtc, v
	}
	c.base, c.target = base, t
	return t
}

// Ping finds out what the server is (Detect, unless known: udtc serve or
// Radius's UCP) and reads plane: it checks that the server answers and the
// plane exists (IsNotFound when it does not).
func (c *Client) Ping(ctx context.Context, plane string) error {
	if c.target.Flavor == FlavorUnknown {
		if _, err := c.Detect(ctx); err != nil {
			return err
		}
	}
	_, err := c.GetPlane(ctx, plane)
	return err
}

// Unreachable reports whether err means that the server did not answer at
// all (a network error or a timeout, no HTTP status), with err's innermost
// cause for a short message.
func Unreachable(err error) (cause error, ok bool) {
	var ne net.Error
	if StatusCode(err) != 0 || !(errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded)) {
		return nil, false
	}
	for next := errors.Unwrap(err); next != nil; next = errors.Unwrap(err) {
		err = next
	}
	return err, true
}
