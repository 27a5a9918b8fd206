package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeBuildSaysSo: the first `make build` (and so `make run`) says it
// is building before the long silent compile; later ones do not.
func TestMakeBuildSaysSo(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	bin := filepath.Join(t.TempDir(), "udtc")
	build := func() string {
		// GO=true: the recipe runs, but nothing is compiled.
		out, err := exec.Command("make", "-s", "-C", "../..", "build", "GO=true", "BIN="+bin).CombinedOutput()
		if err != nil {
			t.Fatalf("make build: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := build(); !strings.Contains(out, "Building "+bin+" for the first time") || !strings.Contains(out, "takes a minute or two") {
		t.Errorf("the first make build does not say it is building:\n%s", out)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out := build(); strings.Contains(out, "Building") {
		t.Errorf("a later make build still announces the first build:\n%s", out)
	}
}
