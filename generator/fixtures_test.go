package generator_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/schema"
)

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
		// Pairs of old and new manifests are cases of `udtc breaking`
		// (their golden.args), not one set of manifests.
		if e.IsDir() && !strings.HasPrefix(e.Name(), goldentest.PairPrefix) {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) < 60 {
		t.Fatalf("only %d fixture cases; the suite promises at least 60", len(cases))
	}
	return cases
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

// TestOutline compiles every fixture with and without Options.Outline and
// Options.NoSource, as each profile checks it: the diagnostics must be the
// same, the catalog without Source the full one without its Sources, and
// the outline the full catalog without its schemas.
func TestOutline(t *testing.T) {
	t.Chdir("..")
	for _, c := range fixtureCases(t) {
		for _, radius := range []bool{false, true} {
			paths := []string{filepath.Join("fixtures", c)}
			full, want, err := generator.Compile(context.Background(), paths, generator.Options{Radius: radius})
			if err != nil {
				t.Fatal(err)
			}
			noSource, got, err := generator.Compile(context.Background(), paths, generator.Options{Radius: radius, NoSource: true})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (radius %v): diagnostics differ (-full +no source):\n%s", c, radius, diff)
			}
			outline, got, err := generator.Compile(context.Background(), paths, generator.Options{Radius: radius, Outline: true})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (radius %v): diagnostics differ (-full +outline):\n%s", c, radius, diff)
			}
			if (full == nil) != (outline == nil) || (full == nil) != (noSource == nil) {
				t.Fatalf("%s (radius %v): catalog %v, without source %v, outline %v", c, radius, full != nil, noSource != nil, outline != nil)
			}
			if full == nil {
				continue
			}
			forEachVersion(full, func(v *model.APIVersion) { v.Source = nil })
			// The checker's nodes hold no decoded source (schema.Schema's src).
			if diff := cmp.Diff(full, noSource, cmp.AllowUnexported(schema.Schema{})); diff != "" {
				t.Errorf("%s (radius %v): the catalog without source is not the catalog without its Sources (-want +got):\n%s", c, radius, diff)
			}
			forEachVersion(full, func(v *model.APIVersion) { v.Schema = nil })
			if diff := cmp.Diff(full, outline); diff != "" {
				t.Errorf("%s (radius %v): the outline is not the catalog without its schemas (-want +got):\n%s", c, radius, diff)
			}
		}
	}
}

// forEachVersion calls fn for every API version of cat.
func forEachVersion(cat *model.Catalog, fn func(*model.APIVersion)) {
	for _, p := range cat.Providers {
		for _, rt := range p.Types {
			for _, v := range rt.APIVersions {
				fn(v)
			}
		}
	}
}
