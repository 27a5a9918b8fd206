package main

// The golden driver. Every case directory under fixtures/ is run through
// udtc's own commands, in-process through run, from the repository root, and
// every output is compared with golden/<case>/. `make golden` (go test
// ./cmd/udtc -run '^TestGolden' -update) rewrites golden/ and the generated
// documents under docs/ from what udtc prints and writes.
//
// The commands of a case are the lines of fixtures/<case>/golden.args; a
// case without that file runs goldenDefault. What each command produces:
//
//	check     diagnostics.txt   the text report (stderr) without the one-line
//	                            summary check ends with when it succeeds
//	          diagnostics.json  the report of --format json (stdout); a report
//	                            with no diagnostics is empty
//	gen       <target>/...      every file gen writes under --out, but for its
//	                            own record (.udtc-generated)
//	          gen.json          gen's report (--format json) where it differs
//	                            from check's: the emitters' warnings
//	breaking  findings.txt      the text report without its last line, which
//	                            names what was compared
//	          findings.json     the report of --format json
//
// An absent golden file means "expect empty". Cases named error_* must fail
// (exit 1), the others must succeed, and valid_* cases must report nothing.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/compat"
)

var update = flag.Bool("update", false, "rewrite golden/ and the generated docs from udtc's output (make golden)")

// goldenArgsFile names a case's commands in its fixture directory. Its
// extension is not a manifest's, so check and gen do not read it.
const goldenArgsFile = "golden.args"

// goldenTargets are the targets whose files golden/ records. The site is
// left out: its pages are tested in site_test.go, and every case would
// carry the same copy of its assets.
const goldenTargets = "bicep,go,docs,registration"

// goldenDefault is the golden.args of a case that has none. Its Go client
// imports the published runtime (--go-runtime module), so the runtime's
// copy, the same in every output, is recorded once: by valid_basic, whose
// golden.args keeps udtc's default.
func goldenDefault(name string) string {
	dir := "fixtures/" + name
	return "check " + dir + "\ngen --target " + goldenTargets + " --go-runtime module " + dir + "\n"
}

// goldenCommand is one line of a golden.args file.
type goldenCommand struct {
	name string   // check, gen or breaking
	args []string // its flags and paths, as written
}

// parseGoldenArgs reads a golden.args file: one udtc command line per line,
// as typed at the repository root, arguments separated by white space (no
// quoting); blank lines and lines starting with # are skipped. Each of
// check, gen and breaking may appear once. The driver adds --format and
// gen's --out itself, so the file may not give them.
func parseGoldenArgs(data string) ([]goldenCommand, error) {
	var cmds []goldenCommand
	seen := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		name, args := fields[0], fields[1:]
		switch {
		case name != "check" && name != "gen" && name != "breaking":
			return nil, fmt.Errorf("line %d: %q is not check, gen or breaking", n, name)
		case seen[name]:
			return nil, fmt.Errorf("line %d: %s is given twice", n, name)
		case len(args) == 0:
			return nil, fmt.Errorf("line %d: %s has no arguments", n, name)
		}
		for _, a := range args {
			flagName, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			if strings.HasPrefix(a, "-") && (flagName == "format" || flagName == "out" || flagName == "o") {
				return nil, fmt.Errorf("line %d: %s is set by the golden driver", n, a)
			}
		}
		seen[name] = true
		cmds = append(cmds, goldenCommand{name: name, args: args})
	}
	if len(cmds) == 0 {
		return nil, fmt.Errorf("no command")
	}
	return cmds, nil
}

// goldenRoot returns the repository root: fixtures/, golden/ and go.mod.
func goldenRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"fixtures", "golden", "go.mod"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Fatalf("%s is not the repository root: %v", root, err)
		}
	}
	return root
}

