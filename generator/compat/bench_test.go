package compat_test

import (
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/internal/goldentest"
)

// BenchmarkCompare compares two 1,000-type catalogs that differ in every
// type (a third API version, other properties), Go client surfaces included.
func BenchmarkCompare(b *testing.B) {
	old := goldentest.Synthetic(b, synth.Reference)
	next := synth.Reference
	next.Versions, next.Seed = 3, 2
	new := goldentest.Synthetic(b, next)
	b.ResetTimer()
	for range b.N {
		fs, err := compat.Compare(old, new)
		if err != nil || len(fs) == 0 {
			b.Fatalf("%d findings, %v", len(fs), err)
		}
	}
}
