package admission_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// registeredSchemas returns the schema JSON of every API version in the
// registration golden files (what `udtc publish` sends and the registry
// stores), by "case/Namespace/type@version".
func registeredSchemas(t testing.TB) map[string]json.RawMessage {
	t.Helper()
	files, err := filepath.Glob("../../golden/*/registration/*/types/*@*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no registration golden files found")
	}
	out := map[string]json.RawMessage{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Properties struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		parts := strings.Split(filepath.ToSlash(f), "/")
		// ../../golden/<case>/registration/<ns>/types/<type>@<v>.json
		key := parts[3] + "/" + parts[5] + "/" + strings.TrimSuffix(parts[7], ".json")
		out[key] = doc.Properties.Schema
	}
	return out
}

func schemaOf(t testing.TB, key string) *admission.Schema {
	t.Helper()
	raw, ok := registeredSchemas(t)[key]
	if !ok {
		t.Fatalf("no registered schema %s", key)
	}
	s, err := admission.Compile(raw)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return s
}

func mustCompile(t testing.TB, schema string) *admission.Schema {
	t.Helper()
	s, err := admission.Compile(json.RawMessage(schema))
	if err != nil {
		t.Fatalf("Compile(%s): %v", schema, err)
	}
	return s
}

// TestCompileFixtures: every schema the fixtures register compiles.
func TestCompileFixtures(t *testing.T) {
	schemas := registeredSchemas(t)
	if len(schemas) < 15 {
		t.Fatalf("only %d registered schemas found", len(schemas))
	}
	for key, raw := range schemas {
		if _, err := admission.Compile(raw); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`[]`, "must be a JSON object"},
		{`{"type":"string"}`, "root must be `type: object`"},
		{`{"type":"object","properties":{"a":{"oneOf":[]}}}`, "`oneOf` is not supported"},
		{`{"type":"object","properties":{"a":{"$ref":"https://example.com/x"}}}`, "names no built-in schema"},
		{`{"type":"object","properties":{"a":{"type":"string","pattern":"("}}}`, "does not compile"},
		{`{"type":"object","properties":{"a":{"type":"strin"}}}`, "unsupported `type`"},
		{`{"type":"object","properties":{"a":{"type":"integer","multipleOf":0}}}`, "greater than 0"},
		{`{"type":"object","properties":{"a":{"type":"integer","exclusiveMinimum":true}}}`, "needs `minimum`"},
		{`{"type":"object","required":["b"],"properties":{"a":{"type":"string"}}}`, `"b" is not declared`},
		{`{"type":"object","additionalProperties":true}`, "additionalProperties: true"},
		{`{"type":"object","properties":{"a":{"type":"integer","x-resource-type":"Contoso.Data/dbs"}}}`, "strings only"},
		{`{"type":"object","properties":{"a":{"type":"string","x-resource-type":"dbs"}}}`, "must be Namespace/type"},
		{`{"type":"object","properties":{"a":{"type":"string","x-resource-type":["Contoso.Data/dbs","*"]}}}`, "stands alone"},
	}
	for _, tc := range tests {
		_, err := admission.Compile(json.RawMessage(tc.schema))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%s) = %v, want an error containing %q", tc.schema, err, tc.want)
		}
	}
}

func admit(t *testing.T, s *admission.Schema, doc string) (map[string]any, []admission.Violation) {
	t.Helper()
	out, vs := s.Admit(json.RawMessage(doc))
	var m map[string]any
	if out != nil {
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("admitted %s is not JSON: %v", out, err)
		}
	}
	return m, vs
}

// codes reduces violations to "target code" lines.
func codes(vs []admission.Violation) []string {
	var out []string
	for _, x := range vs {
		out = append(out, x.Target+" "+x.Code)
	}
	return out
}

func TestAdmitScalars(t *testing.T) {
	s := schemaOf(t, "valid_scalars/Contoso.Scalars/widgets@2025-03-01")
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"valid", `{"environment":"e","name":"web-01","tier":"free","replicas":3,"ratio":0.25,"port":8080}`, nil},
		{"missing required", `{"environment":"e","name":"web-01"}`, []string{"properties.tier MissingProperty"}},
		{"unknown property", `{"environment":"e","name":"web-01","tier":"free","extra":1}`, []string{"properties.extra UnknownProperty"}},
		{"wrong types", `{"environment":"e","name":5,"tier":"free","replicas":"3","enabled":"yes","weight":true}`,
			[]string{"properties.enabled InvalidType", "properties.name InvalidType", "properties.replicas InvalidType", "properties.weight InvalidType"}},
		{"integer must be whole", `{"environment":"e","name":"web-01","tier":"free","replicas":2.5}`, []string{"properties.replicas InvalidType"}},
		{"enum", `{"environment":"e","name":"web-01","tier":"gold","shards":3}`, []string{"properties.shards InvalidEnum", "properties.tier InvalidEnum"}},
		{"bounds", `{"environment":"e","name":"web-01","tier":"free","replicas":11,"ratio":-0.5}`, []string{"properties.ratio OutOfRange", "properties.replicas OutOfRange"}},
		{"exclusive bounds", `{"environment":"e","name":"web-01","tier":"free","port":1024}`, []string{"properties.port OutOfRange"}},
		{"exclusive upper bound", `{"environment":"e","name":"web-01","tier":"free","port":65536}`, []string{"properties.port OutOfRange"}},
		{"inside exclusive bounds", `{"environment":"e","name":"web-01","tier":"free","port":1025}`, nil},
		{"multipleOf", `{"environment":"e","name":"web-01","tier":"free","ratio":0.33}`, []string{"properties.ratio NotMultipleOf"}},
		{"lengths", `{"environment":"e","name":"ab","tier":"free"}`, []string{"properties.name InvalidLength"}},
		{"pattern", `{"environment":"e","name":"Web-01","tier":"free"}`, []string{"properties.name PatternMismatch"}},
		{"formats", `{"environment":"e","name":"web-01","tier":"free","email":"nope","id":"123","createdAt":"x"}`,
			[]string{"properties.email InvalidFormat", "properties.id InvalidFormat"}},
		{"null where not nullable", `{"environment":"e","name":"web-01","tier":null}`, []string{"properties.tier InvalidType"}},
		{"null where nullable", `{"environment":"e","name":"web-01","tier":"free","nickname":null}`, nil},
		{"not an object", `[1]`, []string{"properties InvalidType"}},
		{"not JSON", `{"environment":"e","name":`, []string{"properties InvalidJson"}},
		{"too large a number", `{"environment":"e","name":"web-01","tier":"free","weight":1e400}`, []string{"properties.weight OutOfRange"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, vs := admit(t, s, tc.doc)
			if diff := cmp.Diff(tc.want, codes(vs)); diff != "" {
				t.Errorf("violations (-want +got):\n%s\n%+v", diff, vs)
			}
			for _, x := range vs {
				if x.Message == "" {
					t.Errorf("%s: empty message", x.Target)
				}
			}
		})
	}
}

