package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/source"
)

func TestSyncFlags(t *testing.T) {
	dir := t.TempDir()
	if _, err := source.Init(dir); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--sync-ref", "main"}, "--sync-ref needs --sync"},
		{[]string{"serve", "--sync", filepath.Join(dir, "nope")}, "neither a local directory nor a git URL"},
		{[]string{"serve", "--sync", dir, "--sync-interval", "10ms"}, "--sync-interval must be at least 1s"},
		{[]string{"serve", "--sync", dir, "--sync-dir", "../x"}, "--sync-dir"},
		{[]string{"serve", "--sync", dir, "--sync-token-file", filepath.Join(dir, "missing")}, "--sync-token-file"},
	}
	for _, tc := range tests {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
}
