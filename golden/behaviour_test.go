// Hand-written behaviour tests of the generated Go clients (the generated
// code lives in <case>/go/ and is rewritten by the emitter's golden test;
// this file is not). For each fixture: JSON instances that must pass and
// must fail Validate with the expected paths, and JSON round trips that keep
// every field.
package golden_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	names "github.com/udtc/udtc/golden/go_names/go/contosogonames/v20250201"
	namesrules "github.com/udtc/udtc/golden/go_names/go/contosogonames/v20250301preview"
	anyfix "github.com/udtc/udtc/golden/valid_any/go/contosoplatform/v20250801preview"
	basic "github.com/udtc/udtc/golden/valid_basic/go/mycompanyresources/v20250101preview"
	msg20250101 "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20250101"
	collections "github.com/udtc/udtc/golden/valid_collections/go/contosocollections/v20250101"
	jsonfix "github.com/udtc/udtc/golden/valid_json/go/contosojson/v20250201"
	multidata "github.com/udtc/udtc/golden/valid_multi_file/go/contosodata/v20250101"
	required "github.com/udtc/udtc/golden/valid_required/go/contosorequired/v20250101"
	scalars "github.com/udtc/udtc/golden/valid_scalars/go/contososcalars/v20250301"
	secrets "github.com/udtc/udtc/golden/valid_secrets/go/contososecurity/v20250101"
	undeclared "github.com/udtc/udtc/golden/valid_undeclared/go/applicationstest/v20231001preview"
)

type validatable interface{ Validate() error }

// instance is one JSON document of a resource and the violation paths
// Validate must report (none: valid).
type instance struct {
	name  string
	new   func() validatable
	json  string
	paths []string
}

