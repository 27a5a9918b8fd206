package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/ucpspec"
	"github.com/udtc/udtc/registry/api"
)

// TestUCPPatterns: the name patterns UCPProblems applies are those of
// Radius's description of the API.
func TestUCPPatterns(t *testing.T) {
	spec := ucpspec.Load(t)
	want := map[string]string{
		"resourceProviderName": api.UCPNamespacePattern.String(),
		"resourceTypeName":     api.UCPTypePattern.String(),
		"locationName":         api.UCPLocationPattern.String(),
	}
	seen := map[string]int{}
	for path, item := range spec.Doc.Paths.Map() {
		if !strings.Contains(path, "/System.Resources/resourceproviders/") {
			continue
		}
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				pattern, ok := want[p.Value.Name]
				if !ok {
					continue
				}
				seen[p.Value.Name]++
				if got := p.Value.Schema.Value.Pattern; got != pattern {
					t.Errorf("%s %s: pattern %q, UCPProblems applies %q", path, p.Value.Name, got, pattern)
				}
			}
		}
	}
	for name := range want {
		if seen[name] == 0 {
			t.Errorf("the description has no parameter %s", name)
		}
	}
}

func TestUCPProblems(t *testing.T) {
	reg := api.Registration{
		Namespace: "A.Data",
		Types: []api.RegisteredType{
			{Type: api.ResourceType{Name: "buses", Properties: api.ResourceTypeProperties{Capabilities: []string{"ManualResourceProvisioning", "SupportsRecipes"}}}},
			{Type: api.ResourceType{Name: "buses/queues"}},
			{Type: api.ResourceType{Name: "x"}},
		},
		Locations: []api.Location{{Name: "east-1", Properties: api.LocationProperties{ResourceTypes: map[string]api.LocationResourceType{
			"buses": {Address: "http://typed.example"}}}}},
	}
	got := strings.Join(api.UCPProblems(reg), "\n")
	for _, want := range []string{
		"namespace A.Data", "capability SupportsRecipes of buses", "child resource type buses/queues",
		"resource type x", "location east-1", "address of buses in location east-1",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("UCPProblems lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "ManualResourceProvisioning of") {
		t.Errorf("UCPProblems refuses a capability UCP knows:\n%s", got)
	}
	ok := api.Registration{Namespace: "Contoso.Data", Types: []api.RegisteredType{{Type: api.ResourceType{Name: "redisCaches"}}},
		Locations: []api.Location{{Name: "global", Properties: api.LocationProperties{Address: "http://rp.example"}}}}
	if p := api.UCPProblems(ok); len(p) != 0 {
		t.Errorf("UCPProblems(%v) = %q", ok, p)
	}
}

// TestRadiusSchemaProblems: what Radius cannot deploy is named, one line
// each, with where it is; what it can is not.
func TestRadiusSchemaProblems(t *testing.T) {
	for _, tc := range []struct {
		schema string
		want   []string
	}{
		{`{"type":"object","properties":{"size":{"type":"string","pattern":"^[a-z]+$"},"platformOptions":{"type":"object","additionalProperties":{"type":"any"}}}}`, nil},
		{`{"properties":{"environment":{"type":"string"}},"required":["environment"]}`, nil},
		{`{}`, nil},
		{`{"type":"object","properties":{"status":{"type":"object","readOnly":true,"properties":{"recipe":{"$ref":"https://radapp.io/schemas/v1#RecipeStatus"}}}}}`,
			[]string{"/properties/status: property status is reserved by Radius", "/properties/status/properties/recipe: Radius resolves no $ref: write the schema out"}},
		{`{"type":"object","properties":{"settings":{"type":"any"},"platformOptions":{"type":"object","properties":{"x":{"type":"any"}}}}}`,
			[]string{"/properties/settings: Radius allows type any only as the additionalProperties of platformOptions",
				"/properties/platformOptions/properties/x: Radius allows type any only as the additionalProperties of platformOptions"}},
		{`{"type":"object","properties":{"name":{"type":"string","pattern":"^(?!admin)[a-z]+$"}}}`,
			[]string{`/properties/name: Radius validates patterns with Go's regexp, which does not compile "^(?!admin)[a-z]+$" as written`}},
	} {
		var got []string
		for _, p := range api.RadiusSchemaProblems(json.RawMessage(tc.schema)) {
			got = append(got, p.String())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.schema, got, tc.want)
		}
	}
}
