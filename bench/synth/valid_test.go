package synth

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/udtc/udtc/generator"
)

// TestCatalogCompiles runs the real checker, strict, on a small catalog:
// generated manifests must be valid with no warnings at all.
func TestCatalogCompiles(t *testing.T) {
	o := Options{Types: 40, Versions: 2, Namespaces: 3, Seed: 11}
	dir := t.TempDir()
	for _, f := range mustGenerate(t, o) {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		t.Errorf("diagnostic: %+v", d)
	}
	if cat == nil {
		t.Fatal("no catalog")
	}
	types := 0
	for _, p := range cat.Providers {
		types += len(p.Types)
		for _, ty := range p.Types {
			if len(ty.APIVersions) != o.Versions {
				t.Errorf("%s: %d versions, want %d", ty.FullName(), len(ty.APIVersions), o.Versions)
			}
		}
	}
	if len(cat.Providers) != o.Namespaces || types != o.Types {
		t.Errorf("compiled %d providers and %d types, want %d and %d", len(cat.Providers), types, o.Namespaces, o.Types)
	}
}

// TestDeepProfileCompiles: the deep profile's catalog is valid and its
// only diagnostics are the required-default warnings it asks for.
func TestDeepProfileCompiles(t *testing.T) {
	o := Options{Types: 40, Versions: 2, Namespaces: 3, Seed: 11, Profile: ProfileDeep}
	dir := t.TempDir()
	for _, f := range mustGenerate(t, o) {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, diags, err := generator.Compile(context.Background(), []string{dir}, generator.Options{})
	if err != nil || cat == nil {
		t.Fatalf("Compile: %v (catalog %v)", err, cat != nil)
	}
	warnings := 0
	for _, d := range diags {
		if d.Rule != "required-default" {
			t.Errorf("unexpected diagnostic: %+v", d)
			continue
		}
		warnings++
	}
	if warnings == 0 {
		t.Error("no required-default warning: the deep profile is to exercise the diagnostics")
	}
}
