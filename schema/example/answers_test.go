package example

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/udtc/udtc/schema"
)

// An example made again (a catalog page viewed again) takes its costly
// pattern matches from answers instead of matching again, and is the same.
func TestExampleMatchesOnce(t *testing.T) {
	raw, _ := json.Marshal(map[string]any{"type": "object", "required": []string{"a"}, "properties": map[string]any{
		"a": map[string]any{"type": "string", "pattern": "a{0,999}b", "minLength": 1000},
	}})
	s, err := schema.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	first := Of(s)
	if len(first.Properties.Fields) != 1 {
		t.Fatalf("example %+v, want a", first)
	}
	v := string(first.Properties.Fields[0].Value.Literal)
	if len(v) < 1000 || !strings.Contains(v, "b") {
		t.Fatalf("example of a: %.100s, want a matching string of 1,000 characters", v)
	}
	hits := answers.Hits()
	again := Of(s)
	if w := string(again.Properties.Fields[0].Value.Literal); w != v {
		t.Fatalf("the second example differs: %.100s", w)
	}
	if answers.Hits() == hits {
		t.Fatal("the second example matched its pattern again")
	}
}