func TestAdmitDefaultsAndReadOnly(t *testing.T) {
	s := schemaOf(t, "valid_scalars/Contoso.Scalars/widgets@2025-03-01")
	got, vs := admit(t, s, `{"environment":"e","name":"web-01","tier":"free","createdAt":"2025-01-01T00:00:00Z"}`)
	if len(vs) != 0 {
		t.Fatalf("violations: %+v", vs)
	}
	want := map[string]any{"environment": "e", "name": "web-01", "tier": "free", "replicas": json.Number("2"), "ratio": json.Number("0.5"), "enabled": true, "nickname": nil}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("admitted (-want +got):\n%s", diff)
	}
}

func TestAdmitPaths(t *testing.T) {
	s := schemaOf(t, "valid_collections/Contoso.Collections/queues@2025-01-01")
	_, vs := admit(t, s, `{
		"environment": "e",
		"subscriptions": [{"endpoint": "https://a.example"}, {"filters": [1]}],
		"tags": {"a.b": 5, "ok": "x"},
		"limits": {"web": {"burst": 1}},
		"matrix": [[1, "x"]],
		"routing": {"primary": {}}
	}`)
	want := []string{
		`properties.limits.web.max MissingProperty`,
		`properties.matrix[0][1] InvalidType`,
		`properties.routing.primary.region MissingProperty`,
		`properties.subscriptions[1].filters[0] InvalidType`,
		`properties.subscriptions[1].endpoint MissingProperty`,
		`properties.tags["a.b"] InvalidType`,
	}
	if diff := cmp.Diff(want, codes(vs)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func TestTarget(t *testing.T) {
	for _, tc := range []struct {
		segs []any
		want string
	}{
		{nil, "properties"},
		{[]any{"ports", "web", "containerPort"}, "properties.ports.web.containerPort"},
		{[]any{"steps", 0, "name"}, "properties.steps[0].name"},
		{[]any{"tags", "a.b"}, `properties.tags["a.b"]`},
		{[]any{"tags", ""}, `properties.tags[""]`},
		{[]any{"tags", `q"uote`}, `properties.tags["q\"uote"]`},
	} {
		if got := admission.Target(tc.segs...); got != tc.want {
			t.Errorf("Target(%v) = %s, want %s", tc.segs, got, tc.want)
		}
	}
}

// TestPatternIsECMA: a lookahead (not RE2) works, and \d is ASCII-only as in ECMA-262.
func TestPatternIsECMA(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"user":{"type":"string","pattern":"^(?!admin$)[a-z]+$"}}}`)
	for doc, want := range map[string]int{`{"user":"alice"}`: 0, `{"user":"admin"}`: 1, `{"user":"admins"}`: 0} {
		if _, vs := admit(t, s, doc); len(vs) != want {
			t.Errorf("%s: %d violations, want %d: %+v", doc, len(vs), want, vs)
		}
	}
}

func TestParseTargetInvertsTarget(t *testing.T) {
	for _, segs := range [][]any{
		nil,
		{"size"},
		{"steps", 0, "name"},
		{"tags", "a.b", "c d", 12},
		{"x", `q"uote]`, "y-z_1"},
	} {
		target := admission.Target(segs...)
		got, err := api.ParseTarget(target)
		if err != nil {
			t.Fatalf("ParseTarget(%q): %v", target, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(segs) || len(got) != len(segs) {
			t.Errorf("ParseTarget(%q) = %#v, want %#v", target, got, segs)
		}
	}
	for _, bad := range []string{"props", "properties.", "properties[x]", `properties["a"`, "properties[1"} {
		if _, err := api.ParseTarget(bad); err == nil {
			t.Errorf("ParseTarget(%q): no error", bad)
		}
	}
}

func TestReferenceOfAnotherTypeNamesIt(t *testing.T) {
	s, err := admission.Compile(json.RawMessage(`{"type":"object","properties":{"db":{"type":"string","x-resource-type":"Contoso.Data/databases"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, v := s.Admit(json.RawMessage(`{"db":"/planes/radius/local/resourceGroups/rg/providers/Applications.Core/containers/c1"}`))
	if len(v) != 1 || !strings.HasSuffix(v[0].Message, "not the ID of an Applications.Core/containers") {
		t.Errorf("violations: %+v", v)
	}
}