var instances = []instance{
	// valid_basic
	{"basic/minimal", func() validatable { return new(basic.PostgresDatabase) },
		`{"properties": {"environment": "e", "size": "M"}}`, nil},
	{"basic/full", func() validatable { return new(basic.PostgresDatabase) },
		`{"id": "/planes/radius/local/resourceGroups/rg/providers/MyCompany.Resources/postgresDatabases/db",
		  "name": "db", "type": "MyCompany.Resources/postgresDatabases", "location": "global",
		  "properties": {"environment": "e", "size": "XL", "status": {"binding": {"hostname": "h", "username": "u", "secret": "s"},
		    "recipe": {"templateKind": "bicep", "templatePath": "ghcr.io/x/y:1"}}},
		  "systemData": {"createdBy": "me", "createdAt": "2025-01-02T03:04:05Z"}}`, nil},
	{"basic/bad-size", func() validatable { return new(basic.PostgresDatabase) },
		`{"properties": {"environment": "e", "size": "XXL"}}`, []string{"properties.size"}},
	{"basic/missing-size", func() validatable { return new(basic.PostgresDatabase) },
		`{"properties": {"environment": "e"}}`, []string{"properties.size"}},
	{"basic/missing-properties", func() validatable { return new(basic.PostgresDatabase) },
		`{"name": "db"}`, []string{"properties"}},
	{"basic/wrong-type", func() validatable { return new(basic.PostgresDatabase) },
		`{"type": "Other.Provider/things", "properties": {"environment": "e", "size": "S"}}`, []string{"type"}},

	// valid_scalars
	{"scalars/valid", func() validatable { return new(scalars.Widget) },
		`{"properties": {"environment": "e", "name": "web-01", "tier": "premium", "replicas": 10, "port": 8080, "shards": 4,
		  "ratio": 0.35, "weight": 1.5, "enabled": false, "legacyMode": true, "createdAt": "2025-01-01T00:00:00Z",
		  "email": "a@b.example", "id": "7f1c0d5e-0000-4000-8000-000000000000", "nickname": "w"}}`, nil},
	{"scalars/every-violation", func() validatable { return new(scalars.Widget) },
		`{"properties": {"environment": "e", "name": "9", "tier": "gold", "replicas": 0, "port": 1024, "shards": 3, "ratio": 0.33}}`,
		[]string{"properties.name", "properties.name", "properties.port", "properties.ratio", "properties.replicas", "properties.shards", "properties.tier"}},
	{"scalars/bounds", func() validatable { return new(scalars.Widget) },
		`{"properties": {"environment": "e", "name": "abcdefghijklmnopqrstuvwxyz", "tier": "free", "replicas": 11, "port": 65536, "ratio": 1.05}}`,
		[]string{"properties.name", "properties.port", "properties.ratio", "properties.replicas"}},
	{"scalars/missing-required", func() validatable { return new(scalars.Widget) },
		`{"properties": {"environment": "e"}}`, []string{"properties.name", "properties.tier"}},

	// valid_collections
	{"collections/valid", func() validatable { return new(collections.Queue) },
		`{"properties": {"environment": "e", "tags": {"env": "prod"}, "subscriptions": [{"endpoint": "https://a.example", "filters": ["x"]}],
		  "routing": {"primary": {"region": {"name": "eu", "zones": [1, 2]}}}, "limits": {"cpu": {"max": 2, "burst": 3}},
		  "matrix": [[1.5, 2], []], "closed": {"flag": true}, "empty": {}}}`, nil},
	{"collections/nested-violations", func() validatable { return new(collections.Queue) },
		`{"properties": {"environment": "e", "subscriptions": [{"endpoint": "https://a.example"}, {"filters": []}, {"endpoint": "https://a.example"}],
		  "routing": {"primary": {}}, "limits": {"b": {"burst": 1}, "a": {}}}}`,
		// Required integers and objects are pointers: a missing limits[*].max
		// or routing.primary.region is reported.
		[]string{"properties.subscriptions", "properties.subscriptions[1].endpoint", `properties.limits["a"].max`, `properties.limits["b"].max`, "properties.routing.primary.region"}},
	{"collections/counts", func() validatable { return new(collections.Queue) },
		`{"properties": {"environment": "e", "subscriptions": [], "tags": {"a":"","b":"","c":"","d":"","e":"","f":"","g":"","h":"","i":"","j":"","k":"","l":"","m":"","n":"","o":"","p":"","q":""}}}`,
		[]string{"properties.subscriptions", "properties.tags"}},
	{"collections/missing-subscriptions", func() validatable { return new(collections.Queue) },
		`{"properties": {"environment": "e"}}`, []string{"properties.subscriptions"}},

	// valid_required: present and zero is present, absent is missing, for
	// every kind of property.
	{"required/zero-values", func() validatable { return new(required.Gauge) },
		`{"properties": {"environment": "e", "label": "", "count": 0, "ratio": 0, "enabled": false, "since": "0001-01-01T00:00:00Z",
		  "mode": "", "settings": {}, "labels": {}, "steps": [], "extra": 0}}`, nil},
	{"required/absent", func() validatable { return new(required.Gauge) },
		`{"properties": {"environment": "e"}}`,
		[]string{"properties.count", "properties.enabled", "properties.extra", "properties.label", "properties.labels",
			"properties.mode", "properties.ratio", "properties.settings", "properties.since", "properties.steps"}},

	// valid_child_types
	{"child/queue", func() validatable { return new(msg20250101.ContosoBusQueue) },
		`{"properties": {"environment": "e", "maxSizeInMegabytes": 81920}}`, nil},
	{"child/queue-too-big", func() validatable { return new(msg20250101.ContosoBusQueue) },
		`{"properties": {"environment": "e", "maxSizeInMegabytes": 81921}}`, []string{"properties.maxSizeInMegabytes"}},
	{"child/bus-sku", func() validatable { return new(msg20250101.ContosoBus) },
		`{"properties": {"environment": "e", "sku": "premium"}}`, []string{"properties.sku"}},

	// valid_secrets
	{"secrets/valid", func() validatable { return new(secrets.Vault) },
		`{"properties": {"environment": "e", "adminPassword": "correct horse battery", "keys": {"a": "b"}, "owner": "me", "connection": {"uri": "https://v.example"}}}`, nil},
	{"secrets/short-password", func() validatable { return new(secrets.Vault) },
		`{"properties": {"environment": "e", "adminPassword": "short"}}`, []string{"properties.adminPassword"}},

	// valid_undeclared: `schema: {}` is an object of Radius's base properties
	{"undeclared/base", func() validatable { return new(undeclared.Widget) },
		`{"properties": {"environment": "e", "application": "a", "codeReference": "https://x.example/f#L1", "connections": {"db": {"source": "/x", "disableDefaultEnvVars": true}}}}`, nil},
	{"undeclared/connection-without-source", func() validatable { return new(undeclared.Widget) },
		`{"properties": {"environment": "e", "connections": {"db": {}}}}`, []string{`properties.connections["db"].source`}},

	// valid_any
	{"any/valid", func() validatable { return new(anyfix.Extension) },
		`{"properties": {"environment": "e", "settings": [1, {"a": null}], "platformOptions": {"x": "y", "n": 2, "o": {"deep": [true]}}}}`, nil},

	// valid_json
	{"json/valid", func() validatable { return new(jsonfix.Document) },
		`{"properties": {"environment": "e", "title": "Guide", "pages": 0, "labels": {}}}`, nil},
	{"json/violations", func() validatable { return new(jsonfix.Document) },
		`{"properties": {"environment": "e", "title": "` + strings.Repeat("t", 81) + `", "pages": -1}}`,
		[]string{"properties.pages", "properties.title"}},

	// valid_multi_file
	{"multi/mysql", func() validatable { return new(multidata.MySQLDatabase) },
		`{"properties": {"environment": "e", "version": "8.0"}}`, nil},
	{"multi/mysql-version", func() validatable { return new(multidata.MySQLDatabase) },
		`{"properties": {"environment": "e", "version": "8"}}`, []string{"properties.version"}},

	// go_names
	{"names/valid", func() validatable { return new(names.WidgetPolicy) },
		`{"properties": {"environment": "e", "fooBar": "a", "foo_bar": "b", "FooBar": 3, "validate": true, "apiURL": "https://x.example",
		  "level": "Standard_LRS", "code": "AB12", "since": "2025-02-01T10:00:00Z", "ports": [],
		  "grid": [["x", "o"], ["o"]], "routes": {"r": [{"path": "/a", "weight": 10}]}}}`, nil},
	{"names/violations", func() validatable { return new(names.WidgetPolicy) },
		`{"properties": {"environment": "e", "level": "ALL", "code": "A", "ports": [0, 80, 70000], "grid": [[], ["y"], ["x"], ["o"]],
		  "routes": {"z": [{"path": "a", "weight": 7}, {}]}}}`,
		[]string{
			"properties.code", "properties.grid", "properties.grid[0]", "properties.grid[1][0]", "properties.level",
			"properties.ports[0]", "properties.ports[2]", `properties.routes["z"][0].path`, `properties.routes["z"][0].weight`,
			`properties.routes["z"][1].path`, "properties.since",
		}},
	{"names/rule", func() validatable { return new(namesrules.WidgetPolicyRule) },
		`{"properties": {"environment": "e", "priority": 100}}`, nil},
	{"names/rule-bounds", func() validatable { return new(namesrules.WidgetPolicyRule) },
		`{"properties": {"environment": "e", "priority": 101}}`, []string{"properties.priority"}},
	{"names/rule-exclusive-minimum", func() validatable { return new(namesrules.WidgetPolicyRule) },
		`{"properties": {"environment": "e", "priority": 0}}`, []string{"properties.priority"}},
}

