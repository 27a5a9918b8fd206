package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunWritesCatalog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cat")
	var out, errb bytes.Buffer
	args := []string{"-types", "12", "-versions", "2", "-namespaces", "3", "-seed", "5", "-out", dir}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errb.String())
	}
	matches, err := filepath.Glob(filepath.Join(dir, "*", "*", "*.yaml"))
	if err != nil || len(matches) == 0 {
		t.Fatalf("no manifests written (%v)", err)
	}
	if !strings.Contains(out.String(), "12 types") {
		t.Errorf("summary %q does not report the type count", out.String())
	}
	// A second run into the same directory must refuse, then succeed with -force.
	if code := run(args, &out, &errb); code != 2 {
		t.Errorf("rerun into a non-empty directory: exit %d, want 2", code)
	}
	if code := run(append(args, "-force"), &out, &errb); code != 0 {
		t.Errorf("rerun with -force: exit %d, stderr %s", code, errb.String())
	}
	if _, err := os.Stat(matches[0]); err != nil {
		t.Errorf("after -force, %s is missing: %v", matches[0], err)
	}
}

func TestRunBadUsage(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-out", t.TempDir(), "-types", "0"},
		{"-out", t.TempDir(), "-versions", "99"},
		{"-nope"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
		if errb.Len() == 0 {
			t.Errorf("run(%q) printed no error", args)
		}
	}
}
