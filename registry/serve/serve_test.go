package serve

import (
	"strings"
	"testing"
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
	tokens := ParseTokens([]byte("# comment\n\n  alpha  \nbeta\n"))
	if len(tokens) != 2 || tokens[0].Value != "alpha" || tokens[1].Value != "beta" || !strings.HasPrefix(tokens[0].Name, "token:") || tokens[0].Name == tokens[1].Name {
		t.Errorf("ParseTokens = %+v", tokens)
	}
}
