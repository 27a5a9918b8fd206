package oci

import (
	"strings"
	"testing"
)

func TestParseTarget(t *testing.T) {
	for _, c := range []struct {
		in                       string
		key, reg, repo, tag, err string
	}{
		{in: "br:myregistry.azurecr.io/bicep/contoso:1.0", reg: "myregistry.azurecr.io", repo: "bicep/contoso", tag: "1.0"},
		{in: "br:127.0.0.1:5000/bicep/{namespace}", reg: "127.0.0.1:5000", repo: "bicep/{namespace}"},
		{in: "br:localhost:5000/{namespace}:v2", reg: "localhost:5000", repo: "{namespace}", tag: "v2"},
		{in: "Contoso.Data=br:reg.example.com/x/data:1", key: "Contoso.Data", reg: "reg.example.com", repo: "x/data", tag: "1"},
		{in: "br:[::1]:5000/a/b:c", reg: "[::1]:5000", repo: "a/b", tag: "c"},
		{in: "myregistry.azurecr.io/bicep/contoso:1.0", err: "not a registry reference"},
		{in: "=br:r.io/a:1", err: "namespace before = is empty"},
		{in: "br:r.io/a@sha256:0000", err: "not a digest"},
		{in: "br:user:pw@r.io/a:1", err: `"br:xxxxx@r.io/...": credentials do not belong in a target`},
		{in: "Contoso.Data=br:user:p@ss@r.io/a", err: `"br:xxxxx@r.io/...": credentials`},
		{in: "br:r.io", err: "give a registry and a repository"},
		{in: "br:/a:1", err: "give a registry and a repository"},
		{in: "br:r.io/a:", err: "tag after ':' is empty"},
		{in: "br:r.io/Bicep/a:1", err: `segment "Bicep"`},
		{in: "br:r.io/a__b:1", err: `segment "a__b"`},
		{in: "br:r.io/a:-1", err: `"-1" is not a tag`},
		{in: "br:r io/a:1", err: "not a registry host"},
	} {
		got, err := ParseTarget(c.in)
		if err != nil && (strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "p@ss")) {
			t.Errorf("ParseTarget(%q) repeats the password: %v", c.in, err)
		}
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseTarget(%q) = %+v, %v; want an error with %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got.Key != c.key || got.Registry != c.reg || got.Repository != c.repo || got.Tag != c.tag {
			t.Errorf("ParseTarget(%q) = %+v, %v", c.in, got, err)
		}
	}
}

func TestParseRegistryPath(t *testing.T) {
	for in, want := range map[string]string{
		"myregistry.azurecr.io/bicep":      "br:myregistry.azurecr.io/bicep/contosodata:0.0.1",
		"localhost:5000/bicep/ext:1.2.0":   "br:localhost:5000/bicep/ext/contosodata:1.2.0",
		"localhost:5000":                   "br:localhost:5000/contosodata:0.0.1",
		"localhost:5000/":                  "br:localhost:5000/contosodata:0.0.1",
		"br:localhost:5000/bicep":          "error",
		"localhost:5000/bicep/{namespace}": "error",
		"localhost:5000/Bicep":             "error",
	} {
		tg, err := ParseRegistryPath(in)
		got := "error"
		if err == nil {
			r, err := tg.For("contosodata", "0.0.1")
			if err != nil {
				t.Fatalf("%q: %v", in, err)
			}
			got = r.String()
		}
		if got != want {
			t.Errorf("ParseRegistryPath(%q): %s, want %s (%v)", in, got, want, err)
		}
	}
}

func TestAssign(t *testing.T) {
	data := Extension{Name: "contosodata", Version: "0.0.1", Namespaces: []string{"Contoso.Data"}}
	msg := Extension{Name: "contosomessaging", Version: "2.0.0", Namespaces: []string{"Contoso.Messaging"}}
	upper := Extension{Name: "Contoso_All", Version: "1.0", Namespaces: []string{"Contoso.A", "Contoso.B"}}
	plus := Extension{Name: "plus", Version: "1.0.0+build.5", Namespaces: []string{"Plus.Ns"}}
	for _, c := range []struct {
		name    string
		targets []string
		exts    []Extension
		want    string // references joined by spaces, or an error's words
	}{
		{"placeholder", []string{"br:r.io/bicep/{namespace}"}, []Extension{data, msg},
			"br:r.io/bicep/contosodata:0.0.1 br:r.io/bicep/contosomessaging:2.0.0"},
		{"placeholder and a tag", []string{"br:r.io/{namespace}/types:v1"}, []Extension{data, msg},
			"br:r.io/contosodata/types:v1 br:r.io/contosomessaging/types:v1"},
		{"one per namespace", []string{"contoso.messaging=br:r.io/m:1", "Contoso.Data=br:r.io/d:1"}, []Extension{data, msg},
			"br:r.io/d:1 br:r.io/m:1"},
		{"by extension name", []string{"contosodata=br:r.io/d:1", "br:r.io/rest/{namespace}"}, []Extension{data, msg},
			"br:r.io/d:1 br:r.io/rest/contosomessaging:2.0.0"},
		{"one extension, plain target", []string{"br:r.io/x:1"}, []Extension{data}, "br:r.io/x:1"},
		{"keyed and one plain for the rest", []string{"contosodata=br:r.io/d:1", "br:r.io/m:1"}, []Extension{data, msg},
			"br:r.io/d:1 br:r.io/m:1"},
		{"lower-cased name", []string{"br:r.io/{namespace}"}, []Extension{upper}, "br:r.io/contoso_all:1.0"},
		{"plain target, two extensions", []string{"br:r.io/x:1"}, []Extension{data, msg}, "would receive 2 extensions"},
		{"two plain targets", []string{"br:r.io/x:1", "br:r.io/y:1"}, []Extension{data, msg}, "2 targets without a namespace"},
		{"missing", []string{"contosodata=br:r.io/d:1"}, []Extension{data, msg}, "no --target for extension contosomessaging"},
		{"unknown key", []string{"Nope=br:r.io/d:1"}, []Extension{data}, "no namespace or extension Nope"},
		{"twice", []string{"contosodata=br:r.io/d:1", "Contoso.Data=br:r.io/e:1"}, []Extension{data}, "both for extension contosodata"},
		{"same reference", []string{"br:r.io/{namespace}:1"}, []Extension{data, {Name: "ContosoData", Version: "1"}}, "would both be pushed to br:r.io/contosodata:1"},
		{"version not a tag", []string{"br:r.io/{namespace}"}, []Extension{plus}, `version "1.0.0+build.5" is not a tag`},
		{"name not a repository", []string{"br:r.io/{namespace}:1"}, []Extension{{Name: "_x", Version: "1"}}, "give it a target of its own"},
		{"none", nil, []Extension{data}, "give --target"},
	} {
		var targets []Target
		for _, s := range c.targets {
			tg, err := ParseTarget(s)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			targets = append(targets, tg)
		}
		refs, err := Assign(targets, c.exts)
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			var s []string
			for _, r := range refs {
				s = append(s, r.String())
			}
			got = strings.Join(s, " ")
		}
		if !strings.Contains(got, c.want) || (err == nil && got != c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func TestPlainHTTP(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost:5000": true, "LOCALHOST": true, "127.0.0.1:5000": true, "127.1.2.3": true, "[::1]:5000": true, "::1": true,
		"myregistry.azurecr.io": false, "10.0.0.1:5000": false, "localhost.example.com": false, "[::2]:80": false,
	} {
		if got := PlainHTTP(host); got != want {
			t.Errorf("PlainHTTP(%q) = %v, want %v", host, got, want)
		}
	}
}
