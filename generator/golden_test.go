package generator_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/internal/goldentest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// fixtureCases lists the case directories under fixtures/, relative to the
// repository root (the tests chdir there).
func fixtureCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("fixtures")
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		// Pairs of old and new manifests are the golden cases of
		// generator/compat, not one set of manifests.
		if e.IsDir() && !strings.HasPrefix(e.Name(), goldentest.PairPrefix) {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) < 60 {
		t.Fatalf("only %d fixture cases; the suite promises at least 60", len(cases))
	}
	return cases
}

// compareGolden compares got with golden/<case>/<name>; an absent file means
// "expect empty". With -update it rewrites (or removes) the file.
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if len(got) == 0 {
			if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s\n(run go test ./generator -update to accept)", path, diff)
	}
}

// TestGoldenDiagnostics checks every fixture and compares the diagnostics,
// in text (with excerpts and carets) and JSON, with golden/<case>/.
func TestGoldenDiagnostics(t *testing.T) {
	t.Chdir("..")
	seen := map[string]bool{}
	for _, name := range fixtureCases(t) {
		t.Run(name, func(t *testing.T) {
			cat, diags, err := generator.Compile(context.Background(), []string{filepath.Join("fixtures", name)}, generator.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diags {
				seen[d.Rule+"/"+d.Severity.String()] = true
			}
			wantErrors := strings.HasPrefix(name, "error_")
			if diags.HasErrors() != wantErrors {
				t.Errorf("HasErrors = %v, want %v for a case named %s", diags.HasErrors(), wantErrors, name)
			}
			if (cat == nil) != wantErrors {
				t.Errorf("catalog nil = %v, want %v", cat == nil, wantErrors)
			}
			if strings.HasPrefix(name, "valid_") && len(diags) > 0 && name != "valid_undeclared" {
				t.Errorf("valid case has diagnostics: %v", diags)
			}
			var text, js bytes.Buffer
			if len(diags) > 0 {
				if err := diag.WriteText(&text, diags, diag.TextOptions{Source: diag.FileSource()}); err != nil {
					t.Fatal(err)
				}
				if err := diag.WriteJSON(&js, diags); err != nil {
					t.Fatal(err)
				}
			}
			compareGolden(t, filepath.Join("golden", name, "diagnostics.txt"), text.Bytes())
			compareGolden(t, filepath.Join("golden", name, "diagnostics.json"), js.Bytes())
		})
	}
	// Every rule has a failing case among the fixtures, except the ones whose
	// inputs cannot be committed as text (covered by TestHostileInputs) and
	// those only reported for schemas sent to the registry (check.Schema,
	// covered by generator/check's TestSchema and TestSchemaErrorLimit).
	exempt := map[string]bool{"file-too-large": true, "json-syntax": true, "too-many-errors": true}
	for _, r := range check.Rules {
		if exempt[r.ID] {
			continue
		}
		if !seen[r.ID+"/"+r.Severity.String()] {
			t.Errorf("rule %s has no fixture that reports it", r.ID)
		}
	}
}

// TestDeterministic compiles all fixtures at once, several times and in
// different argument orders: the diagnostics must be identical.
func TestDeterministic(t *testing.T) {
	t.Chdir("..")
	cases := fixtureCases(t)
	var paths []string
	for _, c := range cases {
		paths = append(paths, filepath.Join("fixtures", c))
	}
	_, first, err := generator.Compile(context.Background(), paths, generator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		p := slices.Clone(paths)
		if i%2 == 0 {
			slices.Reverse(p)
		}
		_, again, err := generator.Compile(context.Background(), p, generator.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(first, again); diff != "" {
			t.Fatalf("run %d differs (-first +again):\n%s", i, diff)
		}
	}
}
