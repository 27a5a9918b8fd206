package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// docBlock returns the first ```sh block after heading in the Markdown file.
func docBlock(t *testing.T, file, heading string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no heading %q", file, heading)
	}
	_, rest, ok = strings.Cut(rest, "```sh\n")
	if !ok {
		t.Fatalf("%s: no ```sh block after %q", file, heading)
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatalf("%s: unterminated ```sh block after %q", file, heading)
	}
	return block
}

// TestRegistryDocCurlExamples runs the curl examples of docs/registry.md as
// written, with bash and curl, against a real udtc serve (only the address
// 127.0.0.1:7443 is replaced by the test server's). Every request must
// succeed: curl --fail-with-body turns any 4xx or 5xx (such as 415 for a
// body sent without its Content-Type) into a failure.
func TestRegistryDocCurlExamples(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	block := docBlock(t, filepath.Join("..", "..", "docs", "registry.md"), "### Examples")
	dir := t.TempDir()
	base, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"))
	defer stop()
	if err := os.WriteFile(filepath.Join(dir, "token"), []byte("unused-without-auth\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := "set -euo pipefail\n" +
		"curl() { command curl -sS --fail-with-body \"$@\"; echo; }\n" +
		strings.ReplaceAll(block, "http://127.0.0.1:7443", base) +
		"test -n \"$etag\" || { echo 'no ETag found' >&2; exit 1; }\n"
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the documented commands failed: %v\n%s", err, out)
	}
	// The last command deleted the provider the others created.
	if code, body := httpGet(t, base+"/planes/radius/local/providers/Contoso.Platform"); code != 404 {
		t.Errorf("after the documented DELETE: %d %s", code, body)
	}
}

// TestResourcesDocExample runs the example of docs/resources.md as written
// against a real udtc serve (the serve line dropped, the address replaced,
// udtc being this test binary) and checks the status of every curl
// against the statuses the document states.
func TestResourcesDocExample(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed")
	}
	block := docBlock(t, filepath.Join("..", "..", "docs", "resources.md"), "## Example")
	serveLine, rest, ok := strings.Cut(block, "\n")
	if !ok || !strings.HasPrefix(serveLine, "udtc serve ") {
		t.Fatalf("the example does not start with udtc serve: %q", serveLine)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	base, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := "set -euo pipefail\n" +
		"udtc() { UDTC_TEST_AS_UDTC=1 UDTC_SERVER=" + base + " " + self + " \"$@\" >/dev/null; }\n" +
		"curl() { command curl -sS -o /dev/null -w 'status %{http_code}\\n' \"$@\"; }\n" +
		strings.ReplaceAll(rest, "http://127.0.0.1:7443", base)
	cmd := exec.Command(bash, "-c", script)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the documented commands failed: %v\n%s", err, out)
	}
	var got []string
	for line := range strings.Lines(string(out)) {
		if s, ok := strings.CutPrefix(strings.TrimSpace(line), "status "); ok {
			got = append(got, s)
		}
	}
	want := []string{"201", "201", "201", "400", "200", "200", "201", "200", "409", "200", "404"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("statuses %v, want %v as the document says\n%s", got, want, out)
	}
}
