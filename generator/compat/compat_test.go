package compat_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
)

// compile checks one manifest given as text.
func compile(t *testing.T, label, text string) *model.Catalog {
	t.Helper()
	fsys := fstest.MapFS{"m.yaml": {Data: []byte(text)}}
	cat, diags, err := generator.CompileFS(context.Background(), fsys, []string{"."}, generator.Options{FilePrefix: label + ":"})
	if err != nil {
		t.Fatal(err)
	}
	if cat == nil {
		t.Fatalf("%s does not compile: %v\n%s", label, diags, text)
	}
	return cat
}

// widget is a manifest with one type at one version whose schema's
// properties are props (YAML, indented by 4 under "properties:").
func widget(props string, required ...string) string {
	var b strings.Builder
	b.WriteString("namespace: Test.Compat\ntypes:\n  widgets:\n    apiVersions:\n      '2025-01-01':\n        schema:\n          type: object\n          properties:\n")
	for _, l := range strings.Split(strings.Trim(props, "\n"), "\n") {
		b.WriteString("            " + l + "\n")
	}
	if len(required) > 0 {
		b.WriteString("          required: [" + strings.Join(required, ", ") + "]\n")
	}
	return b.String()
}

func rules(fs []compat.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule)
	}
	slices.Sort(out)
	return out
}

