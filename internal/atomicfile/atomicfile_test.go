package atomicfile

import (
	"errors"
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
