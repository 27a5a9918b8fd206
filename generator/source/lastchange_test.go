package source_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/source"
)

// TestLastChange: the time is that of the newest commit touching the
// paths, not HEAD's; untracked paths and directories outside any
// repository have none.
func TestLastChange(t *testing.T) {
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	t1, t2 := time.Unix(1700000000, 0).UTC(), time.Unix(1700086400, 0).UTC()
	write := func(rel, data string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("manifests/a.yaml", "a")
	write("docs/x.md", "1")
	if _, ok, err := source.LastChange(filepath.Join(dir, "manifests")); ok || err != nil {
		t.Fatalf("before any commit: ok=%v err=%v", ok, err)
	}
	for _, c := range []struct {
		when  time.Time
		files []source.File
	}{
		{t1, []source.File{{Path: "manifests/a.yaml", Data: []byte("a")}, {Path: "docs/x.md", Data: []byte("1")}}},
		{t2, []source.File{{Path: "manifests/a.yaml", Data: []byte("a")}, {Path: "docs/x.md", Data: []byte("2")}}},
	} {
		if _, err := r.CommitCheckedOut(source.CommitOptions{Branch: "main", Files: c.files, Author: me, Message: "m", When: c.when}); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/x.md", "2")
	write("new/b.yaml", "b") // never committed
	outside := t.TempDir()
	for _, c := range []struct {
		paths []string
		want  time.Time
		ok    bool
	}{
		{[]string{filepath.Join(dir, "manifests")}, t1, true},
		{[]string{filepath.Join(dir, "manifests", "a.yaml")}, t1, true},
		{[]string{filepath.Join(dir, "docs")}, t2, true},
		{[]string{filepath.Join(dir, "manifests"), filepath.Join(dir, "docs")}, t2, true},
		{[]string{dir}, t2, true},
		{[]string{filepath.Join(dir, "new")}, time.Time{}, false},
		{[]string{outside}, time.Time{}, false},
		{[]string{outside, filepath.Join(dir, "manifests")}, t1, true},
	} {
		got, ok, err := source.LastChange(c.paths...)
		if err != nil || ok != c.ok || !got.Equal(c.want) {
			t.Errorf("LastChange(%v) = %v, %v, %v; want %v, %v", c.paths, got, ok, err, c.want, c.ok)
		}
	}
}

// TestLastChangeLinkedWorktree: in a worktree made by `git worktree add`
// the refs and objects live in the main repository's .git; the time is
// still found.
func TestLastChangeLinkedWorktree(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	main, linked := t.TempDir(), filepath.Join(t.TempDir(), "wt")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_AUTHOR_DATE=2024-05-06T07:08:09Z", "GIT_COMMITTER_DATE=2024-05-06T07:08:09Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(main, "init", "-q", "-b", "main")
	if err := os.MkdirAll(filepath.Join(main, "manifests"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(main, "manifests", "a.yaml"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(main, "add", ".")
	git(main, "commit", "-q", "-m", "m")
	git(main, "worktree", "add", "-q", "-b", "feature", linked)
	got, ok, err := source.LastChange(filepath.Join(linked, "manifests"))
	if want := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC); err != nil || !ok || !got.Equal(want) {
		t.Errorf("LastChange in a linked worktree = %v, %v, %v; want %v", got, ok, err, want)
	}
}
