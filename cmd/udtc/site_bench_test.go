package main

import (
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/internal/goldentest"
)

// BenchmarkSite runs the site target (bridge.Targets) on the 1,000-type
// synthetic catalog (2 API versions a type) and drops its pages: the cost
// of the pages without the compile before them or the writes after.
// cpu-ns/op is the process's CPU time, which counts every core the pages
// are rendered on.
func BenchmarkSite(b *testing.B) {
	cat := goldentest.Synthetic(b, synth.Reference)
	site := bridge.Targets([]string{"site"}, bridge.GenOptions{Go: goclient.Options{ImportPrefix: "example.com/site/gen"}})[0].Emit
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	defer func() { b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op") }()
	for range b.N {
		if _, err := site(cat, func([]emit.File) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
