package serve

import (
	"crypto/tls"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"
)

// certificate is the server's TLS certificate, read from a certificate and
// a key file (PEM) and read again when either file changes, so a renewed
// certificate is served without a restart. A change that does not load (a
// key written before its certificate) keeps the certificate in use until
// both load together.
type certificate struct {
	certFile, keyFile string
	log               *slog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   [2]fileStamp // of the files cert was read from
	checked time.Time
}

type fileStamp struct {
	mod  time.Time
	size int64
}

// checkEvery is how often a handshake looks at the files.
var checkEvery = time.Second

func stampOf(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{fi.ModTime(), fi.Size()}, nil
}

// loadCertificate reads the files once: an error says which is wrong.
func loadCertificate(certFile, keyFile string, log *slog.Logger) (*certificate, error) {
	c := &certificate{certFile: certFile, keyFile: keyFile, log: log}
	if err := c.load(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *certificate) load() error {
	cs, err := stampOf(c.certFile)
	if err != nil {
		return fmt.Errorf("--tls-cert-file: %w", err)
	}
	ks, err := stampOf(c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-key-file: %w", err)
	}
	cert, err := tls.LoadX509KeyPair(c.certFile, c.keyFile)
	if err != nil {
		return fmt.Errorf("--tls-cert-file %s and --tls-key-file %s: %w", c.certFile, c.keyFile, err)
	}
	c.cert, c.stamp = &cert, [2]fileStamp{cs, ks}
	return nil
}

// get is tls.Config.GetCertificate: the certificate, read again first
// when a file changed since it was read.
func (c *certificate) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now := time.Now(); now.Sub(c.checked) >= checkEvery {
		c.checked = now
		cs, err1 := stampOf(c.certFile)
		ks, err2 := stampOf(c.keyFile)
		if err1 == nil && err2 == nil && [2]fileStamp{cs, ks} != c.stamp {
			if err := c.load(); err != nil { // load sets c.cert only on success
				c.log.Warn("the new TLS certificate does not load; serving the previous one", "err", err)
			} else {
				c.log.Info("loaded a new TLS certificate", "cert", c.certFile)
			}
		}
	}
	return c.cert, nil
}

// tlsConfig is the server's TLS configuration.
func (c *certificate) tlsConfig() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: c.get}
}
