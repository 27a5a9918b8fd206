package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/registry/oci/ocitest"
)

// typesOfPackage returns the types.tgz entry of an extension package gen wrote.
func typesOfPackage(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err != nil {
			t.Fatalf("%s: no types.tgz: %v", path, err)
		}
		if h.Name == "types.tgz" {
			data, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			return data
		}
	}
}

// pushLine matches a line of publish-extension's report.
var pushLine = regexp.MustCompile(`(?m)^(pushed|unchanged|replaced) br:(\S+?)/(\S+):(\S+) (sha256:[0-9a-f]{64})$`)

type pushed struct{ status, repository, tag, digest string }

func pushedLines(t *testing.T, stdout string) map[string]pushed {
	t.Helper()
	out := map[string]pushed{}
	for _, m := range pushLine.FindAllStringSubmatch(stdout, -1) {
		out[m[3]] = pushed{status: m[1], repository: m[3], tag: m[4], digest: m[5]}
	}
	return out
}

// TestPublishExtension pushes the examples' two extensions to a real
// registry with a {namespace} target: Bicep's restore accepts each, its
// layer is the types.tgz of the package gen wrote, --dry-run names the
// digests that are then pushed, a second run and a push of gen's .tgz are
// "unchanged", and changed content needs --force.
func TestPublishExtension(t *testing.T) {
	reg := ocitest.Start(t, ocitest.Options{})
	dir, out := genExamples(t)
	target := "br:" + reg.Host + "/bicep/{namespace}"

	code, dry, stderr := runCLI(t, "publish-extension", dir, "--target", target, "--dry-run")
	if code != 0 {
		t.Fatalf("--dry-run: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "publish-extension", dir, "--target", target)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	got := pushedLines(t, stdout)
	for _, ext := range []string{"contosodata", "contosomessaging"} {
		p, ok := got["bicep/"+ext]
		if !ok || p.status != "pushed" || p.tag != "0.0.1" {
			t.Fatalf("%s: %+v in\n%s", ext, p, stdout)
		}
		if !strings.Contains(dry, "would push br:"+reg.Host+"/bicep/"+ext+":0.0.1") || !strings.Contains(dry, "manifest "+p.digest) {
			t.Errorf("--dry-run did not name %s's manifest %s:\n%s", ext, p.digest, dry)
		}
		r := reg.BicepRestore(t, "bicep/"+ext, "0.0.1", "", "")
		if r.Digest != p.digest {
			t.Errorf("%s: the tag names %s, the report says %s", ext, r.Digest, p.digest)
		}
		if want := typesOfPackage(t, filepath.Join(out, "bicep", ext+".tgz")); !bytes.Equal(r.Types, want) {
			t.Errorf("%s: the layer (%d bytes) is not the types.tgz of gen's %s.tgz (%d bytes)", ext, len(r.Types), ext, len(want))
		}
		if !strings.Contains(stderr, fmt.Sprintf("%q: %q", ext, "br:"+reg.Host+"/bicep/"+ext+":0.0.1")) {
			t.Errorf("no bicepconfig.json line for %s:\n%s", ext, stderr)
		}
	}

	code, stdout, stderr = runCLI(t, "publish-extension", dir, "--target", target)
	for ext, p := range pushedLines(t, stdout) {
		if code != 0 || p.status != "unchanged" || p.digest != got[ext].digest {
			t.Errorf("second run, %s: exit %d %+v, want unchanged %s\n%s", ext, code, p, got[ext].digest, stderr)
		}
	}
	pkg := filepath.Join(out, "bicep", "contosodata.tgz")
	code, stdout, stderr = runCLI(t, "publish-extension", pkg, "--target", "br:"+reg.Host+"/bicep/contosodata:0.0.1")
	if p := pushedLines(t, stdout)["bicep/contosodata"]; code != 0 || p.status != "unchanged" {
		t.Errorf("gen's .tgz of the same manifests: exit %d %+v\n%s%s", code, p, stdout, stderr)
	}
	// A type index, as Bicep's publish-extension takes it: the directory
	// gen (or manifest-to-bicep) wrote, or its index.json.
	index := filepath.Join(out, "bicep", "contosodata")
	for _, in := range []string{index, filepath.Join(index, "index.json")} {
		code, stdout, stderr = runCLI(t, "publish-extension", in, "--target", "br:"+reg.Host+"/bicep/contosodata:0.0.1")
		if p := pushedLines(t, stdout)["bicep/contosodata"]; code != 0 || p.status != "unchanged" {
			t.Errorf("publish-extension %s: exit %d %+v\n%s%s", in, code, p, stdout, stderr)
		}
	}

	edit(t, filepath.Join(dir, "data.yaml"), "The Radius environment ID.", "The ID of the Radius environment.")
	code, _, stderr = runCLI(t, "publish-extension", dir, "--target", target)
	if code != 1 || !strings.Contains(stderr, "exists with other content ("+got["bicep/contosodata"].digest+")") || !strings.Contains(stderr, "--force") {
		t.Errorf("changed content at the same tag: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr = runCLI(t, "publish-extension", dir, "--target", target, "--force")
	if p := pushedLines(t, stdout)["bicep/contosodata"]; code != 0 || p.status != "replaced" || p.digest == got["bicep/contosodata"].digest {
		t.Errorf("--force: exit %d %+v\n%s", code, p, stderr)
	}
	if p := pushedLines(t, stdout)["bicep/contosomessaging"]; p.status != "unchanged" {
		t.Errorf("--force, the unchanged extension: %+v", p)
	}
}

// TestPublishExtensionCreated: the manifest's creation time is
// SOURCE_DATE_EPOCH, else the last commit of the inputs, so that it is
// the same on every run and machine.
func TestPublishExtensionCreated(t *testing.T) {
	reg := ocitest.Start(t, ocitest.Options{})
	t.Chdir("../..")
	dir := copyDir(t, "examples")
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []source.File
	for _, name := range []string{"data.yaml", "messaging.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, source.File{Path: name, Data: b})
	}
	when := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	if _, err := r.CommitCheckedOut(source.CommitOptions{Branch: "main", Files: files, Author: source.Author{Name: "T", Email: "t@example.com"}, Message: "m", When: when}); err != nil {
		t.Fatal(err)
	}
	push := func(repo string) ocitest.Restored {
		t.Helper()
		code, _, stderr := runCLI(t, "publish-extension", dir, "--target", "Contoso.Data=br:"+reg.Host+"/"+repo+":1", "--target", "Contoso.Messaging=br:"+reg.Host+"/other/"+repo+":1")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		return reg.BicepRestore(t, repo, "1", "", "")
	}
	if got := push("fromgit").Manifest.Annotations["org.opencontainers.image.created"]; got != "2025-03-04T05:06:07Z" {
		t.Errorf("created %q, want the commit's time", got)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	if got := push("fromepoch").Manifest.Annotations["org.opencontainers.image.created"]; got != "2023-11-14T22:13:20Z" {
		t.Errorf("created %q, want SOURCE_DATE_EPOCH's", got)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "yesterday")
	if code, _, stderr := runCLI(t, "publish-extension", dir, "--target", "br:"+reg.Host+"/{namespace}", "--dry-run"); code != 2 || !strings.Contains(stderr, "SOURCE_DATE_EPOCH") {
		t.Errorf("a bad SOURCE_DATE_EPOCH: exit %d\n%s", code, stderr)
	}
}

// TestPublishExtensionAuth: --username with --password-stdin and the
// docker config against a registry with htpasswd; a wrong password exits 1
// with the registry's reason and no stack trace.
func TestPublishExtensionAuth(t *testing.T) {
	reg := ocitest.Start(t, ocitest.Options{Auth: ocitest.Basic, Users: map[string]string{"ci": "s3cret"}})
	t.Chdir("../..")
	t.Setenv("DOCKER_CONFIG", t.TempDir()) // no config.json: no credentials
	target := "br:" + reg.Host + "/bicep/{namespace}"
	runIn := func(stdin string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"udtc", "publish-extension"}, args...), strings.NewReader(stdin), &out, &errb)
		return code, out.String(), errb.String()
	}
	code, _, stderr := runIn("wrong\n", "examples", "--target", target, "--username", "ci", "--password-stdin")
	if code != 1 || !strings.Contains(stderr, "401 Unauthorized") || !strings.Contains(stderr, "UNAUTHORIZED: authentication required") ||
		!strings.Contains(stderr, "credentials from --username were refused") || strings.Contains(stderr, "goroutine") {
		t.Errorf("a wrong password: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runIn("", "examples", "--target", target)
	if code != 1 || !strings.Contains(stderr, "no credentials for "+reg.Host) || !strings.Contains(stderr, "docker login") {
		t.Errorf("no credentials: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := runIn("s3cret\n", "examples", "--target", target, "--username", "ci", "--password-stdin")
	if p := pushedLines(t, stdout)["bicep/contosodata"]; code != 0 || p.status != "pushed" {
		t.Fatalf("--username, --password-stdin: exit %d\n%s%s", code, stdout, stderr)
	}
	reg.BicepRestore(t, "bicep/contosodata", "0.0.1", "ci", "s3cret")

	config := fmt.Sprintf(`{"auths":{%q:{"auth":%q}}}`, reg.Host, base64.StdEncoding.EncodeToString([]byte("ci:s3cret")))
	if err := os.WriteFile(filepath.Join(os.Getenv("DOCKER_CONFIG"), "config.json"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = runIn("", "examples", "--target", target)
	if p := pushedLines(t, stdout)["bicep/contosodata"]; code != 0 || p.status != "unchanged" {
		t.Errorf("the docker config's auths: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestPublishExtensionUsage: bad flags and inputs are refused before
// anything is pushed, with the exit code and a message naming the problem.
func TestPublishExtensionUsage(t *testing.T) {
	t.Chdir("../..")
	notPkg := filepath.Join(t.TempDir(), "x.tgz")
	if err := os.WriteFile(notPkg, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"examples"}, 2, "give --target"},
		{[]string{"examples", "--target", "localhost:5000/x:1"}, 2, "not a registry reference"},
		// rad bicep publish-extension --target ./out.tgz writes a file: udtc gen does.
		{[]string{"examples", "--target", "./out.tgz"}, 2, "is a file: publish-extension pushes to a registry (br:REGISTRY/REPOSITORY[:TAG]); the package Bicep's publish-extension writes to a file is what `udtc gen --target bicep --out DIR` writes as DIR/bicep/<name>.tgz"},
		{[]string{"examples", "--target", "/tmp/contoso.tgz"}, 2, "udtc gen --target bicep"},
		{[]string{"examples", "--target", "br:localhost:5000/X:1"}, 2, `segment "X"`},
		{[]string{"examples", "--target", "br:localhost:5000/x:1", "--dry-run"}, 2, "would receive 2 extensions"},
		{[]string{"examples", "--target", "Nope=br:localhost:5000/x:1", "--dry-run"}, 2, "no namespace or extension Nope"},
		{[]string{"examples", "--target", "br:localhost:5000/{namespace}", "--username", "ci"}, 2, "--username and --password-stdin go together"},
		{[]string{"examples", "--target", "br:localhost:5000/{namespace}", "--extension-version", "1+x"}, 2, `version "1+x" is not a tag`},
		{[]string{"examples", "--target", "br:localhost:5000/{namespace}", "--extension-name", "a-b"}, 2, "--extension-name"},
		{[]string{notPkg, "--target", "br:localhost:5000/x:1"}, 1, notPkg + ": not a Bicep extension package"},
		{[]string{"fixtures/error_seed_typo", "--target", "br:localhost:5000/x:1"}, 1, "error[type-invalid]"},
		{[]string{"examples", "--extension-name", "all", "--target", "br:localhost:5000/{namespace}", "--dry-run"}, 0, "would push br:localhost:5000/all:0.0.1 (Contoso.Data, Contoso.Messaging)"},
	} {
		code, stdout, stderr := runCLI(t, append([]string{"publish-extension"}, c.args...)...)
		if code != c.code || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("publish-extension %s: exit %d, want %d with %q\n%s%s", strings.Join(c.args, " "), code, c.code, c.want, stdout, stderr)
		}
	}
}

// TestBicepDocPublishExample runs the publishing example of docs/bicep.md
// as written, with bash, in a project udtc init made (only the registry's
// address localhost:5000 is replaced by the test registry's), then the
// credentials example against a registry with htpasswd.
func TestBicepDocPublishExample(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	reg := ocitest.Start(t, ocitest.Options{})
	authReg := ocitest.Start(t, ocitest.Options{Auth: ocitest.Basic, Users: map[string]string{"ci": "s3cret"}})
	doc := filepath.Join("..", "..", "docs", "bicep.md")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, "init", dir, "--namespace", "Contoso.Platform", "--type", "postgresDatabases"); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	for _, c := range []struct {
		heading, host string
		env           []string
		want          []string
	}{
		{"## Publishing to a registry", reg.Host, nil, []string{
			"would push br:" + reg.Host + "/bicep/contosoplatform:0.0.1", "pushed br:" + reg.Host + "/bicep/contosoplatform:0.0.1",
			"pushed br:" + reg.Host + "/bicep/contosoplatform:1.0.0", "unchanged br:" + reg.Host + "/bicep/contosoplatform:0.0.1",
		}},
		{"### Credentials", authReg.Host, []string{"REGISTRY_USER=ci", "REGISTRY_PASSWORD=s3cret"}, []string{
			"pushed br:" + authReg.Host + "/bicep/contosoplatform:0.0.1",
		}},
	} {
		block := docBlock(t, doc, c.heading)
		script := "set -euo pipefail\nudtc() { UDTC_TEST_AS_UDTC=1 " + self + " \"$@\"; }\n" + strings.ReplaceAll(block, "localhost:5000", c.host)
		cmd := exec.Command(bash, "-c", script)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "DOCKER_CONFIG="+t.TempDir()), c.env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: the documented commands failed: %v\n%s", c.heading, err, out)
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: no %q in\n%s", c.heading, w, out)
			}
		}
	}
	reg.BicepRestore(t, "bicep/contosoplatform", "1.0.0", "", "")
}

// TestServeExtensionRegistry: with --extension-registry the catalog's type
// page names the br: reference publish-extension's {namespace} target
// gives the type's extension; without it, none.
func TestServeExtensionRegistry(t *testing.T) {
	t.Chdir("../..")
	page := "/types/Contoso.Data/postgresDatabases/2025-06-01"
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--extension-registry", "myregistry.example.com/bicep"}, `"contosodata": "br:myregistry.example.com/bicep/contosodata:0.0.1"`},
		{[]string{"--extension-registry", "localhost:5000/team/bicep:2.0.0"}, "br:localhost:5000/team/bicep/contosodata:2.0.0"},
		{nil, ""},
	} {
		base, stop := startServe(t, append([]string{"--store", "sqlite:" + filepath.Join(t.TempDir(), "r.db"), "--bootstrap", "examples"}, c.flags...)...)
		code, body := httpGet(t, base+page, "Accept: text/html")
		stop()
		if code != 200 {
			t.Fatalf("%v: GET %s = %d", c.flags, page, code)
		}
		if c.want == "" && strings.Contains(body, "br:") {
			t.Errorf("without --extension-registry the page names a br: reference")
		}
		if c.want != "" && !strings.Contains(body, c.want) {
			t.Errorf("%v: no %s on the page", c.flags, c.want)
		}
	}
	if code, _, stderr := runCLI(t, "serve", "--addr", "127.0.0.1:0", "--extension-registry", "br:myregistry.example.com/bicep"); code != 2 || !strings.Contains(stderr, "--extension-registry") {
		t.Errorf("a br: reference as --extension-registry: exit %d\n%s", code, stderr)
	}
}
