package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fetch GETs url and returns the status and body.
func fetch(t *testing.T, url string) (int, []byte, http.Header) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b, resp.Header
}

// TestServeBicepArchiveIsGens: the archive udtc serve hands out is, byte
// for byte, the one udtc gen writes for the same manifests.
func TestServeBicepArchiveIsGens(t *testing.T) {
	dir := t.TempDir()
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", "../../examples")
	defer stop()
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCLI(t, "gen", "../../examples", "--out", out, "--target", "bicep"); code != 0 {
		t.Fatalf("gen: %s", stderr)
	}
	for _, name := range []string{"contosodata", "contosomessaging"} {
		want, err := os.ReadFile(filepath.Join(out, "bicep", name+".tgz"))
		if err != nil {
			t.Fatal(err)
		}
		code, got, _ := fetch(t, url+"/bicep/"+name+".tgz")
		if code != 200 || !bytes.Equal(got, want) {
			t.Errorf("%s: GET = %d, %d bytes; gen wrote %d bytes, the same: %v", name, code, len(got), len(want), bytes.Equal(got, want))
		}
	}
}

// bicepConfig is a bicepconfig.json as people write it: comments, a
// trailing comma, another extension and other keys.
const bicepConfig = `// The project's Bicep settings.
{
  /* analyzers stay as they are */
  "analyzers": {
    "core": { "enabled": true },
  },
  "extensions": {
    // Kubernetes, by hand.
    "kubernetes": "br:mcr.microsoft.com/bicep/extensions/kubernetes/v1:1.0.0", // pinned by hand
  },
  "experimentalFeaturesEnabled": { "extensibility": true },
}
`

// TestBicepSync: one command brings every extension of a server into a
// project, pinned by digest, the comments of bicepconfig.json intact; a
// second run writes nothing; a changed registration is stale for --check
// and fetched by the next sync.
func TestBicepSync(t *testing.T) {
	dir := t.TempDir()
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", "../../examples")
	defer stop()
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	cfg := filepath.Join(proj, "bicepconfig.json")
	os.WriteFile(cfg, []byte(bicepConfig), 0o644)

	code, stdout, stderr := runCLI(t, "bicep", "sync", "--server", url, "--config", cfg)
	if code != 0 {
		t.Fatalf("sync = %d: %s%s", code, stdout, stderr)
	}
	got, _ := os.ReadFile(cfg)
	_, data, h := fetch(t, url+"/bicep/contosodata.tgz")
	dataDigest := strings.Trim(h.Get("ETag"), `"`)
	_, _, h = fetch(t, url+"/bicep/contosomessaging.tgz")
	msgDigest := strings.Trim(h.Get("ETag"), `"`)
	dataEntry := "./.udtc/bicep/contosodata-" + strings.Replace(dataDigest, ":", "-", 1) + ".tgz"
	msgEntry := "./.udtc/bicep/contosomessaging-" + strings.Replace(msgDigest, ":", "-", 1) + ".tgz"
	want := strings.Replace(bicepConfig, `// pinned by hand
  },`, `// pinned by hand
    "contosodata": "`+dataEntry+`",
    "contosomessaging": "`+msgEntry+`",
  },`, 1)
	if string(got) != want {
		t.Errorf("bicepconfig.json:\n%s\nwant:\n%s", got, want)
	}
	if local, err := os.ReadFile(filepath.Join(proj, filepath.FromSlash(dataEntry))); err != nil || !bytes.Equal(local, data) {
		t.Errorf("the local copy of contosodata is not the server's archive (%v)", err)
	}

	// Nothing new: nothing written, and it says so.
	before, _ := os.Stat(cfg)
	code, stdout, _ = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg)
	if after, _ := os.Stat(cfg); code != 0 || !strings.Contains(stdout, "nothing was written") || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("second sync = %d %q", code, stdout)
	}
	if code, stdout, _ = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "--check"); code != 0 {
		t.Errorf("--check of a current project = %d %s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "--check", "--output", "json")
	if code != 0 || !strings.Contains(stdout, `"extension": "contosodata"`) || !strings.Contains(stdout, `"state": "current"`) || !strings.Contains(stdout, `"digest": "`+dataDigest+`"`) {
		t.Errorf("--check --output json = %d %s", code, stdout)
	}

	// A changed registration: stale, then fetched.
	mustPut(t, url+"/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Data/resourceTypes/caches?api-version=2023-10-01-preview",
		`{"properties":{"description":"A cache."}}`)
	mustPut(t, url+"/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Data/resourceTypes/caches/apiVersions/2025-01-01?api-version=2023-10-01-preview",
		`{"properties":{"schema":{"type":"object","properties":{"environment":{"type":"string"},"size":{"type":"string"}},"required":["environment"]}}}`)
	code, stdout, _ = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "--check")
	if code != 1 || !strings.Contains(stdout, "contosodata (Contoso.Data): stale") || !strings.Contains(stdout, "contosomessaging (Contoso.Messaging): current") {
		t.Errorf("--check after a change = %d %s", code, stdout)
	}
	if now, _ := os.ReadFile(cfg); !bytes.Equal(now, got) {
		t.Errorf("--check wrote bicepconfig.json")
	}
	code, stdout, _ = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "Contoso.Data")
	if code != 0 || !strings.Contains(stdout, "contosodata (Contoso.Data): updated to") {
		t.Errorf("sync after a change = %d %s", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(proj, filepath.FromSlash(dataEntry))); !os.IsNotExist(err) {
		t.Errorf("the archive no entry names is still there: %v", err)
	}
	if code, stdout, _ = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "--check"); code != 0 {
		t.Errorf("--check after the sync = %d %s", code, stdout)
	}

	// Unknown namespaces write nothing.
	now, _ := os.ReadFile(cfg)
	code, _, stderr = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "Nope.Nope")
	if code != 1 || !strings.Contains(stderr, "Nope.Nope is neither a registered namespace nor the extension of one (the registry's extensions: contosodata, contosomessaging)") {
		t.Errorf("unknown namespace = %d %s", code, stderr)
	}
	// A namespace without types has no extension.
	mustPut(t, url+"/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Empty?api-version=2023-10-01-preview", `{}`)
	code, _, stderr = runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "Contoso.Empty")
	if code != 1 || !strings.Contains(stderr, "namespace Contoso.Empty has no registered resource types") {
		t.Errorf("namespace without types = %d %s", code, stderr)
	}
	if again, _ := os.ReadFile(cfg); !bytes.Equal(again, now) {
		t.Errorf("a failed sync changed bicepconfig.json")
	}
}

