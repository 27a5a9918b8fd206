package registry_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencyDirection enforces the layering: nothing under registry/
// imports generator/ or urfave/cli, and the domain and wire packages have
// no HTTP. An entry ending in $ forbids that package but not those below it.
func TestDependencyDirection(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("SKIPPING: the go tool is not on PATH")
	}
	for pkg, forbidden := range map[string][]string{
		"github.com/udtc/udtc/registry/...":       {"github.com/udtc/udtc/generator", "github.com/urfave/cli", "github.com/udtc/udtc/cmd"},
		"github.com/udtc/udtc/registry":           {"net/http"},
		"github.com/udtc/udtc/registry/api":       {"net/http", "github.com/udtc/udtc/registry$"},
		"github.com/udtc/udtc/registry/store/...": {"net/http"},
	} {
		out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}}", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, f := range forbidden {
				exact, ok := strings.CutSuffix(f, "$") // "$": this package only
				if dep == exact || (!ok && strings.HasPrefix(dep, f+"/")) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
