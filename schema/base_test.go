package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMergeBaseJSON: the base properties an author did not declare are
// added, environment joins required, nothing else changes (no type where
// none was written, the author's bytes as they were), and a second merge
// changes nothing.
func TestMergeBaseJSON(t *testing.T) {
	app := `"application":` + string(loadBase().raw["application"])
	for _, tc := range []struct{ in, wantPrefix string }{
		{`{}`, `{"properties":{` + app},
		{`{"type":"object","properties":{}}`, `{"type":"object","properties":{` + app},
		{`{"type":"object","properties":{"size":{"type":"string","enum":["S"]}},"required":["size"]}`,
			`{"type":"object","properties":{"size":{"type":"string","enum":["S"]},` + app},
		{` { "properties" : { "environment" : { "type" : "string" , "description" : "mine" } } , "required" : [ ] } `,
			`{ "properties" : { "environment" : { "type" : "string" , "description" : "mine" } ,` + app},
	} {
		got, err := MergeBaseJSON(json.RawMessage(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if !strings.HasPrefix(string(got), tc.wantPrefix) {
			t.Errorf("%s:\n got %s\nwant it to start %s", tc.in, got, tc.wantPrefix)
		}
		var v struct {
			Type       *string                    `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(got, &v); err != nil {
			t.Fatalf("%s: the merge is not JSON: %s", tc.in, got)
		}
		var in struct {
			Type *string `json:"type"`
		}
		json.Unmarshal([]byte(tc.in), &in)
		if (in.Type != nil) != (v.Type != nil) {
			t.Errorf("%s: type added or lost: %s", tc.in, got)
		}
		for _, name := range BaseNames() {
			if _, ok := v.Properties[name]; !ok {
				t.Errorf("%s: no %s in %s", tc.in, name, got)
			}
		}
		if strings.Count(strings.Join(v.Required, ","), "environment") != 1 {
			t.Errorf("%s: required = %v", tc.in, v.Required)
		}
		if strings.Contains(tc.in, "mine") && !strings.Contains(string(v.Properties["environment"]), "mine") {
			t.Errorf("%s: the author's environment was replaced: %s", tc.in, got)
		}
		again, err := MergeBaseJSON(got)
		if err != nil || string(again) != string(got) {
			t.Errorf("%s: a second merge changed it:\n%s\n%s", tc.in, got, again)
		}
	}
	for _, bad := range []string{`[]`, `{"properties":[]}`, `{"required":"environment"}`, `{"a":`} {
		if _, err := MergeBaseJSON(json.RawMessage(bad)); err == nil {
			t.Errorf("%s: merged", bad)
		}
	}
}
