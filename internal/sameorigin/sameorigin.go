// Package sameorigin keeps credentials on redirects to their origin: the
// one rule of every client of udtc that sends them (registry/client's
// bearer token, registry/oci's registry credentials). net/http drops
// Authorization only when a redirect changes the host name; it keeps it
// for another port of the host, and from https to plain http.
package sameorigin

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// Of returns the origin of u: its scheme, host name and port (the
// scheme's default port when u names none), in lower case.
func Of(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(strings.TrimSuffix(u.Hostname(), ".")), port)
}

// Same reports whether a and b have one origin: scheme, host and port.
func Same(a, b *url.URL) bool { return Of(a) == Of(b) }

// sensitive are the headers that carry credentials.
var sensitive = []string{"Authorization", "Proxy-Authorization", "Cookie", "Cookie2"}

// maxRedirects is net/http's own limit, which a CheckRedirect replaces.
const maxRedirects = 10

// CheckRedirect is an http.Client's CheckRedirect: it refuses a redirect
// from https to plain http (a downgrade), takes the credential headers off
// the requests of a redirect chain once it left the first request's
// origin, and follows at most 10 redirects as net/http does. (oras-go's
// auth.Client strips Authorization on such a chain too, but follows a
// downgrade.)
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errors.New("stopped after 10 redirects")
	}
	first, prev := via[0].URL, via[len(via)-1].URL
	for _, from := range []*url.URL{first, prev} {
		if strings.EqualFold(from.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
			return fmt.Errorf("refusing the redirect from %s to %s: it leaves https", Of(from), Of(req.URL))
		}
	}
	if left(via, req) {
		for _, h := range sensitive {
			req.Header.Del(h)
		}
	}
	return nil
}

// left reports whether a redirect chain, via then req, has left the
// origin of its first request: for good, even when a later hop comes back
// (net/http rebuilds each hop's headers from the first request's).
func left(via []*http.Request, req *http.Request) bool {
	for _, r := range via[1:] {
		if !Same(via[0].URL, r.URL) {
			return true
		}
	}
	return !Same(via[0].URL, req.URL)
}

// Client returns a copy of hc (nil: http.DefaultClient) whose redirects
// follow CheckRedirect, then hc's own CheckRedirect when it has one.
func Client(hc *http.Client) *http.Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	c := *hc
	own := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := CheckRedirect(req, via); err != nil {
			return err
		}
		if own != nil {
			return own(req, via)
		}
		return nil
	}
	return &c
}
