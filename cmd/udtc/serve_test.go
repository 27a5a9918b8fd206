package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var listeningRE = regexp.MustCompile(`listening on (https?://\S+)`)

// startServe runs "udtc serve args..." in-process on a free port and returns
// its base URL and a stop function that returns the exit code.
func startServe(t *testing.T, args ...string) (string, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"udtc", "serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), &stdout, &stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := listeningRE.FindStringSubmatch(stdout.String()); m != nil {
			stop := func() int { cancel(); return <-done }
			return m[1], stop
		}
		select {
		case code := <-done:
			cancel()
			t.Fatalf("serve exited %d before listening: %s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not start: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func httpGet(t *testing.T, url string, header ...string) (int, string) {
	t.Helper()
	return httpDo(t, "GET", url, "", header...)
}

// httpDo sends one request (a JSON body when body is not "") and returns
// the answer's status and body.
func httpDo(t *testing.T, method, url, body string, header ...string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range header {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestServeSQLite(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	os.WriteFile(tokenFile, []byte("# comment\ns3cret\n"), 0o600)
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--token-file", tokenFile, "--log-format", "text")
	if code, _ := httpGet(t, url+"/readyz"); code != 200 {
		t.Errorf("/readyz = %d", code)
	}
	if code, body := httpGet(t, url+"/planes/radius/local?api-version=2023-10-01-preview"); code != 200 || !strings.Contains(body, `"name":"local"`) {
		t.Errorf("GET local plane = %d %s", code, body)
	}
	req, _ := http.NewRequest("PUT", url+"/planes/radius/local/providers/System.Resources/resourceProviders/Aa.Bb?api-version=2023-10-01-preview", strings.NewReader(`{}`))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 401 {
		t.Errorf("PUT without token = %v %v", resp.StatusCode, err)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit code after SIGINT-like cancel = %d", code)
	}
}

func TestServeDefaultStoreUnderXDGDataHome(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv("UDTC_STORE", "")
	_, stop := startServe(t)
	stop()
	if _, err := os.Stat(filepath.Join(dir, "udtc", "registry.db")); err != nil {
		t.Errorf("default store not created: %v", err)
	}
}

func TestServeUsageErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n# nothing\n"), 0o600)
	store := "sqlite:" + filepath.Join(dir, "r.db")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--addr", "0.0.0.0:0", "--store", store}, "non-loopback"},
		{[]string{"--addr", ":0", "--store", store}, "non-loopback"},
		{[]string{"--store", "mysql://x"}, "--store must be"},
		{[]string{"--store", "sqlite:"}, "needs a path"},
		{[]string{"--token-file", filepath.Join(dir, "missing"), "--store", store}, "token-file"},
		{[]string{"--token-file", empty, "--store", store}, "holds no token"},
		{[]string{"--auth-reads", "--store", store}, "--auth-reads needs"},
		{[]string{"--log-format", "xml", "--store", store}, "--log-format"},
		{[]string{"--allowed-hosts", "http://registry.example.com", "--store", store}, "--allowed-hosts: \"http://registry.example.com\" is not a host name"},
		{[]string{"--allowed-hosts", "ok.example,registry.example.com:7443", "--store", store}, "is not a host name"},
		{[]string{"--store", store, "extra"}, "no arguments"},
		{[]string{"--store", "postgres://u@127.0.0.1:1/db"}, "--secret-key-file"},
		{[]string{"--store", store, "--secret-key-file", filepath.Join(dir, "nokey")}, "openssl rand -hex 32"},
		{[]string{"--store", store, "--secret-key-file", empty}, "64 hexadecimal digits"},
		{[]string{"--store", store, "--tls-cert-file", empty}, "--tls-cert-file and --tls-key-file go together"},
		{[]string{"--store", store, "--tls-cert-file", empty, "--tls-key-file", empty}, "--tls-cert-file " + empty + " and --tls-key-file"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"udtc", "serve"}, c.args...), strings.NewReader(""), &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("serve %v = %d %q, want %d mentioning %q", c.args, code, stderr.String(), exitUsage, c.want)
		}
	}
}

