package generator_test

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/registry/api"
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
	cat, diags, err := generator.CompileFS(ctx, fstest.MapFS{"m.yaml": {Data: []byte(manifest)}}, []string{"."}, generator.Options{})
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
