// Package egress decides where the registry may connect when it forwards a
// resource request to the address of a resource provider: the rules of
// `udtc serve --forward-allow` (Parse), the addresses that are never
// reached unless a rule names them (loopback, link-local, cloud metadata,
// unspecified, multicast), and the server's own listen addresses, where a
// forwarded request would loop. It resolves no name itself: a caller checks
// a location address when it is registered and before it forwards
// (CheckURL, by name), then every IP address a name resolves to as it
// connects (CheckIP), so that a name that resolves to something else later
// (DNS rebinding) cannot reach an address the rules do not allow.
package egress

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Rule is one --forward-allow rule: [SCHEME://]HOST[:PORT] or
// [SCHEME://]CIDR, where HOST is a name ("provider.internal"), a wildcard
// of names ("*.corp.example": its subdomains; "*": any host), or an IP
// address ("10.0.0.7", "[fd00::7]:8443"); SCHEME is http or https.
type Rule struct {
	text   string
	scheme string       // "http", "https"; "" for both
	host   string       // a lower-case name, "*" or "*.suffix"; "" for an IP rule
	prefix netip.Prefix // an IP rule's addresses (one address: all bits)
	port   uint16       // 0 for any
}

// String returns the rule as written.
func (r Rule) String() string { return r.text }

// Parse reads the values of --forward-allow: each value holds one rule or
// several separated by commas; white space around a rule is ignored. The
// single value "none" allows nothing (not even loopback). The error names
// the rule and says what a rule looks like. Parse returns a nil slice only
// for no values (the default applies, see New).
func Parse(values []string) ([]Rule, error) {
	if len(values) == 0 {
		return nil, nil
	}
	rules := []Rule{}
	if len(values) == 1 && strings.TrimSpace(values[0]) == "none" {
		return rules, nil
	}
	for _, v := range values {
		for _, text := range strings.Split(v, ",") {
			text = strings.TrimSpace(text)
			if text == "none" {
				return nil, fmt.Errorf(`forward rule "none" allows nothing and cannot be combined with other rules`)
			}
			r, err := parseRule(text)
			if err != nil {
				return nil, fmt.Errorf("forward rule %q %v (a rule is [http:// or https://]HOST[:PORT] or a CIDR, e.g. provider.internal, *.corp.example:8443, 10.0.0.0/8, [fd00::7]:443, https://*)", text, err)
			}
			rules = append(rules, r)
		}
	}
	return rules, nil
}

func parseRule(text string) (Rule, error) {
	r := Rule{text: text}
	rest := text
	if scheme, after, ok := strings.Cut(rest, "://"); ok {
		r.scheme, rest = strings.ToLower(scheme), after
		if r.scheme != "http" && r.scheme != "https" {
			return r, fmt.Errorf("has scheme %q; only http and https are forwarded", scheme)
		}
	}
	switch {
	case rest == "":
		return r, fmt.Errorf("names no host")
	case strings.Contains(rest, "/"):
		p, err := netip.ParsePrefix(rest)
		if err != nil {
			return r, fmt.Errorf("is not a CIDR")
		}
		r.prefix = unmapPrefix(p.Masked())
		return r, nil
	}
	if ip, err := netip.ParseAddr(rest); err == nil { // 10.0.0.7, fd00::7
		r.prefix = hostPrefix(ip)
		return r, nil
	}
	host, port, err := splitHostPort(rest)
	if err != nil {
		return r, err
	}
	if port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil || n == 0 {
			return r, fmt.Errorf("has port %q; a port is 1 to 65535", port)
		}
		r.port = uint16(n)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		r.prefix = hostPrefix(ip)
		return r, nil
	}
	if strings.HasPrefix(rest, "[") {
		return r, fmt.Errorf("has %q in brackets, which is not an IPv6 address", host)
	}
	r.host = normalizeName(host)
	if msg := nameProblem(r.host); msg != "" {
		return r, fmt.Errorf("%s", msg)
	}
	return r, nil
}

// splitHostPort splits HOST[:PORT] and [IPv6][:PORT].
func splitHostPort(s string) (host, port string, err error) {
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", "", fmt.Errorf("has no closing ']'")
		}
		host, after := s[1:end], s[end+1:]
		if after != "" && !strings.HasPrefix(after, ":") {
			return "", "", fmt.Errorf("has %q after ']'", after)
		}
		return host, strings.TrimPrefix(after, ":"), nil
	}
	host, port, found := strings.Cut(s, ":")
	if found && port == "" {
		return "", "", fmt.Errorf("has an empty port")
	}
	if strings.Contains(port, ":") {
		return "", "", fmt.Errorf("has more than one ':' (write IPv6 addresses with a port in brackets)")
	}
	return host, port, nil
}

// nameProblem says why a rule's name is not a host name or a wildcard.
func nameProblem(name string) string {
	if name == "*" {
		return ""
	}
	labels := strings.Split(strings.TrimPrefix(name, "*."), ".")
	for _, l := range labels {
		if l == "" {
			return "has an empty label"
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fmt.Sprintf("has %q, which a host name cannot hold (a wildcard is *, or *. before a domain)", c)
			}
		}
	}
	return ""
}

