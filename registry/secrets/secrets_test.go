package secrets

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestSealOpen(t *testing.T) {
	s, err := New(bytes.Repeat([]byte{7}, KeySize))
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte(`{"password":"hunter2"}`)
	aad := []byte("/planes/radius/local/resourcegroups/rg/providers/contoso.data/dbs/d")
	sealed := s.Seal(plain, aad)
	if bytes.Contains(sealed, []byte("hunter2")) {
		t.Fatal("sealed value contains the plaintext")
	}
	got, err := s.Open(sealed, aad)
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("Open = %q, %v", got, err)
	}
	// Two seals of the same value differ (random nonce).
	if bytes.Equal(sealed, s.Seal(plain, aad)) {
		t.Error("two seals are identical")
	}
	// Bound to its resource.
	if _, err := s.Open(sealed, []byte("/other")); err == nil {
		t.Error("a sealed value opened with another resource's ID")
	}
	// Tampering is detected.
	bad := bytes.Clone(sealed)
	bad[len(bad)-1] ^= 1
	if _, err := s.Open(bad, aad); err == nil {
		t.Error("a tampered value opened")
	}
	for _, junk := range [][]byte{nil, {1}, []byte("not sealed at all, just some bytes")} {
		if _, err := s.Open(junk, aad); err == nil {
			t.Errorf("Open(%q) succeeded", junk)
		}
	}
	// Another key is told apart from tampering.
	other, _ := New(bytes.Repeat([]byte{8}, KeySize))
	if _, err := other.Open(sealed, aad); !errors.Is(err, ErrWrongKey) {
		t.Errorf("Open with another key: %v, want ErrWrongKey", err)
	}
	if _, err := New(make([]byte, 16)); err == nil {
		t.Error("New accepted a 16-byte key")
	}
}

func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.key")
	s1, created, err := LoadOrCreateKeyFile(path)
	if err != nil || !created {
		t.Fatalf("LoadOrCreateKeyFile = %v, %v", created, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("key file mode %04o, want 0600", perm)
	}
	s2, created, err := LoadOrCreateKeyFile(path)
	if err != nil || created {
		t.Fatalf("second LoadOrCreateKeyFile = %v, %v", created, err)
	}
	if s1.Fingerprint() != s2.Fingerprint() {
		t.Error("the reloaded key differs")
	}
	sealed := s1.Seal([]byte("x"), nil)
	if got, err := s2.Open(sealed, nil); err != nil || string(got) != "x" {
		t.Errorf("reloaded key cannot open: %q, %v", got, err)
	}
	if _, err := CreateKeyFile(path); !errors.Is(err, fs.ErrExist) {
		t.Errorf("CreateKeyFile over an existing file: %v, want ErrExist", err)
	}

	// A key file others can read is refused, naming the fix.
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKeyFile(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("LoadKeyFile of a 0644 file: %v", err)
	}

	// Malformed contents.
	bad := filepath.Join(dir, "bad.key")
	for _, content := range []string{"", "zz", strings.Repeat("ab", 16), strings.Repeat("g", 64)} {
		if err := os.WriteFile(bad, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadKeyFile(bad); err == nil || !strings.Contains(err.Error(), "64 hexadecimal digits") {
			t.Errorf("LoadKeyFile(%q): %v", content, err)
		}
	}
	if _, err := LoadKeyFile(dir); err == nil {
		t.Error("LoadKeyFile of a directory succeeded")
	}
}

func TestLoadOrCreateConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret.key")
	var wg sync.WaitGroup
	prints := make([]string, 8)
	errs := make([]error, 8)
	for i := range prints {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, _, err := LoadOrCreateKeyFile(path)
			errs[i] = err
			if err == nil {
				prints[i] = s.Fingerprint()
			}
		}()
	}
	wg.Wait()
	for i := range prints {
		if errs[i] != nil {
			t.Errorf("starter %d: %v", i, errs[i])
		} else if prints[i] != prints[0] {
			t.Errorf("starter %d got key %s, starter 0 got %s", i, prints[i], prints[0])
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only the key file", len(entries))
	}
}
