package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry/publish"
)

func TestPublishGit(t *testing.T) {
	t.Chdir("../..")
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	base, err := r.CommitCheckedOut(source.CommitOptions{Branch: "main", Files: []source.File{{Path: "README.md", Data: []byte("types\n")}},
		Author: source.Author{Name: "T", Email: "t@example.com"}, Message: "start", When: time.Unix(1700000000, 0)})
	if err != nil {
		t.Fatal(err)
	}

	// Without an author and without git config: a usage error.
	code, _, stderr := runCLI(t, "publish", "--git", dir, "fixtures/valid_basic")
	if code != exitUsage || !strings.Contains(stderr, "no commit author") {
		t.Fatalf("exit %d: %s", code, stderr)
	}

	code, stdout, stderr := runCLI(t, "publish", "--git", dir, "--git-branch", "udtc/reg", "--git-author", "Platform Bot <bot@example.com>",
		"--git-message", "Register MyCompany.Resources", "fixtures/valid_basic")
	if code != 0 || !strings.Contains(stdout, "on branch udtc/reg of") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, stdout, stderr)
	}
	snap, err := r.Resolve("udtc/reg")
	if err != nil {
		t.Fatal(err)
	}
	c := snap.Commit
	if c.Author.Name != "Platform Bot" || c.Author.Email != "bot@example.com" || c.Message != "Register MyCompany.Resources" ||
		len(c.ParentHashes) != 1 || c.ParentHashes[0].String() != base {
		t.Errorf("commit: %+v parents %v", c.Author, c.ParentHashes)
	}
	want, err := os.ReadFile("fixtures/valid_basic/manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := fs.ReadFile(snap.FS(), "udtc/manifests/fixtures/valid_basic/manifest.yaml")
	if err != nil || string(got) != string(want) {
		t.Errorf("manifest in the commit: %v", err)
	}
	for _, p := range []string{"README.md", "udtc/bicep/mycompanyresources/types.json", "udtc/bicep/mycompanyresources/index.json", "udtc/bicep/mycompanyresources.tgz"} {
		if _, err := fs.Stat(snap.FS(), p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "udtc")); !os.IsNotExist(err) {
		t.Errorf("the working tree was touched: %v", err)
	}

	// The same manifests again: nothing to commit.
	code, stdout, _ = runCLI(t, "publish", "--git", dir, "--git-branch", "udtc/reg", "--git-author", "Platform Bot <bot@example.com>", "fixtures/valid_basic")
	if code != 0 || !strings.Contains(stdout, "nothing committed") {
		t.Errorf("again: exit %d: %s", code, stdout)
	}

	// Other manifests, the author from git config: the directory is replaced.
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = From Config\n\temail = cfg@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runCLI(t, "publish", "--git", dir, "--git-branch", "udtc/reg", "--output", "json", "fixtures/valid_multi_file")
	if code != 0 {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	var rep publish.GitReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || !rep.Changed || rep.Branch != "udtc/reg" {
		t.Fatalf("report %+v: %v", rep, err)
	}
	snap2, err := r.Resolve("udtc/reg")
	if err != nil || snap2.Hash() != rep.Commit || snap2.Commit.ParentHashes[0] != snap.Commit.Hash {
		t.Fatalf("second commit: %v", err)
	}
	if snap2.Commit.Author.Name != "From Config" || !strings.Contains(snap2.Commit.Message, "udtc publish: ") {
		t.Errorf("author/message: %+v %q", snap2.Commit.Author, snap2.Commit.Message)
	}
	if _, err := fs.Stat(snap2.FS(), "udtc/manifests/fixtures/valid_basic/manifest.yaml"); err == nil {
		t.Error("the earlier manifests were kept")
	}
	for _, f := range rep.Files {
		if _, err := fs.Stat(snap2.FS(), f); err != nil || !strings.HasPrefix(f, "udtc/") {
			t.Errorf("%s: %v", f, err)
		}
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--git", dir, "--git-branch", "main"}, "checked out"},
		{[]string{"--git", t.TempDir()}, "not inside a git repository"},
		{[]string{"--git", dir, "--git-author", "nobody"}, "--git-author must be"},
		{[]string{"--git", dir, "--git-dir", "../out"}, "--git-dir must be"},
	} {
		code, _, stderr := runCLI(t, append(append([]string{"publish"}, tc.args...), "fixtures/valid_basic")...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d: %s", tc.args, code, stderr)
		}
	}
	code, _, _ = runCLI(t, "publish", "--git", dir, "fixtures/error_seed_typo")
	if code != exitFail {
		t.Errorf("manifests with errors: exit %d", code)
	}
}
