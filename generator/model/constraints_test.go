package model_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/model"
)

func TestConstraints(t *testing.T) {
	n := func(s string) *json.Number { v := json.Number(s); return &v }
	i := func(v int64) *int64 { return &v }
	str := func(s string) model.Value {
		b, _ := json.Marshal(s)
		return model.Value{Kind: model.String, Str: s, JSON: b}
	}
	def := str("S")
	tests := []struct {
		s    *model.Schema
		want []string
	}{
		{&model.Schema{Kind: model.String, Enum: []model.Value{str("S"), str("M")}, Default: &def},
			[]string{"Allowed values: \"S\", \"M\".", "Defaults to \"S\"."}},
		{&model.Schema{Kind: model.String, MinLength: i(1), Pattern: "^a", Format: "email", Nullable: true},
			[]string{"Must be at least 1 character long.", "Must match the regular expression `^a`.", "Format: email.", "May be null."}},
		{&model.Schema{Kind: model.String, MinLength: i(3), MaxLength: i(24)}, []string{"Must be 3 to 24 characters long."}},
		{&model.Schema{Kind: model.Integer, Minimum: n("0"), ExclusiveMinimum: true, Maximum: n("8"), MultipleOf: n("2")},
			[]string{"Must be greater than 0.", "Must be at most 8.", "Must be a multiple of 2."}},
		{&model.Schema{Kind: model.Array, MaxItems: i(1), UniqueItems: true}, []string{"Must have at most 1 item.", "Items must be unique."}},
		{&model.Schema{Kind: model.Map, MinProperties: i(2)}, []string{"Must have at least 2 entries."}},
	}
	for _, tc := range tests {
		var got []string
		for _, c := range model.Constraints(tc.s, nil) {
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
	bicep := func(v model.Value) string { return "'" + v.Str + "'" }
	if got := model.Constraints(&model.Schema{Kind: model.String, Default: &def}, bicep)[0].Text; got != "Defaults to 'S'." {
		t.Errorf("with a Bicep literal: %q", got)
	}
}
