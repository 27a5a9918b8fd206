package schema

import (
	"encoding/base64"
	"math"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Format is a `format` value of the subset.
type Format struct {
	Name string
	// Kind is the kind of node the format fits.
	Kind Kind
	// Means says what a valid value is, for messages ("an email address");
	// "" for a format that constrains nothing (binary, password, float,
	// double).
	Means string
	// Valid checks a string value; nil for formats that are not validated
	// as strings.
	Valid func(string) bool
	// Min and Max bound the value of an Integer format.
	Min, Max int64
	// Sample is a valid value of a validated string format, for generated
	// examples (schema/example); "" for the others.
	Sample string
}

// Validated reports whether f constrains values: a string format with a
// check, or an integer width.
func (f Format) Validated() bool { return f.Valid != nil || f.Kind == Integer }

// formats is every format of the subset: the checker accepts them on the
// kind they fit (and warns about others), admission validates the ones
// that constrain.
var formats = []Format{
	{Name: "int32", Kind: Integer, Means: "a 32-bit integer", Min: math.MinInt32, Max: math.MaxInt32},
	{Name: "int64", Kind: Integer, Means: "a 64-bit integer", Min: math.MinInt64, Max: math.MaxInt64},
	{Name: "float", Kind: Number},
	{Name: "double", Kind: Number},
	{Name: "date", Kind: String, Means: "an RFC 3339 date such as 2025-01-31", Valid: isDate, Sample: "2025-01-31"},
	{Name: "date-time", Kind: String, Means: "an RFC 3339 date-time such as 2025-01-31T12:00:00Z", Valid: isDateTime, Sample: "2025-01-31T12:00:00Z"},
	{Name: "email", Kind: String, Means: "an email address", Valid: isEmail, Sample: "someone@example.com"},
	{Name: "uuid", Kind: String, Means: "a UUID", Valid: uuidRE.MatchString, Sample: "00000000-0000-4000-8000-000000000001"},
	{Name: "uri", Kind: String, Means: "an absolute URI", Valid: isURI, Sample: "https://example.com/"},
	{Name: "hostname", Kind: String, Means: "a host name", Valid: isHostname, Sample: "example.com"},
	{Name: "ipv4", Kind: String, Means: "an IPv4 address", Valid: isIPv4, Sample: "192.0.2.1"},
	{Name: "ipv6", Kind: String, Means: "an IPv6 address", Valid: isIPv6, Sample: "2001:db8::1"},
	{Name: "byte", Kind: String, Means: "base64-encoded data", Valid: isBase64, Sample: "ZXhhbXBsZQ=="},
	{Name: "binary", Kind: String},
	{Name: "password", Kind: String},
}

// LookupFormat returns the named format, and false for a format outside
// the subset.
func LookupFormat(name string) (Format, bool) {
	for _, f := range formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// Formats returns every format of the subset.
func Formats() []Format { return slices.Clone(formats) }

// FormatNames returns the names of the formats that fit kind k, sorted.
func FormatNames(k Kind) []string {
	var names []string
	for _, f := range formats {
		if f.Kind == k {
			names = append(names, f.Name)
		}
	}
	slices.Sort(names)
	return names
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
}

func isDateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && !strings.ContainsAny(s, " \t\n\r")
}

func isIPv4(s string) bool { a, err := netip.ParseAddr(s); return err == nil && a.Is4() }

func isIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == ""
}

// isHostname follows RFC 1123: dot-separated labels of letters, digits and
// hyphens, each 1 to 63 characters, not starting or ending with a hyphen;
// 253 characters at most.
func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

func isBase64(s string) bool {
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}
