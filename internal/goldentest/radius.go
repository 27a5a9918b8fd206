package goldentest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// RadiusBase is the tests' own statement of Radius's base resource manifest
// (radius-project/radius #12252), recorded from what rad registers
// (pkg/schema/baseresource/base.yaml at Radius's main, December 2026)
// rather than from udtc's schema/base.json, so that a test holding udtc's
// outputs to Radius's derives its expectation independently:
// application, environment and codeReference strings; connections a map
// of {source (required string), disableDefaultEnvVars (boolean)};
// environment required; each with the description rad registers. Each
// call returns a new map.
func RadiusBase() map[string]any {
	str := func(description string) map[string]any {
		return map[string]any{"type": "string", "description": description}
	}
	return map[string]any{
		"application":   str("Resource ID of the Radius.Core/applications this resource belongs to."),
		"environment":   str("Resource ID of the Radius.Core/environments this resource deploys into."),
		"codeReference": str("Optional URI to the source code of this resource type. ex: https://github.com/radius-project/radius/blob/4fab87e8127adf1db6f43b7029d5235fbe82c5c9/cmd/controller/main.go#L27"),
		"connections": map[string]any{"type": "object", "description": "Map of connection name to connection data.", "additionalProperties": map[string]any{
			"type":     "object",
			"required": []any{"source"},
			"properties": map[string]any{
				"source": str("Resource ID of the source resource for this connection."),
				"disableDefaultEnvVars": map[string]any{"type": "boolean",
					"description": "Disables the automatic injection of environment variables from the connected resource's properties."},
			},
		}},
	}
}

// RadMerge is rad's merge of the base properties (RadiusBase) into a
// schema as YAML decodes it: each base property the schema lacks is added
// to `properties` (created when absent), and `environment` appended to
// `required` when it is not there; nothing else, no `type` where there is
// none. The result has JSON's types (it went through encoding/json), as
// the registration rad sends; schema is not modified.
func RadMerge(t testing.TB, schema map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil || s == nil {
		s = map[string]any{}
	}
	props, _ := s["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	for name, p := range RadiusBase() {
		if _, ok := props[name]; !ok {
			props[name] = p
		}
	}
	s["properties"] = props
	req, _ := s["required"].([]any)
	if !slices.Contains(req, any("environment")) {
		s["required"] = append(req, "environment")
	}
	b, _ = json.Marshal(s) // again: the base's values get JSON's types
	var merged map[string]any
	if err := json.Unmarshal(b, &merged); err != nil {
		t.Fatal(err)
	}
	return merged
}

// CorpusVersion is one API version of a manifest of the Radius corpus, its
// schema as YAML decodes it.
type CorpusVersion struct {
	File, Namespace, Type, Version string
	Schema                         map[string]any
}

// CorpusVersions returns every API version of the manifests below dir
// (files that decode as manifests), in a stable order.
func CorpusVersions(t testing.TB, dir string) []CorpusVersion {
	t.Helper()
	var out []CorpusVersion
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var m struct {
			Namespace string `yaml:"namespace"`
			Types     map[string]struct {
				APIVersions map[string]struct {
					Schema map[string]any `yaml:"schema"`
				} `yaml:"apiVersions"`
			} `yaml:"types"`
		}
		if yaml.Unmarshal(data, &m) != nil || m.Namespace == "" {
			return nil // not a manifest
		}
		for typ, tv := range m.Types {
			for ver, v := range tv.APIVersions {
				out = append(out, CorpusVersion{File: p, Namespace: m.Namespace, Type: typ, Version: ver, Schema: v.Schema})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.File+a.Type+a.Version < b.File+b.Type+b.Version
	})
	return out
}
