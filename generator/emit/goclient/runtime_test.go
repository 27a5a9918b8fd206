package goclient

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/goclient/udtc"
)

// RuntimeImportPath is where the runtime package really is.
func TestRuntimeImportPath(t *testing.T) {
	if got := reflect.TypeFor[udtc.Client]().PkgPath(); got != RuntimeImportPath {
		t.Errorf("the runtime package is %s, RuntimeImportPath says %s", got, RuntimeImportPath)
	}
}

// TestRuntimeModule: with RuntimeModule the output has no copy of the
// runtime, imports the published package, and its go.mod (Module) requires
// udtc's module; it builds against this repository's runtime.
func TestRuntimeModule(t *testing.T) {
	const mod = "example.com/acme/gen"
	files, _, err := Emit(testCatalog(t), Options{Module: mod, Runtime: RuntimeModule, RuntimeVersion: "v0.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	imports := 0
	var gomod string
	for _, f := range files {
		switch {
		case strings.HasPrefix(f.Path, runtimeDir):
			t.Errorf("%s: a copy of the runtime in module mode", f.Path)
		case f.Path == "go.mod":
			gomod = string(f.Data)
		case strings.Contains(string(f.Data), `udtc "`+RuntimeImportPath+`"`):
			imports++
		}
	}
	if imports == 0 {
		t.Errorf("no file imports %s", RuntimeImportPath)
	}
	for _, want := range []string{"module " + mod + "\n", "\ngo " + goVersion + "\n", "\nrequire github.com/udtc/udtc v0.0.0 "} {
		if !strings.Contains(gomod, want) {
			t.Errorf("go.mod lacks %q:\n%s", want, gomod)
		}
	}
	if testing.Short() {
		t.Skip("builds the generated code; skipped with -short")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeEmitted(t, dir, files)
	// This repository stands in for the published module; its go.sum has
	// what the build needs, so it runs offline.
	appendFile(t, filepath.Join(dir, "go.mod"), "\nreplace github.com/udtc/udtc => "+root+"\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(dir, "go.sum"), string(sum))
	goOffline(t, dir, "vet", "./...")
}

// TestGoModWithoutRuntimeVersion: a udtc without a module version cannot
// name the runtime's version, so the go.mod says what to require; with the
// copied runtime there is nothing to require.
func TestGoModWithoutRuntimeVersion(t *testing.T) {
	for _, c := range []struct {
		runtime, want, not string
	}{
		{RuntimeModule, "require github.com/udtc/udtc\n// at the version", "\nrequire "},
		{RuntimeCopy, "\ngo " + goVersion + "\n", "udtc/udtc"},
	} {
		gomod := Options{Module: "example.com/gen", Runtime: c.runtime}.goMod()
		if got := string(gomod.Data); !strings.Contains(got, c.want) || strings.Contains(got, c.not) {
			t.Errorf("go.mod with runtime %s: want %q and no %q in\n%s", c.runtime, c.want, c.not, got)
		}
	}
	if _, _, err := Emit(testCatalog(t), Options{Module: "example.com/a", ImportPrefix: "example.com/b"}); err == nil {
		t.Error("Emit accepted a module path that is not the import prefix")
	}
	if _, _, err := Emit(testCatalog(t), Options{ImportPrefix: "example.com/b", Runtime: "vendor"}); err == nil {
		t.Error("Emit accepted an unknown runtime")
	}
}

// writeEmitted writes files below dir.
func writeEmitted(t *testing.T, dir string, files []emit.File) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// goOffline runs the go command in dir without the network, skipping the
// test when it would need to download a module.
func goOffline(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(string(out), "GOPROXY=off") {
			t.Skipf("go %s needs a module that is not in the module cache:\n%s", strings.Join(args, " "), out)
		}
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
}
