package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/oci"
)

// needTool returns the path of a test's external tool, skipping the test
// with a message when it is missing, except in CI (CI=true), where it fails.
func needTool(t *testing.T, name, install string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing in CI: %s", name, install)
		}
		t.Skipf("%s is not installed (%s); skipping", name, install)
	}
	return p
}

// TestSkopeoPullsServedExtension: an independent OCI client, Debian's
// skopeo, lists the tags of an extension udtc serve hands out and copies
// the artifact: Bicep's media types, and a layer byte for byte the
// types.tgz inside the archive GET /bicep/NAME.tgz returns.
func TestSkopeoPullsServedExtension(t *testing.T) {
	skopeo := needTool(t, "skopeo", "apt-get install -y skopeo, as .ci/install-registry.sh does")
	dir := t.TempDir()
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", "../../examples")
	defer stop()
	ref := "docker://" + strings.TrimPrefix(url, "http://") + "/bicep/contosodata"
	out, err := exec.Command(skopeo, "list-tags", "--tls-verify=false", ref).CombinedOutput()
	if err != nil {
		t.Fatalf("skopeo list-tags: %v\n%s", err, out)
	}
	var tags struct{ Tags []string }
	if err := json.Unmarshal(out, &tags); err != nil || len(tags.Tags) != 2 || tags.Tags[1] != "latest" {
		t.Fatalf("tags %s (%v)", out, err)
	}
	for _, tag := range tags.Tags {
		dest := filepath.Join(dir, "pulled-"+tag)
		if out, err := exec.Command(skopeo, "copy", "--src-tls-verify=false", ref+":"+tag, "dir:"+dest).CombinedOutput(); err != nil {
			t.Fatalf("skopeo copy %s: %v\n%s", tag, err, out)
		}
		raw, err := os.ReadFile(filepath.Join(dest, "manifest.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			ArtifactType string
			Config       struct{ MediaType, Digest string }
			Layers       []struct{ MediaType, Digest string }
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.ArtifactType != oci.ArtifactType || m.Config.MediaType != oci.ConfigMediaType || len(m.Layers) != 1 || m.Layers[0].MediaType != oci.LayerMediaType {
			t.Fatalf("manifest %s", raw)
		}
		layer, err := os.ReadFile(filepath.Join(dest, strings.TrimPrefix(m.Layers[0].Digest, "sha256:")))
		if err != nil {
			t.Fatal(err)
		}
		_, archive, _ := fetch(t, url+"/bicep/contosodata.tgz")
		pkg, err := bicep.ReadArchive(archive)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(layer, pkg.Types) {
			t.Errorf("%s: the pulled layer (%d bytes) is not the archive's types.tgz (%d bytes)", tag, len(layer), len(pkg.Types))
		}
	}
}

// TestBicepTypesReadsServedArchive: Bicep's own type library
// (@azure/bicep-types, .ci/bicep-compat) reads the archive udtc serve
// hands out: check.js unpacks it and checks its index.json and types.json
// against the library's own rebuild of them.
func TestBicepTypesReadsServedArchive(t *testing.T) {
	needTool(t, "node", "the Bicep compatibility check needs node")
	compat := filepath.Join(goldentest.Root(t), ".ci", "bicep-compat")
	env := os.Environ()
	if os.Getenv("CI") != "true" {
		if _, err := os.Stat(filepath.Join(compat, "node_modules", "@azure", "bicep-types")); err != nil {
			t.Skip("run `npm ci` in .ci/bicep-compat to let @azure/bicep-types read the served archive (CI does)")
		}
		env = append(env, "BICEP_COMPAT_SKIP_INSTALL=1")
	}
	dir := t.TempDir()
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", "../../examples")
	defer stop()
	out := filepath.Join(dir, "bicep")
	for _, name := range []string{"contosodata", "contosomessaging"} {
		code, archive, _ := fetch(t, url+"/bicep/"+name+".tgz")
		if code != 200 {
			t.Fatalf("GET %s: %d", name, code)
		}
		os.MkdirAll(filepath.Join(out, name), 0o755)
		if err := os.WriteFile(filepath.Join(out, name+".tgz"), archive, 0o644); err != nil {
			t.Fatal(err)
		}
		// The files check.js compares the archive with: those inside it,
		// and the Markdown udtc gen writes beside them.
		pkg, err := bicep.ReadArchive(archive)
		if err != nil {
			t.Fatal(err)
		}
		for fname, data := range untar(t, pkg.Types) {
			os.WriteFile(filepath.Join(out, name, fname), data, 0o644)
		}
	}
	gen := filepath.Join(dir, "gen")
	if code, _, stderr := runCLI(t, "gen", "../../examples", "--out", gen, "--target", "bicep"); code != 0 {
		t.Fatalf("gen: %s", stderr)
	}
	for _, name := range []string{"contosodata", "contosomessaging"} {
		for _, md := range []string{"index.md", "types.md"} {
			b, err := os.ReadFile(filepath.Join(gen, "bicep", name, md))
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(out, name, md), b, 0o644)
		}
	}
	cmd := exec.Command("sh", filepath.Join(compat, "run.sh"), out) // in CI it installs the pinned library
	cmd.Env = env
	res, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(res), "2 passed, 0 failed") {
		t.Fatalf("check.js: %v\n%s", err, res)
	}
}

// untar returns the files of a gzipped tar.
func untar(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	out := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = b
	}
}

// TestSkopeoOverTLS: udtc serve with --tls-cert-file serves the OCI API
// over HTTPS, and skopeo, verifying the certificate, pulls from it.
func TestSkopeoOverTLS(t *testing.T) {
	skopeo := needTool(t, "skopeo", "apt-get install -y skopeo, as .ci/install-registry.sh does")
	dir := t.TempDir()
	certs := filepath.Join(dir, "certs")
	os.MkdirAll(certs, 0o755)
	certFile, keyFile := filepath.Join(certs, "ca.crt"), filepath.Join(dir, "tls.key")
	writeSelfSigned(t, certFile, keyFile)
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", "../../examples",
		"--tls-cert-file", certFile, "--tls-key-file", keyFile)
	defer stop()
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("serving %s", url)
	}
	ref := "docker://" + strings.TrimPrefix(url, "https://") + "/bicep/contosodata:latest"
	out, err := exec.Command(skopeo, "inspect", "--raw", "--cert-dir", certs, ref).CombinedOutput()
	if err != nil || !strings.Contains(string(out), oci.ArtifactType) {
		t.Fatalf("skopeo inspect over TLS: %v\n%s", err, out)
	}
}

// writeSelfSigned writes a self-signed certificate for 127.0.0.1 and its
// key (PEM).
func writeSelfSigned(t *testing.T, certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "udtc test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600)
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}