// mustPut PUTs a JSON body and fails the test unless it succeeds.
func mustPut(t *testing.T, url, body string) {
	t.Helper()
	if code, b := httpDo(t, "PUT", url, body); code >= 300 {
		t.Fatalf("PUT %s = %d %s", url, code, b)
	}
}

// TestBicepSyncNewConfig: without a bicepconfig.json, sync writes one.
func TestBicepSyncNewConfig(t *testing.T) {
	dir := t.TempDir()
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", "../../examples")
	defer stop()
	cfg := filepath.Join(dir, "bicepconfig.json")
	if code, stdout, stderr := runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "contosodata"); code != 0 {
		t.Fatalf("sync = %d %s %s", code, stdout, stderr)
	}
	got, _ := os.ReadFile(cfg)
	if !strings.HasPrefix(string(got), "{\n  \"extensions\": {\n    \"contosodata\": \"./.udtc/bicep/contosodata-sha256-") || !strings.HasSuffix(string(got), ".tgz\"\n  }\n}\n") {
		t.Errorf("new bicepconfig.json:\n%s", got)
	}
}

// TestBicepSyncAuthReads: a server with --auth-reads hands out extensions
// only with the token, which sync sends from --token-file.
func TestBicepSyncAuthReads(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "token")
	os.WriteFile(tok, []byte("s3cret\n"), 0o600)
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", "../../examples", "--token-file", tok, "--auth-reads")
	defer stop()
	cfg := filepath.Join(dir, "bicepconfig.json")
	code, _, stderr := runCLI(t, "bicep", "sync", "--server", url, "--config", cfg)
	if code != 1 || !strings.Contains(stderr, "--token-file") {
		t.Errorf("without a token = %d %s", code, stderr)
	}
	if _, err := os.Stat(cfg); !os.IsNotExist(err) {
		t.Errorf("a refused sync wrote bicepconfig.json")
	}
	if code, stdout, stderr := runCLI(t, "bicep", "sync", "--server", url, "--config", cfg, "--token-file", tok); code != 0 || !strings.Contains(stdout, "2 extension(s) pinned") {
		t.Errorf("with the token = %d %s %s", code, stdout, stderr)
	}
}

// udtc serve hands out the Bicep extensions of its default plane only: a
// --plane that names another is refused, not ignored.
func TestBicepSyncRefusesAnotherPlane(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, stderr := runCLI(t, "bicep", "sync", "--server", "http://127.0.0.1:1", "--plane", "other")
	if code != exitUsage || !strings.Contains(stderr, `--plane other: udtc serve hands out the Bicep extensions of the plane "local" only`) {
		t.Errorf("bicep sync --plane other = %d\n%s", code, stderr)
	}
}
