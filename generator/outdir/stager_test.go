package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/outdir/outdirtest"
	"github.com/udtc/udtc/internal/atomicfile"
)

// TestMain lets the test binary act as a commit killed part way
// (killCommit runs it so).
func TestMain(m *testing.M) {
	if dir := os.Getenv("UDTC_TEST_KILLED_COMMIT"); dir != "" {
		killedCommit(dir) // exits
	}
	os.Exit(m.Run())
}

// A commit moves directories that do not exist yet whole and renames files
// into the ones that do; either way the tree ends up the same.
func TestStagerCommitMovesNewDirectoriesWhole(t *testing.T) {
	dir := t.TempDir()
	for p, data := range map[string]string{"a/old.txt": "old", "a/same.txt": "same"} {
		if err := atomicfile.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st := NewStager(dir, Options{})
	defer st.Abort()
	files := []emit.File{
		{Path: "a/same.txt", Data: []byte("same")},
		{Path: "a/new.txt", Data: []byte("new in an existing directory")},
		{Path: "a/b/c.txt", Data: []byte("in a new directory below an existing one")},
		{Path: "a/b/d/e.txt", Data: []byte("two new levels down")},
		{Path: "n/m/f.txt", Data: []byte("in a new top directory")},
		{Path: "n/g.txt", Data: []byte("beside it")},
		{Path: "top.txt", Data: []byte("at the top")},
	}
	if err := st.Stage("t", files); err != nil {
		t.Fatal(err)
	}
	res, err := st.Commit([]string{"t"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 6 || res.Unchanged != 1 {
		t.Errorf("written %d, unchanged %d; want 6 and 1", res.Written, res.Unchanged)
	}
	got, dirs := outdirtest.ReadTree(t, dir)
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
	st := NewStager(dir, Options{})
	defer st.Abort()
	if err := st.Stage("t", []emit.File{{Path: "a/b.txt", Data: []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	_, err := st.Commit([]string{"t"})
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
	st := NewStager(dir, Options{})
	defer st.Abort()
	if err := st.Stage("site", []emit.File{{Path: "site/index.html", Data: []byte("home")}, {Path: "site/types/a.html", Data: []byte("a")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit([]string{"site"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "site")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("out/site is no longer a symbolic link (%v, %v)", fi, err)
	}
	got, _ := outdirtest.ReadTree(t, elsewhere)
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
	st := NewStager(dir, Options{})
	if err := st.Stage("t", []emit.File{{Path: "a/x.txt", Data: []byte("x")}, {Path: "b/y.txt", Data: []byte("y")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Commit([]string{"t"}); err == nil {
		t.Fatal("commit with a file in the way succeeded")
	}
	st.Abort()
	got, dirs := outdirtest.ReadTree(t, dir)
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
	st := NewStager(dir, Options{})
	defer st.Abort()
	if err := st.Stage("t", []emit.File{{Path: "ns/x.txt", Data: []byte("new")}}); err != nil {
		t.Fatal(err)
	}
	res, err := st.Commit([]string{"t"})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ns", "x.txt")); err != nil || string(b) != "new" {
		t.Errorf("ns/x.txt after commit: %q, %v; want the file this run wrote", b, err)
	}
	if res.Removed != 0 {
		t.Errorf("removed %d files; want none", res.Removed)
	}
}

// commitTree stages files as target t in dir and commits them.
func commitTree(t *testing.T, dir string, files map[string]string) (Result, error) {
	t.Helper()
	st := NewStager(dir, Options{})
	defer st.Abort()
	var fs []emit.File
	for p, data := range files {
		fs = append(fs, emit.File{Path: p, Data: []byte(data)})
	}
	if err := st.Stage("t", fs); err != nil {
		t.Fatal(err)
	}
	return st.Commit([]string{"t"})
}

// rollbackCase is an output directory written by a first commit
// (rollbackFirst), with a second commit (rollbackSecond) that replaces,
// adds (in an existing directory and in new ones) and removes files.
func rollbackCase(t *testing.T) (dir string, second map[string]string) {
	t.Helper()
	dir = t.TempDir()
	if _, err := commitTree(t, dir, rollbackFirst()); err != nil {
		t.Fatal(err)
	}
	return dir, rollbackSecond()
}

func rollbackFirst() map[string]string {
	return map[string]string{"a/keep.txt": "kept", "a/change.txt": "old", "b/stale.txt": "stale", "a/z.txt": "old z"}
}

func rollbackSecond() map[string]string {
	return map[string]string{
		"a/keep.txt": "kept", "a/change.txt": "new", "a/added.txt": "added", "a/z.txt": "new z",
		"c/d/new.txt": "in a new directory",
	}
}

// killedCommit is the child process of the killed-commit tests: it
// commits rollbackSecond in dir and exits at once, as a SIGKILL would end
// it, when the commit renames a file whose destination ends in
// $UDTC_TEST_KILL_AT ("z.txt": after the marker, the new directories
// and some files); with $UDTC_TEST_KILL_NOLINKS set, as on a
// file system without hard links.
func killedCommit(dir string) {
	at := os.Getenv("UDTC_TEST_KILL_AT")
	renameFile = func(from, to string) error {
		if strings.HasSuffix(to, at) {
			os.Exit(9)
		}
		return os.Rename(from, to)
	}
	if os.Getenv("UDTC_TEST_KILL_NOLINKS") != "" {
		linkFile = func(string, string) error { return errors.New("operation not permitted") }
	}
	st := NewStager(dir, Options{})
	var files []emit.File
	for p, data := range rollbackSecond() {
		files = append(files, emit.File{Path: p, Data: []byte(data)})
	}
	if err := st.Stage("t", files); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	st.Commit([]string{"t"})
	os.Exit(0) // the commit did not get there
}

// killCommit runs killedCommit in a child process on dir with env added,
// expects it killed, and removes what it left as the next run would.
func killCommit(t *testing.T, dir string, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "UDTC_TEST_KILLED_COMMIT="+dir), env...)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 9 {
		t.Fatalf("the child commit: %v (want exit 9)\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, emit.OutputMarker)); err != nil {
		t.Errorf("after the kill: %v; DIR must always have its marker", err)
	}
	RemoveLeftovers(dir, false)
}

// A run killed while it puts its output in place leaves no file the next
// run does not know of: the marker listed the new files before they
// moved, so the next run, which goes back to the first output, removes
// them, and DIR is that output exactly.
func TestStagerAfterAKilledCommit(t *testing.T) {
	for _, kill := range [][]string{
		{"UDTC_TEST_KILL_AT=z.txt"},
		{"UDTC_TEST_KILL_AT=" + emit.OutputMarker}, // replacing the marker
		{"UDTC_TEST_KILL_AT=" + emit.OutputMarker, "UDTC_TEST_KILL_NOLINKS=1"},
		{"UDTC_TEST_KILL_AT=z.txt", "UDTC_TEST_KILL_NOLINKS=1"},
	} {
		dir, _ := rollbackCase(t)
		killCommit(t, dir, kill...)
		if _, err := commitTree(t, dir, rollbackFirst()); err != nil {
			t.Fatal(err)
		}
		got, dirs := outdirtest.ReadTree(t, dir)
		want := rollbackFirst()
		want[emit.OutputMarker] = got[emit.OutputMarker]
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: DIR after the next run (-want +got):\n%s", kill, diff)
		}
		if diff := cmp.Diff([]string{".", "a", "b"}, dirs); diff != "" {
			t.Errorf("%s: directories after the next run (-want +got):\n%s", kill, diff)
		}
	}
}

// The stale files of a run killed before it removed them are removed by
// the next run, links or none.
func TestStagerAfterAKilledCommitRemovesStaleFiles(t *testing.T) {
	for _, kill := range [][]string{
		{"UDTC_TEST_KILL_AT=" + emit.OutputMarker, "UDTC_TEST_KILL_NOLINKS=1"},
		{"UDTC_TEST_KILL_AT=z.txt", "UDTC_TEST_KILL_NOLINKS=1"},
		{"UDTC_TEST_KILL_AT=z.txt"},
	} {
		dir, second := rollbackCase(t)
		killCommit(t, dir, kill...)
		if _, err := commitTree(t, dir, second); err != nil {
			t.Fatal(err)
		}
		got, _ := outdirtest.ReadTree(t, dir)
		second[emit.OutputMarker] = got[emit.OutputMarker]
		if diff := cmp.Diff(second, got); diff != "" {
			t.Errorf("%s: DIR after the next run (-want +got):\n%s", kill, diff)
		}
	}
}

// A file of the user's at a path gen then writes is not gen's until gen
// replaces it: a run killed before that leaves it, unlisted, and the next
// run, which no longer writes that path, leaves it too.
func TestStagerAfterAKilledCommitKeepsAUsersFile(t *testing.T) {
	dir, _ := rollbackCase(t)
	if err := os.WriteFile(filepath.Join(dir, "a", "added.txt"), []byte("the user's own"), 0o644); err != nil {
		t.Fatal(err)
	}
	killCommit(t, dir, "UDTC_TEST_KILL_AT=added.txt") // after the marker lists the new files
	if _, err := commitTree(t, dir, rollbackFirst()); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "a", "added.txt")); err != nil || string(b) != "the user's own" {
		t.Errorf("the user's a/added.txt after the next run: %q, %v", b, err)
	}
}

// A commit that fails part way, here on a rename or on the removal of a
// stale file, puts DIR back as it was: replaced files hold their old
// content again, new files and directories are gone, removed files are
// back, the marker is the old one, and nothing of the commit is left.
func TestStagerFailedCommitRollsBack(t *testing.T) {
	for _, tc := range []struct {
		name    string
		failOn  string // a renameFile destination or source ending so fails
		noLinks bool   // linkFile fails, as on file systems without hard links
	}{
		{name: "rename of a replaced file", failOn: "a" + string(filepath.Separator) + "z.txt"},
		{name: "rename of a new file", failOn: "added.txt"},
		{name: "removal of a stale file", failOn: "stale.txt"},
		{name: "write of the marker", failOn: emit.OutputMarker},
		{name: "rename without hard links", failOn: "z.txt", noLinks: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, second := rollbackCase(t)
			before, beforeDirs := outdirtest.ReadTree(t, dir)
			rename, link := renameFile, linkFile
			t.Cleanup(func() { renameFile, linkFile = rename, link })
			renameFile = func(from, to string) error {
				if strings.HasSuffix(to, tc.failOn) || strings.HasSuffix(from, tc.failOn) && !strings.Contains(from, stagePrefix) {
					return &os.LinkError{Op: "rename", Old: from, New: to, Err: errors.New("injected failure")}
				}
				return os.Rename(from, to)
			}
			if tc.noLinks {
				linkFile = func(string, string) error { return errors.New("operation not permitted") }
			}
			_, err := commitTree(t, dir, second)
			if err == nil || !strings.Contains(err.Error(), "injected failure") {
				t.Fatalf("commit error %v; want the injected failure", err)
			}
			after, afterDirs := outdirtest.ReadTree(t, dir)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("files after the failed commit (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(beforeDirs, afterDirs); diff != "" {
				t.Errorf("directories after the failed commit (-before +after):\n%s", diff)
			}
		})
	}
}

// Where hard links are not supported, the commit keeps a replaced file by
// moving it aside, and a commit that succeeds gives the same tree.
func TestStagerCommitWithoutHardLinks(t *testing.T) {
	dir, second := rollbackCase(t)
	link := linkFile
	t.Cleanup(func() { linkFile = link })
	linkFile = func(string, string) error { return errors.New("operation not permitted") }
	res, err := commitTree(t, dir, second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Written != 4 || res.Removed != 1 {
		t.Errorf("written %d, removed %d; want 4 and 1", res.Written, res.Removed)
	}
	got, dirs := outdirtest.ReadTree(t, dir)
	second[emit.OutputMarker] = got[emit.OutputMarker]
	if diff := cmp.Diff(second, got); diff != "" {
		t.Errorf("tree after commit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{".", "a", "c", "c/d"}, dirs); diff != "" {
		t.Errorf("directories after commit, nothing of the commit left (-want +got):\n%s", diff)
	}
}

// mine puts a directory with a file of the user's where dir's file p was.
func mine(t *testing.T, dir, p string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.WriteFile(filepath.Join(full, "mine.txt"), []byte("the user's"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A directory where the output has a file is not gen's: the commit fails
// naming it and leaves it with its content, whether or not hard links work.
func TestStagerFailsOnADirectoryInTheWay(t *testing.T) {
	for _, noLinks := range []bool{false, true} {
		dir, second := rollbackCase(t)
		mine(t, dir, "a/change.txt")
		before, _ := outdirtest.ReadTree(t, dir)
		link := linkFile
		if noLinks {
			linkFile = func(string, string) error { return errors.New("operation not permitted") }
		}
		_, err := commitTree(t, dir, second)
		linkFile = link
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "a", "change.txt")) {
			t.Errorf("no links %v: commit error %v; want one naming a/change.txt", noLinks, err)
		}
		after, _ := outdirtest.ReadTree(t, dir)
		if diff := cmp.Diff(before, after); diff != "" {
			t.Errorf("no links %v: files after the failed commit (-before +after):\n%s", noLinks, diff)
		}
	}
}

// A directory where gen's stale file was is no longer gen's: the commit
// leaves it, with its content, and forgets the file.
func TestStagerLeavesADirectoryWhereAStaleFileWas(t *testing.T) {
	dir, second := rollbackCase(t)
	mine(t, dir, "b/stale.txt")
	res, err := commitTree(t, dir, second)
	if err != nil {
		t.Fatal(err)
	}
	if res.Removed != 0 {
		t.Errorf("removed %d; want 0", res.Removed)
	}
	got, _ := outdirtest.ReadTree(t, dir)
	if got["b/stale.txt/mine.txt"] != "the user's" {
		t.Errorf("the user's directory after the commit: %v", got)
	}
	if m := readMarker(dir); slices.ContainsFunc(m.files, func(e markerEntry) bool { return e.path == "b/stale.txt" }) {
		t.Errorf("the marker still lists b/stale.txt")
	}
}

// A stale file that cannot move into the journal because it is on another
// file system (below a symbolic link in DIR) is removed as before, and the
// commit succeeds.
func TestStagerRemovesAStaleFileOnAnotherFileSystem(t *testing.T) {
	dir, second := rollbackCase(t)
	rename := renameFile
	t.Cleanup(func() { renameFile = rename })
	renameFile = func(from, to string) error {
		if strings.HasSuffix(from, "stale.txt") {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EXDEV}
		}
		return os.Rename(from, to)
	}
	res, err := commitTree(t, dir, second)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := outdirtest.ReadTree(t, dir)
	if _, ok := got["b/stale.txt"]; ok || res.Removed != 1 {
		t.Errorf("removed %d, b/stale.txt still there: %v; want it removed", res.Removed, ok)
	}
}

// When putting DIR back fails too, the error says what could not be put
// back and where the old files are, and they stay there: no later run
// removes them.
func TestStagerFailedRollbackKeepsTheOldFiles(t *testing.T) {
	for _, noLinks := range []bool{false, true} {
		dir, second := rollbackCase(t)
		rename, link := renameFile, linkFile
		renameFile = func(from, to string) error {
			if strings.HasSuffix(to, emit.OutputMarker) && !strings.Contains(from, stagePrefix) {
				// The final marker fails; a directory now stands where
				// a/z.txt and b/stale.txt go back.
				for _, p := range []string{"b/stale.txt", "a/z.txt"} {
					full := filepath.Join(dir, filepath.FromSlash(p))
					os.Remove(full)
					if err := os.MkdirAll(filepath.Join(full, "x"), 0o755); err != nil {
						t.Fatal(err)
					}
				}
				return &os.LinkError{Op: "rename", Old: from, New: to, Err: errors.New("injected failure")}
			}
			return os.Rename(from, to)
		}
		if noLinks {
			linkFile = func(string, string) error { return errors.New("operation not permitted") }
		}
		_, err := commitTree(t, dir, second)
		renameFile, linkFile = rename, link
		if err == nil || !strings.Contains(err.Error(), "failed too") || !strings.Contains(err.Error(), keptPrefix) {
			t.Fatalf("no links %v: commit error %v; want what failed and where the old files are", noLinks, err)
		}
		RemoveLeftovers(dir, false)
		var kept []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.Contains(p, keptPrefix) {
				b, _ := os.ReadFile(p)
				kept = append(kept, string(b))
			}
			return nil
		})
		slices.Sort(kept)
		for _, old := range []string{"old z", "stale"} {
			if !slices.Contains(kept, old) {
				t.Errorf("no links %v: the old content %q is not kept (kept: %q)", noLinks, old, kept)
			}
		}
	}
}

// When a new directory cannot move back, the rollback says so and leaves
// the marker that lists it, so the next run removes it.
func TestStagerFailedUndoOfANewDirectory(t *testing.T) {
	dir, second := rollbackCase(t)
	st := NewStager(dir, Options{})
	var files []emit.File
	for p, data := range second {
		files = append(files, emit.File{Path: p, Data: []byte(data)})
	}
	if err := st.Stage("t", files); err != nil {
		t.Fatal(err)
	}
	rename := renameFile
	t.Cleanup(func() { renameFile = rename })
	renameFile = func(from, to string) error {
		if strings.HasSuffix(to, "z.txt") {
			// c, moved whole, cannot go back into the stage now.
			if err := os.MkdirAll(filepath.Join(st.stageDir, "c", "blocker"), 0o755); err != nil {
				t.Error(err)
			}
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: errors.New("injected failure")}
		}
		return os.Rename(from, to)
	}
	_, err := st.Commit([]string{"t"})
	st.Abort()
	renameFile = rename
	if err == nil || !strings.Contains(err.Error(), "failed too") || !strings.Contains(err.Error(), filepath.Join(dir, "c")) {
		t.Fatalf("commit error %v; want the injected failure and that c could not be put back", err)
	}
	RemoveLeftovers(dir, false)
	if _, err := commitTree(t, dir, rollbackFirst()); err != nil {
		t.Fatal(err)
	}
	got, _ := outdirtest.ReadTree(t, dir)
	kept := 0
	for p := range got {
		if strings.HasPrefix(p, keptPrefix) {
			kept++
			delete(got, p) // the old files, left for the user
		}
	}
	want := rollbackFirst()
	want[emit.OutputMarker] = got[emit.OutputMarker]
	if diff := cmp.Diff(want, got); diff != "" || kept == 0 {
		t.Errorf("DIR after the next run, %d kept files (-want +got):\n%s", kept, diff)
	}
}

// Stage learns which directories of DIR are missing once (a file below one
// is new and not read), and makes the stage's directories in batches that
// share parents; a directory made after it looked is not taken as missing
// for good by a new Stager.
func TestStagerMissingDirectories(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "out")
	st := NewStager(dir, Options{})
	defer st.Abort()
	if !st.missingDir(filepath.Join(dir, "a", "b")) || !st.missingDir(dir) {
		t.Fatal("directories of a missing DIR are not missing")
	}
	batches := [][]emit.File{
		{{Path: "a/b/c/one.txt", Data: []byte("1")}, {Path: "a/b/two.txt", Data: []byte("2")}},
		{{Path: "a/b/c/d/three.txt", Data: []byte("3")}, {Path: "a/x/four.txt", Data: []byte("4")}, {Path: "five.txt", Data: []byte("5")}},
	}
	for _, files := range batches {
		if err := st.Stage("t", files); err != nil {
			t.Fatal(err)
		}
	}
	res, err := st.Commit([]string{"t"})
	if err != nil || res.Written != 5 {
		t.Fatalf("commit: %+v, %v; want 5 files written", res, err)
	}
	got, _ := outdirtest.ReadTree(t, dir)
	for _, files := range batches {
		for _, f := range files {
			if got[f.Path] != string(f.Data) {
				t.Errorf("%s: %q, want %q", f.Path, got[f.Path], f.Data)
			}
		}
	}
	again := NewStager(dir, Options{})
	defer again.Abort()
	if again.missingDir(filepath.Join(dir, "a", "b", "c")) || !again.missingDir(filepath.Join(dir, "a", "nope")) {
		t.Error("a new Stager: a/b/c should be there and a/nope missing")
	}
	// A second run of the same files reads them and finds them unchanged.
	for _, files := range batches {
		if err := again.Stage("t", files); err != nil {
			t.Fatal(err)
		}
	}
	if res, err := again.Commit([]string{"t"}); err != nil || res.Unchanged != 5 || res.Written != 0 {
		t.Errorf("second run: %+v, %v; want 5 unchanged", res, err)
	}
}