// hostGet sends GET url with Host host and returns the status.
func hostGet(t *testing.T, url, host string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// udtc serve on loopback without a token answers only requests for its
// own names (DNS rebinding); with a token it checks Host only when
// --allowed-hosts is given.
func TestServeChecksHost(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "tokens")
	os.WriteFile(tokenFile, []byte("s3cret\n"), 0o600)
	const path = "/planes/radius/local?api-version=2023-10-01-preview"
	for _, c := range []struct {
		args  []string
		hosts map[string]int
	}{
		{nil, map[string]int{"localhost:7443": 200, "127.0.0.1": 200, "[::1]:1": 200, "evil.example": 403, "registry.example.com": 403}},
		{[]string{"--allowed-hosts", "registry.example.com,.corp.example"}, map[string]int{"localhost": 200, "registry.example.com:7443": 200, "a.corp.example": 200, "evil.example": 403}},
		{[]string{"--allowed-hosts", "*"}, map[string]int{"evil.example": 200}},
		{[]string{"--token-file", tokenFile}, map[string]int{"evil.example": 200}},
		{[]string{"--token-file", tokenFile, "--allowed-hosts", "registry.example.com"}, map[string]int{"registry.example.com": 200, "evil.example": 403}},
	} {
		url, stop := startServe(t, append([]string{"--store", "sqlite:" + filepath.Join(t.TempDir(), "r.db")}, c.args...)...)
		for host, want := range c.hosts {
			if got := hostGet(t, url+path, host); got != want {
				t.Errorf("serve %v: Host %s = %d, want %d", c.args, host, got, want)
			}
		}
		stop()
	}
}

// gatedReader returns head, then blocks until gate is closed, then tail.
type gatedReader struct {
	head, tail *strings.Reader
	gate       chan struct{}
}

func (g *gatedReader) Read(p []byte) (int, error) {
	if g.head.Len() > 0 {
		return g.head.Read(p)
	}
	<-g.gate
	return g.tail.Read(p)
}

func TestServeShutdownLetsInFlightRequestsFinish(t *testing.T) {
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	body := &gatedReader{head: strings.NewReader(`{"location":`), tail: strings.NewReader(`"global"}`), gate: make(chan struct{})}
	req, _ := http.NewRequest("PUT", url+"/planes/radius/local/providers/System.Resources/resourceProviders/Aa.Bb?api-version=2023-10-01-preview", body)
	req.Header.Set("Content-Type", "application/json")
	status := make(chan int, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			status <- -1
			return
		}
		resp.Body.Close()
		status <- resp.StatusCode
	}()
	time.Sleep(200 * time.Millisecond) // the request is being read
	exited := make(chan int, 1)
	go func() { exited <- stop() }()
	select {
	case code := <-exited:
		t.Fatalf("serve exited (%d) with a request in flight", code)
	case <-time.After(200 * time.Millisecond):
	}
	close(body.gate)
	if got := <-status; got != 201 {
		t.Errorf("in-flight PUT = %d, want 201", got)
	}
	if code := <-exited; code != 0 {
		t.Errorf("exit code = %d", code)
	}
}

// TestServeBootstrapFailureNeverAnnounces: a failing --bootstrap exits 1
// without ever printing "listening".
func TestServeBootstrapFailureNeverAnnounces(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "manifests")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "bad.yaml"), []byte("namespace: Contoso.Bad\ntypes:\n  things:\n    apiVersions:\n      '0000-01-01':\n        schema: {}\n"), 0o644)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"udtc", "serve", "--addr", "127.0.0.1:0", "--store", "sqlite:" + filepath.Join(dir, "r.db"), "--bootstrap", bad},
		strings.NewReader(""), &stdout, &stderr)
	if code != exitFail {
		t.Errorf("exit code %d, want %d; stderr %s", code, exitFail, stderr.String())
	}
	if strings.Contains(stdout.String()+stderr.String(), "listening") {
		t.Errorf("announced listening before the bootstrap failed:\nstdout %s\nstderr %s", stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "bootstrap") {
		t.Errorf("stderr does not name the bootstrap: %s", stderr.String())
	}
}

