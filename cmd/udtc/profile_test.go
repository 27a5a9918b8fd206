package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// UDTC_CPUPROFILE writes a CPU profile (gzipped protobuf, as go tool pprof
// reads it); a path that cannot be created is reported, not fatal.
func TestProfileWritesACPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	stop := profile(path)
	for i := 0; i < 1e6; i++ {
		_ = bytes.Repeat([]byte("x"), i%7)
	}
	stop()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("%s is not a gzipped profile: % x", path, b[:min(len(b), 8)])
	}

	profile(filepath.Join(t.TempDir(), "missing", "cpu.prof"))() // no panic, no profile
	if stop := profile(""); stop == nil {
		t.Error("profile(\"\") returned nil")
	}
}