// violationPaths runs Validate and returns the sorted paths it reports,
// checking that every violation is a *ValidationError.
func violationPaths(t *testing.T, v validatable) []string {
	t.Helper()
	err := v.Validate()
	if err == nil {
		return nil
	}
	var errs []error
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		errs = u.Unwrap()
	} else {
		errs = []error{err}
	}
	var paths []string
	for _, e := range errs {
		path, ok := validationPath(e)
		if !ok {
			t.Errorf("violation %q (%T) is not a *ValidationError", e.Error(), e)
			continue
		}
		paths = append(paths, path)
	}
	slices.Sort(paths)
	return paths
}

// validationPath extracts the Path of a *ValidationError. Each golden case
// has its own runtime package, so each its own ValidationError type.
func validationPath(err error) (string, bool) {
	v := reflect.ValueOf(err)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct || v.Elem().Type().Name() != "ValidationError" {
		return "", false
	}
	return v.Elem().FieldByName("Path").String(), true
}

func TestValidate(t *testing.T) {
	for _, in := range instances {
		t.Run(in.name, func(t *testing.T) {
			v := in.new()
			d := json.NewDecoder(bytes.NewReader([]byte(in.json)))
			d.DisallowUnknownFields() // every instance field must map to a Go field
			if err := d.Decode(v); err != nil {
				t.Fatalf("decoding: %v", err)
			}
			got := violationPaths(t, v)
			want := slices.Clone(in.paths)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("violation paths (-want +got):\n%s\nerror: %v", diff, v.Validate())
			}
		})
	}
}

