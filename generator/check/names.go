package check

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// MaxNameLength is the longest namespace, type segment or location name.
const MaxNameLength = 63

var (
	segmentRE    = regexp.MustCompile(`^[A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9])?$`)
	versionRE    = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})(-preview)?$`)
	pascalRE     = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	camelRE      = regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	capabilityRE = pascalRE
)

// segmentProblem explains why s is not a valid name segment, or returns "".
func segmentProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > MaxNameLength:
		return fmt.Sprintf("is %d characters long; the limit is %d", len(s), MaxNameLength)
	case !isLetter(s[0]):
		return "must start with a letter"
	case strings.HasSuffix(s, "-"):
		return "must not end with a hyphen"
	case !segmentRE.MatchString(s):
		return "may contain only letters, digits and hyphens"
	}
	return ""
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// NamespaceProblem explains why ns is not a valid namespace, or returns "".
func NamespaceProblem(ns string) string {
	if len(ns) > MaxNameLength {
		return fmt.Sprintf("is %d characters long; the limit is %d", len(ns), MaxNameLength)
	}
	parts := strings.Split(ns, ".")
	if len(parts) != 2 {
		return "must be two segments separated by '.', like Contoso.Data"
	}
	for _, p := range parts {
		if msg := segmentProblem(p); msg != "" {
			return fmt.Sprintf("segment %q %s", p, msg)
		}
	}
	return ""
}

// TypeNameProblem explains why name (possibly "parent/child") is not a valid
// type name, or returns "".
func TypeNameProblem(name string) string {
	for _, seg := range strings.Split(name, "/") {
		if msg := segmentProblem(seg); msg != "" {
			if seg == "" {
				return "has an empty segment"
			}
			return fmt.Sprintf("segment %q %s", seg, msg)
		}
	}
	return ""
}

// LocationNameProblem explains why name is not a valid location name, or returns "".
func LocationNameProblem(name string) string { return segmentProblem(name) }

// APIVersionProblem explains why v is not a valid API version, or returns "".
func APIVersionProblem(v string) string {
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return "must be YYYY-MM-DD or YYYY-MM-DD-preview"
	}
	if _, err := time.Parse(time.DateOnly, m[1]); err != nil {
		return fmt.Sprintf("date %s does not exist", m[1])
	}
	return ""
}

// addressProblem explains why addr is not an absolute http(s) URL, or returns "".
func addressProblem(addr string) string {
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
	return ""
}

// radiusNamespaceOK reports whether Radius's rad CLI accepts the namespace.
func radiusNamespaceOK(ns string) bool {
	a, b, _ := strings.Cut(ns, ".")
	return pascalRE.MatchString(a) && pascalRE.MatchString(b)
}
