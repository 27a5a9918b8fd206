package generator_test

import (
	"context"
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/internal/goldentest"
)

// BenchmarkCompile checks the 1,000-type catalog (about 24 MB of YAML).
func BenchmarkCompile(b *testing.B) {
	dir := goldentest.WriteSynthetic(b, synth.Reference)
	b.ResetTimer()
	for range b.N {
		cat, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{})
		if err != nil || cat == nil {
			b.Fatalf("%v %v", err, diags)
		}
	}
}
