// Package secrets owns the encryption at rest of resources' sensitive values
// (x-radius-sensitive properties): AES-256-GCM with a 32-byte key kept in a
// key file of mode 0600. It has no knowledge of resources or stores: the
// server seals the sensitive part of a resource before it is stored and
// opens it for listSecrets only.
//
// A sealed value is
//
//	0x01 | key fingerprint (8 bytes) | nonce (12 bytes) | ciphertext+tag
//
// The fingerprint (SHA-256 of the key, truncated) lets Open tell "sealed
// with another key" from "tampered with". The additional data binds a sealed
// value to its resource (the caller passes the resource ID), so a sealed
// value copied to another row does not open.
package secrets

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the key length: AES-256.
const KeySize = 32

const (
	version       = 0x01
	fingerprintSz = 8
)

// ErrWrongKey is returned by Open for a value sealed with another key.
var ErrWrongKey = errors.New("sealed with a different key")

// Sealer seals and opens values with one key. It is safe for concurrent use.
type Sealer struct {
	aead        cipher.AEAD
	fingerprint [fingerprintSz]byte
	tagKey      []byte // Tag's, derived from the key
}

// New returns a Sealer for key, which must be KeySize bytes.
func New(key []byte) (*Sealer, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secrets: the key is %d bytes; it must be %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	s := &Sealer{aead: aead, tagKey: mac(key, []byte("udtc secrets: tags"))}
	sum := sha256.Sum256(key)
	copy(s.fingerprint[:], sum[:])
	return s, nil
}

// Fingerprint identifies the key without revealing it (16 hex digits), for
// logs and error messages.
func (s *Sealer) Fingerprint() string { return hex.EncodeToString(s.fingerprint[:]) }

// Tag returns a keyed hash (HMAC-SHA256) of data for purpose, under a key
// derived from the sealer's: a name for a secret that servers sharing the
// key agree on, and from which nobody without the key can guess the
// secret offline.
func (s *Sealer) Tag(purpose string, data []byte) []byte {
	return mac(mac(s.tagKey, []byte(purpose)), data)
}

func mac(key, data []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write(data)
	return h.Sum(nil)
}

// Seal encrypts plaintext bound to aad (the resource ID).
func (s *Sealer) Seal(plaintext, aad []byte) []byte {
	nonceSize := s.aead.NonceSize()
	out := make([]byte, 1+fingerprintSz+nonceSize, 1+fingerprintSz+nonceSize+len(plaintext)+s.aead.Overhead())
	out[0] = version
	copy(out[1:], s.fingerprint[:])
	nonce := out[1+fingerprintSz:]
	if _, err := rand.Read(nonce); err != nil {
		// crypto/rand does not fail on supported platforms (Go 1.24+ crashes
		// instead); a panic here is the documented behaviour of rand.Read.
		panic(err)
	}
	return s.aead.Seal(out, nonce, plaintext, aad)
}

// Open decrypts a value sealed by Seal with the same aad. It returns
// ErrWrongKey for a value sealed with another key, and an error that names
// no content for a value that is malformed or was tampered with.
func (s *Sealer) Open(sealed, aad []byte) ([]byte, error) {
	nonceSize := s.aead.NonceSize()
	if len(sealed) < 1+fingerprintSz+nonceSize+s.aead.Overhead() || sealed[0] != version {
		return nil, errors.New("secrets: not a sealed value")
	}
	if !bytes.Equal(sealed[1:1+fingerprintSz], s.fingerprint[:]) {
		return nil, fmt.Errorf("secrets: %w (key %s, value %s)", ErrWrongKey, s.Fingerprint(), hex.EncodeToString(sealed[1:1+fingerprintSz]))
	}
	nonce := sealed[1+fingerprintSz : 1+fingerprintSz+nonceSize]
	plain, err := s.aead.Open(nil, nonce, sealed[1+fingerprintSz+nonceSize:], aad)
	if err != nil {
		return nil, errors.New("secrets: the sealed value does not authenticate (tampered with, or moved from another resource)")
	}
	return plain, nil
}

// LoadKeyFile reads a key file: the key as 64 hexadecimal digits, optionally
// followed by a newline. It refuses a file that its group or others may read
// or write, as ssh does for private keys.
func LoadKeyFile(path string) (*Sealer, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("secret key file %s is not a regular file", path)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("secret key file %s has mode %04o: others may read it; run chmod 600 %s", path, perm, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	text := strings.TrimSpace(string(data))
	key, err := hex.DecodeString(text)
	if err != nil || len(key) != KeySize {
		return nil, fmt.Errorf("secret key file %s must hold %d hexadecimal digits (a %d-byte key), e.g. from: openssl rand -hex %d", path, 2*KeySize, KeySize, KeySize)
	}
	return New(key)
}

// CreateKeyFile writes a new random key to path with mode 0600. It never
// overwrites: an existing file is an error wrapping fs.ErrExist. The key is
// written to a temporary file and linked into place, so a concurrent reader
// never sees a partial key.
func CreateKeyFile(path string) (*Sealer, error) {
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".udtc-key-*")
	if err != nil {
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, werr := f.WriteString(hex.EncodeToString(key) + "\n")
	merr := f.Chmod(0o600)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		return nil, fmt.Errorf("secret key file %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		return nil, fmt.Errorf("secret key file: %w", err)
	}
	return New(key)
}

// LoadOrCreateKeyFile loads the key file at path, creating it (mode 0600)
// when it does not exist. created reports whether it did.
func LoadOrCreateKeyFile(path string) (s *Sealer, created bool, err error) {
	s, err = LoadKeyFile(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return s, false, err
	}
	s, err = CreateKeyFile(path)
	if errors.Is(err, fs.ErrExist) {
		// Another process created it between our two calls.
		s, err = LoadKeyFile(path)
		return s, false, err
	}
	return s, err == nil, err
}
