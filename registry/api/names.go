package api

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Name rules shared by the compiler (udtc check) and the registry server, so
// a manifest that checks is one the registry accepts, and the other way
// round. Each function explains why a name is invalid, or returns "".
//
// The seed's regular expressions are read by their prose: a segment starts
// with a letter, continues with letters, digits or hyphens and does not end
// with a hyphen, so one letter is a valid segment; a namespace is exactly
// two segments ("Contoso." is not a namespace); an API version is a real
// calendar date with an optional "-preview".

// MaxNameLength is the longest namespace, type segment, location or plane name.
const MaxNameLength = 63

var (
	segmentRE = regexp.MustCompile(`^[A-Za-z]([-A-Za-z0-9]*[A-Za-z0-9])?$`)
	versionRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})(-preview)?$`)
)

// lengthProblem explains why a name of 1 to limit characters is empty or
// too long; "" when it is neither.
func lengthProblem(s string, limit int) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > limit:
		return fmt.Sprintf("is %d characters long; the limit is %d", len(s), limit)
	}
	return ""
}

// SegmentProblem explains why s is not a valid name segment.
func SegmentProblem(s string) string {
	if p := lengthProblem(s, MaxNameLength); p != "" {
		return p
	}
	switch {
	case !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z'):
		return "must start with a letter"
	case strings.HasSuffix(s, "-"):
		return "must not end with a hyphen"
	case !segmentRE.MatchString(s):
		return "may contain only letters, digits and hyphens"
	}
	return ""
}

// NamespaceProblem explains why ns is not a valid resource provider namespace.
func NamespaceProblem(ns string) string {
	if len(ns) > MaxNameLength {
		return fmt.Sprintf("is %d characters long; the limit is %d", len(ns), MaxNameLength)
	}
	parts := strings.Split(ns, ".")
	if len(parts) != 2 {
		return "must be two segments separated by '.', like Contoso.Data"
	}
	for _, p := range parts {
		if msg := SegmentProblem(p); msg != "" {
			return fmt.Sprintf("segment %q %s", p, msg)
		}
	}
	return ""
}

// TypeNameProblem explains why name ("queues" or "buses/queues") is not a
// valid resource type name.
func TypeNameProblem(name string) string {
	for _, seg := range strings.Split(name, "/") {
		if msg := SegmentProblem(seg); msg != "" {
			if seg == "" {
				return "has an empty segment"
			}
			return fmt.Sprintf("segment %q %s", seg, msg)
		}
	}
	return ""
}

// MinAPIVersionDate is the earliest date an API version may carry. Go's
// date parser accepts year 0000, which is no calendar date anyone means;
// ARM API versions start in the 2010s, so anything before 2000 is a typo.
const MinAPIVersionDate = "2000-01-01"

// APIVersionProblem explains why v is not a valid API version: a date that
// exists, not before MinAPIVersionDate, optionally followed by "-preview".
func APIVersionProblem(v string) string {
	m := versionRE.FindStringSubmatch(v)
	if m == nil {
		return "must be YYYY-MM-DD or YYYY-MM-DD-preview"
	}
	if _, err := time.Parse(time.DateOnly, m[1]); err != nil {
		return fmt.Sprintf("date %s does not exist", m[1])
	}
	if m[1] < MinAPIVersionDate {
		return fmt.Sprintf("date %s is before %s", m[1], MinAPIVersionDate)
	}
	return ""
}
