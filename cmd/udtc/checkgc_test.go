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
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		t.Skip("GOMEMLIMIT is set: check leaves the limit alone")
	}
	beforePercent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(beforePercent)
	beforeLimit := debug.SetMemoryLimit(1 << 40)
	defer debug.SetMemoryLimit(beforeLimit)

	t.Chdir("../..")
	if code, _, stderr := runCLI(t, "check", "examples"); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, stderr)
	}
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Errorf("memory limit after check = %d, want %d as before", got, int64(1<<40))
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after check = %d, want 100 as before", got)
	}
}
