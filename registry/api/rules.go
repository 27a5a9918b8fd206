package api

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/udtc/udtc/schema"
)

// Wire rules every part of udtc applies alike: the checker (udtc check), the
// registry server, publish and the client. Each rule has this one home; the
// Problem functions explain what is wrong, or return "".

// DefaultPlane is the radius plane the server creates at start and that
// clients and commands use unless told otherwise.
const DefaultPlane = "local"

// AddressProblem explains why addr is not an absolute http or https URL with
// a host and without credentials (a location's address, a --server or
// --address flag). Its explanation does not repeat addr.
func AddressProblem(addr string) string {
	if addr == "" {
		return "is empty"
	}
	if strings.ContainsFunc(addr, unicode.IsControl) || strings.ContainsAny(addr, " \t") {
		return "contains white space or control characters"
	}
	u, err := url.Parse(addr)
	if err != nil {
		return "is not a URL: " + strings.TrimPrefix(err.Error(), "parse ")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "must be an absolute http or https URL"
	}
	if u.Host == "" {
		return "has no host"
	}
	if u.User != nil {
		return "holds credentials (user:password@); an address must not, since registrations are readable by anyone who may read the registry"
	}
	return ""
}

// RedactAddress returns addr with the credentials of its authority
// ("user:password@") replaced by "xxxxx@", for answers, messages and logs;
// an address without credentials is returned as it is. It does not need
// addr to parse, so that a stored value written before credentials were
// refused is never shown either.
func RedactAddress(addr string) string {
	_, rest, ok := strings.Cut(addr, "://")
	if !ok {
		return addr
	}
	start := len(addr) - len(rest)
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	at := strings.LastIndexByte(rest[:end], '@')
	if at < 0 {
		return addr
	}
	return addr[:start] + "xxxxx" + rest[at:]
}

// EscapeTypeName turns a type name into its URL segment form:
// "contosoBuses/queues" → "contosoBuses_queues" (the Radius convention).
// Type segments never contain '_', so the form is reversible.
func EscapeTypeName(name string) string { return strings.ReplaceAll(name, "/", "_") }

// UnescapeTypeName is the inverse of EscapeTypeName.
func UnescapeTypeName(segment string) string { return strings.ReplaceAll(segment, "_", "/") }

// PointerToken escapes one JSON Pointer reference token (RFC 6901):
// schema.PointerToken, where schema paths are built.
func PointerToken(key string) string { return schema.PointerToken(key) }

// UnescapePointerToken is the inverse of PointerToken.
func UnescapePointerToken(token string) string { return schema.UnescapePointerToken(token) }

// AppendPointer returns the JSON Pointer of key inside the value at ptr.
func AppendPointer(ptr, key string) string { return schema.AppendPointer(ptr, key) }

// Capability names: PascalCase, like SupportsRecipes.
var capabilityRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)

// CapabilityProblem explains why c is not a valid capability name.
func CapabilityProblem(c string) string {
	if p := lengthProblem(c, MaxNameLength); p != "" {
		return p
	}
	switch {
	case !capabilityRE.MatchString(c):
		return "is not a PascalCase name"
	}
	return ""
}

// ListProblem is a problem with one entry of a list.
type ListProblem struct {
	Index   int
	Problem string
}

// CapabilitiesProblems returns every problem of a capabilities list: an
// invalid name (CapabilityProblem) or a name listed twice.
func CapabilitiesProblems(caps []string) []ListProblem {
	var out []ListProblem
	seen := make(map[string]bool, len(caps))
	for i, c := range caps {
		switch p := CapabilityProblem(c); {
		case p != "":
			out = append(out, ListProblem{i, p})
		case seen[c]:
			out = append(out, ListProblem{i, "is listed twice"})
		default:
			seen[c] = true
		}
	}
	return out
}

// Bounds on the ARM envelope's free-form fields: the "location" of every
// resource and its tags (the limits ARM documents for tags).
const (
	MaxLocationLength = MaxNameLength
	MaxTags           = 50
	MaxTagKeyLength   = 512
	MaxTagValueLength = 256
)

// ResourceLocationProblem explains why loc is not a valid value of a body's
// "location" field ("global", "eastus"); "" (absent) is valid.
func ResourceLocationProblem(loc string) string {
	if loc == "" {
		return ""
	}
	if len(loc) > MaxLocationLength {
		return fmt.Sprintf("is %d characters long; the limit is %d", len(loc), MaxLocationLength)
	}
	return textProblem(loc)
}

// TagsProblem explains what is wrong with a body's tags: too many, a key or
// value too long, an empty key, or control characters.
func TagsProblem(tags map[string]string) string {
	if len(tags) > MaxTags {
		return fmt.Sprintf("has %d tags; the limit is %d", len(tags), MaxTags)
	}
	for k, v := range tags {
		switch {
		case k == "":
			return "has an empty tag name"
		case len(k) > MaxTagKeyLength:
			return fmt.Sprintf("tag name %.40q... is %d characters long; the limit is %d", k, len(k), MaxTagKeyLength)
		case len(v) > MaxTagValueLength:
			return fmt.Sprintf("tag %.40q has a value %d characters long; the limit is %d", k, len(v), MaxTagValueLength)
		}
		if p := textProblem(k); p != "" {
			return fmt.Sprintf("tag name %.40q %s", k, p)
		}
		if p := textProblem(v); p != "" {
			return fmt.Sprintf("tag %.40q has a value that %s", k, p)
		}
	}
	return ""
}

// textProblem rejects invalid UTF-8 and control characters.
func textProblem(s string) string {
	if !utf8.ValidString(s) {
		return "is not valid UTF-8"
	}
	if strings.ContainsFunc(s, unicode.IsControl) {
		return "contains control characters"
	}
	return ""
}

// PathProblem explains why the escaped path of a request URL is not one the
// registry serves as is: the registry never cleans or redirects a path, so a
// "." or ".." segment (also percent-encoded, like %2e%2E), an encoded '/'
// or '\' inside a segment, and an empty segment ("//") are refused. A
// trailing '/' is allowed.
func PathProblem(escaped string) string {
	if !strings.HasPrefix(escaped, "/") {
		return "must start with /"
	}
	segs := strings.Split(escaped[1:], "/")
	for i, seg := range segs {
		if seg == "" {
			if i == len(segs)-1 {
				continue
			}
			return "has an empty segment (//)"
		}
		dec, err := url.PathUnescape(seg)
		if err != nil {
			return fmt.Sprintf("has a badly escaped segment %q", seg)
		}
		switch {
		case dec == "." || dec == "..":
			return fmt.Sprintf("has a %q segment; paths are never cleaned or redirected", dec)
		case strings.ContainsAny(dec, "/\\"):
			return fmt.Sprintf("has a segment %q with an escaped '/' or '\\'", seg)
		case strings.ContainsFunc(dec, unicode.IsControl):
			return fmt.Sprintf("has a segment %q with control characters", seg)
		}
	}
	return ""
}
