package golden_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/invopop/jsonschema"

	names "github.com/udtc/udtc/golden/go_names/go/contosogonames/v20250201"
	namesrules "github.com/udtc/udtc/golden/go_names/go/contosogonames/v20250301preview"
	anyfix "github.com/udtc/udtc/golden/valid_any/go/contosoplatform/v20250801preview"
	basic "github.com/udtc/udtc/golden/valid_basic/go/mycompanyresources/v20250101preview"
	msg20240601preview "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20240601preview"
	msg20250101 "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20250101"
	msg20250601preview "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20250601preview"
	collections "github.com/udtc/udtc/golden/valid_collections/go/contosocollections/v20250101"
	scalars "github.com/udtc/udtc/golden/valid_scalars/go/contososcalars/v20250301"
	secrets "github.com/udtc/udtc/golden/valid_secrets/go/contososecurity/v20250101"
)

// reflected pairs a fixture's schema with the generated properties struct.
type reflected struct {
	manifest, typ, version string
	props                  any
}

var reflectCases = []reflected{
	{"valid_any/manifest.yaml", "extensions", "2025-08-01-preview", anyfix.ExtensionProperties{}},
	{"valid_basic/manifest.yaml", "postgresDatabases", "2025-01-01-preview", basic.PostgresDatabaseProperties{}},
	{"valid_child_types/manifest.yaml", "contosoBuses", "2024-06-01-preview", msg20240601preview.ContosoBusProperties{}},
	{"valid_child_types/manifest.yaml", "contosoBuses", "2025-01-01", msg20250101.ContosoBusProperties{}},
	{"valid_child_types/manifest.yaml", "contosoBuses/queues", "2025-01-01", msg20250101.ContosoBusQueueProperties{}},
	{"valid_child_types/manifest.yaml", "contosoBuses/topics", "2025-06-01-preview", msg20250601preview.ContosoBusTopicProperties{}},
	{"valid_collections/manifest.yaml", "queues", "2025-01-01", collections.QueueProperties{}},
	{"valid_scalars/manifest.yaml", "widgets", "2025-03-01", scalars.WidgetProperties{}},
	{"valid_secrets/manifest.yaml", "vaults", "2025-01-01", secrets.VaultProperties{}},
	{"go_names/manifest.yaml", "widgetPolicies", "2025-02-01", names.WidgetPolicyProperties{}},
	{"go_names/manifest.yaml", "widgetPolicies/rules", "2025-03-01-preview", namesrules.WidgetPolicyRuleProperties{}},
}

// TestReflectedSchemaAgrees reflects a JSON Schema from each generated
// properties struct with github.com/invopop/jsonschema and compares it with
// the manifest's schema: property names, types, no required fields and
// string enums (reflected from the enum types' Values method).
func TestReflectedSchemaAgrees(t *testing.T) {
	r := &jsonschema.Reflector{DoNotReference: true, ExpandedStruct: true, AllowAdditionalProperties: true}
	for _, c := range reflectCases {
		t.Run(c.manifest+"/"+c.typ+"@"+c.version, func(t *testing.T) {
			src := manifestSchema(t, c.manifest, c.typ, c.version)
			got := r.ReflectFromType(reflect.TypeOf(c.props))
			tagEnums(t, reflect.TypeOf(c.props), got)
			compareSchema(t, "properties", src, got)
		})
	}
}

// tagEnums copies the enum of every field's udtc tag (and of its items and
// values) into the reflected schema, so compareSchema holds the tags to
// the manifest's enums.
func tagEnums(t *testing.T, typ reflect.Type, s *jsonschema.Schema) {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || s == nil || s.Properties == nil {
		return
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		sub, ok := s.Properties.Get(name)
		if !ok {
			continue
		}
		ft, levels := f.Type, tagLevels(t, f.Tag.Get("udtc"))
		for level := 0; sub != nil; level++ {
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if level < len(levels) && levels[level] != nil {
				sub.Enum = levels[level]
			}
			switch ft.Kind() {
			case reflect.Slice:
				ft, sub = ft.Elem(), sub.Items
				continue
			case reflect.Map:
				ft, sub = ft.Elem(), sub.AdditionalProperties
				continue
			case reflect.Struct:
				tagEnums(t, ft, sub)
			}
			break
		}
	}
}