func TestRules(t *testing.T) {
	const size = "size: {type: string}"
	tests := []struct {
		name      string
		old, new  string
		fwd, back []string // rules old→new and new→old
	}{
		{"no change", widget(size), widget(size), nil, nil},
		{"property removed / added", widget(size + "\ncolor: {type: integer}"), widget(size),
			[]string{"property-removed"}, []string{"property-added"}},
		{"read-only property removed", widget(size + "\nhost: {type: string, readOnly: true}"), widget(size),
			[]string{"read-only-property-removed"}, []string{"property-added"}},
		{"property below a read-only object removed", widget("status:\n  type: object\n  readOnly: true\n  properties:\n    a: {type: string}\n    b: {type: integer}"),
			widget("status:\n  type: object\n  readOnly: true\n  properties:\n    a: {type: string}"),
			[]string{"read-only-property-removed"}, []string{"property-added"}},
		{"possibly renamed", widget(size + "\ncolour: {type: string, maxLength: 5}"), widget(size + "\ncolor: {type: string, maxLength: 5}"),
			[]string{"property-possibly-renamed"}, []string{"property-possibly-renamed"}},
		{"not renamed when schemas differ", widget(size + "\ncolour: {type: string}"), widget(size + "\ncolor: {type: integer}"),
			[]string{"property-added", "property-removed"}, []string{"property-added", "property-removed"}},
		{"type changed", widget("size: {type: string}"), widget("size: {type: integer}"),
			[]string{"type-changed"}, []string{"type-changed"}},
		{"map value type changed", widget("tags: {type: object, additionalProperties: {type: string}}"), widget("tags: {type: object, additionalProperties: {type: integer}}"),
			[]string{"element-type-changed"}, []string{"element-type-changed"}},
		{"array item type changed", widget("ports: {type: array, items: {type: integer}}"), widget("ports: {type: array, items: {type: string}}"),
			[]string{"element-type-changed"}, []string{"element-type-changed"}},
		{"new required property", widget(size), widget(size+"\nzone: {type: string}", "zone"),
			[]string{"required-property-added"}, []string{"property-removed"}},
		{"new required read-only property is compatible", widget(size), widget(size+"\nzone: {type: string, readOnly: true}", "zone"),
			[]string{"property-added"}, []string{"read-only-property-removed"}},
		{"optional to required", widget(size), widget(size, "size"),
			[]string{"property-became-required"}, nil},
		{"read-only required to optional", widget("host: {type: string, readOnly: true}", "host"), widget("host: {type: string, readOnly: true}"),
			[]string{"read-only-property-became-optional"}, nil},
		{"enum value removed", widget("size: {type: string, enum: [S, M, L]}"), widget("size: {type: string, enum: [S, M]}"),
			[]string{"enum-value-removed"}, []string{"enum-value-added"}},
		{"read-only enum value removed / added", widget("state: {type: string, readOnly: true, enum: [a, b, c]}"), widget("state: {type: string, readOnly: true, enum: [a, b]}"),
			nil, []string{"read-only-enum-value-added"}},
		{"enum added", widget("size: {type: string}"), widget("size: {type: string, enum: [S]}"),
			[]string{"enum-added"}, nil},
		{"maxLength lowered", widget("name: {type: string, maxLength: 10}"), widget("name: {type: string, maxLength: 5}"),
			[]string{"max-decreased"}, nil},
		{"maxLength added", widget("name: {type: string}"), widget("name: {type: string, maxLength: 5}"),
			[]string{"max-decreased"}, nil},
		{"maximum lowered", widget("n: {type: number, maximum: 10}"), widget("n: {type: number, maximum: 9.5}"),
			[]string{"max-decreased"}, nil},
		{"maximum made exclusive", widget("n: {type: integer, maximum: 10}"), widget("n: {type: integer, maximum: 10, exclusiveMaximum: true}"),
			[]string{"max-decreased"}, nil},
		{"maxItems lowered", widget("l: {type: array, items: {type: string}, maxItems: 3}"), widget("l: {type: array, items: {type: string}, maxItems: 2}"),
			[]string{"max-decreased"}, nil},
		{"minLength raised", widget("name: {type: string, minLength: 1}"), widget("name: {type: string, minLength: 2}"),
			[]string{"min-increased"}, nil},
		{"minimum raised", widget("n: {type: number, minimum: 0}"), widget("n: {type: number, minimum: 1}"),
			[]string{"min-increased"}, nil},
		{"minItems added", widget("l: {type: array, items: {type: string}}"), widget("l: {type: array, items: {type: string}, minItems: 1}"),
			[]string{"min-increased"}, nil},
		{"bounds on read-only properties are compatible", widget("n: {type: integer, readOnly: true, maximum: 10}"), widget("n: {type: integer, readOnly: true, maximum: 5}"),
			nil, nil},
		{"pattern added", widget("name: {type: string}"), widget("name: {type: string, pattern: '^[a-z]+$'}"),
			[]string{"pattern-changed"}, nil},
		{"pattern changed", widget("name: {type: string, pattern: '^[a-z]+$'}"), widget("name: {type: string, pattern: '^[a-z0-9]+$'}"),
			[]string{"pattern-changed"}, []string{"pattern-changed"}},
		{"made read-only", widget("host: {type: string}"), widget("host: {type: string, readOnly: true}"),
			[]string{"made-read-only"}, nil},
		{"default changed", widget("size: {type: string, default: S}"), widget("size: {type: string, default: M}"),
			[]string{"default-changed"}, []string{"default-changed"}},
		{"sensitive removed", widget("secret: {type: string, x-radius-sensitive: true}"), widget("secret: {type: string}"),
			[]string{"sensitive-removed"}, nil},
		{"format changed", widget("n: {type: integer, format: int32}"), widget("n: {type: integer, format: int64}"),
			[]string{"format-changed"}, []string{"format-changed"}},
		{"nested property removed", widget("db:\n  type: object\n  properties:\n    a: {type: string}\n    b: {type: string}"), widget("db:\n  type: object\n  properties:\n    a: {type: string}"),
			[]string{"property-removed"}, []string{"property-added"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, n := compile(t, "old", tc.old), compile(t, "new", tc.new)
			fwd, err := compat.Compare(o, n)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.fwd, rules(fwd)); diff != "" {
				t.Errorf("old→new rules (-want +got):\n%s\n%v", diff, fwd)
			}
			back, err := compat.Compare(n, o)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.back, rules(back)); diff != "" {
				t.Errorf("new→old rules (-want +got):\n%s\n%v", diff, back)
			}
			for _, f := range append(fwd, back...) {
				if f.New.IsZero() && f.Old.IsZero() || f.Namespace != "Test.Compat" || f.Type != "widgets" || f.Version != "2025-01-01" || f.Path == "" {
					t.Errorf("finding lacks a position or location: %+v", f)
				}
			}
		})
	}
}

