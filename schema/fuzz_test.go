package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/udtc/udtc/schema"
)

// FuzzDecode: any input decodes without a panic (a schema, a problem, or
// an error for what is not a JSON object), and a schema compared with
// itself differs nowhere.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{}`, `null`, `[]`, `{"type":"object","properties":{"a":{"type":"string","maxLength":3}}}`,
		`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"array","items":{"$ref":"https://radapp.io/schemas/v1#RecipeStatus"}}}},"required":["m"]}`,
		`{"type":"object","properties":{"n":{"type":"number","minimum":1.5,"exclusiveMinimum":true,"multipleOf":0.5,"enum":[2,3.5],"default":2}}}`,
		`{"properties":{"a":{"x-resource-type":["A.B/c","*"]}},"oneOf":[]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, err := schema.Decode(raw)
		if s == nil && err == nil {
			t.Fatalf("Decode(%q): no schema and no error", raw)
		}
		if s != nil {
			schema.Walk(s, func(*schema.Schema) bool { return true })
			_ = s.TypeWords()
		}
		changes, err := schema.Diff(raw, raw)
		if json.Valid(raw) && (err != nil || len(changes) != 0) {
			t.Errorf("Diff(%q, itself) = %v, %v", raw, changes, err)
		}
	})
}
