package generator_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// TestCompareRegistered: publish's check returns the breaking changes of
// the updated API versions and the ManualResourceProvisioning change of an
// updated type, nothing of what the plan does not update, and no
// position in the registry's synthetic manifest.
func TestCompareRegistered(t *testing.T) {
	ctx := context.Background()
	registered := []api.ProviderSummary{{Name: "Contoso.Data", ResourceTypes: map[string]api.ResourceTypeSummary{
		"dbs": {Capabilities: []string{api.CapabilityManualResourceProvisioning}, APIVersions: map[string]api.APIVersionSummary{
			"2025-01-01": {Schema: json.RawMessage(`{"type":"object","properties":{"size":{"type":"string","enum":["S","M"]},"password":{"type":"string","x-radius-sensitive":true}}}`)},
		}},
	}}}
	manifest := `namespace: Contoso.Data
types:
  dbs:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string, enum: [S]}
            password: {type: string}
`
	// Registered and compiled alike, without Radius's base properties
	// (TestCompareRegisteredBeforeTheBase publishes them over such).
	cat, diags, err := generator.CompileFS(ctx, fstest.MapFS{"m.yaml": {Data: []byte(manifest)}}, []string{"."}, generator.Options{NoBaseProperties: true})
	if err != nil || cat == nil {
		t.Fatalf("%v %v", err, diags)
	}
	for _, tc := range []struct {
		name    string
		updated func(ns, typ, version string) bool
		want    []string
	}{
		{"version and type updated", func(_, _, _ string) bool { return true },
			[]string{compat.RuleSensitiveRemoved, compat.RuleEnumValueRemoved, compat.RuleManualProvisioning}},
		{"only the version", func(_, _, v string) bool { return v != "" },
			[]string{compat.RuleSensitiveRemoved, compat.RuleEnumValueRemoved}},
		{"only the type", func(_, _, v string) bool { return v == "" },
			[]string{compat.RuleManualProvisioning}},
	} {
		fs, err := generator.CompareRegistered(ctx, registered, cat, tc.updated)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.Rule)
			if !f.Old.IsZero() {
				t.Errorf("%s: %s keeps a position in the registry's manifest: %v", tc.name, f.Rule, f.Old)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: rules %v, want %v", tc.name, got, tc.want)
			continue
		}
		for _, w := range tc.want {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("%s: rules %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

// TestCompareRegisteredBeforeTheBase: publishing a manifest over what was
// registered without Radius's base properties (an older udtc, or
// --base-properties=false) is a tightening: environment becomes required,
// which the check reports as it reports any required property added.
// Registrations that carry the base, as rad's do, compare equal.
func TestCompareRegisteredBeforeTheBase(t *testing.T) {
	ctx := context.Background()
	manifest := `namespace: Contoso.Data
types:
  dbs:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string}
`
	cat, diags, err := generator.CompileFS(ctx, fstest.MapFS{"m.yaml": {Data: []byte(manifest)}}, []string{"."}, generator.Options{})
	if err != nil || cat == nil {
		t.Fatalf("%v %v", err, diags)
	}
	withBase, err := schema.MergeBaseJSON(json.RawMessage(`{"type":"object","properties":{"size":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, registered string
		want             []string
	}{
		{"registered before the base", `{"type":"object","properties":{"size":{"type":"string"}}}`, []string{compat.RuleRequiredPropertyAdded}},
		// rad's registration: no root type, the base merged.
		{"registered by rad", strings.Replace(string(withBase), `"type":"object",`, "", 1), nil},
	} {
		registered := []api.ProviderSummary{{Name: "Contoso.Data", ResourceTypes: map[string]api.ResourceTypeSummary{
			"dbs": {APIVersions: map[string]api.APIVersionSummary{"2025-01-01": {Schema: json.RawMessage(tc.registered)}}},
		}}}
		fs, err := generator.CompareRegistered(ctx, registered, cat, func(_, _, _ string) bool { return true })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.Rule)
			if f.Rule == compat.RuleRequiredPropertyAdded && !strings.Contains(f.Message, "environment") {
				t.Errorf("%s: %s", tc.name, f.Message)
			}
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: rules %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCompareRegisteredNamesTheSchema: a registered schema that does not
// compile is named by its type and API version, not by every namespace
// the check read.
func TestCompareRegisteredNamesTheSchema(t *testing.T) {
	ctx := context.Background()
	cat, diags, err := generator.CompileFS(ctx, fstest.MapFS{"m.yaml": {Data: []byte("namespace: Contoso.Data\ntypes:\n  dbs:\n    apiVersions:\n      '2025-01-01': {schema: {type: object}}\n")}}, []string{"."}, generator.Options{})
	if err != nil || cat == nil {
		t.Fatalf("%v %v", err, diags)
	}
	registered := []api.ProviderSummary{
		{Name: "Contoso.Other", ResourceTypes: map[string]api.ResourceTypeSummary{"ok": {APIVersions: map[string]api.APIVersionSummary{"2025-01-01": {Schema: json.RawMessage(`{}`)}}}}},
		{Name: "Contoso.Data", ResourceTypes: map[string]api.ResourceTypeSummary{"dbs": {APIVersions: map[string]api.APIVersionSummary{
			"2025-01-01": {Schema: json.RawMessage(`{"type":"object","properties":{"size":{"type":"strnig"}}}`)},
		}}}},
	}
	_, err = generator.CompareRegistered(ctx, registered, cat, func(_, _, _ string) bool { return true })
	if err == nil || !strings.Contains(err.Error(), "the registered schema of Contoso.Data/dbs@2025-01-01 does not compile") || strings.Contains(err.Error(), "Contoso.Other") {
		t.Errorf("err = %v", err)
	}
}
