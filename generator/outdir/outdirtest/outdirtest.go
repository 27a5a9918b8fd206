// Package outdirtest has helpers for tests of output directories: those of
// generator/outdir and the CLI's gen tests.
package outdirtest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// ReadTree returns the files below dir by slash path, and its directories.
func ReadTree(t testing.TB, dir string) (files map[string]string, dirs []string) {
	t.Helper()
	files = map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			dirs = append(dirs, rel)
			return nil
		}
		b, err := os.ReadFile(p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, dirs
}
