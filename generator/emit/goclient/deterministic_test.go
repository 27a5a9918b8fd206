package goclient_test

import (
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestDeterministic emits every valid fixture twice, the second time from a
// catalog compiled with the manifest paths in reverse order.
func TestDeterministic(t *testing.T) {
	var paths []string
	for _, name := range goldentest.ValidCases(t) {
		paths = append(paths, filepath.Join(goldentest.Root(t), "fixtures", name))
	}
	// The fixtures may share namespaces, so compile them one at a time.
	for _, p := range paths {
		files, _ := filesOf(t, p)
		again, _ := filesOf(t, p)
		if diff := cmp.Diff(files, again); diff != "" {
			t.Errorf("%s: second run differs (-first +second):\n%s", p, diff)
		}
	}
	multi := filepath.Join(goldentest.Root(t), "fixtures", "valid_multi_file")
	var inputs []string
	_ = filepath.WalkDir(multi, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			inputs = append(inputs, p)
		}
		return err
	})
	if len(inputs) < 2 {
		t.Skip("valid_multi_file has fewer than two files")
	}
	forward, _ := filesOf(t, inputs...)
	slices.Reverse(inputs)
	backward, _ := filesOf(t, inputs...)
	if diff := cmp.Diff(forward, backward); diff != "" {
		t.Errorf("input order changes the output (-forward +backward):\n%s", diff)
	}
}

func filesOf(t *testing.T, paths ...string) (map[string]string, error) {
	t.Helper()
	files, _, err := goclient.Emit(goldentest.CompilePaths(t, paths...), goclient.Options{ImportPrefix: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = string(f.Data)
	}
	return out, nil
}
