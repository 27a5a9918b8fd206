package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenGoModule: --go-module writes a go.mod at the root of --out, so a
// separate module can require the output and replace it with its
// directory; with --go-runtime module the output imports the published
// runtime (this repository, by a second replace, so the runtime of this
// checkout, resource groups client included) instead of a copy. The
// builds run offline and skip when a module is missing from the cache.
func TestGenGoModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module that uses the generated code; skipped with -short")
	}
	t.Chdir("../..")
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // gen's no-op cache
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, runtime := range []string{"copy", "module"} {
		t.Run(runtime, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			if code, _, stderr := runCLI(t, "gen", "--target", "go", "--go-module", "example.com/acme/gen", "--go-runtime", runtime, "--out", out, "fixtures/valid_basic"); code != 0 {
				t.Fatalf("gen: exit %d\n%s", code, stderr)
			}
			gomod, err := os.ReadFile(filepath.Join(out, "go.mod"))
			if err != nil || !strings.Contains(string(gomod), "module example.com/acme/gen\n") {
				t.Fatalf("out/go.mod = %q, %v", gomod, err)
			}
			_, err = os.Stat(filepath.Join(out, "go", "internal", "udtc"))
			if copied := err == nil; copied != (runtime == "copy") {
				t.Errorf("--go-runtime %s: runtime copied = %v", runtime, copied)
			}
			mod := "module example.com/app\n\ngo 1.24\n\nrequire example.com/acme/gen v0.0.0\n\nreplace example.com/acme/gen => ../out\n"
			if runtime == "module" {
				mod += "\nrequire github.com/udtc/udtc v0.0.0\n\nreplace github.com/udtc/udtc => " + root + "\n"
				sum, err := os.ReadFile("go.sum")
				if err != nil {
					t.Fatal(err)
				}
				writeTestFile(t, filepath.Join(dir, "app", "go.sum"), string(sum))
			}
			writeTestFile(t, filepath.Join(dir, "app", "go.mod"), mod)
			writeTestFile(t, filepath.Join(dir, "app", "main.go"), `package main

import v "example.com/acme/gen/go/mycompanyresources/v20250101preview"

func main() {
	c, err := v.NewPostgresDatabaseClient(v.ClientOptions{Endpoint: "http://127.0.0.1:7443"})
	_, _ = c, err
	groups, err := v.NewResourceGroupsClient(v.ClientOptions{Endpoint: "http://127.0.0.1:7443"})
	var g *v.ResourceGroup
	_, _, _ = groups, g, err
}
`)
			cmd := exec.Command("go", "build", "./...")
			cmd.Dir = filepath.Join(dir, "app")
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off")
			if b, err := cmd.CombinedOutput(); err != nil {
				if strings.Contains(string(b), "GOPROXY=off") {
					t.Skipf("the build needs a module that is not in the module cache:\n%s", b)
				}
				t.Fatalf("go build of a module using the output: %v\n%s", err, b)
			}
		})
	}
}

// TestGenGoFlagErrors: bad --go-module and --go-runtime values are usage
// errors that name the flag.
func TestGenGoFlagErrors(t *testing.T) {
	t.Chdir("../..")
	for _, args := range [][]string{
		{"--go-runtime", "vendor"},
		{"--go-module", "not a path"},
		{"--go-module", "example.com/a", "--go-import-prefix", "example.com/b"},
	} {
		code, _, stderr := runCLI(t, append(append([]string{"gen", "--out", t.TempDir()}, args...), "fixtures/valid_basic")...)
		if code != 2 || !strings.Contains(stderr, args[0]) {
			t.Errorf("gen %v: exit %d, want 2 naming %s\n%s", args, code, args[0], stderr)
		}
	}
}

func writeTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGenGoModuleFromProject: udtc.yaml's go.module and go.runtime apply
// when no flag sets them, and a flag overrides them.
func TestGenGoModuleFromProject(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // gen's no-op cache
	manifest, err := os.ReadFile("../../fixtures/valid_basic/manifest.yaml")
	if err != nil {
		t.Skipf("fixture: %v", err)
	}
	writeTestFile(t, filepath.Join(dir, "manifests", "types.yaml"), string(manifest))
	writeTestFile(t, filepath.Join(dir, "udtc.yaml"), "target: udtc\ninputs: {include: [manifests]}\noutput: out\ntargets: [go]\ngo: {module: example.com/acme/gen, runtime: module}\n")
	t.Chdir(dir)
	if code, _, stderr := runCLI(t, "gen"); code != 0 {
		t.Fatalf("gen: exit %d\n%s", code, stderr)
	}
	if gomod, err := os.ReadFile(filepath.Join("out", "go.mod")); err != nil || !strings.Contains(string(gomod), "module example.com/acme/gen\n") {
		t.Errorf("out/go.mod = %q, %v; want the module of udtc.yaml", gomod, err)
	}
	if _, err := os.Stat(filepath.Join("out", "go", "internal", "udtc")); err == nil {
		t.Errorf("go.runtime: module in udtc.yaml, but the runtime was copied")
	}
	if code, _, stderr := runCLI(t, "gen", "--go-runtime", "copy"); code != 0 {
		t.Fatalf("gen --go-runtime copy: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join("out", "go", "internal", "udtc")); err != nil {
		t.Errorf("--go-runtime copy did not override udtc.yaml: %v", err)
	}
}
