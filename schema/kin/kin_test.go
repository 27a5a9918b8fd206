package kin_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/schema/kin"
)

func eachSchema(cat *model.Catalog, fn func(name string, s *model.Schema)) {
	for _, p := range cat.Providers {
		for _, t := range p.Types {
			for _, v := range t.APIVersions {
				fn(t.FullName()+"@"+v.Name, v.Schema)
			}
		}
	}
}

// TestWellFormed: every schema the checker accepts, in every valid fixture
// and in the corpus, is a well-formed OpenAPI 3 schema for kin-openapi.
func TestWellFormed(t *testing.T) {
	check := func(t *testing.T, cat *model.Catalog) {
		eachSchema(cat, func(name string, s *model.Schema) {
			if err := kin.Validate(context.Background(), s); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		})
	}
	for _, name := range goldentest.ValidCases(t) {
		t.Run(name, func(t *testing.T) { check(t, goldentest.Compile(t, name)) })
	}
	t.Run("corpus", func(t *testing.T) {
		corpus := goldentest.Corpus(t)
		check(t, goldentest.CompilePaths(t, filepath.Join(corpus, "resource-types-contrib"), filepath.Join(corpus, "radius-built-in")))
	})
}

func find(t *testing.T, cat *model.Catalog, full string) *model.Schema {
	t.Helper()
	var out *model.Schema
	eachSchema(cat, func(name string, s *model.Schema) {
		if name == full {
			out = s
		}
	})
	if out == nil {
		t.Fatalf("%s not found", full)
	}
	return out
}

func TestValidateInstance(t *testing.T) {
	widgets := find(t, goldentest.Compile(t, "valid_scalars"), "Contoso.Scalars/widgets@2025-03-01")
	tests := []struct {
		name, instance string
		wantErrs       []string // substrings, one per expected violation
	}{
		{"valid", `{"environment":"env","name":"web-01","tier":"free","replicas":3,"ratio":0.25,"port":8080}`, nil},
		{"missing required", `{"environment":"env","name":"web-01"}`, []string{`property "tier" is missing`}},
		{"every kind of violation", `{"name":"X","tier":"gold","replicas":11,"ratio":0.33,"port":1024,"shards":3,"enabled":"yes","extra":1}`,
			[]string{"pattern", "value is not one of the allowed values", "number must be at most 10", "multiple of", "number must be more than 1024", "boolean", `property "extra" is unsupported`}},
		{"pattern is ECMAScript", `{"environment":"env","name":"ok-name","tier":"free"}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := json.Unmarshal([]byte(tc.instance), &v); err != nil {
				t.Fatal(err)
			}
			err := kin.ValidateInstance(widgets, v)
			if len(tc.wantErrs) == 0 {
				if err != nil {
					t.Fatalf("want valid, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("want violations, got none")
			}
			for _, want := range tc.wantErrs {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("violations lack %q:\n%v", want, err)
				}
			}
		})
	}

	// Lookaround, which Go's regexp cannot compile, is enforced too.
	cat := goldentest.Compile(t, "warn_pattern_bicep")
	s := find(t, cat, "Contoso.Warnings/things@2025-01-01")
	if err := kin.ValidateInstance(s, map[string]any{"environment": "env", "name": "admin-1"}); err == nil {
		t.Error("lookahead (?!admin) not enforced")
	}
	if err := kin.ValidateInstance(s, map[string]any{"environment": "env", "name": "user-1"}); err != nil {
		t.Errorf("user-1: %v", err)
	}
}
