package check

import (
	"net/url"
	"regexp"
	"strings"
)

var (
	pascalRE     = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	camelRE      = regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
	capabilityRE = pascalRE
)

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
