package api

import (
	"fmt"
	"strings"
	"testing"
)

func TestAddressProblem(t *testing.T) {
	for addr, ok := range map[string]bool{
		"http://localhost:8080":      true,
		"https://ex.com/base":        true,
		"HTTP://EX.COM":              true,
		"":                           false,
		"ftp://x":                    false,
		"localhost:8080":             false,
		"http://":                    false,
		"/relative":                  false,
		"http://a b":                 false,
		"http://ex.com/\x00":         false,
		"javascript:alert(1)":        false,
		"http://[::1]:80":            true,
		"http://ex.com/%zz":          false,
		"mailto:someone@example.com": false,
		"http://user:pass@ex.com":    false,
		"https://token@ex.com/base":  false,
		"http://ex.com/a@b":          true,
	} {
		if got := AddressProblem(addr) == ""; got != ok {
			t.Errorf("AddressProblem(%q) = %q, want ok=%v", addr, AddressProblem(addr), ok)
		}
	}
}

func TestRedactAddress(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:pass@ex.com:8080/base": "http://xxxxx@ex.com:8080/base",
		"https://tok@ex.com":                "https://xxxxx@ex.com",
		"http://a@b:c@ex.com?x=@":           "http://xxxxx@ex.com?x=@",
		"http://u:p a ss@ex.com/":           "http://xxxxx@ex.com/",
		"http://ex.com/a@b":                 "http://ex.com/a@b",
		"http://ex.com#@":                   "http://ex.com#@",
		"not a url@all":                     "not a url@all",
		"":                                  "",
	} {
		if got := RedactAddress(in); got != want {
			t.Errorf("RedactAddress(%q) = %q, want %q", in, got, want)
		}
	}
	if p := AddressProblem("http://user:hunter2@ex.com"); strings.Contains(p, "hunter2") {
		t.Errorf("AddressProblem repeats the password: %s", p)
	}
}

func TestTypeNameEscaping(t *testing.T) {
	for _, name := range []string{"queues", "contosoBuses/queues", "a/b/c"} {
		seg := EscapeTypeName(name)
		if strings.Contains(seg, "/") || UnescapeTypeName(seg) != name {
			t.Errorf("EscapeTypeName(%q) = %q, unescaped %q", name, seg, UnescapeTypeName(seg))
		}
	}
	if got := EscapeTypeName("contosoBuses/queues"); got != "contosoBuses_queues" {
		t.Errorf("EscapeTypeName = %q", got)
	}
}

func TestPointerToken(t *testing.T) {
	for key, want := range map[string]string{"a": "a", "a/b": "a~1b", "m~n": "m~0n", "~/": "~0~1", "~1": "~01"} {
		if got := PointerToken(key); got != want {
			t.Errorf("PointerToken(%q) = %q, want %q", key, got, want)
		}
		if back := UnescapePointerToken(want); back != key {
			t.Errorf("UnescapePointerToken(%q) = %q, want %q", want, back, key)
		}
	}
	if got := AppendPointer("/properties", "a/b"); got != "/properties/a~1b" {
		t.Errorf("AppendPointer = %q", got)
	}
}

func TestCapabilitiesProblems(t *testing.T) {
	got := CapabilitiesProblems([]string{"SupportsRecipes", "<script>", "", "SupportsRecipes", "lower", strings.Repeat("A", 64), "Manual"})
	want := []ListProblem{
		{1, "is not a PascalCase name"},
		{2, "is empty"},
		{3, "is listed twice"},
		{4, "is not a PascalCase name"},
		{5, "is 64 characters long; the limit is 63"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("CapabilitiesProblems = %v, want %v", got, want)
	}
	if p := CapabilitiesProblems(nil); p != nil {
		t.Errorf("no capabilities: %v", p)
	}
}

func TestResourceLocationAndTags(t *testing.T) {
	for loc, ok := range map[string]bool{"": true, "global": true, "East US": true, strings.Repeat("x", 64): false, "a\nb": false, "\xff": false} {
		if got := ResourceLocationProblem(loc) == ""; got != ok {
			t.Errorf("ResourceLocationProblem(%q) = %q", loc, ResourceLocationProblem(loc))
		}
	}
	many := map[string]string{}
	for i := range MaxTags + 1 {
		many[fmt.Sprint("k", i)] = "v"
	}
	for name, c := range map[string]struct {
		tags map[string]string
		ok   bool
	}{
		"none":         {nil, true},
		"some":         {map[string]string{"env": "prod", "team": ""}, true},
		"too many":     {many, false},
		"empty key":    {map[string]string{"": "v"}, false},
		"long key":     {map[string]string{strings.Repeat("k", MaxTagKeyLength+1): "v"}, false},
		"long value":   {map[string]string{"k": strings.Repeat("v", MaxTagValueLength+1)}, false},
		"control key":  {map[string]string{"a\x01": "v"}, false},
		"control val":  {map[string]string{"a": "line\nbreak"}, false},
		"invalid utf8": {map[string]string{"a": "\xff"}, false},
	} {
		if got := TagsProblem(c.tags) == ""; got != c.ok {
			t.Errorf("%s: TagsProblem = %q", name, TagsProblem(c.tags))
		}
	}
}

func TestPathProblem(t *testing.T) {
	const rp = "/planes/radius/local/providers/System.Resources/resourceProviders/Victim.Ns"
	for path, ok := range map[string]bool{
		"/":                               true,
		"/healthz":                        true,
		rp:                                true,
		rp + "/resourceTypes/a_b":         true,
		"/planes/radius/local/providers/": true,
		rp + "/resourceTypes/..":          false,
		rp + "/resourceTypes/.":           false,
		rp + "/resourceTypes/%2e%2e":      false,
		rp + "/resourceTypes/%2E.":        false,
		rp + "/resourceTypes/.%2E":        false,
		rp + "/resourceTypes/%2e":         false,
		rp + "/resourceTypes/a%2Fb":       false,
		rp + "/resourceTypes/a%2fb":       false,
		rp + "/resourceTypes/a%5Cb":       false,
		rp + "//resourceTypes/x":          false,
		"//planes":                        false,
		rp + "/resourceTypes/a%zz":        false,
		rp + "/resourceTypes/a%0Ab":       false,
		rp + "/resourceTypes/...":         true, // not a dot segment; the name rules refuse it
		"planes":                          false,
	} {
		if got := PathProblem(path) == ""; got != ok {
			t.Errorf("PathProblem(%q) = %q, want ok=%v", path, PathProblem(path), ok)
		}
	}
}

func TestAPIVersionLowerBound(t *testing.T) {
	for v, ok := range map[string]bool{
		"0000-01-01":         false,
		"1999-12-31":         false,
		"2000-01-01":         true,
		"2023-10-01-preview": true,
		"2023-02-29":         false,
	} {
		if got := APIVersionProblem(v) == ""; got != ok {
			t.Errorf("APIVersionProblem(%q) = %q, want ok=%v", v, APIVersionProblem(v), ok)
		}
	}
}