// TestServeBootstrapThenListening: with a good --bootstrap, "listening" is
// printed once the registrations are in, so a client that waits for it
// finds them.
func TestServeBootstrapThenListening(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "manifests")
	os.MkdirAll(good, 0o755)
	os.WriteFile(filepath.Join(good, "good.yaml"), []byte("namespace: Contoso.Good\ntypes:\n  things:\n    apiVersions:\n      '2025-01-01':\n        schema:\n          type: object\n          properties:\n            size: {type: string}\n"), 0o644)
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--bootstrap", good)
	defer stop()
	if code, body := httpGet(t, url+"/planes/radius/local/providers/Contoso.Good"); code != 200 || !strings.Contains(body, "things") {
		t.Errorf("right after listening: GET summary = %d %s", code, body)
	}
	if code, _ := httpGet(t, url+"/readyz"); code != 200 {
		t.Errorf("/readyz = %d", code)
	}
}

// TestServePortInUseCreatesNoStore: on a port in use, serve fails before
// creating the SQLite file.
func TestServePortInUseCreatesNoStore(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	db := filepath.Join(t.TempDir(), "sub", "r.db")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"udtc", "serve", "--addr", ln.Addr().String(), "--store", "sqlite:" + db},
		strings.NewReader(""), &stdout, &stderr)
	if code != exitFail || !strings.Contains(stderr.String(), "listen") {
		t.Errorf("exit %d, stderr %q; want %d and a listen error", code, stderr.String(), exitFail)
	}
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the store was created although the port is in use: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(db)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the store's directory was created although the port is in use: %v", err)
	}
}

// TestServeSecretKeyFile: an SQLite store gets a key file of mode 0600
// beside it on first start and keeps using it; a server started with
// another key than the one the stored secrets were sealed with refuses
// to start and says why.
func TestServeSecretKeyFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	url, stop := startServe(t, "--store", "sqlite:"+db, "--bootstrap", "../../fixtures/valid_secrets")
	info, err := os.Stat(db + ".key")
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file beside the database: %v, %v", info, err)
	}
	key, _ := os.ReadFile(db + ".key")
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) { // bootstrapped
		if code, _ := httpGet(t, url+"/readyz"); code == 200 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("/readyz = %d", code)
		}
	}
	for _, c := range []struct{ path, body string }{
		{"/planes/radius/local/resourceGroups/rg?api-version=2023-10-01-preview", `{}`},
		{"/planes/radius/local/resourceGroups/rg/providers/Contoso.Security/vaults/v1?api-version=2025-01-01", `{"properties":{"environment":"env","adminPassword":"correct-horse-battery"}}`},
	} {
		req, _ := http.NewRequest("PUT", url+c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode != 201 {
			t.Fatalf("PUT %s = %v, %v", c.path, resp.StatusCode, err)
		}
		resp.Body.Close()
	}
	stop()
	_, stop = startServe(t, "--store", "sqlite:"+db) // the same key file again
	stop()
	if again, _ := os.ReadFile(db + ".key"); !bytes.Equal(key, again) {
		t.Error("the key file changed on the second start")
	}
	other := filepath.Join(dir, "other.key")
	os.WriteFile(other, []byte(strings.Repeat("ab", 32)+"\n"), 0o600)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"udtc", "serve", "--addr", "127.0.0.1:0", "--store", "sqlite:" + db, "--secret-key-file", other}, strings.NewReader(""), &stdout, &stderr)
	if code == 0 || !strings.Contains(stderr.String(), "another key") {
		t.Errorf("serve with another key = %d %q", code, stderr.String())
	}
	os.Chmod(other, 0o644)
	code = run(context.Background(), []string{"udtc", "serve", "--addr", "127.0.0.1:0", "--store", "sqlite:" + db, "--secret-key-file", other}, strings.NewReader(""), &stdout, &stderr)
	if code != exitUsage || !strings.Contains(stderr.String(), "chmod 600") {
		t.Errorf("serve with a key file others may read = %d %q", code, stderr.String())
	}
}

