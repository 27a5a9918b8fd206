package main

import (
	"os"
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
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("tok\n"), 0o600); err != nil {
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
		{[]string{"serve", "--sync-heal=false"}, "--sync-heal needs --sync"},
		{[]string{"serve", "--sync-max-bytes", "100"}, "--sync-max-bytes needs --sync"},
		{[]string{"serve", "--sync", dir, "--sync-max-files", "0"}, "--sync-max-files and --sync-max-bytes must be positive"},
		{[]string{"serve", "--sync", "https://ci:s3cret@127.0.0.1:1/x.git", "--sync-token-file", tokenFile}, "not both"},
	}
	for _, tc := range tests {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "s3cret") {
			t.Errorf("%v: exit %d, stderr %q, want %q", tc.args, code, stderr, tc.want)
		}
	}
}
