package main

import (
	"os"
	"runtime/debug"
	"testing"
)

// Compiling tunes the collector for the compile only: the settings are
// back as they were once the command ends (tests run many commands in one
// process).
func TestCheckTunesGCForTheCompileOnly(t *testing.T) {
	runRestoresGC(t, "check", "examples")
}

// runRestoresGC runs udtc with args from the repository root, with a GC
// percent and memory limit of its own, and fails unless the command
// succeeds and leaves both as they were.
func runRestoresGC(t *testing.T, args ...string) {
	t.Helper()
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: udtc leaves the limit alone")
	}
	beforePercent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(beforePercent)
	beforeLimit := debug.SetMemoryLimit(1 << 40)
	defer debug.SetMemoryLimit(beforeLimit)

	t.Chdir("../..")
	if code, _, stderr := runCLI(t, args...); code != 0 {
		t.Fatalf("%s: exit %d\n%s", args[0], code, stderr)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit after %s = %d, want %d as before", args[0], got, int64(1<<40))
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after %s = %d, want 100 as before", args[0], got)
	}
}
