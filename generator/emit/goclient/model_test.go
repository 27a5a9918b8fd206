package goclient

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// This file builds checked models by hand for unit tests, from a compact
// JSON schema notation. It understands just the keys the tests use.

func mustSchema(t testing.TB, src string) *model.Schema {
	t.Helper()
	var raw map[string]any
	d := json.NewDecoder(strings.NewReader(src))
	d.UseNumber()
	if err := d.Decode(&raw); err != nil {
		t.Fatalf("test schema: %v", err)
	}
	return toSchema(t, raw, "/schema")
}

func toSchema(t testing.TB, raw map[string]any, path string) *model.Schema {
	t.Helper()
	s := &model.Schema{Path: path, Span: schema.Span(diag.Span{File: "test.yaml", Line: strings.Count(path, "/") + 1, Column: 1})}
	str := func(k string) string { v, _ := raw[k].(string); return v }
	num := func(k string) *json.Number {
		if v, ok := raw[k].(json.Number); ok {
			return &v
		}
		return nil
	}
	i64 := func(k string) *int64 {
		if v := num(k); v != nil {
			n, _ := v.Int64()
			return &n
		}
		return nil
	}
	flag := func(k string) bool { v, _ := raw[k].(bool); return v }
	s.Description, s.Title, s.Format, s.Pattern, s.Ref = str("description"), str("title"), str("format"), str("pattern"), str("$ref")
	s.ReadOnly, s.WriteOnly, s.Sensitive, s.Deprecated = flag("readOnly"), flag("writeOnly"), flag("x-radius-sensitive"), flag("deprecated")
	s.ExclusiveMinimum, s.ExclusiveMaximum, s.UniqueItems = flag("exclusiveMinimum"), flag("exclusiveMaximum"), flag("uniqueItems")
	s.MinLength, s.MaxLength, s.MinItems, s.MaxItems = i64("minLength"), i64("maxLength"), i64("minItems"), i64("maxItems")
	s.MinProperties, s.MaxProperties = i64("minProperties"), i64("maxProperties")
	s.Minimum, s.Maximum, s.MultipleOf = num("minimum"), num("maximum"), num("multipleOf")
	switch str("type") {
	case "string":
		s.Kind = model.String
	case "integer":
		s.Kind = model.Integer
	case "number":
		s.Kind = model.Number
	case "boolean":
		s.Kind = model.Boolean
	case "array":
		s.Kind = model.Array
		s.Items = toSchema(t, raw["items"].(map[string]any), path+"/items")
	case "any":
		s.Kind = model.Any
	case "object":
		s.Kind = model.Object
		if ap, ok := raw["additionalProperties"].(map[string]any); ok {
			s.Kind = model.Map
			s.AdditionalProperties = toSchema(t, ap, path+"/additionalProperties")
		}
	default:
		t.Fatalf("test schema %s: type %q", path, str("type"))
	}
	required := map[string]bool{}
	if rs, ok := raw["required"].([]any); ok {
		for _, r := range rs {
			required[r.(string)] = true
		}
	}
	// Properties in source order: the decoder loses it, so tests list
	// properties as an array of single-key objects under "props".
	if ps, ok := raw["props"].([]any); ok {
		for _, p := range ps {
			for name, ps := range p.(map[string]any) {
				s.Properties = append(s.Properties, &model.Property{
					Name: name, Required: required[name],
					Schema: toSchema(t, ps.(map[string]any), path+"/properties/"+name),
					Span:   schema.Span(diag.Span{File: "test.yaml", Line: strings.Count(path, "/") + 2, Column: 3}),
				})
			}
		}
	}
	if es, ok := raw["enum"].([]any); ok {
		for _, e := range es {
			s.Enum = append(s.Enum, value(e))
		}
	}
	if d, ok := raw["default"]; ok {
		v := value(d)
		s.Default = &v
	}
	return s
}

func value(e any) model.Value {
	b, _ := json.Marshal(e)
	switch e := e.(type) {
	case string:
		return model.Value{Kind: model.String, Str: e, JSON: b}
	case json.Number:
		k := model.Number
		if _, err := strconv.ParseInt(e.String(), 10, 64); err == nil {
			k = model.Integer
		}
		return model.Value{Kind: k, Num: e, JSON: b}
	case bool:
		return model.Value{Kind: model.Boolean, Bool: e, JSON: b}
	}
	return model.Value{Kind: model.Any, JSON: b}
}

