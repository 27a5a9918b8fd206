package example_test

import (
	"encoding/json"
	"testing"

	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/example"
)

// FuzzOf: the example of any registered schema is made without a panic,
// and its JSON rendering is valid JSON.
func FuzzOf(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{"type":"object","properties":{"a":{"type":"array","minItems":2,"uniqueItems":true,"items":{"type":"string","pattern":"^(a|b)+[0-9]{2}$","maxLength":4}}},"required":["a"]}`,
		`{"type":"object","properties":{"n":{"type":"number","minimum":1.5,"exclusiveMinimum":true,"multipleOf":0.5}},"required":["n"]}`,
		`{"type":"object","properties":{"p":{"type":"string","pattern":"[","minLength":3}},"required":["p"]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		s, _ := schema.Decode(raw)
		ex := example.Of(s)
		if out := ex.Properties.JSON(0); !json.Valid([]byte(out)) {
			t.Errorf("Of(%q).JSON is not JSON:\n%s", raw, out)
		}
		_ = ex.Properties.Bicep(0)
	})
}
