package api

import (
	"strings"
	"testing"
)

func TestParseResourceID(t *testing.T) {
	s := "/planes/radius/local/resourceGroups/rg-1/providers/Contoso.Platform/contosoBuses/bus1/queues/q.1"
	id, err := ParseResourceID(s)
	if err != nil {
		t.Fatal(err)
	}
	if got := id.String(); got != s {
		t.Errorf("String() = %q, want %q", got, s)
	}
	if id.Type() != "Contoso.Platform/contosoBuses/queues" || id.Name() != "q.1" || id.Group != "rg-1" || id.Plane != "local" {
		t.Errorf("parsed %+v", id)
	}
	if !id.IsType("contoso.platform/CONTOSOBUSES/queues") {
		t.Error("IsType is not case-insensitive")
	}
	p, ok := id.Parent()
	if !ok || p.String() != "/planes/radius/local/resourceGroups/rg-1/providers/Contoso.Platform/contosoBuses/bus1" {
		t.Errorf("Parent() = %v, %v", p, ok)
	}
	if _, ok := p.Parent(); ok {
		t.Error("a top-level resource has no parent resource")
	}
	// Parent must not share the backing arrays with the child.
	p.Types = append(p.Types, "x")
	if id.Types[1] != "queues" {
		t.Error("Parent aliases the child's slices")
	}
	// Fixed segments are case-insensitive.
	if _, err := ParseResourceID("/Planes/Radius/local/RESOURCEGROUPS/rg/Providers/Contoso.Data/dbs/d"); err != nil {
		t.Error(err)
	}
}

func TestParseResourceIDRejects(t *testing.T) {
	for _, s := range []string{
		"",
		"planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs/d",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs/d/child",
		"/planes/radius/local/resourceGroups/../providers/Contoso.Data/dbs/d",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs/..",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso/dbs/d",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs/d%2F",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs/" + strings.Repeat("a", 64),
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/1dbs/d",
		"/planes/aws/local/resourceGroups/rg/providers/Contoso.Data/dbs/d",
		"/planes/radius/local/subscriptions/rg/providers/Contoso.Data/dbs/d",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs/d/",
	} {
		if id, err := ParseResourceID(s); err == nil {
			t.Errorf("ParseResourceID(%q) = %+v, want an error", s, id)
		}
	}
}

func TestResourceNameProblem(t *testing.T) {
	for s, ok := range map[string]bool{
		"a": true, "A-b_c.d": true, "0": true, strings.Repeat("x", 63): true,
		"": false, ".": false, "..": false, "a/b": false, "a b": false, "é": false, strings.Repeat("x", 64): false,
	} {
		if got := ResourceNameProblem(s) == ""; got != ok {
			t.Errorf("ResourceNameProblem(%q) valid = %v, want %v", s, got, ok)
		}
	}
}

func TestCapDetails(t *testing.T) {
	var d []ErrorDetail
	for range 250 {
		d = append(d, ErrorDetail{Code: "x"})
	}
	got := CapDetails(d)
	if len(got) != MaxErrorDetails+1 || got[MaxErrorDetails].Code != "TooManyDetails" || !strings.Contains(got[MaxErrorDetails].Message, "150 more") {
		t.Errorf("CapDetails(250) = %d details, last %+v", len(got), got[len(got)-1])
	}
	if got := CapDetails(d[:100]); len(got) != 100 {
		t.Errorf("CapDetails(100) = %d details", len(got))
	}
}

func TestParseResourceListID(t *testing.T) {
	l, err := ParseResourceListID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/contosoBuses")
	if err != nil || l.Parent != nil || l.Type != "contosoBuses" || l.Group != "rg" || l.Namespace != "Contoso.Platform" {
		t.Errorf("group list = %+v, %v", l, err)
	}
	l, err = ParseResourceListID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/contosoBuses/bus1/queues")
	if err != nil || l.Parent == nil || l.Parent.String() != "/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/contosoBuses/bus1" || l.Type != "contosoBuses/queues" {
		t.Errorf("child list = %+v, %v", l, err)
	}
	for _, s := range []string{
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/contosoBuses/bus1",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/1buses",
		"/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/buses/b%/queues",
		"/planes/radius/local/resourceGroups/r g/providers/Contoso.Platform/buses",
	} {
		if l, err := ParseResourceListID(s); err == nil {
			t.Errorf("ParseResourceListID(%q) = %+v, want an error", s, l)
		}
	}
}
