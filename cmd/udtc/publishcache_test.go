package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// TestPublishNoOpSkipsCompileButSeesChanges: a publish with unchanged
// inputs and an unchanged registry compiles nothing; an edited manifest,
// or a registration changed behind publish's back, is still detected and
// written.
func TestPublishNoOpSkipsCompileButSeesChanges(t *testing.T) {
	t.Chdir("../..")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	srv := startServeProcess(t, "sqlite:"+filepath.Join(t.TempDir(), "registry.db"))
	dir := copyDir(t, "examples")
	publishText := func(wantWrites string, wantSkip bool) {
		t.Helper()
		code, stdout, stderr := runCLI(t, "publish", "--server", srv.url, "--timeout", "2m", dir)
		if code != 0 {
			t.Fatalf("publish: exit %d\n%s\n%s", code, stdout, stderr)
		}
		if !strings.Contains(stdout, wantWrites) {
			t.Fatalf("publish printed\n%s\nwant a line with %q", stdout, wantWrites)
		}
		if skipped := strings.Contains(stderr, "nothing compiled"); skipped != wantSkip {
			t.Fatalf("publish skipped the compile: %t, want %t\nstdout:\n%s\nstderr:\n%s", skipped, wantSkip, stdout, stderr)
		}
	}
	publishText("Applied 13 of 13 writes.", false)
	full := "Plan: 0 to create, 0 to update, 0 to delete, 13 unchanged (not listed; -v lists them).\nThe registry already matches the manifests: 0 writes.\n"
	// The record of the first publish, made without reading the schemas
	// it wrote back, is replayed.
	code, stdout, stderr := runCLI(t, "publish", "--server", srv.url, "--timeout", "2m", dir)
	if code != 0 || !strings.HasSuffix(stdout, full) || !strings.Contains(stderr, "nothing compiled") {
		t.Fatalf("second publish: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// An option that changes what is sent is no replay: without Radius's
	// base properties the schemas differ.
	code, stdout, stderr = runCLI(t, "publish", "--server", srv.url, "--timeout", "2m", "--base-properties=false", "--dry-run", dir)
	if strings.Contains(stderr, "nothing compiled") || !strings.Contains(stdout, "to update") || strings.Contains(stdout, "0 to update") {
		t.Fatalf("publish --base-properties=false replayed or planned nothing: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// An edit in a manifest.
	edit(t, filepath.Join(dir, "data.yaml"), "enum: [S, M, L, XL]", "enum: [S, M, L, XL, XXL]")
	publishText("Applied 1 of 1 write.", false)
	publishText("The registry already matches the manifests: 0 writes.", true)

	// A change made to the registry behind publish's back: an API version
	// the manifests declare deleted.
	url := srv.url + "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Data/resourceTypes/postgresDatabases/apiVersions/2025-01-01-preview?api-version=" + api.Version
	req, err := http.NewRequest("DELETE", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("DELETE behind publish's back: %d", resp.StatusCode)
	}
	publishText("Applied 1 of 1 write.", false)
	publishText("The registry already matches the manifests: 0 writes.", true)
	assertRegistryMatches(t, srv.url, dir)
}
