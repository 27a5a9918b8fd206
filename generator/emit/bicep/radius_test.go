package bicep_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestSameStructureAsManifestToBicep holds every resource body of the
// types.json udtc writes for the Radius corpus to the structure Radius's
// manifest-to-bicep gives it (bicep-tools/pkg/converter at the Radius source
// of mid-2026): property names, the Required, ReadOnly and WriteOnly flags,
// kinds and enums, compared recursively; descriptions may differ.
//
// The expectation is derived here from the manifest by the converter's rules,
// not from udtc's model or from Radius's output bytes:
//   - the base resource manifest is merged into every schema: application,
//     environment and codeReference strings, connections a map of objects
//     {source (required string), disableDefaultEnvVars (boolean)}; a property
//     the author declares stays the author's; environment joins `required`;
//   - a property is Required when its parent lists it, ReadOnly when it is
//     readOnly;
//   - the body is the envelope (name, location, properties, apiVersion, type,
//     id) plus a ReadOnly alias of every child of properties whose name the
//     envelope does not take.
func TestSameStructureAsManifestToBicep(t *testing.T) {
	corpus := goldentest.Corpus(t)
	versions := goldentest.CorpusVersions(t, corpus)
	bodies := map[string]map[string]*shape{} // by file
	for _, v := range versions {
		got, ok := bodies[v.File]
		if !ok {
			got = emittedBodies(t, v.File)
			bodies[v.File] = got
		}
		name := v.Namespace + "/" + v.Type + "@" + v.Version
		body, ok := got[name]
		if !ok {
			t.Errorf("%s: no resource %s in types.json", v.File, name)
			continue
		}
		if diff := cmp.Diff(expectedBody(t, v.Namespace+"/"+v.Type, v.Version, v.Schema), body); diff != "" {
			t.Errorf("%s: %s differs from manifest-to-bicep's structure (-want +got):\n%s", v.File, name, diff)
		}
	}
	if len(versions) < 30 {
		t.Errorf("compared %d resource bodies; the corpus has 39", len(versions))
	}
	t.Logf("%d resource bodies of %d manifests have manifest-to-bicep's structure", len(versions), len(bodies))
}

// shape is a Bicep type's structure: its kind, enum values, properties
// (with their flags), items and additional properties.
type shape struct {
	Kind       string
	Enum       []string          `json:",omitempty"`
	Props      map[string]*field `json:",omitempty"`
	Items      *shape            `json:",omitempty"`
	Additional *shape            `json:",omitempty"`
}

type field struct {
	Flags string // "R", "RO", "WO" joined with "|", or ""
	Type  *shape
}

// expectedBody is the resource body manifest-to-bicep makes of schema.
func expectedBody(t *testing.T, typ, version string, schema map[string]any) *shape {
	schema = goldentest.RadMerge(t, schema)
	props := expectedShape(schema, false)
	body := &shape{Kind: "object", Props: map[string]*field{
		"name":       {Flags: "R", Type: &shape{Kind: "string"}},
		"location":   {Type: &shape{Kind: "string"}},
		"properties": {Flags: "R", Type: props},
		"apiVersion": {Flags: "RO", Type: &shape{Kind: "enum", Enum: []string{version}}},
		"type":       {Flags: "RO", Type: &shape{Kind: "enum", Enum: []string{typ}}},
		"id":         {Flags: "RO", Type: &shape{Kind: "string"}},
	}}
	for name, f := range props.Props {
		if _, taken := body.Props[name]; !taken {
			body.Props[name] = &field{Flags: "RO", Type: f.Type}
		}
	}
	return body
}

// expectedShape is the structure manifest-to-bicep gives a schema node: no
// type is an object; an enum of strings is a union of literals.
func expectedShape(s map[string]any, inPlatformOptions bool) *shape {
	typ, _ := s["type"].(string)
	switch typ {
	case "string":
		if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
			return &shape{Kind: "enum", Enum: sortedStrings(enum)}
		}
		return &shape{Kind: "string"}
	case "integer", "boolean":
		return &shape{Kind: typ}
	case "any":
		return &shape{Kind: "any"}
	case "array":
		items, _ := s["items"].(map[string]any)
		return &shape{Kind: "array", Items: expectedShape(items, inPlatformOptions)}
	default: // "object" or none
		out := &shape{Kind: "object", Props: map[string]*field{}}
		req, _ := s["required"].([]any)
		props, _ := s["properties"].(map[string]any)
		for name, v := range props {
			ps, _ := v.(map[string]any)
			var flags []string
			if slices.Contains(req, any(name)) {
				flags = append(flags, "R")
			}
			if ro, _ := ps["readOnly"].(bool); ro {
				flags = append(flags, "RO")
			}
			out.Props[name] = &field{Flags: strings.Join(flags, "|"), Type: expectedShape(ps, inPlatformOptions || name == "platformOptions")}
		}
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			out.Additional = expectedShape(ap, inPlatformOptions)
		}
		return out
	}
}

func sortedStrings(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fmt.Sprint(v)
	}
	sort.Strings(out)
	return out
}

