package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Only a terminal is one: not /dev/null (a character device), a pipe, a
// file, or a writer that is no file.
func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no %s: %v", os.DevNull, err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, f := range map[string]any{os.DevNull: null, "a pipe's reader": r, "a pipe's writer": w, "a file": file, "a strings.Reader": strings.NewReader("")} {
		if isTerminal(f) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
