package bicep_test

import (
	"strings"
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/internal/goldentest"
)

// BenchmarkEmit emits the Bicep extensions of a 1,000-type catalog (2 API
// versions, 10 namespaces) and reports the size of types.json, all files
// and the archives. Radius's generator writes about 49 MB of types.json
// for such a catalog.
func BenchmarkEmit(b *testing.B) {
	cat := goldentest.Synthetic(b, synth.Reference)
	b.ReportAllocs()
	b.ResetTimer()
	// b.Loop() here crashes the go1.26.8 compiler (internal compiler error).

	var typesJSON, total, archives int
	for range b.N {
		files, _, err := bicep.Emit(cat, bicep.Options{})
		if err != nil {
			b.Fatal(err)
		}
		typesJSON, total, archives = 0, 0, 0
		for _, f := range files {
			total += len(f.Data)
			switch {
			case strings.HasSuffix(f.Path, "/types.json"):
				typesJSON += len(f.Data)
			case strings.HasSuffix(f.Path, ".tgz"):
				archives += len(f.Data)
			}
		}
	}
	b.ReportMetric(float64(typesJSON)/1e6, "MB-types.json")
	b.ReportMetric(float64(total)/1e6, "MB-total")
	b.ReportMetric(float64(archives)/1e6, "MB-tgz")
}
