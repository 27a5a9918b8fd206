package generator_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator"
)

// writeCatalog writes a synthetic catalog of the given number of types (2
// versions, 10 namespaces) and returns its directory.
func writeCatalog(b *testing.B, types int) string {
	b.Helper()
	files, err := synth.Generate(synth.Options{Types: types, Versions: 2, Namespaces: 10, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkCompile checks the 1,000-type catalog (about 24 MB of YAML).
func BenchmarkCompile(b *testing.B) {
	dir := writeCatalog(b, 1000)
	b.ResetTimer()
	for range b.N {
		cat, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{})
		if err != nil || cat == nil {
			b.Fatalf("%v %v", err, diags)
		}
	}
}
