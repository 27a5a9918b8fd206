// Package depcheck enforces the dependency direction of the house style:
// cmd → generator, registry; generator may use registry/api; registry never
// imports generator; only cmd imports urfave/cli; the model is standard
// library only; generator/source is the one importer of go-git, registry/oci
// the one of oras-go; the registry's domain, wire types and stores have no HTTP.
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
}

func TestDependencyDirection(t *testing.T) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,Deps", "github.com/udtc/udtc/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	const mod = "github.com/udtc/udtc/"
	seen := 0
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		seen++
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
			if strings.HasPrefix(d, "oras.land/") && name != "registry/oci" {
				t.Errorf("%s imports %s: registry/oci is the one importer of oras-go", name, d)
			}
		}
		for _, d := range p.Deps {
			dep := strings.TrimPrefix(d, mod)
			switch {
			case strings.HasPrefix(name, "registry") && strings.HasPrefix(dep, "generator"):
				t.Errorf("%s imports %s: registry must not import the generator", name, dep)
			case strings.HasPrefix(d, "github.com/urfave/cli") && !strings.HasPrefix(name, "cmd/"):
				t.Errorf("%s imports urfave/cli: only cmd/ may", name)
			case strings.HasPrefix(name, "generator") && strings.HasPrefix(dep, "registry") && dep != "registry/api":
				t.Errorf("%s imports %s: the generator may use registry/api only", name, dep)
			case name == "generator/model" && strings.Contains(d, ".") && !strings.HasPrefix(d, mod+"generator/diag"):
				t.Errorf("generator/model imports %s: the model is standard library only", d)
			case strings.HasPrefix(dep, "cmd/"):
				t.Errorf("%s imports %s: nothing imports cmd", name, dep)
			case d == "net/http" && (name == "registry" || name == "registry/api" || strings.HasPrefix(name, "registry/store")):
				t.Errorf("%s imports net/http: the registry's domain, wire types and stores have no HTTP", name)
			case name == "registry/api" && dep == "registry":
				t.Errorf("registry/api imports the registry domain: wire types stand alone")
			}
		}
	}
	if seen < 10 {
		t.Fatalf("go list saw only %d packages", seen)
	}
}
