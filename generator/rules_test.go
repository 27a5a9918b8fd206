package generator_test

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/emit/registration"
)

var ruleID = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range generator.Rules() {
		if !ruleID.MatchString(r.ID) || seen[r.ID] || r.Doc == "" {
			t.Errorf("bad or duplicate rule %+v", r)
		}
		seen[r.ID] = true
	}
}

// TestEveryDiagnosticHasARule compiles every fixture and runs every emitter
// on it: each diagnostic names a rule of the table, with the table's
// severity, so SARIF's ruleIndex and the docs cover whatever is printed.
func TestEveryDiagnosticHasARule(t *testing.T) {
	t.Chdir("..")
	table := map[string]diag.Severity{}
	for _, r := range generator.Rules() {
		table[r.ID] = r.Severity
	}
	reported := map[string]bool{}
	checkAll := func(where string, ds diag.List) {
		for _, d := range ds {
			sev, ok := table[d.Rule]
			if !ok {
				t.Errorf("%s: diagnostic names rule %q, which is not in generator.Rules: %s", where, d.Rule, d.Message)
				continue
			}
			if sev != d.Severity {
				t.Errorf("%s: %s reported as %s, the table says %s", where, d.Rule, d.Severity, sev)
			}
			reported[d.Rule] = true
		}
	}
	for _, name := range fixtureCases(t) {
		cat, ds, err := generator.Compile(context.Background(), []string{filepath.Join("fixtures", name)}, generator.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkAll(name, ds)
		if cat == nil {
			continue
		}
		for _, run := range []func() (diag.List, error){
			func() (diag.List, error) { _, d, err := bicep.Emit(cat, bicep.Options{}); return d, err },
			func() (diag.List, error) {
				_, d, err := goclient.Emit(cat, goclient.Options{ImportPrefix: "example.com/gen"})
				return d, err
			},
			func() (diag.List, error) { _, d, err := docs.Emit(cat, docs.Options{}); return d, err },
			func() (diag.List, error) { _, d, err := registration.Emit(cat, registration.Options{}); return d, err },
		} {
			d, err := run()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkAll(name, d)
		}
		for _, ext := range []string{"1bad", "az"} {
			_, d := bicep.Extensions(cat, ext)
			checkAll(name+" --extension-name "+ext, d)
		}
	}
	for _, id := range []string{"go-name-collision", "bicep-extension-name", "bicep-extension-name-reserved"} {
		if !reported[id] {
			t.Errorf("no fixture reports %s: the test does not reach the emitters", id)
		}
	}
}
