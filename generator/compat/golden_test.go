package compat_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/internal/goldentest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden compares fixtures/breaking_<case>/old with .../new and checks
// the findings, as text and JSON, against golden/breaking_<case>/.
func TestGolden(t *testing.T) {
	t.Chdir(goldentest.Root(t))
	seen := map[string]bool{}
	for _, name := range goldentest.PairCases(t) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("fixtures", name)
			old := goldentest.CompilePaths(t, filepath.Join(dir, "old"))
			cat, diags, err := generator.Compile(context.Background(), []string{filepath.Join(dir, "new")}, generator.Options{})
			if err != nil || cat == nil {
				t.Fatalf("new does not compile: %v %v", err, diags)
			}
			fs, err := compat.Compare(old, cat)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range fs {
				seen[f.Rule] = true
			}
			var text, js bytes.Buffer
			if err := diag.WriteText(&text, compat.Diagnostics(fs), diag.TextOptions{Source: diag.FileSource()}); err != nil {
				t.Fatal(err)
			}
			if err := compat.WriteJSON(&js, compat.Base{Against: filepath.ToSlash(filepath.Join(dir, "old"))}, fs); err != nil {
				t.Fatal(err)
			}
			compare(t, filepath.Join("golden", name, "findings.txt"), text.Bytes())
			compare(t, filepath.Join("golden", name, "findings.json"), js.Bytes())
		})
	}
	// Every rule is shown by some fixture pair.
	for _, r := range compat.Rules {
		if !seen[r.ID] {
			t.Errorf("rule %s has no fixture pair that reports it", r.ID)
		}
	}
}

func compare(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./generator/compat -update)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s\n(run go test ./generator/compat -update to accept)", path, diff)
	}
}