// udtcGolden runs udtc in-process with args.
func udtcGolden(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"udtc"}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestGolden runs every fixture case and compares its outputs with
// golden/<case>/; with -update it rewrites golden/<case>/ instead.
func TestGolden(t *testing.T) {
	root := goldenRoot(t)
	t.Chdir(root)
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // gen's no-op cache
	entries, err := os.ReadDir("fixtures")
	if err != nil {
		t.Fatal(err)
	}
	// gen writes each case's output where golden/<case> is in the golden
	// module, so it derives the Go import path the way it does for a user.
	outRoot := filepath.Join(t.TempDir(), "golden")
	gomod, err := os.ReadFile(filepath.Join("golden", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(outRoot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outRoot, "go.mod"), gomod, 0o644); err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) < 60 {
		t.Fatalf("only %d fixture cases; the suite has at least 60", len(cases))
	}
	seen := map[string]bool{}
	ran := 0
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			ran++
			c := &goldenCase{t: t, name: name, outRoot: outRoot, got: map[string][]byte{}, seen: seen}
			c.run()
			c.compare()
		})
	}
	// A golden directory without its fixture case is left over.
	dirs, err := os.ReadDir("golden")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && !slices.Contains(cases, d.Name()) {
			t.Errorf("golden/%s has no fixtures/%s", d.Name(), d.Name())
		}
	}
	// Coverage is known only when every case ran (no -run filter).
	if ran == len(cases) && !t.Failed() {
		goldenCoverage(t, seen)
	}
}

// goldenCoverage checks that every rule of the checker and of `udtc
// breaking` is reported by some case, except the checker's rules whose
// inputs cannot be committed as text (generator's TestHostileInputs) and
// those only reported for schemas sent to the registry (check.Schema,
// generator/check's TestSchema and TestSchemaErrorLimit), and lifecycle,
// which is reported in a udtc.yaml, while every case runs under the
// repository's own (TestLifecycleProject in a project of its own).
func goldenCoverage(t *testing.T, seen map[string]bool) {
	exempt := map[string]bool{"file-too-large": true, "json-syntax": true, "too-many-errors": true, check.RuleLifecycle: true}
	for _, r := range check.Rules {
		if !exempt[r.ID] && !seen[r.ID+"/"+r.Severity.String()] {
			t.Errorf("rule %s (%s) has no fixture that reports it", r.ID, r.Severity)
		}
	}
	for _, r := range compat.Rules {
		if !seen["breaking/"+r.ID] {
			t.Errorf("rule %s has no fixture pair that reports it", r.ID)
		}
	}
}

// goldenCase is one fixture case being run.
type goldenCase struct {
	t       *testing.T
	name    string
	outRoot string
	// got holds the outputs by their path under golden/<case>.
	got map[string][]byte
	// seen collects "rule/severity" of check's diagnostics and
	// "breaking/rule" of breaking's findings, over all cases.
	seen map[string]bool
}

func (c *goldenCase) run() {
	t := c.t
	args := goldenDefault(c.name)
	if b, err := os.ReadFile(filepath.Join("fixtures", c.name, goldenArgsFile)); err == nil {
		args = string(b)
	} else if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	cmds, err := parseGoldenArgs(args)
	if err != nil {
		t.Fatalf("fixtures/%s/%s: %v", c.name, goldenArgsFile, err)
	}
	for _, cmd := range cmds {
		switch cmd.name {
		case "check":
			c.check(cmd.args)
		case "gen":
			c.gen(cmd.args)
		case "breaking":
			c.breaking(cmd.args)
		}
	}
}

// wantCode is the exit code of check and gen for the case.
func (c *goldenCase) wantCode() int {
	if strings.HasPrefix(c.name, "error_") {
		return exitFail
	}
	return exitOK
}