// normalizeName lower-cases a host name and drops a final dot.
func normalizeName(name string) string {
	return strings.TrimSuffix(strings.ToLower(name), ".")
}

func hostPrefix(ip netip.Addr) netip.Prefix {
	ip = ip.Unmap().WithZone("")
	return netip.PrefixFrom(ip, ip.BitLen())
}

func unmapPrefix(p netip.Prefix) netip.Prefix {
	if p.Addr().Is4In6() && p.Bits() >= 96 {
		return netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return p
}

// allows reports whether r admits scheme and port (its host is matched
// apart).
func (r Rule) allows(scheme string, port uint16) bool {
	return (r.scheme == "" || r.scheme == scheme) && (r.port == 0 || r.port == port)
}

func (r Rule) isIP() bool { return r.host == "" }

// matchesName reports whether the name rule r matches the host name host.
func (r Rule) matchesName(host string) bool {
	switch {
	case r.isIP():
		return false
	case r.host == "*":
		return true
	case strings.HasPrefix(r.host, "*."):
		return strings.HasSuffix(host, r.host[1:])
	}
	return r.host == host
}

// block is a range of addresses reached only when a rule names it.
type block struct {
	prefix netip.Prefix
	what   string
}

// guarded are the addresses reached only when a rule names them: an IP
// rule inside the block (a CIDR as long as the block's or longer), or a
// rule that names the host exactly. The first block that contains an
// address is the one that counts: the metadata addresses must be named
// themselves, naming 169.254.0.0/16 does not reach 169.254.169.254.
var guarded = blocks([]addressKind{
	{"the cloud instance metadata address", []string{"169.254.169.254/32"}},
	{"the cloud instance metadata address (AWS, IPv6)", []string{"fd00:ec2::254/128"}},
	{"the cloud instance metadata address (Alibaba Cloud)", []string{"100.100.100.200/32"}},
	{"link-local", []string{"169.254.0.0/16", "fe80::/10"}},
	{"loopback", []string{"127.0.0.0/8", "::1/128"}},
	{"unspecified (this host)", []string{"0.0.0.0/8", "::/128"}},
	{"multicast", []string{"224.0.0.0/4", "ff00::/8"}},
	{"the broadcast address", []string{"255.255.255.255/32"}},
})

// addressKind is a kind of guarded address: the words that name it and
// its prefixes.
type addressKind struct {
	what     string
	prefixes []string
}

// blocks lists the prefixes of each kind in order, each with the words
// that name its kind.
func blocks(kinds []addressKind) []block {
	var bs []block
	for _, k := range kinds {
		for _, p := range k.prefixes {
			bs = append(bs, block{netip.MustParsePrefix(p), k.what})
		}
	}
	return bs
}

// metadataNames are host names of cloud instance metadata services: like
// their addresses, reached only when a rule names them exactly.
var metadataNames = []string{"metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"}

// loopbackRules are the rules without --forward-allow on a server that
// listens on loopback only.
var loopbackRules = []Rule{
	{text: "127.0.0.0/8", prefix: netip.MustParsePrefix("127.0.0.0/8")},
	{text: "::1", prefix: netip.MustParsePrefix("::1/128")},
}

// Policy is where forwarded requests may go. It is safe for concurrent use.
type Policy struct {
	rules     []Rule
	defaulted bool
	listen    []netip.AddrPort
	// localAddrs returns the host's interface addresses: a server listening
	// on 0.0.0.0 or :: is reached through any of them.
	localAddrs func() []netip.Addr
}

// New returns the policy of rules (Parse) for a server listening on listen.
// With nil rules (no --forward-allow) it allows loopback addresses when
// every listen address is loopback (or none is given: a server that is not
// listening yet, as in tests), and nothing otherwise. Whatever the rules,
// the listen addresses themselves are refused (a loop), and so is any
// address of a listener on 0.0.0.0 or :: at its port.
func New(rules []Rule, listen []netip.AddrPort) *Policy {
	p := &Policy{rules: rules, listen: listen, localAddrs: interfaceAddrs}
	if rules == nil {
		p.defaulted = true
		if allLoopback(listen) {
			p.rules = loopbackRules
		}
	}
	return p
}

func allLoopback(listen []netip.AddrPort) bool {
	for _, l := range listen {
		if !l.Addr().Unmap().IsLoopback() {
			return false
		}
	}
	return true
}

func interfaceAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(n.IP); ok {
				out = append(out, ip.Unmap())
			}
		}
	}
	return out
}

// Rules describes the rules in force, for messages and the log:
// "127.0.0.0/8, ::1 (the default)".
func (p *Policy) Rules() string {
	texts := make([]string, len(p.rules))
	for i, r := range p.rules {
		texts[i] = r.text
	}
	s := strings.Join(texts, ", ")
	if s == "" {
		s = "none"
	}
	if p.defaulted {
		s += " (the default)"
	}
	return s
}

// Refusal is why an address may not be connected to.
type Refusal struct {
	// Loop is set when the address is the server's own: a request
	// forwarded there would come back to it.
	Loop bool
	// Reason says what was refused and why, and names no credentials.
	Reason string
}

