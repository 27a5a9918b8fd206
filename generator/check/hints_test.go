package check_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
)

// checkManifest checks one manifest as udtc check does (target radius,
// base properties merged) and returns every diagnostic.
func checkManifest(t *testing.T, src string) diag.List {
	t.Helper()
	doc, diags := manifest.Load("m.yaml", []byte(src))
	if doc == nil {
		t.Fatalf("load: %v", diags)
	}
	_, merged := check.Merge([]*check.FileResult{check.CheckFile(doc, &check.Patterns{}, check.Options{Radius: true})})
	return merged
}

func find(diags diag.List, rule string) *diag.Diagnostic {
	i := slices.IndexFunc(diags, func(d diag.Diagnostic) bool { return d.Rule == rule })
	if i < 0 {
		return nil
	}
	return &diags[i]
}

// `required: true` on a property (JSON Schema draft 3, Swagger) gets a hint
// that names the parent's `required: [name]`; a default outside the enum
// lists the allowed values.
func TestHintsRequiredFlagAndEnumDefault(t *testing.T) {
	diags := checkManifest(t, `namespace: Contoso.Data
types:
  things:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size:
              type: string
              required: true
            tier:
              type: string
              enum: [small, large]
              default: medium
`)
	d := find(diags, check.RuleKeywordValue)
	if d == nil || !strings.Contains(d.Hint, "`required: [size]`") || d.Path != "/types/things/apiVersions/2025-01-01/schema/properties/size/required" {
		t.Errorf("required: true: want a hint naming `required: [size]`, got %v", diags)
	}
	if n := len(diags); n != 2 {
		t.Errorf("want exactly two diagnostics, got %v", diags)
	}
	d = find(diags, check.RuleDefault)
	if d == nil || d.Hint != `one of: "small", "large"` {
		t.Errorf("default outside the enum: want the allowed values in the hint, got %v", diags)
	}
}

// An API version with an invalid name hides no other problem of its type:
// the base-property error in its schema, the type's defaultApiVersion that
// names no version, and no false resource-reference-unknown on references
// to the type.
func TestInvalidAPIVersionHidesNothing(t *testing.T) {
	diags := checkManifest(t, `namespace: Contoso.Data
types:
  things:
    defaultApiVersion: '2024-01-01'
    apiVersions:
      '2025-13-01':
        schema:
          type: object
          properties:
            size: {type: string}
  users:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            thing: {type: string, x-resource-type: Contoso.Data/things}
  others:
    apiVersions:
      '2025-02-30':
        schema:
          type: object
          properties:
            environment: {type: integer}
`)
	var rules []string
	for _, d := range diags {
		rules = append(rules, d.Rule)
	}
	slices.Sort(rules)
	want := []string{check.RuleAPIVersion, check.RuleAPIVersion, check.RuleBaseProperty, check.RuleDefaultAPIVersion}
	if !slices.Equal(rules, want) {
		t.Errorf("rules %v, want %v:\n%v", rules, want, diags)
	}
}
