package docs_test

import (
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/internal/goldentest"
)

// BenchmarkEmit renders the reference pages of a 1,000-type catalog (2 API
// versions, 10 namespaces), the catalog of the Bicep emitter's benchmark.
func BenchmarkEmit(b *testing.B) {
	cat := goldentest.Synthetic(b, synth.Reference)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, err := docs.Emit(cat, docs.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