// TestRoundTrip decodes every valid instance and encodes it again: the JSON
// must be the same document (every field kept, explicitly empty maps and
// arrays included). Invalid instances may lack required fields, which come
// back as zero values.
func TestRoundTrip(t *testing.T) {
	for _, in := range instances {
		if len(in.paths) > 0 {
			continue
		}
		t.Run(in.name, func(t *testing.T) {
			v := in.new()
			if err := json.Unmarshal([]byte(in.json), v); err != nil {
				t.Fatalf("decoding: %v", err)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("encoding: %v", err)
			}
			var want, got any
			if err := json.Unmarshal([]byte(in.json), &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("round trip (-in +out):\n%s", diff)
			}
		})
	}
}

// TestValidationErrorMessages pins the text of a few violations.
func TestValidationErrorMessages(t *testing.T) {
	w := scalars.Widget{Properties: &scalars.WidgetProperties{Environment: scalars.Ptr("env"), Name: scalars.Ptr("ab"), Tier: scalars.Ptr(scalars.WidgetTier("gold"))}}
	err := w.Validate()
	for _, want := range []string{
		"properties.name: must be at least 3 characters long",
		`properties.tier: must be one of "free", "standard", "premium"`,
	} {
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(want)) {
			t.Errorf("Validate() = %v, want a line %q", err, want)
		}
	}
	ok := scalars.Widget{Properties: &scalars.WidgetProperties{Environment: scalars.Ptr("env"), Name: scalars.Ptr("abc"), Tier: scalars.Ptr(scalars.WidgetTierFree)}}
	if err := ok.Validate(); err != nil {
		t.Errorf("valid widget: %v", err)
	}
}

// TestRequiredZeroMarshal: a required field set to its zero value is sent;
// a nil one is left out (the server then reports it missing).
func TestRequiredZeroMarshal(t *testing.T) {
	g := required.GaugeProperties{Label: required.Ptr(""), Count: required.Ptr(int64(0)), Enabled: required.Ptr(false)}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"label":"","count":0,"enabled":false}`; got != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
}

// TestEnums checks the values functions of generated enums and that
// Validate holds a value to them, case-sensitively.
func TestEnums(t *testing.T) {
	if got, want := scalars.PossibleWidgetTierValues(), []scalars.WidgetTier{scalars.WidgetTierFree, scalars.WidgetTierStandard, scalars.WidgetTierPremium}; !slices.Equal(got, want) {
		t.Errorf("PossibleWidgetTierValues() = %q, want %q", got, want)
	}
	for _, tier := range []scalars.WidgetTier{scalars.WidgetTierFree, "Free"} {
		w := scalars.Widget{Properties: &scalars.WidgetProperties{Environment: scalars.Ptr("env"), Name: scalars.Ptr("abc"), Tier: scalars.Ptr(tier)}}
		if err := w.Validate(); (err == nil) != (tier == scalars.WidgetTierFree) {
			t.Errorf("tier %q: Validate() = %v", tier, err)
		}
	}
	if names.WidgetPolicyLevelAll == names.WidgetPolicyLevelAll2 || names.WidgetPolicyLevelAll != "all" || names.WidgetPolicyLevelAll2 != "All" {
		t.Errorf("case-only enum values: %q %q", names.WidgetPolicyLevelAll, names.WidgetPolicyLevelAll2)
	}
}
