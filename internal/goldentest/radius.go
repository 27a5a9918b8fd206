package goldentest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// RadiusBase is the tests' own statement of Radius's base resource manifest
// (radius-project/radius #12252), written from its rules rather than from
// udtc's schema/base.json, so that a test holding udtc's outputs to Radius's
// derives its expectation independently: application, environment and
// codeReference strings; connections a map of {source (required string),
// disableDefaultEnvVars (boolean)}; environment required. Each call returns
// a new map.
func RadiusBase() map[string]any {
	str := func() map[string]any { return map[string]any{"type": "string"} }
	return map[string]any{
		"application":   str(),
		"environment":   str(),
		"codeReference": str(),
		"connections": map[string]any{"type": "object", "additionalProperties": map[string]any{
			"type":     "object",
			"required": []any{"source"},
			"properties": map[string]any{
				"source":                str(),
				"disableDefaultEnvVars": map[string]any{"type": "boolean"},
			},
		}},
	}
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