// rtype builds a resource type with one schema per version.
func rtype(ns, name string, versions map[string]*model.Schema) *model.ResourceType {
	rt := &model.ResourceType{Name: name, Namespace: ns, Span: diag.Span{File: "test.yaml", Line: 1, Column: 1}}
	if i := strings.LastIndex(name, "/"); i >= 0 {
		rt.Parent = name[:i]
	}
	var names []string
	for v := range versions {
		names = append(names, v)
	}
	sortVersions(names)
	for _, v := range names {
		rt.APIVersions = append(rt.APIVersions, &model.APIVersion{Name: v, Preview: api.IsPreview(v), Schema: versions[v]})
	}
	rt.DefaultAPIVersion = api.DefaultVersion(names)
	return rt
}

func sortVersions(vs []string) {
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			if api.CompareVersions(vs[j], vs[i]) < 0 {
				vs[i], vs[j] = vs[j], vs[i]
			}
		}
	}
}

const postgresSchema = `{
  "type": "object",
  "props": [
    {"size": {"type": "string", "description": "The size of database to provision", "enum": ["S", "M", "L", "XL"], "default": "S"}},
    {"name": {"type": "string", "minLength": 3, "maxLength": 63, "pattern": "^[a-z][a-z0-9-]*$"}},
    {"replicas": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 5}},
    {"ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "multipleOf": 0.5}},
    {"tags": {"type": "array", "items": {"type": "string", "maxLength": 8}, "maxItems": 3, "uniqueItems": true}},
    {"labels": {"type": "object", "additionalProperties": {"type": "string", "pattern": "^(?!x)"}}},
    {"connections": {"type": "object", "additionalProperties": {"type": "object", "props": [
      {"source": {"type": "string", "description": "The resource ID."}},
      {"dnsName": {"type": "string", "format": "hostname"}}
    ], "required": ["source"]}}},
    {"createdAt": {"type": "string", "format": "date-time"}},
    {"extra": {"type": "any"}},
    {"status": {"type": "object", "readOnly": true, "props": [
      {"binding": {"type": "object", "props": [
        {"hostname": {"type": "string"}},
        {"password": {"type": "string", "x-radius-sensitive": true}},
        {"port": {"type": "integer", "enum": [5432, 5433]}}
      ], "required": ["hostname"]}},
      {"recipe": {"$ref": "RecipeStatus", "type": "object", "props": [
        {"outputs": {"type": "object", "additionalProperties": {"type": "any"}}},
        {"kind": {"type": "string", "enum": ["terraform", "bicep"]}}
      ]}}
    ]}},
    {"fooBar": {"type": "string"}},
    {"foo_bar": {"type": "boolean"}}
  ],
  "required": ["size", "status", "replicas"]
}`

// testCatalog is a small catalog using most features: enums, constraints,
// nested objects, maps, arrays, a shared $ref, a child type whose parent
// has no version in common with it, and clashing property names.
func testCatalog(t testing.TB) *model.Catalog {
	pg := rtype("MyCompany.Resources", "postgresDatabases", map[string]*model.Schema{
		"2025-01-01-preview": mustSchema(t, postgresSchema),
	})
	pg.Description = "A PostgreSQL database.\n\n```bicep\nresource db 'MyCompany.Resources/postgresDatabases@2025-01-01-preview' = {\n  name: 'db'\n}\n```\n"
	cache := rtype("MyCompany.Resources", "redisCaches", map[string]*model.Schema{
		"2025-01-01-preview": {Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.Any}},
		"2025-06-01":         {Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.Any}},
	})
	cache.APIVersions[0].Undeclared, cache.APIVersions[1].Undeclared = true, true
	bus := rtype("Contoso.Bus", "contosoBuses", map[string]*model.Schema{
		"2024-01-01": mustSchema(t, `{"type": "object", "props": [{"sku": {"type": "string", "enum": ["basic", "premium"]}}]}`),
	})
	queue := rtype("Contoso.Bus", "contosoBuses/queues", map[string]*model.Schema{
		"2025-01-01": mustSchema(t, `{"type": "object", "props": [{"maxSize": {"type": "integer", "minimum": 1}}], "required": ["maxSize"]}`),
	})
	return &model.Catalog{Providers: []*model.Provider{
		{Namespace: "Contoso.Bus", Types: []*model.ResourceType{bus, queue}},
		{Namespace: "MyCompany.Resources", Types: []*model.ResourceType{pg, cache}},
	}}
}
