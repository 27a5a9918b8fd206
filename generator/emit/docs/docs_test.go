package docs

import (
	"encoding/json"
	"testing"

	"github.com/udtc/udtc/generator/model"
)

func TestExample(t *testing.T) {
	str := func(v string) *model.Value {
		b, _ := json.Marshal(v)
		return &model.Value{Kind: model.String, Str: v, JSON: b}
	}
	min := json.Number("3")
	schema := &model.Schema{Kind: model.Object, Properties: []*model.Property{
		{Name: "size", Required: true, Schema: &model.Schema{Kind: model.String, Enum: []model.Value{*str("S"), *str("M")}}},
		{Name: "host", Required: true, Schema: &model.Schema{Kind: model.String, Example: str("db.local")}},
		{Name: "count", Required: true, Schema: &model.Schema{Kind: model.Integer, Minimum: &min, ExclusiveMinimum: true}},
		{Name: "status", Required: true, Schema: &model.Schema{Kind: model.String, ReadOnly: true}},
		{Name: "optional", Schema: &model.Schema{Kind: model.String}},
		{Name: "net", Required: true, Schema: &model.Schema{Kind: model.Object, Properties: []*model.Property{
			{Name: "port", Required: true, Schema: &model.Schema{Kind: model.Integer}},
		}}},
	}}
	ty := &model.ResourceType{Name: "dbs/replicas", Namespace: "Contoso.Data"}
	got := exampleOf(ty, &model.APIVersion{Name: "2025-01-01", Schema: schema})
	want := `resource example 'Contoso.Data/dbs/replicas@2025-01-01' = {
  name: 'example/example'
  properties: {
    size: 'S'
    host: 'db.local'
    count: 4
    net: {
      port: 0
    }
  }
}`
	if got != want {
		t.Errorf("example:\n%s\nwant:\n%s", got, want)
	}
}

func TestCell(t *testing.T) {
	if got := cell(" a|b\r\nc\n"); got != `a\|b<br>c` {
		t.Errorf("cell = %q", got)
	}
}
