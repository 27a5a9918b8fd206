package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/internal/buildinfo"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/explain"
)

func TestVersion(t *testing.T) {
	code, stdout, stderr := runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(stdout, "udtc ") || !strings.Contains(stdout, "go: "+runtime.Version()+"\n") ||
		!strings.Contains(stdout, "registration API: "+api.Version+"\n") {
		t.Errorf("version: exit %d\n%s%s", code, stdout, stderr)
	}
	code, flagOut, _ := runCLI(t, "--version")
	if code != 0 || flagOut != stdout {
		t.Errorf("--version: exit %d, %q; want %q", code, flagOut, stdout)
	}
	code, stdout, _ = runCLI(t, "version", "--output", "json")
	var v buildinfo.Info
	if err := json.Unmarshal([]byte(stdout), &v); code != 0 || err != nil || v.APIVersion != api.Version || v.Go != runtime.Version() || v.Version == "" {
		t.Errorf("version --output json: exit %d, %v\n%s", code, err, stdout)
	}
	if code, _, stderr := runCLI(t, "version", "--output", "yaml"); code != 2 || !strings.Contains(stderr, "--output must be text or json") {
		t.Errorf("version --output yaml: exit %d, %s", code, stderr)
	}
}

func TestUnknownCommandSuggests(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"chek"}, "did you mean `udtc check`?"},
		{[]string{"genn", "examples"}, "did you mean `udtc gen`?"},
		{[]string{"registry", "lst"}, "did you mean `udtc registry list`?"},
		{[]string{"completion", "bsh"}, "did you mean `udtc completion bash`?"},
		{[]string{"xyzzy-frobnicate"}, `"xyzzy-frobnicate" is not a udtc command (see udtc --help)`},
		{[]string{"gen", "--targt", "go", "examples"}, "udtc: gen: unknown flag --targt: did you mean --target? (see udtc gen --help)\n"},
		{[]string{"registry", "show", "--outptu", "json", "X"}, "udtc: registry show: unknown flag --outptu: did you mean --output?"},
	}
	for _, tc := range tests {
		code, _, stderr := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "No help topic") || strings.Contains(stderr, "USAGE:") {
			t.Errorf("udtc %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
	if code, stdout, stderr := runCLI(t); code != 2 || stdout != "" || !strings.Contains(stderr, "COMMANDS:") || !strings.Contains(stderr, "udtc: no command given") {
		t.Errorf("udtc alone: exit %d, want 2 and the help on stderr\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI(t, "--help"); code != 0 || !strings.Contains(stdout, "COMMANDS:") {
		t.Errorf("udtc --help: exit %d, want 0 and the help\n%s", code, stdout)
	}
}

// TestEveryCommandHasExample runs --help of every command and subcommand.
func TestEveryCommandHasExample(t *testing.T) {
	var walk func(cmds []*cli.Command, path []string)
	seen := 0
	walk = func(cmds []*cli.Command, path []string) {
		for _, c := range cmds {
			p := append(append([]string{}, path...), c.Name)
			seen++
			code, stdout, stderr := runCLI(t, append(p, "--help")...)
			if code != 0 || !strings.Contains(stdout, "Examples:\n     udtc ") && !strings.Contains(stdout, "Examples:\n     source ") {
				t.Errorf("udtc %s --help: exit %d, no example:\n%s%s", strings.Join(p, " "), code, stdout, stderr)
			}
			walk(c.Subcommands, p)
		}
	}
	walk(commands(&env{}), nil)
	if seen < 15 {
		t.Errorf("walked %d commands, want every one", seen)
	}
}

func TestCompletion(t *testing.T) {
	code, script, stderr := runCLI(t, "completion", "bash")
	if code != 0 || !strings.Contains(script, "complete -o filenames -F _udtc udtc") {
		t.Fatalf("completion bash: exit %d %s\n%s", code, stderr, script)
	}
	for shell, want := range map[string]string{
		"zsh":  "bashcompinit",
		"fish": "complete -c udtc -f -n __fish_use_subcommand -a check -d 'check manifests and report every problem'",
	} {
		code, out, _ := runCLI(t, "completion", shell)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("completion %s: exit %d, lacks %q:\n%s", shell, code, want, out)
		}
	}
	for _, line := range strings.Split(script, "\n") {
		if strings.Count(line, "--help") > 1 {
			t.Errorf("bash completion lists --help twice: %s", line)
		}
	}
	if code, _, stderr := runCLI(t, "completion", "powershell"); code != 2 || !strings.Contains(stderr, `"powershell" is not a supported shell: bash, zsh, fish`) {
		t.Errorf("completion powershell: exit %d, stderr %q", code, stderr)
	}
	fish := runOut(t, "completion", "fish")
	for _, want := range []string{"__fish_seen_subcommand_from gen' -l target -x -a 'bicep go docs registration site'", "__fish_seen_subcommand_from registry' -a show",
		"__fish_seen_subcommand_from check' -l format -x -a 'text json sarif'"} {
		if !strings.Contains(fish, want) {
			t.Errorf("fish completion lacks %q", want)
		}
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: the bash script is not run")
	}
	complete := func(words ...string) string {
		t.Helper()
		prog := script + "\nCOMP_WORDS=(" + strings.Join(quoteAll(words), " ") + ")\nCOMP_CWORD=" +
			strconv.Itoa(len(words)-1) + "\n_udtc\necho \"${COMPREPLY[*]}\"\n"
		out, err := exec.Command(bash, "--norc", "-c", prog).CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v\n%s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	for _, tc := range []struct {
		words []string
		want  string
	}{
		{[]string{"udtc", "ch"}, "check"},
		{[]string{"udtc", "gen", "--ta"}, "--target"},
		{[]string{"udtc", "registry", ""}, "delete list show"},
		{[]string{"udtc", "registry", "show", "--out"}, "--output"},
		{[]string{"udtc", "completion", "f"}, "fish"},
		{[]string{"udtc", "gen", "--target", ""}, strings.Join(bridge.TargetNames, " ")},
		{[]string{"udtc", "gen", "examples", "--target", "b"}, "bicep"},
		{[]string{"udtc", "check", "--format", "s"}, "sarif"},
		{[]string{"udtc", "check", "--format", "=", "j"}, "json"},
		{[]string{"udtc", "breaking", "--format", "g"}, "github"},
		{[]string{"udtc", "registry", "show", "--output", ""}, "text json"},
		{[]string{"udtc", "version", "--output", "j"}, "json"},
	} {
		if got := complete(tc.words...); got != tc.want {
			t.Errorf("completing %q: %q, want %q", tc.words, got, tc.want)
		}
	}
}

func runOut(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("udtc %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

func quoteAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = "'" + w + "'"
	}
	return out
}

func TestInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "platform")
	code, _, stderr := runCLI(t, "init", dir, "--namespace", "Contoso.Data", "--type", "postgresDatabases")
	if code != 0 {
		t.Fatalf("init: exit %d\n%s", code, stderr)
	}
	// Both ways to wire the extension into bicepconfig.json: the file names
	// the local archive, the output the registry's br: reference.
	if !strings.Contains(stderr, "udtc publish-extension --target 'br:myregistry.azurecr.io/bicep/{namespace}'") ||
		!strings.Contains(stderr, `"contosodata": "br:myregistry.azurecr.io/bicep/contosodata:0.0.1"`) {
		t.Errorf("init does not show the registry way:\n%s", stderr)
	}
	man, err := os.ReadFile(filepath.Join(dir, "manifests", "postgresDatabases.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(string(man), "\n"); first != "# yaml-language-server: $schema="+manifest.SchemaID {
		t.Errorf("first line %q does not name the schema %s", first, manifest.SchemaID)
	}
	schema := runOut(t, "schema")
	if !strings.Contains(schema, `"$id": "`+manifest.SchemaID+`"`) {
		t.Errorf("udtc schema's $id is not %s", manifest.SchemaID)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil || !strings.Contains(string(readme), "$schema="+manifest.SchemaID) {
		t.Errorf("README.md does not show the schema URL %s (%v)", manifest.SchemaID, err)
	}
	for _, f := range []string{"bicepconfig.json", ".github/workflows/udtc.yaml", "udtc.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// The example resource is the catalog's example: the environment gets
	// a value, not the old 'value' placeholder.
	if ex, err := os.ReadFile(filepath.Join(dir, "example.bicep")); err != nil ||
		!strings.Contains(string(ex), "extension contosodata\n\nresource example 'Contoso.Data/postgresDatabases@2025-01-01-preview' = {\n  name: 'example'\n  properties: {\n    environment: 'example'\n  }\n}\n") {
		t.Errorf("example.bicep: %v\n%s", err, ex)
	}

	// The starter passes check without a warning, and gen writes the
	// extension bicepconfig.json names.
	code, _, stderr = runCLI(t, "check", "--strict", filepath.Join(dir, "manifests"))
	if code != 0 {
		t.Fatalf("check of the starter: exit %d\n%s", code, stderr)
	}
	t.Chdir(dir)
	if code, _, stderr := runCLI(t, "gen", "manifests", "--out", "out"); code != 0 {
		t.Fatalf("gen of the starter: exit %d\n%s", code, stderr)
	}
	// udtc.yaml makes the arguments optional, from any directory below.
	t.Chdir(filepath.Join(dir, "manifests"))
	if code, _, stderr := runCLI(t, "check", "--strict"); code != 0 || !strings.Contains(stderr, "ok: 1 file,") {
		t.Fatalf("check without arguments: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "gen", "--force"); code != 0 || !strings.Contains(stderr, "out") {
		t.Fatalf("gen without arguments: exit %d\n%s", code, stderr)
	}
	t.Chdir(dir)
	var cfg struct{ Extensions map[string]string }
	b, _ := os.ReadFile("bicepconfig.json")
	if err := json.Unmarshal(b, &cfg); err != nil || len(cfg.Extensions) != 1 {
		t.Fatalf("bicepconfig.json: %v\n%s", err, b)
	}
	for _, p := range cfg.Extensions {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("bicepconfig.json points at %s, which gen did not write: %v", p, err)
		}
	}

	// A second init refuses and changes nothing.
	os.WriteFile("bicepconfig.json", []byte("mine"), 0o644)
	code, _, stderr = runCLI(t, "init", ".", "--namespace", "Contoso.Data", "--type", "other")
	if code != 2 || !strings.Contains(stderr, "init writes nothing: udtc.yaml, bicepconfig.json") {
		t.Errorf("init over a project: exit %d\n%s", code, stderr)
	}
	if b, _ := os.ReadFile("bicepconfig.json"); string(b) != "mine" {
		t.Error("init overwrote bicepconfig.json")
	}
	if _, err := os.Stat("manifests/other.yaml"); err == nil {
		t.Error("init wrote manifests/other.yaml although it refused")
	}
	for _, args := range [][]string{
		{"init", "x"},
		{"init", "x", "--namespace", "Contoso", "--type", "a"},
		{"init", "x", "--namespace", "Contoso.Data", "--type", "a/b"},
	} {
		if code, _, stderr := runCLI(t, args...); code != 2 {
			t.Errorf("udtc %s: exit %d, want 2\n%s", strings.Join(args, " "), code, stderr)
		}
	}
}

const badDoc = `location: global
properties:
  environment: env1
  size: XXL
  storageGiB: 0
  colour: red
---
{"properties": {"environment": "e", "size": "M"}}
`

func TestValidateLocal(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	bad := filepath.Join(dir, "db.yaml")
	good := filepath.Join(dir, "db.json")
	os.WriteFile(bad, []byte(badDoc), 0o644)
	os.WriteFile(good, []byte(`{"type": "Contoso.Data/postgresDatabases", "properties": {"environment": "e"}}`), 0o644)

	code, _, stderr := runCLI(t, "validate", "Contoso.Data/postgresDatabases@2025-01-01-preview", good, "--manifests", "examples")
	if code != 0 || !strings.Contains(stderr, "ok: 1 document admitted as Contoso.Data/postgresDatabases@2025-01-01-preview") {
		t.Errorf("validate good: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "validate", "contoso.data/POSTGRESDATABASES@2025-01-01-preview", bad, good, "-m", "examples")
	for _, want := range []string{
		bad + ":4:9: error[InvalidEnum]: properties.size: must be one of",
		bad + ":5:15: error[OutOfRange]: properties.storageGiB: must be at least 1",
		bad + ":6:3: error[UnknownProperty]: properties.colour:",
		"3 errors",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("validate bad: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 1 {
		t.Errorf("validate bad: exit %d, want 1", code)
	}
	code, stdout, _ := runCLI(t, "validate", "Contoso.Data/postgresDatabases@2025-01-01-preview", bad, "-m", "examples", "--output", "json")
	var rep struct{ Diagnostics []struct{ Line, Column int } }
	if err := json.Unmarshal([]byte(stdout), &rep); code != 1 || err != nil || len(rep.Diagnostics) != 3 || rep.Diagnostics[0].Line == 0 {
		t.Errorf("validate --output json: exit %d %v\n%s", code, err, stdout)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		// Neither -m nor --server: the manifests the repository's udtc.yaml selects.
		{[]string{"validate", "Contoso.Data/postgresDatabases@2025-01-01-preview", good}, 0, "ok: 1 document admitted"},
		{[]string{"validate", "Contoso.Data/postgresDatabases.size", good, "-m", "examples"}, 2, "NAMESPACE/TYPE[@VERSION] (a type, no property path)"},
		{[]string{"validate", "Contoso.Data/postgresDatabases@2025-01-01-preview"}, 2, "at least one FILE"},
		{[]string{"validate", "Contoso.Data/nope@2025-01-01-preview", good, "-m", "examples"}, 1, "type Contoso.Data/nope is not declared"},
		{[]string{"validate", "Contoso.Data/postgresDatabases@2020-01-01", good, "-m", "examples"}, 1, `has no API version "2020-01-01" (versions: 2025-01-01-preview, 2025-06-01)`},
		{[]string{"validate", "Contoso.Data/postgresDatabases@2025-01-01-preview", filepath.Join(dir, "missing.yaml"), "-m", "examples"}, 2, "missing.yaml"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("udtc %s: exit %d, want %d; stderr %q lacks %q", strings.Join(tc.args, " "), code, tc.code, stderr, tc.want)
		}
	}
}

// TestValidateAndExplainFromServer reads the schemas from a registry the
// examples were published to, and compares with the local answers.
func TestValidateAndExplainFromServer(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"))
	defer stop()
	if code, _, stderr := runCLI(t, "publish", "examples", "--server", url); code != 0 {
		t.Fatalf("publish: exit %d\n%s", code, stderr)
	}
	bad := filepath.Join(dir, "db.yaml")
	os.WriteFile(bad, []byte(badDoc), 0o644)
	ref := "Contoso.Data/postgresDatabases@2025-01-01-preview"
	_, local, _ := runCLI(t, "validate", ref, bad, "-m", "examples", "--output", "json")
	code, remote, stderr := runCLI(t, "validate", ref, bad, "--server", url, "--output", "json")
	if code != 1 || local != remote {
		t.Errorf("validate --server: exit %d %s\n%s\nlocal:\n%s", code, stderr, remote, local)
	}
	var rep struct{ Diagnostics []diag.Diagnostic }
	json.Unmarshal([]byte(remote), &rep)
	if len(rep.Diagnostics) != 3 {
		t.Errorf("validate --server: %d diagnostics, want 3", len(rep.Diagnostics))
	}
	for _, arg := range []string{"Contoso.Data/postgresDatabases", "Contoso.Data/postgresDatabases@2025-01-01-preview.size", "Contoso.Messaging/buses/queues"} {
		_, local, _ := runCLI(t, "explain", arg, "-m", "examples")
		code, remote, stderr := runCLI(t, "explain", arg, "--server", url)
		if code != 0 || local != remote || local == "" {
			t.Errorf("explain %s --server: exit %d %s\n%s\nlocal:\n%s", arg, code, stderr, remote, local)
		}
	}
	if code, _, stderr := runCLI(t, "validate", ref, bad, "--server", url, "-m", "examples"); code != 2 || !strings.Contains(stderr, "not both") {
		t.Errorf("validate with --server and --manifests: exit %d %s", code, stderr)
	}
}

func TestExplain(t *testing.T) {
	t.Chdir("../..")
	out := runOut(t, "explain", "Contoso.Data/postgresDatabases", "-m", "examples")
	for _, want := range []string{
		"TYPE:     Contoso.Data/postgresDatabases@2025-06-01\n",
		"VERSIONS: 2025-01-01-preview, 2025-06-01 (default 2025-06-01)\n",
		"  environment <string>  -required-\n    The Radius environment ID.\n",
		"  databases <[]Object>\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	out = runOut(t, "explain", "Contoso.Data/postgresDatabases@2025-01-01-preview.size", "-m", "examples")
	if !strings.Contains(out, "FIELD:    size <string>\n") || !strings.Contains(out, `enum: "S", "M", "L", "XL"`) || !strings.Contains(out, `default: "S"`) {
		t.Errorf("explain .size:\n%s", out)
	}
	var x explain.Result
	if err := json.Unmarshal([]byte(runOut(t, "explain", "Contoso.Data/postgresDatabases.storageGiB", "-m", "examples", "--output", "json")), &x); err != nil ||
		x.Field.Kind != "integer" || x.Path != "storageGiB" || len(x.Field.Constraints) == 0 {
		t.Errorf("explain --output json: %v %+v", err, x)
	}
	code, _, stderr := runCLI(t, "explain", "Contoso.Data/postgresDatabases.nope", "-m", "examples")
	if code != 1 || !strings.Contains(stderr, `has no property "nope" at properties (properties: application, binding, codeReference, connections, databases, environment`) {
		t.Errorf("explain .nope: exit %d %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "explain", "Contoso", "-m", "examples"); code != 2 || !strings.Contains(stderr, "NAMESPACE/TYPE") {
		t.Errorf("explain Contoso: exit %d %s", code, stderr)
	}
}

func TestRegistryEmptyListAndSchemaTree(t *testing.T) {
	t.Chdir("../..")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	code, stdout, _ := runCLI(t, "registry", "list", "--server", url)
	if code != 0 || !strings.Contains(stdout, "No resource types are registered in plane local of "+url) || strings.Contains(stdout, "TYPE") {
		t.Errorf("registry list of an empty registry: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runCLI(t, "publish", "examples", "--server", url); code != 0 {
		t.Fatalf("publish: exit %d\n%s", code, stderr)
	}
	stdout = runOut(t, "registry", "show", "Contoso.Data/postgresDatabases", "--server", url)
	for _, want := range []string{
		"    2025-06-01\n      PROPERTY                 KIND               REQUIRED  CONSTRAINTS                                                  DESCRIPTION\n",
		"      environment              string             yes                                                                    The Radius environment ID.\n",
		"      databases                []Object                     items at most 16                                             Databases to create on the server.\n",
		"        name                   string             yes       pattern: ",
		"        password               string                       sensitive: encrypted at rest, never returned by GET or LIST\n",
		"      connections              map[string]Object                                                                         Map of connection name to connection data.\n",
		"        source                 string             yes                                                                    Resource ID of the source resource for this connection.\n",
		"LOCATIONS\n  global  http://localhost:8081\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("registry show lacks %q:\n%s", want, stdout)
		}
	}
	for i, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, "\t") || strings.TrimRight(line, " ") != line {
			t.Errorf("registry show: line %d has a tab or ends in blanks: %q", i+1, line)
		}
	}
	var sum api.ProviderSummary
	if err := json.Unmarshal([]byte(runOut(t, "registry", "show", "Contoso.Data/postgresDatabases", "--server", url, "--output", "json")), &sum); err != nil ||
		len(sum.ResourceTypes["postgresDatabases"].APIVersions["2025-06-01"].Schema) == 0 {
		t.Errorf("registry show --output json: %v %+v", err, sum)
	}
}

func TestGenFlagValues(t *testing.T) {
	t.Chdir("../..")
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--extension-name", "acme-platform"}, 2, `udtc: --extension-name "acme-platform" is not a Bicep identifier`},
		{[]string{"--go-import-prefix", "example.com/bad path"}, 2, `--go-import-prefix "example.com/bad path" is not a Go import path`},
		{[]string{"--go-import-prefix", "/abs"}, 2, `--go-import-prefix "/abs" is not a Go import path`},
		{[]string{"--extension-version", ""}, 2, "--extension-version must not be empty"},
		{[]string{"--target", "bicpe"}, 2, `unknown --target "bicpe"`},
		// An emitter's warning is a warning, and an error with --strict.
		{[]string{"--extension-name", "az", "--target", "bicep"}, 0, "udtc: warning[bicep-extension-name-reserved]"},
		{[]string{"--extension-name", "az", "--target", "bicep", "--strict", "--force"}, 1, "udtc: error[bicep-extension-name-reserved]"},
		// No go.mod above --out: the fallback import path is announced.
		{[]string{"--target", "go"}, 0, "note: no go.mod above " + out + ": the Go client imports itself as " + fallbackImportPrefix},
		{[]string{"--target", "go", "--go-import-prefix", "example.org/platform/gen", "--force"}, 0, "wrote"},
	} {
		args := append([]string{"gen", "fixtures/valid_basic", "--out", out}, tc.args...)
		code, _, stderr := runCLI(t, args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("udtc %s: exit %d, want %d; stderr lacks %q:\n%s", strings.Join(args, " "), code, tc.code, tc.want, stderr)
		}
		if strings.Contains(stderr, ":0:0:") {
			t.Errorf("udtc %s: a diagnostic without a position:\n%s", strings.Join(args, " "), stderr)
		}
	}
}
