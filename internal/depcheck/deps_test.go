// Package depcheck enforces the dependency direction of the house style:
// cmd → generator, registry; generator may use registry/api; registry never
// imports generator; both may use the schema model (schema), a standard
// library leaf, its one pattern compiler (schema/pattern) and its one
// conversion to kin-openapi (schema/kin); only
// cmd imports urfave/cli; the generator's model is standard library only
// but for the schema model, diagnostics and registry/api's wire types; generator/source is the one
// importer of go-git, registry/oci the one of oras-go; the registry's
// domain, wire types and stores have no HTTP; kin-openapi is reached
// through schema/kin (and admission, which validates with it).
// tables_test.go keeps the subset's tables in schema.
package depcheck

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
	Standard   bool
}

const mod = "github.com/udtc/udtc/"

// kinOpenAPIImporters may import kin-openapi: the one conversion of the
// schema model, admission, which validates documents with it, and the
// check of HTTP exchanges against Radius's OpenAPI description of UCP,
// which is about the API, not about schemas of the subset.
var kinOpenAPIImporters = map[string]bool{"schema/kin": true, "registry/admission": true, "internal/ucpspec": true}

// packages lists the module's packages and the set of standard library
// packages among their dependencies.
func packages(t *testing.T) (mine []pkg, std map[string]bool) {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports,Deps,Standard", "github.com/udtc/udtc/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	std = map[string]bool{}
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		switch {
		case p.Standard:
			std[p.ImportPath] = true
		case strings.HasPrefix(p.ImportPath, mod):
			mine = append(mine, p)
		}
	}
	if len(mine) < 10 {
		t.Fatalf("go list saw only %d packages", len(mine))
	}
	return mine, std
}

func TestDependencyDirection(t *testing.T) {
	mine, std := packages(t)
	for _, p := range mine {
		name := strings.TrimPrefix(p.ImportPath, mod)
		if name == "registry/admission" {
			// Shared by the server and the CLI: no HTTP of its own (kin-openapi's
			// loader brings net/http into Deps, so look at direct imports).
			for _, d := range p.Imports {
				if d == "net/http" {
					t.Errorf("registry/admission imports net/http")
				}
			}
		}
		for _, d := range p.Imports {
			if strings.HasPrefix(d, "github.com/go-git/") && name != "generator/source" {
				t.Errorf("%s imports %s: generator/source is the one importer of go-git", name, d)
			}
			if strings.HasPrefix(d, "github.com/getkin/kin-openapi/") && !kinOpenAPIImporters[name] {
				t.Errorf("%s imports %s: schema/kin is the one conversion of schemas to kin-openapi (admission validates with it)", name, d)
			}
			if strings.HasPrefix(d, "oras.land/") && name != "registry/oci" {
				t.Errorf("%s imports %s: registry/oci is the one importer of oras-go", name, d)
			}
			if (strings.HasPrefix(d, "github.com/yuin/goldmark") || strings.HasPrefix(d, "github.com/microcosm-cc/bluemonday")) && name != "registry/catalog" {
				t.Errorf("%s imports %s: registry/catalog is the one renderer of Markdown to HTML", name, d)
			}
		}
		for _, d := range p.Deps {
			if msg := problem(name, d, std[d]); msg != "" {
				t.Errorf("%s imports %s: %s", name, d, msg)
			}
		}
	}
}

// problem says why package name (module-relative) may not depend on d, a
// standard library package when std; "" when it may.
func problem(name, d string, std bool) string {
	dep, inModule := strings.CutPrefix(d, mod)
	switch {
	case strings.HasPrefix(name, "registry") && strings.HasPrefix(dep, "generator"):
		return "registry must not import the generator"
	case strings.HasPrefix(d, "github.com/urfave/cli") && !strings.HasPrefix(name, "cmd/"):
		return "only cmd/ may import urfave/cli"
	case strings.HasPrefix(name, "generator") && strings.HasPrefix(dep, "registry") && dep != "registry/api":
		return "the generator may use registry/api only"
	case name == "generator/model" && !std && dep != "generator/diag" && dep != "schema" && dep != "registry/api":
		return "the model is standard library only (with generator/diag, the schema model and registry/api's wire types, such as an API version's lifecycle, whose rules the registry shares)"
	case name == "schema" && !std:
		return "the schema model is a standard library leaf: the generator and the registry both import it"
	case name == "schema/kin" && inModule && dep != "schema" && dep != "schema/pattern":
		return "the conversion to kin-openapi depends on the schema model (and its pattern compiler) only"
	case name == "schema/pattern" && inModule:
		return "the pattern compiler is a leaf: the checker, admission and schema/kin all import it"
	case strings.HasPrefix(dep, "cmd/"):
		return "nothing imports cmd"
	case d == "net/http" && (name == "registry" || name == "registry/api" || strings.HasPrefix(name, "registry/store")):
		return "the registry's domain, wire types and stores have no HTTP"
	case name == "registry/api" && dep == "registry":
		return "wire types stand alone"
	}
	return ""
}
