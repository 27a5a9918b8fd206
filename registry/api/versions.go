package api

import "strings"

// CompareVersions orders API versions by date; on the same date a preview
// sorts before the stable version. It returns -1, 0 or +1.
func CompareVersions(a, b string) int {
	da, pa := splitVersion(a)
	db, pb := splitVersion(b)
	switch {
	case da < db:
		return -1
	case da > db:
		return 1
	case pa == pb:
		return strings.Compare(a, b)
	case pa:
		return -1
	default:
		return 1
	}
}

func splitVersion(v string) (date string, preview bool) {
	if d, ok := strings.CutSuffix(v, "-preview"); ok {
		return d, true
	}
	return v, false
}

// IsPreview reports whether v ends in "-preview".
func IsPreview(v string) bool { _, p := splitVersion(v); return p }

// DefaultVersion returns the newest stable version in versions, else the
// newest preview, else "".
func DefaultVersion(versions []string) string {
	best, bestStable := "", false
	for _, v := range versions {
		stable := !IsPreview(v)
		switch {
		case best == "":
			best, bestStable = v, stable
		case stable && !bestStable:
			best, bestStable = v, true
		case stable == bestStable && CompareVersions(v, best) > 0:
			best = v
		}
	}
	return best
}
