package check

import (
	"regexp"
	"strings"
)

var (
	pascalRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	camelRE  = regexp.MustCompile(`^[a-z][A-Za-z0-9]*$`)
)

// radiusNamespaceOK reports whether Radius's rad CLI accepts the namespace.
func radiusNamespaceOK(ns string) bool {
	a, b, _ := strings.Cut(ns, ".")
	return pascalRE.MatchString(a) && pascalRE.MatchString(b)
}
