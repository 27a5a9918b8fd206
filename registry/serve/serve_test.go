package serve

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
)

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:7443": true, "localhost:1": true, "[::1]:1": true, "127.1.2.3:80": true,
		"0.0.0.0:1": false, ":1": false, "[::]:1": false, "10.0.0.1:1": false,
	} {
		if got, err := IsLoopback(addr); err != nil || got != want {
			t.Errorf("IsLoopback(%q) = %v, %v; want %v", addr, got, err, want)
		}
	}
}

func TestParseStore(t *testing.T) {
	for spec, want := range map[string]Store{
		"sqlite:./r.db":              {Name: "sqlite:./r.db", Path: "./r.db"},
		"postgres://u@h/db":          {Name: "postgres"},
		"postgresql://u:secret@h/db": {Name: "postgres"},
	} {
		got, err := ParseStore(spec)
		if err != nil || got.Name != want.Name || got.Path != want.Path || got.Open == nil {
			t.Errorf("ParseStore(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
	}
	for spec, want := range map[string]string{"sqlite:": "needs a path", "mysql://x": `must be sqlite:PATH or postgres://..., not "mysql://x"`} {
		if _, err := ParseStore(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseStore(%q): %v; want an error with %q", spec, err, want)
		}
	}
}

func TestParseTokens(t *testing.T) {
	tokens, err := ParseTokens([]byte("# comment\n\n  alpha  \nbeta, ci-publisher\n"))
	if err != nil || len(tokens) != 2 || tokens[0] != (server.Token{Value: "alpha"}) || tokens[1] != (server.Token{Name: "ci-publisher", Value: "beta"}) {
		t.Errorf("ParseTokens = %+v, %v", tokens, err)
	}
	for in, want := range map[string]string{"ok\n,name\n": "line 2: no token", "tok,has space\n": "line 1: the name", "tok,\n": "line 1: the name"} {
		if _, err := ParseTokens([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTokens(%q) = %v, want %q", in, err, want)
		}
	}
}

// An unnamed token is named by a keyed hash: not by a hash of the token
// alone, which would let any reader of systemData test guesses offline.
func TestNameTokens(t *testing.T) {
	key := make([]byte, secrets.KeySize)
	one, _ := secrets.New(key)
	key[0] = 1
	other, _ := secrets.New(key)
	in := []server.Token{{Value: "hunter2"}, {Name: "ci", Value: "s3cret"}}
	a, b, c := NameTokens(in, one), NameTokens(in, one), NameTokens(in, other)
	sum := sha256.Sum256([]byte("hunter2"))
	if a[1].Name != "ci" || !strings.HasPrefix(a[0].Name, "token:") || len(a[0].Name) != len("token:")+8 || a[0].Name != b[0].Name ||
		a[0].Name == c[0].Name || a[0].Name == "token:"+hex.EncodeToString(sum[:4]) || in[0].Name != "" {
		t.Errorf("NameTokens = %+v, %+v with another key", a, c)
	}
}
