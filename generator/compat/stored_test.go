package compat

import (
	"slices"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/registry/api"
)

func TestTargetUnderPath(t *testing.T) {
	for _, tc := range []struct {
		target, path string
		want         bool
	}{
		{"properties.size", "size", true},
		{"properties.size", "", true},
		{"properties.sizes", "size", false},
		{"properties.a.b", "a", true},
		{"properties.a", "a.b", false},
		{"properties.list[3].name", "list[*].name", true},
		{"properties.list[3]", "list[*]", true},
		{"properties.list[3].other", "list[*].name", false},
		{`properties.tags["a.b"]`, "tags[*]", true},
		{`properties.tags["a.b"].x`, "tags[*].x", true},
		{`properties.tags["a\"]b"].x`, "tags[*].x", true},
		{"properties.keys.*", "keys[*]", true},
		{"properties.m.k[0][1]", "m[*][*][*]", true},
	} {
		segs, err := api.ParseTarget(tc.target)
		if err != nil {
			t.Fatal(err)
		}
		if got := under(segs, pathSegments(tc.path)); got != tc.want {
			t.Errorf("%s under %q = %v (segments %q, %q)", tc.target, tc.path, got, segs, pathSegments(tc.path))
		}
	}
}

// Each finding of a version counts the resources refused for a reason at
// its own path; the policy allows unviolated changes only on request, and
// never those admission cannot judge.
func TestJudgeStored(t *testing.T) {
	at := func(rule, path string) Finding {
		return Finding{Rule: rule, Severity: diag.Error, Namespace: "Contoso.Data", Type: "dbs", Version: "2025-01-01", Path: path, Message: path + " changed"}
	}
	fs := []Finding{
		at(RuleEnumValueRemoved, "size"),
		at(RuleRequiredPropertyAdded, "owner"),
		at(RuleMaxDecreased, "replicas"),
		at(RuleSensitiveRemoved, "password"),
		{Rule: RuleEnumValueRemoved, Severity: diag.Error, Namespace: "Contoso.Data", Type: "caches", Version: "2025-01-01", Path: "tier"},
	}
	stored := map[string]Stored{
		StoredKey("contoso.data", "DBS", "2025-01-01"): {Known: true, Checked: 5, Refused: []api.RefusedResource{
			{ID: "/x/db1", Details: []api.ErrorDetail{{Target: "properties.size", Code: "InvalidEnum", Message: "must be one of"}, {Target: "properties.owner", Code: "MissingProperty", Message: "is required"}}},
			{ID: "/x/db2", Details: []api.ErrorDetail{{Target: "properties.owner", Code: "MissingProperty", Message: "is required"}}},
		}},
		StoredKey("Contoso.Data", "caches", "2025-01-01"): {Why: "Radius UCP at http://u cannot tell which would be refused"},
	}
	got := JudgeStored(fs, stored)
	ids := func(f Finding) []string {
		var out []string
		for _, r := range f.Stored.Refused {
			out = append(out, r.ID)
		}
		return out
	}
	if !slices.Equal(ids(got[0]), []string{"/x/db1"}) || !strings.HasSuffix(got[0].Message, "; 1 of 5 stored resources would be refused at their next write") ||
		got[0].Hint != "refused: /x/db1 (properties.size must be one of)" {
		t.Errorf("enum finding: %q %q %v", got[0].Message, got[0].Hint, ids(got[0]))
	}
	if !slices.Equal(ids(got[1]), []string{"/x/db1", "/x/db2"}) {
		t.Errorf("required finding: %v", ids(got[1]))
	}
	if !got[2].Unviolated() || !strings.HasSuffix(got[2].Message, "; 0 of 5 stored resources affected") {
		t.Errorf("max finding: %q", got[2].Message)
	}
	if got[3].Stored != nil || got[3].Message != fs[3].Message {
		t.Errorf("sensitive-removed was judged: %+v", got[3])
	}
	if got[4].Stored == nil || got[4].Stored.Known || got[4].Unviolated() || !strings.Contains(got[4].Message, "stored resources not checked: Radius UCP") {
		t.Errorf("unknown: %+v", got[4])
	}
	if fs[0].Stored != nil {
		t.Error("JudgeStored modified its input")
	}

	applied := Policy{StrictPreviews: true}.Apply(got)
	if applied[2].Severity != diag.Error {
		t.Error("an unviolated change was allowed without AllowUnviolated")
	}
	applied = Policy{AllowUnviolated: true}.Apply(got)
	for i, want := range []diag.Severity{diag.Error, diag.Error, diag.Warning, diag.Error, diag.Error} {
		if applied[i].Severity != want {
			t.Errorf("AllowUnviolated: finding %d (%s) is %v, want %v", i, applied[i].Rule, applied[i].Severity, want)
		}
	}
	if applied[2].Allowed != UnviolatedFlag {
		t.Errorf("allowed by %q", applied[2].Allowed)
	}
}
