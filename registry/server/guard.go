package server

import (
	"fmt"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/udtc/udtc/registry"
)

// What a request must be for the registry to serve it at all, whatever
// its route and token: the one home of the rules that keep web pages out
// of a registry (docs/registry.md, "Browsers, Host and Origin").
//
//   - Host. With Options.CheckHost, a request whose Host is not one of the
//     server's names is refused: a page whose name an attacker points at
//     127.0.0.1 (DNS rebinding) is then no way in.
//   - Origin. A write (any method but GET, HEAD and OPTIONS) that a
//     browser sends from another origin is refused: Sec-Fetch-Site, or
//     else Origin, tells (net/http's CrossOriginProtection). Requests with
//     neither, those of command-line clients, pass.
//   - Content-Type. A write's body must be JSON, declared so: a browser
//     sends a cross-origin request without asking first only with a text
//     or form content type.

// guardRequests refuses, with 403 or 415 and the ARM envelope, the
// requests the rules above exclude.
func (s *Server) guardRequests(next http.Handler) http.Handler {
	cross := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.checkHost {
			if err := s.hosts.check(r.Host); err != nil {
				refuse(w, err)
				return
			}
		}
		if isRead(r.Method) {
			next.ServeHTTP(w, r)
			return
		}
		if cross.Check(r) != nil {
			refuse(w, crossOriginError(r))
			return
		}
		if err := jsonContent(r); err != nil {
			refuse(w, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isRead reports whether method is one that changes nothing: GET, HEAD,
// OPTIONS.
func isRead(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// crossOriginError is the refusal of a write a browser sent from another
// origin.
func crossOriginError(r *http.Request) error {
	from := "Origin: " + r.Header.Get("Origin")
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" {
		from = "Sec-Fetch-Site: " + site
	}
	return registry.Errorf(registry.CodeForbidden, "", "a %s from a web page of another origin (%s) is refused: the registry takes writes from command-line clients and its own origin only", r.Method, from)
}

// jsonContent checks the Content-Type of a write: JSON (application/json
// or application/*+json) when there is one; none only without a body.
func jsonContent(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		if r.ContentLength == 0 {
			return nil
		}
		return registry.Errorf(registry.CodeUnsupportedMediaType, "", "a %s with a body needs Content-Type: application/json", r.Method)
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || !(mt == "application/json" || (strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))) {
		return registry.Errorf(registry.CodeUnsupportedMediaType, "", "content type %q is not JSON; send application/json", ct)
	}
	return nil
}

// hostNames are the names a request's Host may carry besides IP addresses
// and localhost (CheckAllowedHosts says what a name may be).
type hostNames struct {
	any     bool
	exact   map[string]bool
	domains []string // ".example.com": it and its subdomains
}

// CheckAllowedHosts checks names for Options.AllowedHosts: each a host name
// without a port ("registry.example.com"), one with a leading dot for it
// and its subdomains (".example.com"), or "*" for any Host. The error
// names the first that is none of these.
func CheckAllowedHosts(names []string) error {
	_, err := newHostNames(names)
	return err
}

func newHostNames(names []string) (hostNames, error) {
	h := hostNames{exact: map[string]bool{}}
	for _, n := range names {
		name := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(n)), ".")
		if name == "*" {
			h.any = true
			continue
		}
		domain := strings.HasPrefix(name, ".")
		bare := strings.TrimPrefix(name, ".")
		if !validHostName(bare) { // refuses "", ports, schemes, user info and brackets too
			return hostNames{}, fmt.Errorf("%q is not a host name: give a name without scheme or port (registry.example.com), a domain with a leading dot for its subdomains too (.example.com), or * for any", n)
		}
		if domain {
			h.domains = append(h.domains, "."+bare)
		}
		h.exact[bare] = true
	}
	return h, nil
}

// validHostName reports whether name is made of DNS labels: letters,
// digits, '-' and '_', separated by dots.
func validHostName(name string) bool {
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// check refuses a Host header that names none of the server's names: an
// IP address (no page can make one its own name), localhost or a name
// under .localhost (which browsers resolve to loopback themselves), or one
// of the allowed names; any port.
func (h hostNames) check(hostport string) error {
	if h.any {
		return nil
	}
	host := hostport
	if hp, _, err := net.SplitHostPort(hostport); err == nil {
		host = hp
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	switch {
	case host == "":
		return registry.Errorf(registry.CodeForbidden, "", "the request has no Host header; this registry answers only requests for its own names")
	case net.ParseIP(host) != nil, host == "localhost", strings.HasSuffix(host, ".localhost"), h.exact[host]:
		return nil
	}
	for _, d := range h.domains {
		if strings.HasSuffix(host, d) {
			return nil
		}
	}
	return registry.Errorf(registry.CodeForbidden, "", "Host %q is not a name of this registry; udtc serve --allowed-hosts adds names to localhost and IP addresses", hostport)
}
