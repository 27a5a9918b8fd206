// Package ocitest gives tests a real OCI registry: the CNCF distribution
// registry of Debian's docker-registry package, started with a generated
// configuration on 127.0.0.1 and a free port in a temporary directory,
// without authentication, with htpasswd (basic) authentication, or with
// bearer tokens from a token server of its own. Start skips the test when
// the binary is missing, and fails it when CI=true (.ci/install-registry.sh
// installs it there).
package ocitest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/udtc/udtc/internal/freeport"
	"golang.org/x/crypto/bcrypt"
)

// Binary is the registry's executable.
const Binary = "docker-registry"

// Auth is how the registry authenticates.
type Auth int

const (
	// NoAuth lets anyone push and pull.
	NoAuth Auth = iota
	// Basic answers 401 with a Basic challenge and checks an htpasswd file
	// of bcrypt hashes.
	Basic
	// Bearer answers 401 with a Bearer challenge naming a token server
	// that checks the users' passwords and signs tokens the registry trusts.
	Bearer
)

// Registry is a running registry.
type Registry struct {
	// Host is 127.0.0.1:PORT.
	Host string
	// Realm is the token server's URL with Bearer, else "".
	Realm string
	dir   string
	log   string
}

// Options configure Start.
type Options struct {
	Auth Auth
	// Users are the user names and passwords Basic and Bearer accept.
	Users map[string]string
}

// Start starts a registry for the test and stops it when the test ends.
func Start(t testing.TB, opts Options) *Registry {
	t.Helper()
	bin, err := exec.LookPath(Binary)
	if err != nil {
		msg := "the OCI registry tests need " + Binary + " (apt-get install docker-registry, or bash .ci/install-registry.sh)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPING: " + msg)
	}
	dir := t.TempDir()
	r := &Registry{dir: dir, log: filepath.Join(dir, "registry.log")}
	authConf, err := r.authConfig(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	for attempt := 0; ; attempt++ {
		port, err := freeport.Port()
		if err != nil {
			t.Fatal(err)
		}
		r.Host = "127.0.0.1:" + strconv.Itoa(port)
		err = r.start(t, bin, authConf)
		if err == nil {
			return r
		}
		log, _ := os.ReadFile(r.log)
		if attempt < 2 && strings.Contains(string(log), "address already in use") {
			continue // the port was taken in between
		}
		t.Fatalf("%s did not start: %v\n%s", Binary, err, log)
	}
}

// config is the registry's configuration: storage under dir, listening on
// host only, no debug server, authentication as authConf says.
const config = `version: 0.1
log:
  level: info
  accesslog:
    disabled: true
storage:
  filesystem:
    rootdirectory: %s
  delete:
    enabled: true
http:
  addr: %s
%s`

func (r *Registry) start(t testing.TB, bin, authConf string) error {
	conf := filepath.Join(r.dir, "config.yml")
	data := fmt.Sprintf(config, filepath.Join(r.dir, "data"), r.Host, authConf)
	if err := os.WriteFile(conf, []byte(data), 0o600); err != nil {
		return err
	}
	logFile, err := os.Create(r.log)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, "serve", conf)
	cmd.Dir = r.dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); logFile.Close(); close(exited) }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	if err := r.waitReady(exited, 30*time.Second); err != nil {
		stop()
		return err
	}
	t.Cleanup(stop)
	return nil
}

// waitReady waits until the registry answers /v2/ (200, or 401 with auth).
func (r *Registry) waitReady(exited <-chan struct{}, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case <-exited:
			return errors.New("the registry exited")
		default:
		}
		resp, err := client.Get("http://" + r.Host + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK || resp.StatusCode == http.StatusUnauthorized {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("not ready after %v: %v", timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// authConfig writes what the authentication needs (htpasswd, the token
// server's certificate) and returns the configuration's auth section.
func (r *Registry) authConfig(t testing.TB, opts Options) (string, error) {
	switch opts.Auth {
	case Basic:
		path := filepath.Join(r.dir, "htpasswd")
		if err := writeHtpasswd(path, opts.Users); err != nil {
			return "", err
		}
		return fmt.Sprintf("auth:\n  htpasswd:\n    realm: ocitest\n    path: %s\n", path), nil
	case Bearer:
		ts, err := startTokenServer(t, opts.Users)
		if err != nil {
			return "", err
		}
		bundle := filepath.Join(r.dir, "token.crt")
		if err := os.WriteFile(bundle, ts.certPEM, 0o600); err != nil {
			return "", err
		}
		r.Realm = ts.realm
		return fmt.Sprintf("auth:\n  token:\n    realm: %s\n    service: %s\n    issuer: %s\n    rootcertbundle: %s\n",
			ts.realm, tokenService, tokenIssuer, bundle), nil
	}
	return "", nil
}

// writeHtpasswd writes an htpasswd file of bcrypt hashes, the only kind
// the registry accepts.
func writeHtpasswd(path string, users map[string]string) error {
	var b strings.Builder
	for user, pass := range users {
		h, err := bcrypt.GenerateFromPassword([]byte(pass), bcrypt.MinCost)
		if err != nil {
			return err
		}
		b.WriteString(user + ":" + string(h) + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}

// Response is what Get read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Get is a plain HTTP GET of path (/v2/...) on the registry, as a client of
// the distribution API would: accept names the media types taken, user and
// password (when user is not "") authenticate, through the token server
// with Bearer.
func (r *Registry) Get(ctx context.Context, path, accept, user, password string) (Response, error) {
	resp, err := r.get(ctx, path, accept, "")
	if err != nil || resp.Status != http.StatusUnauthorized || user == "" {
		return resp, err
	}
	auth := "Basic " + basic(user, password)
	if r.Realm != "" {
		tok, err := r.token(ctx, resp.Header.Get("Www-Authenticate"), user, password)
		if err != nil {
			return Response{}, err
		}
		auth = "Bearer " + tok
	}
	return r.get(ctx, path, accept, auth)
}

func (r *Registry) get(ctx context.Context, path, accept, auth string) (Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+r.Host+path, nil)
	if err != nil {
		return Response{}, err
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, err
}
