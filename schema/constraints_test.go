package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/schema"
)

func TestConstraints(t *testing.T) {
	n := func(s string) *json.Number { v := json.Number(s); return &v }
	i := func(v int64) *int64 { return &v }
	str := func(s string) schema.Value {
		b, _ := json.Marshal(s)
		return schema.Value{Kind: schema.String, Str: s, JSON: b}
	}
	def := str("S")
	tests := []struct {
		s    *schema.Schema
		want []string
	}{
		{&schema.Schema{Kind: schema.String, Enum: []schema.Value{str("S"), str("M")}, Default: &def},
			[]string{"Allowed values: \"S\", \"M\".", "Defaults to \"S\"."}},
		{&schema.Schema{Kind: schema.String, MinLength: i(1), Pattern: "^a", Format: "email", Nullable: true},
			[]string{"Must be at least 1 character long.", "Must match the regular expression `^a`.", "Format: email.", "May be null."}},
		{&schema.Schema{Kind: schema.String, MinLength: i(3), MaxLength: i(24)}, []string{"Must be 3 to 24 characters long."}},
		{&schema.Schema{Kind: schema.Integer, Minimum: n("0"), ExclusiveMinimum: true, Maximum: n("8"), MultipleOf: n("2")},
			[]string{"Must be greater than 0.", "Must be at most 8.", "Must be a multiple of 2."}},
		{&schema.Schema{Kind: schema.Array, MaxItems: i(1), UniqueItems: true}, []string{"Must have at most 1 item.", "Items must be unique."}},
		{&schema.Schema{Kind: schema.Map, MinProperties: i(2)}, []string{"Must have at least 2 entries."}},
	}
	for _, tc := range tests {
		var got []string
		for _, c := range schema.Constraints(tc.s, nil) {
			got = append(got, c.Text)
			if len(c.Keywords) == 0 {
				t.Errorf("%q names no keyword", c.Text)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.s, diff)
		}
	}
	// The target chooses the literal syntax, never the words.
	bicep := func(v schema.Value) string { return "'" + v.Str + "'" }
	if got := schema.Constraints(&schema.Schema{Kind: schema.String, Default: &def}, bicep)[0].Text; got != "Defaults to 'S'." {
		t.Errorf("with a Bicep literal: %q", got)
	}
}

// TestConstraintsDefaultSaid: a default the description already states is
// not said again; one it does not state is.
func TestConstraintsDefaultSaid(t *testing.T) {
	val := func(raw string) schema.Value {
		v := schema.Value{JSON: json.RawMessage(raw)}
		if err := json.Unmarshal(v.JSON, &v.Str); err == nil {
			v.Kind = schema.String
		} else {
			v.Kind = schema.Integer
			v.Num = json.Number(raw)
		}
		return v
	}
	for _, tc := range []struct {
		description, def string
		said             bool
	}{
		{"(Optional) The size of the Redis cache. Defaults to `S` if not provided. The recipe maps the size onto a concrete cloud SKU.", `"S"`, true},
		{"(Optional) The major MySQL server version in the X.Y format. Defaults to `8.4` if not provided.", `"8.4"`, true},
		{"The queue. Defaults to 'jobs'.", `"jobs"`, true},
		{"Replicas, 3 by default.", `3`, false}, // one character: not matched as a word
		{"Replicas; the default is 12 replicas.", `12`, true},
		{"The database name. Defaults to the resource name if not specified.", `"db"`, false},
		{"The size, `S` or `M`.\nLarger sizes cost more by default.", `"S"`, false},
		{"Defaults to `Standard`.", `"S"`, false},
		{"", `"S"`, false},
	} {
		def := val(tc.def)
		s := &schema.Schema{Kind: def.Kind, Description: tc.description, Default: &def}
		said := true
		for _, c := range schema.Constraints(s, nil) {
			if c.Keywords[0] == "default" {
				said = false
			}
		}
		if said != tc.said {
			t.Errorf("%q with default %s: said %v, want %v", tc.description, tc.def, said, tc.said)
		}
	}
}
