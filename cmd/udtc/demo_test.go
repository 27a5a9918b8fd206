package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs scripts/demo.sh, which is `make run`, with this test binary
// as udtc and a temporary output directory: every step must succeed, the
// output's go.mod must say go 1.24 (which a range over List needs), and the
// Go program of the demo must have created and listed its buses.
func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole demo and builds a Go program: skipped with -short")
	}
	for _, tool := range []string{"bash", "curl", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	udtc := filepath.Join(dir, "udtc")
	writeTestFile(t, udtc, "#!/bin/sh\nUDTC_TEST_AS_UDTC=1 exec '"+self+"' \"$@\"\n")
	if err := os.Chmod(udtc, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "demo.sh"))
	cmd.Env = append(os.Environ(), "UDTC="+udtc, "OUT="+out, "NO_COLOR=1", "GOCACHE="+goBuildCache(t), "GOPROXY=off", "GOFLAGS=")
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/demo.sh: %v\n%s", err, got)
	}
	if mod, err := os.ReadFile(filepath.Join(out, "go.mod")); err != nil || !strings.Contains(string(mod), "\ngo 1.24\n") {
		t.Errorf("out/go.mod = %q, %v; want go 1.24", mod, err)
	}
	for _, want := range []string{
		"created /planes/radius/local/resourceGroups/demo-go\n",
		"(maxDeliveryCount 10, the default)",
		"listed bus1: tier standard\nlisted bus2: tier premium\n",
		"deleted /planes/radius/local/resourceGroups/demo-go and its resources",
	} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the demo's output has no %q:\n%s", want, got)
		}
	}
}

// goBuildCache is the go command's build cache as it would be without
// TestMain's XDG_CACHE_HOME (which keeps udtc's own state out of the
// user's cache), so Go programs the tests build need not rebuild the
// standard library.
func goBuildCache(t *testing.T) string {
	t.Helper()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command("go", "env", "GOCACHE")
	cmd.Env = env
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	return strings.TrimSpace(string(b))
}
