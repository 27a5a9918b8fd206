package main

import (
	"strings"
	"testing"
)

// TestGenWithoutInputs: gen with no paths and no udtc.yaml is a usage
// error, and the only thing it prints (no note about go.mod first).
func TestGenWithoutInputs(t *testing.T) {
	t.Chdir(t.TempDir())
	code, stdout, stderr := runCLI(t, "gen")
	if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "udtc: give at least one manifest file or directory") || strings.Contains(stderr, "note:") {
		t.Errorf("gen without inputs: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
}