func (c *goldenCase) check(args []string) {
	t := c.t
	code, stdout, stderr := udtcGolden(append([]string{"check"}, args...)...)
	if code != c.wantCode() || stdout != "" {
		t.Fatalf("udtc check %s: exit %d, want %d; stdout %q; stderr:\n%s", strings.Join(args, " "), code, c.wantCode(), stdout, stderr)
	}
	if code == exitOK {
		// check ends with a one-line summary when it succeeds.
		body, last := goldenCutLastLine(stderr)
		if !strings.HasPrefix(last, "ok: ") {
			t.Fatalf("udtc check: last line %q is not the summary (ok: ...)", last)
		}
		stderr = body
	}
	c.got["diagnostics.txt"] = []byte(stderr)

	jcode, report, jerr := udtcGolden(append([]string{"check", "--format", "json"}, args...)...)
	if jcode != code || jerr != "" {
		t.Fatalf("udtc check --format json: exit %d (text: %d); stderr:\n%s", jcode, code, jerr)
	}
	var parsed struct {
		Diagnostics []struct{ Rule, Severity string }
	}
	if err := json.Unmarshal([]byte(report), &parsed); err != nil {
		t.Fatalf("udtc check --format json: %v\n%s", err, report)
	}
	for _, d := range parsed.Diagnostics {
		c.seen[d.Rule+"/"+d.Severity] = true
	}
	if strings.HasPrefix(c.name, "valid_") && c.name != "valid_undeclared" && len(parsed.Diagnostics) > 0 {
		t.Errorf("a valid_ case reports diagnostics:\n%s", stderr)
	}
	if len(parsed.Diagnostics) == 0 {
		report = ""
	}
	c.got["diagnostics.json"] = []byte(report)
}

func (c *goldenCase) gen(args []string) {
	t := c.t
	out := filepath.Join(c.outRoot, c.name)
	code, report, stderr := udtcGolden(append([]string{"gen", "--format", "json", "--out", out}, args...)...)
	if code != c.wantCode() {
		t.Fatalf("udtc gen %s: exit %d, want %d; stdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, c.wantCode(), report, stderr)
	}
	files := goldenTree(t, out)
	delete(files, ".udtc-generated") // gen's record of what it wrote
	if code != exitOK && len(files) > 0 {
		t.Errorf("a failed gen wrote %v", slices.Sorted(maps.Keys(files)))
	}
	for p, b := range files {
		c.got[p] = b
	}
	if checked, ok := c.got["diagnostics.json"]; !ok || report != string(checked) {
		c.got["gen.json"] = []byte(report)
	}
}

func (c *goldenCase) breaking(args []string) {
	t := c.t
	code, stdout, stderr := udtcGolden(append([]string{"breaking"}, args...)...)
	if (code != exitOK && code != exitFail) || stderr != "" {
		t.Fatalf("udtc breaking %s: exit %d; stderr:\n%s", strings.Join(args, " "), code, stderr)
	}
	body, last := goldenCutLastLine(stdout)
	if !strings.HasPrefix(last, "compared with ") && !strings.HasPrefix(last, "no API changes against ") {
		t.Fatalf("udtc breaking: last line %q does not say what was compared", last)
	}
	c.got["findings.txt"] = []byte(body)

	jcode, report, jerr := udtcGolden(append([]string{"breaking", "--format", "json"}, args...)...)
	if jcode != code || jerr != "" {
		t.Fatalf("udtc breaking --format json: exit %d (text: %d); stderr:\n%s", jcode, code, jerr)
	}
	var parsed struct{ Findings []struct{ Rule string } }
	if err := json.Unmarshal([]byte(report), &parsed); err != nil {
		t.Fatalf("udtc breaking --format json: %v\n%s", err, report)
	}
	for _, f := range parsed.Findings {
		c.seen["breaking/"+f.Rule] = true
	}
	c.got["findings.json"] = []byte(report)
}

// compare checks the outputs against golden/<case>/, or rewrites it with
// -update. Empty outputs are absent files.
func (c *goldenCase) compare() {
	t := c.t
	dir := filepath.Join("golden", c.name)
	for p, b := range c.got {
		if len(b) == 0 {
			delete(c.got, p)
		}
	}
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for p, b := range c.got {
			goldenWrite(t, filepath.Join(dir, filepath.FromSlash(p)), b)
		}
	}
	want := goldenTree(t, dir)
	if diff := cmp.Diff(slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(c.got))); diff != "" {
		t.Errorf("files of %s (-want +got):\n%s\n(make golden accepts the change)", dir, diff)
	}
	for _, p := range slices.Sorted(maps.Keys(want)) {
		g, ok := c.got[p]
		switch {
		case !ok:
		case !goldenIsText(p):
			if !bytes.Equal(want[p], g) {
				t.Errorf("%s/%s: %d bytes differ from golden's %d (make golden accepts the change)", dir, p, len(g), len(want[p]))
			}
		default:
			if diff := cmp.Diff(string(want[p]), string(g)); diff != "" {
				t.Errorf("%s/%s (-want +got):\n%s\n(make golden accepts the change)", dir, p, diff)
			}
		}
	}
}

