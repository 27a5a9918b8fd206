package egress

import (
	"net/netip"
	"net/url"
	"strings"
	"testing"
)

func mustParse(t *testing.T, values ...string) []Rule {
	t.Helper()
	rules, err := Parse(values)
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

func TestParse(t *testing.T) {
	rules := mustParse(t, "provider.internal, *.corp.example:8443", "10.0.0.0/8,https://*", "[fd00::7]:443", "fd00::8", "http://192.168.1.9:8080", "Provider.Example.")
	want := []Rule{
		{text: "provider.internal", host: "provider.internal"},
		{text: "*.corp.example:8443", host: "*.corp.example", port: 8443},
		{text: "10.0.0.0/8", prefix: netip.MustParsePrefix("10.0.0.0/8")},
		{text: "https://*", scheme: "https", host: "*"},
		{text: "[fd00::7]:443", prefix: netip.MustParsePrefix("fd00::7/128"), port: 443},
		{text: "fd00::8", prefix: netip.MustParsePrefix("fd00::8/128")},
		{text: "http://192.168.1.9:8080", scheme: "http", prefix: netip.MustParsePrefix("192.168.1.9/32"), port: 8080},
		{text: "Provider.Example.", host: "provider.example"},
	}
	if len(rules) != len(want) {
		t.Fatalf("got %d rules %v, want %d", len(rules), rules, len(want))
	}
	for i := range want {
		if rules[i] != want[i] {
			t.Errorf("rule %d = %+v, want %+v", i, rules[i], want[i])
		}
	}
	if r, err := Parse(nil); r != nil || err != nil {
		t.Errorf("Parse(nil) = %v, %v; want nil (the default)", r, err)
	}
	if r, err := Parse([]string{"none"}); r == nil || len(r) != 0 || err != nil {
		t.Errorf(`Parse("none") = %#v, %v; want an empty rule list`, r, err)
	}
	for in, want := range map[string]string{
		"":                   "names no host",
		"ftp://x":            "only http and https",
		"http://":            "names no host",
		"10.0.0.0/33":        "not a CIDR",
		"host:0":             "1 to 65535",
		"host:99999":         "1 to 65535",
		"host:":              "empty port",
		"a..b":               "empty label",
		"a b":                "cannot hold",
		"user@host":          "cannot hold",
		"[fd00::7":           "closing ']'",
		"[fd00::7]x":         "after ']'",
		"[name]:80":          "not an IPv6 address",
		"fd00::7:80:x":       "more than one ':'",
		"*x.example":         "cannot hold",
		"provider,,other":    "names no host",
		"https://a/b":        "not a CIDR",
		"none,provider.corp": "cannot be combined",
	} {
		_, err := Parse([]string{in})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

func check(p *Policy, address string) error {
	u, err := url.Parse(address)
	if err != nil {
		panic(err)
	}
	return p.CheckURL(u)
}

// TestDefault: without rules a server that listens on loopback forwards
// to loopback only; one listening elsewhere forwards nowhere; nothing
// guarded is reached either way.
func TestDefault(t *testing.T) {
	local := New(nil, []netip.AddrPort{netip.MustParseAddrPort("127.0.0.1:7443")})
	for addr, ok := range map[string]bool{
		"http://127.0.0.1:8080":           true,
		"http://[::1]:8080":               true,
		"http://localhost:8080":           true,
		"https://api.localhost":           true,
		"http://127.0.0.1:7443":           false, // itself
		"http://localhost:7443":           false,
		"http://169.254.169.254/":         false,
		"http://[fe80::1%25eth0]/":        false,
		"http://[::ffff:169.254.169.254]": false,
		"http://metadata.google.internal": false,
		"http://10.0.0.7":                 false,
		"http://0.0.0.0:8080":             false,
		"http://[::]:8080":                false,
		"http://224.0.0.1":                false,
		"http://provider.example":         true, // a name: decided by its addresses when connecting
	} {
		if err := check(local, addr); (err == nil) != ok {
			t.Errorf("loopback server: CheckURL(%s) = %v, want allowed=%v", addr, err, ok)
		}
	}
	if err := local.CheckIP("http", "provider.example", netip.MustParseAddr("93.184.216.34"), 80); err == nil {
		t.Error("loopback server: a public address is allowed by default")
	}

	public := New(nil, []netip.AddrPort{netip.MustParseAddrPort("0.0.0.0:7443")})
	for _, addr := range []string{"http://127.0.0.1:8080", "http://localhost:8080", "http://provider.example", "http://10.0.0.7"} {
		err := check(public, addr)
		if err == nil || !strings.Contains(err.Error(), "(forward rules: none (the default))") {
			t.Errorf("public server: CheckURL(%s) = %v, want refused naming the default", addr, err)
		}
	}
}

func TestRules(t *testing.T) {
	p := New(mustParse(t, "provider.internal,*.corp.example:8443,10.0.0.0/8,https://*,169.254.169.254,metadata.google.internal,fe80::/64,127.0.0.1:9000"),
		[]netip.AddrPort{netip.MustParseAddrPort("10.0.0.1:7443")})
	type c struct {
		scheme, host, ip string
		port             uint16
		ok               bool
	}
	for _, tc := range []c{
		{"http", "provider.internal", "192.168.3.4", 80, true},
		{"http", "other", "169.254.10.10", 80, false},            // link-local, not named
		{"http", "provider.internal", "169.254.10.10", 80, true}, // the host is named exactly
		{"http", "provider.internal", "127.0.0.1", 80, true},
		{"http", "a.corp.example", "192.168.3.4", 8443, true},
		{"http", "a.corp.example", "192.168.3.4", 80, false},
		{"http", "a.corp.example", "127.0.0.1", 8443, false}, // a wildcard names no host
		{"http", "corp.example", "192.168.3.4", 8443, false},
		{"http", "other", "10.9.9.9", 80, true},
		{"http", "other", "10.0.0.1", 7443, false}, // the listener itself
		{"http", "other", "192.168.3.4", 80, false},
		{"https", "other", "192.168.3.4", 443, true},
		{"https", "other", "127.0.0.1", 443, false}, // * does not reach guarded addresses
		{"https", "other", "169.254.169.254", 443, true},
		{"https", "metadata.google.internal", "169.254.169.254", 80, true},
		{"http", "other", "169.254.169.254", 80, true},
		{"http", "other", "fe80::1", 80, true},
		{"http", "other", "fe80:0:0:1::1", 80, false},
		{"http", "other", "127.0.0.1", 9000, true},
		{"http", "other", "127.0.0.1", 9001, false},
		{"http", "other", "::ffff:10.1.2.3", 80, true},
	} {
		err := p.CheckIP(tc.scheme, tc.host, netip.MustParseAddr(tc.ip), tc.port)
		if (err == nil) != tc.ok {
			t.Errorf("CheckIP(%s, %s, %s, %d) = %v, want allowed=%v", tc.scheme, tc.host, tc.ip, tc.port, err, tc.ok)
		}
	}
	// Naming the link-local range does not name the metadata address in it.
	q := New(mustParse(t, "169.254.0.0/16"), nil)
	if err := q.CheckIP("http", "x", netip.MustParseAddr("169.254.169.254"), 80); err == nil || !strings.Contains(err.Error(), "metadata") {
		t.Errorf("169.254.0.0/16 reaches the metadata address: %v", err)
	}
	if err := q.CheckIP("http", "x", netip.MustParseAddr("169.254.1.1"), 80); err != nil {
		t.Errorf("169.254.0.0/16 does not reach 169.254.1.1: %v", err)
	}
	// By name: a name no name rule matches passes CheckURL when an IP
	// rule may match it, and is refused when none can.
	if err := check(p, "http://unknown.example"); err != nil {
		t.Errorf("a name an IP rule may allow: %v", err)
	}
	names := New(mustParse(t, "provider.internal"), nil)
	if err := check(names, "http://unknown.example"); err == nil {
		t.Error("a name no rule can allow passes")
	}
	if err := check(names, "http://metadata"); err == nil || !strings.Contains(err.Error(), "metadata service") {
		t.Errorf("metadata name: %v", err)
	}
	if err := check(New(mustParse(t, "http://provider.internal"), nil), "https://provider.internal"); err == nil {
		t.Error("an http rule allows https")
	}
	if err := check(New([]Rule{}, nil), "http://127.0.0.1:8080"); err == nil {
		t.Error(`"none" allows loopback`)
	}
}

// TestSelf: the server's listen addresses are a loop, whatever the rules,
// and a listener on 0.0.0.0 or :: is reached through every local address.
func TestSelf(t *testing.T) {
	all := mustParse(t, "*", "0.0.0.0/0", "::/0", "127.0.0.0/8", "0.0.0.0", "::")
	p := New(all, []netip.AddrPort{netip.MustParseAddrPort("[::]:7443")})
	p.localAddrs = func() []netip.Addr { return []netip.Addr{netip.MustParseAddr("192.0.2.10")} }
	for _, ip := range []string{"127.0.0.1", "127.0.0.2", "::1", "192.0.2.10", "0.0.0.0", "::"} {
		err := p.CheckIP("http", "x", netip.MustParseAddr(ip), 7443)
		if r, ok := err.(*Refusal); !ok || !r.Loop {
			t.Errorf("CheckIP(%s:7443) = %v, want a loop", ip, err)
		}
	}
	if err := p.CheckIP("http", "x", netip.MustParseAddr("192.0.2.11"), 7443); err != nil {
		t.Errorf("another host's address: %v", err)
	}
	if err := check(p, "http://localhost:7443/base"); !isLoop(err) {
		t.Errorf("localhost at the listen port: %v, want a loop", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"provider.internal", "*.corp.example:8443", "10.0.0.0/8", "https://*", "[fd00::7]:443", "none", "a,b", "[::1", "http://"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rules, err := Parse([]string{s})
		if err != nil {
			return
		}
		p := New(rules, nil)
		for _, r := range rules {
			if r.String() == "" {
				t.Errorf("rule of %q has no text", s)
			}
		}
		_ = p.CheckIP("http", "x.example", netip.MustParseAddr("10.1.2.3"), 80)
		_ = check(p, "http://x.example:8080")
	})
}
