package harness

import (
	"slices"
	"time"
)

// number is what Median averages.
type number interface {
	~int | ~int64 | ~float64
}

// Median returns the median of xs (the mean of the middle two for an even
// count), or zero for an empty slice. xs is not modified.
func Median[T number](xs []T) T {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Percentile returns the p-th percentile (0 < p <= 100) of sorted by the
// nearest-rank method, or 0 for an empty slice.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted))+0.999999999) - 1
	return sorted[max(0, min(rank, len(sorted)-1))]
}