// TestGoldenDocs keeps the generated documents under docs/ equal to what
// udtc prints (the JSON Schemas) and to the rule table (docs/rules.md);
// -update rewrites them.
func TestGoldenDocs(t *testing.T) {
	t.Chdir(goldenRoot(t))
	for _, d := range []struct {
		path string
		args []string
	}{
		{"docs/manifest.schema.json", []string{"schema"}},
		{"docs/project.schema.json", []string{"schema", "--project"}},
	} {
		code, stdout, stderr := udtcGolden(d.args...)
		if code != exitOK {
			t.Fatalf("udtc %s: exit %d: %s", strings.Join(d.args, " "), code, stderr)
		}
		compareDoc(t, d.path, []byte(stdout))
	}
	compareDoc(t, "docs/rules.md", rulesMarkdown())
}

func compareDoc(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		goldenWrite(t, path, got)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is out of date (-committed +generated):\n%s\n(make golden accepts the change)", path, diff)
	}
}

// goldenCutLastLine splits s before its last line.
func goldenCutLastLine(s string) (body, last string) {
	trimmed := strings.TrimSuffix(s, "\n")
	i := strings.LastIndexByte(trimmed, '\n')
	return s[:i+1], trimmed[i+1:]
}

func goldenIsText(p string) bool {
	switch filepath.Ext(p) {
	case ".tgz", ".gz", ".tar":
		return false
	}
	return true
}

// goldenTree reads every file below dir by its slash-separated path relative
// to dir; a missing dir is empty.
func goldenTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

func goldenWrite(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rulesMarkdown renders docs/rules.md from generator.Rules: the rules of
// check and of the emitters, then those of `udtc breaking`.
func rulesMarkdown() []byte {
	var b bytes.Buffer
	b.WriteString("# Rules\n\n")
	b.WriteString("<!-- Generated from generator.Rules (generator/rules.go) by `make golden`. Do not edit. -->\n\n")
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

func TestParseGoldenArgs(t *testing.T) {
	cmds, err := parseGoldenArgs(goldenDefault("valid_basic"))
	if err != nil {
		t.Fatal(err)
	}
	want := []goldenCommand{
		{name: "check", args: []string{"fixtures/valid_basic"}},
		{name: "gen", args: []string{"--target", goldenTargets, "--go-runtime", "module", "fixtures/valid_basic"}},
	}
	if diff := cmp.Diff(want, cmds, cmp.AllowUnexported(goldenCommand{})); diff != "" {
		t.Errorf("default commands (-want +got):\n%s", diff)
	}
	cmds, err = parseGoldenArgs("# a pair\n\n  breaking   --against a/old  a/new \n")
	if err != nil || len(cmds) != 1 || cmds[0].name != "breaking" || !slices.Equal(cmds[0].args, []string{"--against", "a/old", "a/new"}) {
		t.Errorf("breaking line: %+v, %v", cmds, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no command"},
		{"# only a comment\n", "no command"},
		{"publish x\n", `line 1: "publish" is not check, gen or breaking`},
		{"check a\ncheck b\n", "line 2: check is given twice"},
		{"gen\n", "line 1: gen has no arguments"},
		{"check --format json a\n", "line 1: --format is set by the golden driver"},
		{"gen --out=x a\n", "line 1: --out=x is set by the golden driver"},
		{"gen -o x a\n", "line 1: -o is set by the golden driver"},
	} {
		if _, err := parseGoldenArgs(tc.in); err == nil || err.Error() != tc.want {
			t.Errorf("parseGoldenArgs(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}