// Passwords on udtc serve's command line are warned about (the process
// list shows them) and never repeated; from the environment they are
// taken without a warning.
func TestServeKeepsPasswordsOutOfSight(t *testing.T) {
	dir := t.TempDir()
	key := newKeyFile(t)
	serveErr := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"udtc", "serve", "--addr", "127.0.0.1:0", "--log-format", "text"}, args...), strings.NewReader(""), &stdout, &stderr)
		return code, stderr.String()
	}
	code, stderr := serveErr("--store", "sqlite:"+filepath.Join(dir, "r.db"), "--sync", "https://bob:pa/ss@git.example/repo.git")
	if code != exitUsage || !strings.Contains(stderr, "--sync: the URL does not parse") || strings.Contains(stderr, "pa/ss") {
		t.Errorf("a sync URL with '/' in its password = %d %q", code, stderr)
	}

	// The store cannot be reached: the start fails after the warnings.
	code, stderr = serveErr("--store", "postgres://u:pgsecret@127.0.0.1:1/db", "--secret-key-file", key, "--sync", "https://bob:synctoken@127.0.0.1:1/r.git")
	if code != exitFail || !strings.Contains(stderr, "the --store URL holds a password") || !strings.Contains(stderr, "the --sync URL holds credentials") ||
		strings.Contains(stderr, "pgsecret") || strings.Contains(stderr, "synctoken") {
		t.Errorf("passwords on the command line = %d %q", code, stderr)
	}
	t.Setenv("UDTC_STORE", "postgres://u:pgsecret@127.0.0.1:1/db")
	t.Setenv("UDTC_SYNC", "https://bob:synctoken@127.0.0.1:1/r.git")
	code, stderr = serveErr("--secret-key-file", key)
	if code != exitFail || strings.Contains(stderr, "holds") || strings.Contains(stderr, "pgsecret") || strings.Contains(stderr, "synctoken") {
		t.Errorf("passwords in the environment = %d %q", code, stderr)
	}
}

// systemData names a caller by the name its token has in --token-file, or
// by a keyed hash of the token: never by a plain hash that an anonymous
// reader could test guesses of a weak token against.
func TestServeNamesCallersWithoutTheirTokensHash(t *testing.T) {
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "tokens")
	os.WriteFile(tokenFile, []byte("hunter2\nci-token,publisher\n"), 0o600)
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(dir, "r.db"), "--token-file", tokenFile)
	defer stop()
	p := url + "/planes/radius/local/providers/System.Resources/resourceProviders/Aa.Bb?api-version=2023-10-01-preview"
	putAs := func(token string) {
		req, _ := http.NewRequest("PUT", p, strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil || resp.StatusCode >= 300 {
			t.Fatalf("PUT = %v %v", resp.StatusCode, err)
		}
		resp.Body.Close()
	}
	putAs("hunter2")
	putAs("ci-token")
	_, body := httpGet(t, p)
	var got struct {
		SystemData struct{ CreatedBy, LastModifiedBy string }
	}
	json.Unmarshal([]byte(body), &got)
	sum := sha256.Sum256([]byte("hunter2"))
	if by := got.SystemData.CreatedBy; !strings.HasPrefix(by, "token:") || len(by) != len("token:")+8 || by == "token:"+hex.EncodeToString(sum[:4]) {
		t.Errorf("createdBy = %q", by)
	}
	if got.SystemData.LastModifiedBy != "publisher" {
		t.Errorf("lastModifiedBy = %q, want publisher", got.SystemData.LastModifiedBy)
	}
}