const twoVersions = `namespace: Test.Compat
types:
  widgets:
    defaultApiVersion: '2025-01-01'
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string}
      '2025-06-01':
        schema:
          type: object
          properties:
            size: {type: integer}
            color: {type: string}
  gadgets:
    apiVersions:
      '2025-01-01':
        schema: {type: object, properties: {a: {type: string}}}
`

func TestTypesAndVersions(t *testing.T) {
	one := `namespace: Test.Compat
types:
  widgets:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string}
`
	o, n := compile(t, "old", one), compile(t, "new", twoVersions)
	fwd, err := compat.Compare(o, n)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"api-version-added", "type-added"}, rules(fwd)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, f := range fwd {
		if f.Rule == "api-version-added" {
			for _, want := range []string{"2025-06-01", "compared with 2025-01-01", "type-changed size", "property-added color"} {
				if !strings.Contains(f.Message, want) {
					t.Errorf("summary lacks %q: %s", want, f.Message)
				}
			}
		}
	}
	back, err := compat.Compare(n, o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"api-version-removed", "type-removed"}, rules(back)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The default API version: 2025-06-01 implicitly, then declared 2025-01-01.
	n2 := compile(t, "new", strings.Replace(twoVersions, "defaultApiVersion: '2025-01-01'", "defaultApiVersion: '2025-06-01'", 1))
	got, err := compat.Compare(n, n2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"default-api-version-changed"}, rules(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Namespaces and type names match case-insensitively; files do not matter.
	moved := compile(t, "moved", strings.Replace(twoVersions, "namespace: Test.Compat", "namespace: test.compat", 1))
	if got, _ := compat.Compare(n, moved); len(got) != 0 {
		t.Errorf("a namespace spelled differently is the same namespace: %v", got)
	}
}

// TestGoRenames: a property that collides in Go moves the numeric suffix
// to another field when properties are reordered.
func TestGoRenames(t *testing.T) {
	o := compile(t, "old", widget("dnsName: {type: string}\ndns_name: {type: string}\nkind: {type: string, enum: [a-b, a_b]}"))
	n := compile(t, "new", widget("dns_name: {type: string}\ndnsName: {type: string}\nkind: {type: string, enum: [a_b, a-b]}"))
	got, err := compat.Compare(o, n)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"go-constant-renamed", "go-constant-renamed", "go-field-renamed", "go-field-renamed"}, rules(got)); diff != "" {
		t.Errorf("(-want +got):\n%s\n%v", diff, got)
	}
	for _, f := range got {
		if f.Category != compat.Go || f.Severity != diag.Warning {
			t.Errorf("category/severity: %+v", f)
		}
	}
}

func TestRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range compat.Rules {
		if r.ID == "" || r.Doc == "" || seen[r.ID] {
			t.Errorf("bad or duplicate rule %+v", r)
		}
		seen[r.ID] = true
	}
}

