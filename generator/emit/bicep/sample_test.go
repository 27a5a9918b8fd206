package bicep

import (
	"encoding/json"

	"github.com/udtc/udtc/generator/model"
)

// Hand-built models for unit tests (the compiler is tested elsewhere).

func i64(v int64) *int64       { return &v }
func jn(s string) *json.Number { n := json.Number(s); return &n }
func strVal(s string) model.Value {
	b, _ := json.Marshal(s)
	return model.Value{Kind: model.String, Str: s, JSON: b}
}
func intVal(s string) model.Value {
	return model.Value{Kind: model.Integer, Num: json.Number(s), JSON: json.RawMessage(s)}
}

func obj_(props ...*model.Property) *model.Schema {
	return &model.Schema{Kind: model.Object, Properties: props}
}

func p(name string, s *model.Schema) *model.Property { return &model.Property{Name: name, Schema: s} }
func req(name string, s *model.Schema) *model.Property {
	return &model.Property{Name: name, Schema: s, Required: true}
}

func recipeStatus() *model.Schema {
	s := obj_(
		p("status", &model.Schema{Kind: model.String}),
		p("outputs", &model.Schema{Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.String}}),
	)
	s.Ref = "RecipeStatus"
	s.ReadOnly = true
	return s
}

// postgresV returns the schema of the seed example's postgresDatabases.
func postgresSchema() *model.Schema {
	size := &model.Schema{Kind: model.String, Description: "The size of database to provision",
		Enum: []model.Value{strVal("S"), strVal("M"), strVal("L"), strVal("XL")}}
	status := obj_(
		p("binding", obj_(
			p("hostname", &model.Schema{Kind: model.String}),
			p("username", &model.Schema{Kind: model.String}),
			p("secret", &model.Schema{Kind: model.String, Sensitive: true}),
		)),
		p("recipe", recipeStatus()),
	)
	status.ReadOnly = true
	return obj_(
		req("size", size),
		p("status", status),
		p("replicas", &model.Schema{Kind: model.Integer, Minimum: jn("0"), Maximum: jn("10"), ExclusiveMaximum: true, Default: ptr(intVal("1"))}),
		p("port", &model.Schema{Kind: model.Integer, Enum: []model.Value{intVal("5432"), intVal("5433")}}),
		p("ratio", &model.Schema{Kind: model.Number, Minimum: jn("0"), Maximum: jn("1")}),
		p("name", &model.Schema{Kind: model.String, MinLength: i64(1), MaxLength: i64(63), Pattern: `^[a-z"]+$`}),
		p("tags", &model.Schema{Kind: model.Array, MaxItems: i64(5), UniqueItems: true, Items: &model.Schema{Kind: model.String, Format: "uuid"}}),
		p("labels", &model.Schema{Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.String}}),
		p("extra", &model.Schema{Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.Any}}),
		p("enabled", &model.Schema{Kind: model.Boolean, Description: "Multi\nline <b>&</b>"}),
		req("adminPassword", &model.Schema{Kind: model.String, WriteOnly: true, Sensitive: true}),
		req("id2", &model.Schema{Kind: model.String, ReadOnly: true}),
	)
}

func ptr[T any](v T) *T { return &v }

func sampleCatalog() *model.Catalog {
	pg := &model.ResourceType{Name: "postgresDatabases", Namespace: "Contoso.Platform", Description: "A database.\n\nWith two paragraphs.",
		APIVersions: []*model.APIVersion{
			{Name: "2025-01-01-preview", Preview: true, Schema: postgresSchema()},
			{Name: "2025-06-01", Schema: postgresSchema()},
		}}
	bus := &model.ResourceType{Name: "buses", Namespace: "Contoso.Platform",
		APIVersions: []*model.APIVersion{{Name: "2025-01-01", Schema: &model.Schema{Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.Any}}, Undeclared: true}}}
	queues := &model.ResourceType{Name: "buses/queues", Parent: "buses", Namespace: "Contoso.Platform",
		APIVersions: []*model.APIVersion{{Name: "2025-01-01", Schema: obj_(p("recipe", recipeStatus()))}}}
	other := &model.ResourceType{Name: "things", Namespace: "Fabrikam.Things",
		APIVersions: []*model.APIVersion{{Name: "2024-01-01", Schema: obj_(req("size", &model.Schema{Kind: model.String}))}}}
	return &model.Catalog{Providers: []*model.Provider{
		{Namespace: "Contoso.Platform", Types: []*model.ResourceType{bus, queues, pg}},
		{Namespace: "Fabrikam.Things", Types: []*model.ResourceType{other}},
	}}
}
