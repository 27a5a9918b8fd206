package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoClientQuickStart runs the quick start of docs/go-client.md as
// written: its commands with bash (the udtc serve line dropped for a test
// server, udtc being this test binary), its program as app/main.go (the
// address replaced), and `go run .`, whose output must be the one shown.
func TestGoClientQuickStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go program: skipped with -short")
	}
	for _, tool := range []string{"bash", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	doc := filepath.Join("..", "..", "docs", "go-client.md")
	commands := docBlock(t, doc, "## Quick start")
	program := fencedAfter(t, doc, "## Quick start", "```go\n")
	console := fencedAfter(t, doc, "## Quick start", "```console\n")
	run, want, ok := strings.Cut(console, "\n")
	if !ok || run != "$ go run ." {
		t.Fatalf("the quick start's console block does not start with $ go run .: %q", console)
	}
	serveLine, rest, ok := strings.Cut(commands, "\n")
	if !ok || !strings.HasPrefix(serveLine, "udtc serve ") {
		t.Fatalf("the quick start does not start with udtc serve: %q", serveLine)
	}

	dir := t.TempDir()
	examples, err := os.ReadDir(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range examples {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		writeTestFile(t, filepath.Join(dir, "examples", e.Name()), string(b))
	}
	// The quick start runs in a clone of this repository, whose udtc.yaml
	// checks the examples under target: udtc.
	project, err := os.ReadFile(filepath.Join("..", "..", "udtc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "udtc.yaml"), string(project))
	base, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "registry.db"))
	defer stop()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOCACHE="+goBuildCache(t), "GOPROXY=off", "GOFLAGS=", "GOWORK=off", "GOTOOLCHAIN=local")
	script := "set -euo pipefail\n" +
		"udtc() { UDTC_TEST_AS_UDTC=1 UDTC_SERVER=" + base + " '" + self + "' \"$@\"; }\n" + rest
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the quick start's commands: %v\n%s", err, out)
	}
	writeTestFile(t, filepath.Join(dir, "app", "main.go"), strings.ReplaceAll(program, "http://127.0.0.1:7443", base))
	cmd = exec.Command("go", "run", ".")
	cmd.Dir, cmd.Env = filepath.Join(dir, "app"), env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run . of the quick start's program: %v\n%s", err, out)
	}
	if string(out) != want {
		t.Errorf("go run . printed\n%s\nwant, as the quick start shows,\n%s", out, want)
	}
}

// fencedAfter returns the first code block opened by fence after heading
// in file.
func fencedAfter(t *testing.T, file, heading, fence string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if ok {
		_, rest, ok = strings.Cut(rest, fence)
	}
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatalf("%s: no %q block after %q", file, strings.TrimSpace(fence), heading)
	}
	return block
}
