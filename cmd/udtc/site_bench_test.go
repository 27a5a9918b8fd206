package main

import (
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/catalog"
)

// BenchmarkSite renders the site target's pages of the 1,000-type
// synthetic catalog (2 API versions a type) as siteStream does, with the
// changes pages judged by newCompareSchemas, and drops them: the cost of the
// pages without the compile before them or the writes after. cpu-ns/op is
// the process's CPU time, which counts every core the pages are rendered
// on.
func BenchmarkSite(b *testing.B) {
	cat := goldentest.Synthetic(b, synth.Options{Types: 1000, Versions: 2, Namespaces: 10, Seed: 1})
	regs := registration.Registrations(cat, registration.Options{})
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	defer func() { b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op") }()
	for range b.N {
		// A new comparison each run, as each gen has, so its pattern
		// cache starts empty.
		opts := catalog.Options{GoImportPrefix: "example.com/site/gen", Compare: newCompareSchemas()}
		c := catalog.New(catalog.FromRegistrations(regs))
		if err := c.SiteFunc(opts, func([]catalog.File) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
