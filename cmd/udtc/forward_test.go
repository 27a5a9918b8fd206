package main

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeForwardFlags: the --forward-* flags are checked, and the
// server knows where it listens: its own address, and by default anything
// but loopback, are refused as location addresses; --forward-allow
// replaces the default.
func TestServeForwardFlags(t *testing.T) {
	store := "sqlite:" + filepath.Join(t.TempDir(), "r.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--forward-allow", "ftp://x"}, "only http and https"},
		{[]string{"--forward-allow", "none,10.0.0.0/8"}, "cannot be combined"},
		{[]string{"--forward-max-concurrent", "0"}, "--forward-max-concurrent must be at least 1"},
		{[]string{"--forward-max-body-bytes", "-1"}, "--forward-max-body-bytes must be at least 1"},
		{[]string{"--forward-timeout", "10ms"}, "--forward-timeout must be at least 1s"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"udtc", "serve", "--store", store}, c.args...), strings.NewReader(""), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("serve %v = %d %q, want %d mentioning %q", c.args, code, stderr.String(), exitUsage, c.want)
		}
	}

	loc := "/planes/radius/local/providers/System.Resources/resourceProviders/Aa.Bb"
	put := func(base, path, body string) int {
		t.Helper()
		req, _ := http.NewRequest("PUT", base+path+"?api-version=2023-10-01-preview", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	base, stop := startServe(t, "--store", store)
	put(base, loc, `{}`)
	for addr, want := range map[string]int{base: 400, "http://127.0.0.1:8080": 201, "http://169.254.169.254": 400} {
		if got := put(base, loc+"/locations/l"+strings.NewReplacer(".", "", ":", "", "/", "").Replace(addr), `{"properties":{"address":"`+addr+`"}}`); got != want {
			t.Errorf("default rules: location at %s = %d, want %d", addr, got, want)
		}
	}
	stop()
	base, stop = startServe(t, "--store", store, "--forward-allow", "10.0.0.0/8", "--forward-allow", "provider.internal")
	defer stop()
	for addr, want := range map[string]int{"http://127.0.0.1:8080": 400, "http://10.1.2.3": 201, "http://provider.internal:8443": 201, "http://other.example": 201} {
		if got := put(base, loc+"/locations/m"+strings.NewReplacer(".", "", ":", "", "/", "").Replace(addr), `{"properties":{"address":"`+addr+`"}}`); got != want {
			t.Errorf("--forward-allow: location at %s = %d, want %d", addr, got, want)
		}
	}
}