func (e *Refusal) Error() string { return e.Reason }

// CheckURL checks an absolute http(s) URL before anything is resolved: its
// scheme, port and host against the rules, an IP address or localhost
// (always loopback) as CheckIP does, and the names of metadata services.
// A name that only an IP rule could allow passes: CheckIP decides when
// connecting. It returns a *Refusal, or nil.
func (p *Policy) CheckURL(u *url.URL) error {
	scheme := strings.ToLower(u.Scheme)
	host := normalizeName(u.Hostname())
	port := portOf(u)
	if ip, err := netip.ParseAddr(host); err == nil {
		return p.CheckIP(scheme, host, ip, port)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") { // RFC 6761: always loopback
		err4 := p.CheckIP(scheme, host, netip.MustParseAddr("127.0.0.1"), port)
		err6 := p.CheckIP(scheme, host, netip.IPv6Loopback(), port)
		if isLoop(err4) || isLoop(err6) {
			return firstLoop(err4, err6)
		}
		if err4 != nil && err6 != nil {
			return err4
		}
		return nil
	}
	if slices.Contains(metadataNames, host) && !p.namesHost(scheme, host, port) {
		return p.refuse(scheme, host, port, "is a cloud instance metadata service, reached only when a --forward-allow rule names it")
	}
	undecided := false
	for _, r := range p.rules {
		if !r.allows(scheme, port) {
			continue
		}
		if r.matchesName(host) {
			return nil
		}
		undecided = undecided || r.isIP()
	}
	if undecided {
		return nil
	}
	return p.refuse(scheme, host, port, "is not allowed by any --forward-allow rule")
}

// CheckIP checks one address that host (a name, or the address itself)
// resolved to, as a connection to it is made with scheme: the server's own
// listen addresses are a loop; a guarded address (loopback, link-local,
// metadata, ...) needs a rule that names it; any other address needs a rule
// that matches it or the host name. It returns a *Refusal, or nil.
func (p *Policy) CheckIP(scheme, host string, ip netip.Addr, port uint16) error {
	ip = ip.Unmap().WithZone("")
	host = normalizeName(host)
	at := netip.AddrPortFrom(ip, port).String()
	if p.isSelf(ip, port) {
		return &Refusal{Loop: true, Reason: fmt.Sprintf("%s://%s resolves to %s, where this registry listens: forwarding there would loop", scheme, hostPort(host, port), at)}
	}
	if b, ok := guardedBlock(ip); ok {
		for _, r := range p.rules {
			if r.allows(scheme, port) && (r.isIP() && r.prefix.Bits() >= b.prefix.Bits() && b.prefix.Contains(r.prefix.Addr()) && r.prefix.Contains(ip) || !r.isIP() && r.host == host) {
				return nil
			}
		}
		return p.refuse(scheme, host, port, fmt.Sprintf("resolves to %s, %s, which is reached only when a --forward-allow rule names it", at, b.what))
	}
	for _, r := range p.rules {
		if r.allows(scheme, port) && (r.isIP() && r.prefix.Contains(ip) || r.matchesName(host)) {
			return nil
		}
	}
	return p.refuse(scheme, host, port, fmt.Sprintf("resolves to %s, which no --forward-allow rule allows", at))
}

// namesHost reports whether a rule names host exactly.
func (p *Policy) namesHost(scheme, host string, port uint16) bool {
	for _, r := range p.rules {
		if r.allows(scheme, port) && r.host == host {
			return true
		}
	}
	return false
}

func (p *Policy) refuse(scheme, host string, port uint16, why string) *Refusal {
	return &Refusal{Reason: fmt.Sprintf("%s://%s %s (forward rules: %s)", scheme, hostPort(host, port), why, p.Rules())}
}

// isSelf reports whether ip:port reaches one of the server's listeners.
func (p *Policy) isSelf(ip netip.Addr, port uint16) bool {
	for _, l := range p.listen {
		if l.Port() != port {
			continue
		}
		la := l.Addr().Unmap().WithZone("")
		switch {
		case la == ip, ip.IsUnspecified():
			return true
		case la.IsUnspecified():
			if ip.IsLoopback() || slices.Contains(p.localAddrs(), ip) {
				return true
			}
		}
	}
	return false
}

func guardedBlock(ip netip.Addr) (block, bool) {
	for _, b := range guarded {
		if b.prefix.Contains(ip) {
			return b, true
		}
	}
	return block{}, false
}

func isLoop(err error) bool {
	r, ok := err.(*Refusal)
	return ok && r.Loop
}

func firstLoop(errs ...error) error {
	for _, err := range errs {
		if isLoop(err) {
			return err
		}
	}
	return nil
}

// portOf returns u's port, or its scheme's default.
func portOf(u *url.URL) uint16 {
	if n, err := strconv.ParseUint(u.Port(), 10, 16); err == nil {
		return uint16(n)
	}
	if strings.EqualFold(u.Scheme, "https") {
		return 443
	}
	return 80
}

func hostPort(host string, port uint16) string {
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}
