package serve

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
)

// writeCert writes a self-signed certificate for 127.0.0.1 named cn and
// its key, and returns the certificate.
func writeCert(t *testing.T, certFile, keyFile, cn string) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
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
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestServeTLS: with a certificate and key the server serves HTTPS, the
// start still reaches it, and a new certificate written over the files is
// served without a restart.
func TestServeTLS(t *testing.T) {
	checkEvery = 0
	t.Cleanup(func() { checkEvery = time.Second })
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	first := writeCert(t, certFile, keyFile, "first")
	st, err := ParseStore("sqlite:" + filepath.Join(dir, "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var started string
	go func() {
		done <- Run(ctx, Config{
			Addr: "127.0.0.1:0", Store: st, TLSCertFile: certFile, TLSKeyFile: keyFile,
			Sealer: func() (*secrets.Sealer, error) { return secrets.New(make([]byte, 32)) },
			Server: server.Options{Logger: NewLogger("text", &strings.Builder{})},
			Start: func(ctx context.Context, srv *server.Server, baseURL, token string) error {
				started = baseURL
				resp, err := http.Get(baseURL + "/healthz")
				if err == nil {
					resp.Body.Close()
				}
				return err
			},
			Ready: func(u string) { ready <- u },
		})
	}()
	var url string
	select {
	case url = <-ready:
	case err := <-done:
		t.Fatalf("Run: %v", err)
	}
	if !strings.HasPrefix(url, "https://127.0.0.1:") || !strings.HasPrefix(started, "http://127.0.0.1:") {
		t.Fatalf("serving %s, started through %s", url, started)
	}
	peer := func() string {
		t.Helper()
		c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
		resp, err := c.Get(url + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		c.CloseIdleConnections()
		return resp.TLS.PeerCertificates[0].Subject.CommonName
	}
	if got := peer(); got != first.Subject.CommonName {
		t.Errorf("serving %s", got)
	}
	writeCert(t, certFile, keyFile, "second")
	if got := peer(); got != "second" {
		t.Errorf("after the files changed, serving %s, want second", got)
	}
	// A key that does not match keeps the certificate in use.
	os.WriteFile(certFile, []byte("not PEM"), 0o644)
	if got := peer(); got != "second" {
		t.Errorf("after a broken certificate, serving %s, want second", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

func TestServeTLSBadFiles(t *testing.T) {
	dir := t.TempDir()
	err := Run(t.Context(), Config{Addr: "127.0.0.1:0", TLSCertFile: filepath.Join(dir, "none.crt"), TLSKeyFile: filepath.Join(dir, "none.key")})
	if err == nil || !strings.Contains(err.Error(), "--tls-cert-file") {
		t.Errorf("Run = %v", err)
	}
}
