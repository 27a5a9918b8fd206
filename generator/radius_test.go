package generator_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestCorpusUnderRadius: the real Radius manifests, which rad accepts,
// pass the radius target with no radius-unsupported diagnostic; the
// examples, which use udtc's extensions, are refused under it, each at a
// line of the manifest.
func TestCorpusUnderRadius(t *testing.T) {
	corpus := goldentest.Corpus(t)
	cat := goldentest.CompilePathsWith(t, generator.Options{Radius: true}, filepath.Join(corpus, "resource-types-contrib"), filepath.Join(corpus, "radius-built-in"))
	if len(cat.Providers) < 10 {
		t.Errorf("%d namespaces compiled", len(cat.Providers))
	}

	_, diags, err := generator.Compile(t.Context(), []string{filepath.Join(goldentest.Root(t), "examples")}, generator.Options{Radius: true})
	if err != nil {
		t.Fatal(err)
	}
	var refused []string
	for _, d := range diags {
		if d.Severity == diag.Error && d.Rule == "radius-unsupported" && d.Span.Line > 0 {
			refused = append(refused, d.Message)
		}
	}
	got := strings.Join(refused, "\n")
	for _, want := range []string{`Radius knows only the capability ManualResourceProvisioning, not "SupportsRecipes"`, "Radius resolves no $ref", "Radius has no child resource types"} {
		if !strings.Contains(got, want) {
			t.Errorf("the examples under target radius: no %q in\n%s", want, got)
		}
	}
}
