package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/emit"
)

// readTree returns the files below dir by slash path, and its directories.
func readTree(t *testing.T, dir string) (files map[string]string, dirs []string) {
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

// A commit moves directories that do not exist yet whole and renames files
// into the ones that do; either way the tree ends up the same.
func TestStagerCommitMovesNewDirectoriesWhole(t *testing.T) {
	dir := t.TempDir()
	for p, data := range map[string]string{"a/old.txt": "old", "a/same.txt": "same"} {
		if err := writeAtomic(filepath.Join(dir, filepath.FromSlash(p)), []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	st := newStager(dir, false)
	defer st.abort()
	files := []emit.File{
		{Path: "a/same.txt", Data: []byte("same")},
		{Path: "a/new.txt", Data: []byte("new in an existing directory")},
		{Path: "a/b/c.txt", Data: []byte("in a new directory below an existing one")},
		{Path: "a/b/d/e.txt", Data: []byte("two new levels down")},
		{Path: "n/m/f.txt", Data: []byte("in a new top directory")},
		{Path: "n/g.txt", Data: []byte("beside it")},
		{Path: "top.txt", Data: []byte("at the top")},
	}
	if err := st.stage("t", files); err != nil {
		t.Fatal(err)
	}
	res, err := st.commit([]string{"t"})
	if err != nil {
		t.Fatal(err)
	}
	if res.written != 6 || res.unchanged != 1 {
		t.Errorf("written %d, unchanged %d; want 6 and 1", res.written, res.unchanged)
	}
	got, dirs := readTree(t, dir)
	want := map[string]string{"a/old.txt": "old", emit.OutputMarker: got[emit.OutputMarker]}
	for _, f := range files {
		want[f.Path] = string(f.Data)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tree after commit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{".", "a", "a/b", "a/b/d", "n", "n/m"}, dirs); diff != "" {
		t.Errorf("directories after commit, no stage left (-want +got):\n%s", diff)
	}
}

// A file where the output needs a directory fails the commit with the path.
func TestStagerCommitFileInTheWayOfADirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := newStager(dir, false)
	defer st.abort()
	if err := st.stage("t", []emit.File{{Path: "a/b.txt", Data: []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	_, err := st.commit([]string{"t"})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "a")+": not a directory") {
		t.Fatalf("commit error %v; want %s: not a directory", err, filepath.Join(dir, "a"))
	}
}

// A directory of the output that is a symbolic link to a directory
// elsewhere on the same file system is written through, as before: files
// go into the link's target, the link stays. (On another file system the
// renames fail, as they always did: see the README.)
func TestStagerCommitWritesThroughALinkedDirectory(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, "site")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	st := newStager(dir, false)
	defer st.abort()
	if err := st.stage("site", []emit.File{{Path: "site/index.html", Data: []byte("home")}, {Path: "site/types/a.html", Data: []byte("a")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.commit([]string{"site"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "site")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("out/site is no longer a symbolic link (%v, %v)", fi, err)
	}
	got, _ := readTree(t, elsewhere)
	if diff := cmp.Diff(map[string]string{"index.html": "home", "types/a.html": "a"}, got); diff != "" {
		t.Errorf("the link's target (-want +got):\n%s", diff)
	}
}

// A commit that fails because of a file where a directory must go moves
// nothing first: after abort DIR is as it was (new directories that sort
// before the failing one are not left behind).
func TestStagerFailedCommitLeavesNoNewDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := newStager(dir, false)
	if err := st.stage("t", []emit.File{{Path: "a/x.txt", Data: []byte("x")}, {Path: "b/y.txt", Data: []byte("y")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.commit([]string{"t"}); err == nil {
		t.Fatal("commit with a file in the way succeeded")
	}
	st.abort()
	got, dirs := readTree(t, dir)
	if diff := cmp.Diff(map[string]string{"b": "in the way"}, got); diff != "" {
		t.Errorf("DIR after a failed commit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"."}, dirs); diff != "" {
		t.Errorf("directories after a failed commit (-want +got):\n%s", diff)
	}
}

// On a case-insensitive file system a path whose case changed names the
// file this run wrote; the commit must not remove it as stale. A symbolic
// link stands in for the case folding here: old/x.txt is new/x.txt.
func TestStagerKeepsAFileItProducedUnderAnotherCase(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, emit.OutputMarker), (&genMarker{files: []markerEntry{{target: "t", path: "Ns/x.txt"}}}).encode(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "ns"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("ns", filepath.Join(dir, "Ns")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	st := newStager(dir, false)
	defer st.abort()
	if err := st.stage("t", []emit.File{{Path: "ns/x.txt", Data: []byte("new")}}); err != nil {
		t.Fatal(err)
	}
	res, err := st.commit([]string{"t"})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ns", "x.txt")); err != nil || string(b) != "new" {
		t.Errorf("ns/x.txt after commit: %q, %v; want the file this run wrote", b, err)
	}
	if res.removed != 0 {
		t.Errorf("removed %d files; want none", res.removed)
	}
}
