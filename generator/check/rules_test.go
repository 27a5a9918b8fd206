package check_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/diag"
)

var ruleID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range check.Rules {
		if !ruleID.MatchString(r.ID) || seen[r.ID] || r.Doc == "" {
			t.Errorf("bad or duplicate rule %+v", r)
		}
		seen[r.ID] = true
	}
}

func TestSchema(t *testing.T) {
	tests := []struct {
		name, schema string
		wantRules    []string
		ok           bool
	}{
		{"empty object", `{}`, []string{"schema-undeclared"}, true},
		{"object", `{"type":"object","properties":{"size":{"type":"string","enum":["S","M"]}},"required":["size"]}`, nil, true},
		{"not an object", `[]`, []string{"value-type"}, false},
		{"root string", `{"type":"string"}`, []string{"schema-root"}, false},
		{"bad JSON", `{"type":`, []string{"json-syntax"}, false},
		{"JSON escapes", `{"type":"object","properties":{"a\/b":{"type":"string","description":"\ud83d\ude00 \u00e9"}}}`, nil, true},
		{"YAML is not JSON", "type: object\nproperties: {}\n", []string{"json-syntax"}, false},
		{"empty body", ``, []string{"schema-root"}, false},
		{"several problems", `{"type":"object","properties":{"a":{"type":"array"},"b":{"anyOf":[]}}}`, []string{"items-missing", "polymorphism"}, false},
		// One error per mistake: allOf in place of a type is polymorphism, not also type-missing.
		{"allOf without type", `{"type":"object","properties":{"a":{"allOf":[{"type":"string"}]}}}`, []string{"polymorphism"}, false},
		// The registry reads a node without type as Radius does: any value.
		{"no type, no polymorphism", `{"type":"object","properties":{"a":{"description":"x"}}}`, []string{"type-implied"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, diags := check.Schema("schema.json", []byte(tc.schema), nil)
			var rules []string
			for _, d := range diags {
				rules = append(rules, d.Rule)
			}
			if diff := cmp.Diff(tc.wantRules, rules); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
			if (s != nil) != tc.ok || diags.HasErrors() == tc.ok {
				t.Errorf("schema=%v errors=%v, want ok=%v", s != nil, diags.HasErrors(), tc.ok)
			}
			for _, d := range diags {
				if d.Severity == diag.Error && d.Span.Line < 1 {
					t.Errorf("no position: %+v", d)
				}
			}
		})
	}
	sch, _ := check.Schema("s.json", []byte(`{"type":"object","properties":{"a\/b":{"type":"string","description":"\ud83d\ude00"}}}`), nil)
	if p := sch.Property("a/b"); p == nil || p.Schema.Description != "\U0001F600" {
		t.Errorf("JSON escapes are read as JSON: %+v", sch.Properties)
	}
	_, diags := check.Schema("s.json", []byte(`{"type":"object","properties":{"a":{"type":"array"}}}`), nil)
	if len(diags) != 1 || diags[0].Path != "/properties/a" {
		t.Errorf("paths are relative to the schema: %+v", diags)
	}
}

// TestSchemaErrorLimit: a schema sent to the registry costs bounded work
// and memory however many errors it has; the total is still reported.
func TestSchemaErrorLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"a":{"type":"string"}},"required":[`)
	const n = 300_000
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d"`, i)
	}
	b.WriteString("]}")
	_, diags := check.Schema("s.json", []byte(b.String()), nil)
	if len(diags) != check.MaxSchemaErrors+1 {
		t.Fatalf("%d diagnostics, want %d", len(diags), check.MaxSchemaErrors+1)
	}
	var summary []string
	for _, d := range diags {
		if d.Rule == check.RuleTooManyErrors {
			summary = append(summary, d.Message)
		}
	}
	if want := fmt.Sprintf("the schema has %d errors; the first %d are reported", n, check.MaxSchemaErrors); len(summary) != 1 || summary[0] != want {
		t.Errorf("summary %q, want %q", summary, want)
	}
}

// TestSchemaJSONPositions: diagnostics of a JSON schema point into its text.
func TestSchemaJSONPositions(t *testing.T) {
	_, diags := check.Schema("s.json", []byte("{\"type\": \"object\",\n  \"properties\": {\n    \"tags\": {\"type\": \"array\"}}}"), nil)
	if len(diags) != 1 || diags[0].Span.Line != 3 || diags[0].Span.Column < 5 {
		t.Errorf("diagnostics %+v, want one on line 3 from column 5", diags)
	}
}
