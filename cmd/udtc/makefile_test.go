package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestEveryFuzzTargetIsRun: every fuzz function of the module is in the
// Makefile's FUZZ_TARGETS, so make check and make fuzz run it.
func TestEveryFuzzTargetIsRun(t *testing.T) {
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(strings.ReplaceAll(string(makefile), "\\\n", " "), "\nFUZZ_TARGETS =")
	if !ok {
		t.Fatal("the Makefile has no FUZZ_TARGETS")
	}
	list, _, _ = strings.Cut(list, "\n")
	listed := map[string]bool{}
	for _, target := range strings.Fields(list) {
		listed[target] = true
	}
	fuzz := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(f \*testing\.F\)`)
	found := 0
	err = filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "../.." && (d.Name() == "golden" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir // the golden module, .git, .ci
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fuzz.FindAllStringSubmatch(string(src), -1) {
			found++
			target := "./" + filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../../"))) + ":" + m[1]
			if !listed[target] {
				t.Errorf("%s is not in the Makefile's FUZZ_TARGETS", target)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 || found != len(listed) {
		t.Errorf("%d fuzz functions, %d FUZZ_TARGETS: %v", found, len(listed), listed)
	}
}
