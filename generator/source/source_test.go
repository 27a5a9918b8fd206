package source_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/udtc/udtc/generator/source"
)

var me = source.Author{Name: "Test", Email: "test@example.com"}

func commit(t *testing.T, r *source.Repo, branch, msg string, files ...source.File) string {
	t.Helper()
	h, err := r.CommitCheckedOut(source.CommitOptions{Branch: branch, Files: files, Author: me, Message: msg, When: time.Unix(1700000000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestRevisionsAndTreeFS(t *testing.T) {
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := commit(t, r, "main", "first", source.File{Path: "m/a.yaml", Data: []byte("a: 1\n")}, source.File{Path: "README", Data: []byte("hi")})
	if err := r.Tag("v1", a); err != nil {
		t.Fatal(err)
	}
	b := commit(t, r, "main", "second", source.File{Path: "m/a.yaml", Data: []byte("a: 2\n")}, source.File{Path: "m/sub/b.json", Data: []byte("{}")})
	if err := r.Branch("old", a); err != nil {
		t.Fatal(err)
	}
	for rev, want := range map[string]string{"HEAD": b, "main": b, "HEAD~1": a, "v1": a, "old": a, a: a, a[:10]: a, "HEAD^": a} {
		s, err := r.Resolve(rev)
		if err != nil {
			t.Errorf("%s: %v", rev, err)
			continue
		}
		if s.Hash() != want {
			t.Errorf("%s = %s, want %s", rev, s.Hash(), want)
		}
	}
	for _, rev := range []string{"nope", "HEAD~5", "", "v2"} {
		if _, err := r.Resolve(rev); !errors.Is(err, source.ErrUnknownRevision) || !strings.Contains(err.Error(), rev) {
			t.Errorf("%q: %v, want ErrUnknownRevision naming it", rev, err)
		}
	}
	s, err := r.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	// Both commits replaced the whole tree (Dir ""): README is gone at HEAD.
	if err := fstest.TestFS(s.FS(), "m/a.yaml", "m/sub/b.json"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(s.FS(), "README"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("README at HEAD: %v", err)
	}
	got, err := fs.ReadFile(s.FS(), "m/a.yaml")
	if err != nil || string(got) != "a: 2\n" {
		t.Errorf("m/a.yaml = %q, %v", got, err)
	}
}

func TestDiscoverAndRel(t *testing.T) {
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	found, err := source.Discover(sub)
	if err != nil {
		t.Fatal(err)
	}
	if found.Root != r.Root {
		t.Errorf("root %s, want %s", found.Root, r.Root)
	}
	if rel, err := found.Rel(sub); err != nil || rel != "a/b" {
		t.Errorf("Rel = %q, %v", rel, err)
	}
	if rel, err := found.Rel(dir); err != nil || rel != "." {
		t.Errorf("Rel(root) = %q, %v", rel, err)
	}
	outside := t.TempDir()
	if _, err := found.Rel(outside); !errors.Is(err, source.ErrNotRepository) {
		t.Errorf("Rel(outside) = %v", err)
	}
	if _, err := source.Discover(outside); !errors.Is(err, source.ErrNotRepository) {
		t.Errorf("Discover(outside) = %v", err)
	}
}

func TestCommit(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // no global git config
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	base := commit(t, r, "main", "base", source.File{Path: "keep.txt", Data: []byte("k")}, source.File{Path: "out/stale.txt", Data: []byte("s")})
	opts := source.CommitOptions{Branch: "udtc/reg", Dir: "out", Files: []source.File{{Path: "x/new.txt", Data: []byte("n")}}, Message: "register"}
	if _, err := r.Commit(opts); !errors.Is(err, source.ErrNoAuthor) {
		t.Fatalf("without an author: %v", err)
	}
	cfg := "[user]\n\tname = From Config\n\temail = cfg@example.com\n"
	if err := os.WriteFile(filepath.Join(dir, ".git", "config"), append(mustRead(t, filepath.Join(dir, ".git", "config")), cfg...), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = source.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.Commit(opts)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Resolve("udtc/reg")
	if err != nil || s.Hash() != h {
		t.Fatalf("branch: %v %v", s, err)
	}
	if s.Commit.Author.Name != "From Config" || s.Commit.Author.Email != "cfg@example.com" || s.Commit.Message != "register" {
		t.Errorf("commit %+v", s.Commit.Author)
	}
	if len(s.Commit.ParentHashes) != 1 || s.Commit.ParentHashes[0].String() != base {
		t.Errorf("parent %v, want %s", s.Commit.ParentHashes, base)
	}
	if err := fstest.TestFS(s.FS(), "keep.txt", "out/x/new.txt"); err != nil {
		t.Error(err)
	}
	if _, err := fs.Stat(s.FS(), "out/stale.txt"); err == nil {
		t.Error("out/stale.txt survived: Dir is replaced")
	}
	if _, err := r.Commit(opts); !errors.Is(err, source.ErrNoChange) {
		t.Errorf("same files again: %v", err)
	}
	opts.Branch = "main"
	if _, err := r.Commit(opts); !errors.Is(err, source.ErrCheckedOut) {
		t.Errorf("checked-out branch: %v", err)
	}
	for _, bad := range []source.CommitOptions{
		{Branch: "a..b", Message: "m", Author: me},
		{Branch: "x", Message: "m", Author: me, Dir: "../up"},
		{Branch: "x", Message: "m", Author: me, Files: []source.File{{Path: "/abs"}}},
		{Branch: "x", Message: "m", Author: me, Files: []source.File{{Path: ".git/config"}}},
		{Branch: "x", Message: " ", Author: me},
	} {
		if _, err := r.Commit(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTreeFSConcurrent: the compiler reads files from several goroutines;
// go-git's trees are not safe for that, TreeFS must be (run with -race).
func TestTreeFSConcurrent(t *testing.T) {
	r, err := source.Init(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var files []source.File
	for i := range 20 {
		files = append(files, source.File{Path: fmt.Sprintf("d%d/f%d.yaml", i%3, i), Data: []byte(strings.Repeat("x", i+1))})
	}
	commit(t, r, "main", "many", files...)
	s, err := r.Resolve("main")
	if err != nil {
		t.Fatal(err)
	}
	fsys := s.FS()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 20 {
				f := files[(i+g)%len(files)]
				b, err := fs.ReadFile(fsys, f.Path)
				if err != nil || len(b) != len(f.Data) {
					t.Errorf("%s: %d bytes, %v", f.Path, len(b), err)
				}
				if _, err := fs.ReadDir(fsys, path.Dir(f.Path)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	fsys.ReadLimit = 4
	if b, err := fs.ReadFile(fsys, files[10].Path); err != nil || len(b) != 4 {
		t.Errorf("ReadLimit: %d bytes, %v", len(b), err)
	}
	if st, err := fs.Stat(fsys, files[10].Path); err != nil || st.Size() != 11 {
		t.Errorf("Stat keeps the real size: %v %v", st, err)
	}
}

// A tree whose paths all name one blob reads it once, however many of
// them are opened; each path reads its whole contents.
func TestTreeFSReadsEachBlobOnce(t *testing.T) {
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	big := []byte(strings.Repeat("namespace: A.B\n", 1000))
	var files []source.File
	for i := range 50 {
		files = append(files, source.File{Path: fmt.Sprintf("m/f%02d.yaml", i), Data: big})
	}
	files = append(files, source.File{Path: "m/other.yaml", Data: []byte("x: 1\n")})
	commit(t, r, "main", "one blob, many paths", files...)
	s, err := r.Resolve("main")
	if err != nil {
		t.Fatal(err)
	}
	fsys := s.FS()
	for _, f := range files {
		st, err := fs.Stat(fsys, f.Path)
		if err != nil || st.Size() != int64(len(f.Data)) {
			t.Fatalf("Stat(%s) = %v, %v", f.Path, st, err)
		}
		b, err := fs.ReadFile(fsys, f.Path)
		if err != nil || !bytes.Equal(b, f.Data) {
			t.Fatalf("ReadFile(%s): %d bytes, %v", f.Path, len(b), err)
		}
	}
	if n := source.BlobReads(fsys); n != 2 {
		t.Errorf("%d blob reads for 51 paths naming 2 blobs, want 2", n)
	}
}
