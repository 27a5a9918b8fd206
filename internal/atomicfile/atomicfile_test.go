package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// WriteFile makes the directory, gives the file its mode whatever the
// umask, and leaves no temporary file; a failed rename leaves the old
// file and no temporary one either.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a", "b", "f.txt")
	if err := WriteFile(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("stat %v, %v; want mode 0600", st, err)
	}
	err := Replace(p, []byte("two"), 0o644, func(string, string) error { return errors.New("injected") })
	if err == nil {
		t.Fatal("a failed rename returned no error")
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if b, _ := os.ReadFile(p); string(b) != "one" || len(entries) != 1 {
		t.Errorf("after a failed rename: %q and %d entries; want the old file alone", b, len(entries))
	}
}

func TestIsTempName(t *testing.T) {
	for name, want := range map[string]bool{".udtc-123": true, ".udtc-": false, ".udtc-stage-1": false, "udtc-1": false, ".udtc-12a": false} {
		if got := IsTempName(name); got != want {
			t.Errorf("IsTempName(%q) = %v, want %v", name, got, want)
		}
	}
}

// WriteNew creates the file with its contents and mode, whatever the
// umask; an existing file is an error naming it, and is left as it was.
func TestWriteNew(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.txt")
	if err := WriteNew(p, []byte("one"), 0o640); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if b, _ := os.ReadFile(p); err != nil || st.Mode().Perm() != 0o640 || string(b) != "one" {
		t.Fatalf("wrote %q, mode %v, %v; want \"one\", 0640", b, st.Mode(), err)
	}
	err = WriteNew(p, []byte("two"), 0o644)
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrExist) || !errors.As(err, &pe) || pe.Path != p {
		t.Errorf("writing over an existing file: %v; want a path error saying it exists", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one" {
		t.Errorf("the existing file now holds %q", b)
	}
}