// emittedBodies emits the Bicep types of one manifest and returns the
// structure of each resource body by resource name.
func emittedBodies(t *testing.T, file string) map[string]*shape {
	t.Helper()
	files, _, err := bicep.Emit(goldentest.CompilePaths(t, file), bicep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*shape{}
	for _, f := range files {
		if filepath.Base(f.Path) != "types.json" {
			continue
		}
		var types []map[string]json.RawMessage
		if err := json.Unmarshal(f.Data, &types); err != nil {
			t.Fatal(err)
		}
		for _, typ := range types {
			var kind, name string
			json.Unmarshal(typ["$type"], &kind)
			json.Unmarshal(typ["name"], &name)
			if kind == "ResourceType" {
				out[name] = emittedShape(t, types, typ["body"])
			}
		}
	}
	return out
}

// emittedShape reads the structure of the type a {"$ref": "#/N"} names.
func emittedShape(t *testing.T, types []map[string]json.RawMessage, ref json.RawMessage) *shape {
	var r struct {
		Ref string `json:"$ref"`
	}
	var i int
	if err := json.Unmarshal(ref, &r); err != nil {
		t.Fatalf("type reference %s: %v", ref, err)
	}
	if _, err := fmt.Sscanf(r.Ref, "#/%d", &i); err != nil || i < 0 || i >= len(types) {
		t.Fatalf("type reference %s does not resolve", ref)
	}
	typ := types[i]
	var kind string
	json.Unmarshal(typ["$type"], &kind)
	switch kind {
	case "StringType":
		return &shape{Kind: "string"}
	case "IntegerType":
		return &shape{Kind: "integer"}
	case "BooleanType":
		return &shape{Kind: "boolean"}
	case "AnyType":
		return &shape{Kind: "any"}
	case "StringLiteralType":
		var v string
		json.Unmarshal(typ["value"], &v)
		// One enum value is one literal, a union of one to manifest-to-bicep:
		// the same structure. The envelope's apiVersion and type are such.
		return &shape{Kind: "enum", Enum: []string{v}}
	case "UnionType":
		var els []json.RawMessage
		json.Unmarshal(typ["elements"], &els)
		var values []any
		for _, el := range els {
			values = append(values, emittedShape(t, types, el).Enum[0])
		}
		return &shape{Kind: "enum", Enum: sortedStrings(values)}
	case "ArrayType":
		return &shape{Kind: "array", Items: emittedShape(t, types, typ["itemType"])}
	case "ObjectType":
		out := &shape{Kind: "object", Props: map[string]*field{}}
		var props map[string]struct {
			Type  json.RawMessage `json:"type"`
			Flags int             `json:"flags"`
		}
		json.Unmarshal(typ["properties"], &props)
		for name, p := range props {
			var flags []string
			if p.Flags&1 != 0 {
				flags = append(flags, "R")
			}
			if p.Flags&2 != 0 {
				flags = append(flags, "RO")
			}
			if p.Flags&4 != 0 {
				flags = append(flags, "WO")
			}
			out.Props[name] = &field{Flags: strings.Join(flags, "|"), Type: emittedShape(t, types, p.Type)}
		}
		if ap, ok := typ["additionalProperties"]; ok {
			out.Additional = emittedShape(t, types, ap)
		}
		return out
	}
	t.Fatalf("unexpected Bicep type %s", kind)
	return nil
}

// TestSettingsNameIsManifestToBicepName states the rule of an extension's
// settings.name: for the extension of one namespace, the name Radius's
// manifest-to-bicep gives it (bicep-tools/pkg/converter/converter.go:
// "radius" + the namespace lower-cased, dots removed), so that a template
// compiled against udtc's extension names the extension as one compiled
// against `rad bicep publish-extension`'s does; for any extension,
// "radius" + its name; and an index read back (a package, or another
// generator's type index) is named as udtc gen names it.
func TestSettingsNameIsManifestToBicepName(t *testing.T) {
	corpus := goldentest.Corpus(t)
	cat := goldentest.CompilePaths(t, filepath.Join(corpus, "resource-types-contrib"), filepath.Join(corpus, "radius-built-in"))
	files, _, err := bicep.Emit(cat, bicep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	indexes := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f.Path, "/index.json") {
			indexes[f.Path] = f.Data
		}
	}
	if len(cat.Providers) < 3 {
		t.Fatalf("the corpus gave %d namespaces", len(cat.Providers))
	}
	for _, p := range cat.Providers {
		ext := bicep.DefaultExtensionName(p.Namespace)
		var index struct{ Settings struct{ Name string } }
		if err := json.Unmarshal(indexes["bicep/"+ext+"/index.json"], &index); err != nil {
			t.Fatalf("%s: %v", p.Namespace, err)
		}
		manifestToBicep := "radius" + strings.ReplaceAll(strings.ToLower(p.Namespace), ".", "")
		if index.Settings.Name != manifestToBicep {
			t.Errorf("%s: settings.name %q, manifest-to-bicep's %q", p.Namespace, index.Settings.Name, manifestToBicep)
		}
	}

	named, _, err := bicep.Emit(cat, bicep.Options{ExtensionName: "platform"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range named {
		if f.Path == "bicep/platform/index.json" && !strings.Contains(string(f.Data), `"name": "radiusplatform"`) {
			t.Errorf("--extension-name platform: index.json %s", f.Data)
		}
	}

	// Read back: udtc's name of the namespace for manifest-to-bicep's index,
	// Radius's combined index ("Radius") by its own name.
	types := func(string) ([]byte, error) { return []byte(`[{"$type": "StringType"}]`), nil }
	for settings, want := range map[string]string{"radiustestresources": "testresources", "Radius": "Radius", "radius": "radius", "contoso": "contoso"} {
		index := fmt.Sprintf(`{"resources": {"Test.Resources/userTypeAlpha@2023-10-01-preview": {"$ref": "types.json#/0"}}, "settings": {"name": %q, "version": "0.0.1"}}`, settings)
		p, err := bicep.ReadTypeIndex([]byte(index), types)
		if err != nil || p.Name != want {
			t.Errorf("index of settings.name %q read as extension %q (%v), want %q", settings, p.Name, err, want)
		}
	}
	if got := bicep.DefaultExtensionName("Test.Resources"); got != "testresources" {
		t.Errorf("Test.Resources is extension %q, want testresources", got)
	}
}