func TestDiagnostic(t *testing.T) {
	o, n := compile(t, "old", widget("a: {type: string}\nb: {type: string}")), compile(t, "new", widget("a: {type: integer}"))
	fs, err := compat.Compare(o, n)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	for _, d := range compat.Diagnostics(fs) {
		text = append(text, d.Span.File+" "+d.Rule+" "+d.Message)
	}
	want := []string{
		"new:m.yaml property-removed Test.Compat/widgets@2025-01-01: property b removed (was old:m.yaml:10:13)",
		"new:m.yaml type-changed Test.Compat/widgets@2025-01-01: property a changed type from string to integer (was old:m.yaml:9:13)",
	}
	if diff := cmp.Diff(want, text); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// CompareSchemas judges two versions' schemas with the rules of Compare, as
// if the newer replaced the older; messages name only the property.
func TestCompareSchemas(t *testing.T) {
	schema := func(text string) *model.Schema {
		t.Helper()
		s, diags := check.Schema("s.json", json.RawMessage(text), nil)
		if s == nil {
			t.Fatalf("schema does not check: %v", diags)
		}
		return s
	}
	old := schema(`{"type":"object","properties":{"size":{"type":"string","enum":["S","M"]},"legacy":{"type":"boolean"},
		"status":{"type":"object","readOnly":true,"properties":{"host":{"type":"string"}}}}}`)
	new := schema(`{"type":"object","properties":{"size":{"type":"string","enum":["M","L"]},"name":{"type":"string","maxLength":63},
		"status":{"type":"object","readOnly":true,"properties":{"host":{"type":"string"}}}},"required":["name"]}`)
	var got []string
	for _, f := range compat.CompareSchemas(old, new) {
		got = append(got, compat.SeverityName(f.Severity)+" "+f.Rule+" "+f.Path+": "+f.Message)
	}
	slices.Sort(got)
	want := []string{
		`error enum-value-removed size: property size no longer accepts "S"`,
		`error property-removed legacy: property legacy removed`,
		`error required-property-added name: new required property name`,
		`info enum-value-added size: property size accepts new values "L"`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("CompareSchemas (-want +got):\n%s", d)
	}
	if fs := compat.CompareSchemas(old, old); len(fs) != 0 {
		t.Errorf("a schema compared with itself: %v", fs)
	}
}

// TestSensitiveRemoved: removing x-radius-sensitive is an error (the value
// would be stored and returned in clear text); adding it is no finding.
func TestSensitiveRemoved(t *testing.T) {
	o := compile(t, "old", widget("password: {type: string, x-radius-sensitive: true}"))
	n := compile(t, "new", widget("password: {type: string}"))
	fs, err := compat.Compare(o, n)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || fs[0].Rule != compat.RuleSensitiveRemoved || fs[0].Severity != diag.Error || fs[0].Path != "password" ||
		!strings.Contains(fs[0].Message, "property password is no longer x-radius-sensitive: Radius would store and return its value in clear text") {
		t.Errorf("sensitive removed: %+v", fs)
	}
	if back, _ := compat.Compare(n, o); len(back) != 0 {
		t.Errorf("sensitive added: %+v", back)
	}
}

// TestManualProvisioning: turning ManualResourceProvisioning on or off is
// a warning on the type that says what Radius does differently; other
// capabilities, and the capability's position in the list, are no finding.
func TestManualProvisioning(t *testing.T) {
	typ := func(caps string) string {
		return "namespace: Test.Compat\ntypes:\n  widgets:\n" + caps +
			"    apiVersions:\n      '2025-01-01':\n        schema: {type: object, properties: {a: {type: string}}}\n"
	}
	none := typ("")
	manual := typ("    capabilities: [ManualResourceProvisioning]\n")
	both := typ("    capabilities: [SupportsRecipes, ManualResourceProvisioning]\n")
	other := typ("    capabilities: [SupportsRecipes]\n")
	for _, tc := range []struct {
		name, old, new string
		want           string // in the message; "" for no finding
	}{
		{"added", none, manual, "Test.Compat/widgets: capability ManualResourceProvisioning added: Radius stops running recipes for its resources: a PUT only stores the resource, and a DELETE removes only Radius's record, orphaning what a recipe deployed"},
		{"removed", manual, none, "Test.Compat/widgets: capability ManualResourceProvisioning removed: Radius runs the environment's recipe on every PUT and DELETE of its resources"},
		{"added beside another", other, both, "capability ManualResourceProvisioning added"},
		{"kept, another added", manual, both, ""},
		{"another capability only", none, other, ""},
	} {
		fs, err := compat.Compare(compile(t, "old", tc.old), compile(t, "new", tc.new))
		if err != nil {
			t.Fatal(err)
		}
		if tc.want == "" {
			if len(fs) != 0 {
				t.Errorf("%s: %+v", tc.name, fs)
			}
			continue
		}
		if len(fs) != 1 {
			t.Fatalf("%s: %d findings, want 1: %+v", tc.name, len(fs), fs)
		}
		f := fs[0]
		if f.Rule != compat.RuleManualProvisioning || f.Severity != diag.Warning || f.Version != "" || f.Type != "widgets" ||
			f.New.IsZero() || f.Old.IsZero() || !strings.Contains(f.Message, tc.want) {
			t.Errorf("%s: %+v\nwant message with %q", tc.name, f, tc.want)
		}
	}
}

// TestPolicy: a breaking change in a preview version is allowed (a
// warning saying why) unless previews are strict; --allow-breaking allows
// all, --allow-breaking=TYPE@VERSION one version (any case); removing
// x-radius-sensitive is allowed only explicitly; findings of a whole type
// only by AllowAll.
func TestPolicy(t *testing.T) {
	at := func(rule, typ, version string) compat.Finding {
		sev := diag.Error
		if rule == compat.RuleDefaultChanged {
			sev = diag.Warning
		}
		return compat.Finding{Rule: rule, Severity: sev, Namespace: "Test.Compat", Type: typ, Version: version, Message: "m"}
	}
	fs := []compat.Finding{
		at(compat.RuleEnumValueRemoved, "widgets", "2025-08-01-preview"),  // 0
		at(compat.RuleSensitiveRemoved, "widgets", "2025-08-01-preview"),  // 1
		at(compat.RuleEnumValueRemoved, "widgets", "2025-01-01"),          // 2
		at(compat.RuleEnumValueRemoved, "gadgets", "2025-01-01"),          // 3
		at(compat.RuleTypeRemoved, "things", ""),                          // 4
		at(compat.RuleDefaultChanged, "widgets", "2025-01-01"),            // 5: a warning stays one
		at(compat.RuleAPIVersionRemoved, "widgets", "2024-01-01-preview"), // 6
	}
	type want struct {
		severity diag.Severity
		allowed  string
	}
	E, W := diag.Error, diag.Warning
	previews := "breaking.previews: allow"
	for _, tc := range []struct {
		name   string
		policy compat.Policy
		want   []want
	}{
		{"default", compat.Policy{}, []want{{W, previews}, {E, ""}, {E, ""}, {E, ""}, {E, ""}, {W, ""}, {W, previews}}},
		{"strict previews", compat.Policy{StrictPreviews: true}, []want{{E, ""}, {E, ""}, {E, ""}, {E, ""}, {E, ""}, {W, ""}, {E, ""}}},
		{"one version", compat.Policy{StrictPreviews: true, Allow: []string{"test.compat/Widgets@2025-01-01"}},
			[]want{{E, ""}, {E, ""}, {W, "--allow-breaking=test.compat/Widgets@2025-01-01"}, {E, ""}, {E, ""}, {W, ""}, {E, ""}}},
		{"a preview version, sensitive too", compat.Policy{Allow: []string{"Test.Compat/widgets@2025-08-01-preview"}},
			[]want{{W, "--allow-breaking=Test.Compat/widgets@2025-08-01-preview"}, {W, "--allow-breaking=Test.Compat/widgets@2025-08-01-preview"}, {E, ""}, {E, ""}, {E, ""}, {W, ""}, {W, previews}}},
		{"all", compat.Policy{AllowAll: true}, []want{{W, "--allow-breaking"}, {W, "--allow-breaking"}, {W, "--allow-breaking"}, {W, "--allow-breaking"}, {W, "--allow-breaking"}, {W, ""}, {W, "--allow-breaking"}}},
	} {
		got := tc.policy.Apply(fs)
		for i, w := range tc.want {
			if got[i].Severity != w.severity || got[i].Allowed != w.allowed {
				t.Errorf("%s: finding %d (%s %s@%s): %v %q, want %v %q", tc.name, i, fs[i].Rule, fs[i].Type, fs[i].Version, got[i].Severity, got[i].Allowed, w.severity, w.allowed)
			}
			if w.allowed != "" && !strings.HasSuffix(got[i].Message, ")") {
				t.Errorf("%s: finding %d: message does not say what allowed it: %q", tc.name, i, got[i].Message)
			}
			if w.allowed == "" && got[i].Message != "m" {
				t.Errorf("%s: finding %d: message changed: %q", tc.name, i, got[i].Message)
			}
		}
		if fs[0].Severity != diag.Error || fs[0].Message != "m" {
			t.Fatalf("Apply modified its input: %+v", fs[0])
		}
	}
	if got := (compat.Policy{}).Apply(fs[:1])[0].Message; got != "m (breaking change in preview version 2025-08-01-preview, allowed by breaking.previews: allow)" {
		t.Errorf("preview message: %q", got)
	}
	if got := (compat.Policy{Allow: []string{"Test.Compat/gadgets@2025-01-01"}}).Apply(fs[3:4])[0].Message; got != "m (allowed by --allow-breaking=Test.Compat/gadgets@2025-01-01)" {
		t.Errorf("allowed version message: %q", got)
	}
}
