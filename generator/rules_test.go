package generator_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/emit/registration"
)

func rulesMarkdown() []byte {
	var b bytes.Buffer
	b.WriteString("# Rules\n\n")
	b.WriteString("<!-- Generated from generator.Rules (generator/rules.go) by `go test ./generator -run TestRulesDoc -update`. Do not edit. -->\n\n")
	b.WriteString("Every diagnostic of `udtc check`, `gen` and `publish` names one of these rules. Rule ids are\n")
	b.WriteString("stable: scripts and SARIF consumers may match on them. `--strict` turns every warning into an\n")
	b.WriteString("error; notes never fail a run. The last rules are reported by the emitters of `udtc gen`\n")
	b.WriteString("(see [bicep.md](bicep.md) and [go-client.md](go-client.md)).\n\n")
	b.WriteString("| rule | severity | what it requires |\n|---|---|---|\n")
	breaking := map[string]bool{}
	for _, r := range compat.Rules {
		breaking[r.ID] = true
	}
	for _, r := range generator.Rules() {
		if !breaking[r.ID] {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.ID, r.Severity, strings.ReplaceAll(r.Doc, "|", "\\|"))
		}
	}
	b.WriteString("\n## `udtc breaking`\n\n")
	b.WriteString("The findings of `udtc breaking` (see [git.md](git.md)). Severity `note` is shown as `info` in\n")
	b.WriteString("its JSON output and accepted as `--fail-on info`. The `go-*` rules form the Go category: breaks of\n")
	b.WriteString("the generated Go client only (see [go-client.md](go-client.md)); the others are the wire category.\n\n")
	b.WriteString("| rule | severity | what changed |\n|---|---|---|\n")
	for _, r := range generator.Rules() {
		if breaking[r.ID] {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.ID, r.Severity, strings.ReplaceAll(r.Doc, "|", "\\|"))
		}
	}
	return b.Bytes()
}

// TestRulesDoc keeps docs/rules.md in step with the one rule table.
func TestRulesDoc(t *testing.T) {
	const path = "../docs/rules.md"
	got := rulesMarkdown()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is out of date (-committed +generated):\n%s\nrun go test ./generator -run TestRulesDoc -update", path, diff)
	}
	for _, r := range generator.Rules() {
		if !bytes.Contains(want, []byte("| `"+r.ID+"` |")) {
			t.Errorf("rule %s is not in %s", r.ID, path)
		}
	}
}

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