// tagLevels returns the enum values of each level of a udtc tag (the
// field's own, then its items' or values' after "items" or "values").
func tagLevels(t *testing.T, tag string) [][]any {
	levels := [][]any{nil}
	for tag != "" && !strings.HasPrefix(tag, "pattern=") {
		if strings.HasPrefix(tag, "enum=") {
			d := json.NewDecoder(strings.NewReader(tag[len("enum="):]))
			var vals []any
			if err := d.Decode(&vals); err != nil {
				t.Fatalf("udtc tag %q: %v", tag, err)
			}
			levels[len(levels)-1] = vals
			tag = strings.TrimPrefix(tag[len("enum=")+int(d.InputOffset()):], ",")
			continue
		}
		var kw string
		kw, tag, _ = strings.Cut(tag, ",")
		if kw == "items" || kw == "values" {
			levels = append(levels, nil)
		}
	}
	return levels
}

func manifestSchema(t *testing.T, manifest, typ, version string) map[string]any {
	t.Helper()
	// The schema as registered (the registration target): the manifest's,
	// with Radius's base properties merged as the generator merged them.
	pattern := filepath.Join(filepath.Dir(filepath.FromSlash(manifest)), "registration", "*", "types", strings.ReplaceAll(typ, "/", "_")+"@"+version+".json")
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) != 1 {
		t.Fatalf("%s: want one registration document, found %v (%v)", pattern, files, err)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	s, ok := dig(doc, "properties", "schema").(map[string]any)
	if !ok {
		t.Fatalf("%s: no schema", files[0])
	}
	return s
}

func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// compareSchema checks that got (reflected) agrees with src (manifest).
func compareSchema(t *testing.T, path string, src map[string]any, got *jsonschema.Schema) {
	t.Helper()
	if got == nil {
		// invopop reflects map[string]any without an additionalProperties schema.
		if src["type"] != "any" {
			t.Errorf("%s: no reflected schema", path)
		}
		return
	}
	if _, ok := src["$ref"]; ok {
		if got.Type != "object" {
			t.Errorf("%s: $ref to a built-in object reflected as %q", path, got.Type)
		}
		return
	}
	typ, _ := src["type"].(string)
	if ap, ok := src["additionalProperties"].(map[string]any); ok && typ == "object" {
		if got.Type != "object" {
			t.Errorf("%s: map reflected as %q", path, got.Type)
			return
		}
		compareSchema(t, path+"[*]", ap, got.AdditionalProperties)
		return
	}
	switch typ {
	case "any":
		if got.Type != "" {
			t.Errorf("%s: any reflected as %q", path, got.Type)
		}
		return
	case "object":
		if got.Type != "object" {
			t.Errorf("%s: object reflected as %q", path, got.Type)
			return
		}
		props, _ := src["properties"].(map[string]any)
		var want, have []string
		for k := range props {
			want = append(want, k)
		}
		if got.Properties != nil {
			for p := got.Properties.Oldest(); p != nil; p = p.Next() {
				have = append(have, p.Key)
			}
		}
		slices.Sort(want)
		slices.Sort(have)
		if diff := cmp.Diff(want, have); diff != "" {
			t.Errorf("%s: property names (-manifest +reflected):\n%s", path, diff)
		}
		// Every field is optional to encoding/json (nil means absent,
		// required or not): the reflected schema requires nothing, and
		// Validate reports missing required properties (behaviour_test.go).
		if len(got.Required) > 0 {
			t.Errorf("%s: reflected required %v; every generated field should be omitempty/omitzero", path, got.Required)
		}
		for k, v := range props {
			if got.Properties == nil {
				break
			}
			if sub, ok := got.Properties.Get(k); ok {
				compareSchema(t, path+"."+k, v.(map[string]any), sub)
			}
		}
		return
	case "array":
		if got.Type != "array" {
			t.Errorf("%s: array reflected as %q", path, got.Type)
			return
		}
		compareSchema(t, path+"[]", src["items"].(map[string]any), got.Items)
		return
	}
	if got.Type != typ {
		t.Errorf("%s: %s reflected as %q", path, typ, got.Type)
	}
	if f, _ := src["format"].(string); f == "date-time" && got.Format != "date-time" {
		t.Errorf("%s: date-time reflected with format %q", path, got.Format)
	}
	if enum, ok := src["enum"].([]any); ok && typ == "string" {
		if diff := cmp.Diff(enum, got.Enum); diff != "" {
			t.Errorf("%s: enum (-manifest +reflected):\n%s", path, diff)
		}
	}
}
