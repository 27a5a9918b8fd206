package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/store/postgres/pgtest"
)

// pg is the PostgreSQL of this package's tests (see TestMain).
var pg *pgtest.Env

// TestMain lets the test binary act as udtc (UDTC_TEST_AS_UDTC=1), so end
// to end tests run a real `udtc serve` process without building one, and
// starts a throwaway PostgreSQL when the server binaries are available.
func TestMain(m *testing.M) {
	if os.Getenv("UDTC_TEST_AS_UDTC") == "1" {
		os.Exit(run(context.Background(), append([]string{"udtc"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
	}
	// udtc gen keeps machine-local state in the user cache: never the
	// real one in tests.
	cache, err := os.MkdirTemp("", "udtc-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := pgtest.Run(m, &pg)
	os.RemoveAll(cache)
	os.Exit(code)
}

// serveProcess is a `udtc serve` child process.
type serveProcess struct {
	cmd *exec.Cmd
	url string
	log *bytes.Buffer
}

// startServeProcess starts `udtc serve` on a free loopback port with store and
// waits until it listens.
func startServeProcess(t *testing.T, store string, extra ...string) *serveProcess {
	t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--store", store, "--log-format", "text"}, extra...)
	if strings.HasPrefix(store, "postgres") && !slices.Contains(extra, "--secret-key-file") {
		args = append(args, "--secret-key-file", newKeyFile(t))
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "UDTC_TEST_AS_UDTC=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var logBuf bytes.Buffer
	cmd.Stderr = &logBuf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{cmd: cmd, log: &logBuf}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
				lines <- strings.Fields(rest)[0]
			}
		}
		close(lines) // the process exited (or closed stdout) without listening
	}()
	select {
	case addr, ok := <-lines:
		if !ok {
			cmd.Wait()
			t.Fatalf("udtc serve exited before listening; stderr:\n%s", logBuf.String())
		}
		p.url = addr
	case <-time.After(60 * time.Second):
		t.Fatalf("udtc serve did not start; log:\n%s", logBuf.String())
	}
	return p
}

// kill stops the server with SIGKILL: no graceful shutdown.
func (p *serveProcess) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
}

// publishJSON runs `udtc publish --output json` in-process.
func publishJSON(t *testing.T, server string, args ...string) (int, publish.Report, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"publish", "--output", "json", "--server", server, "--timeout", "2m"}, args...)...)
	var rep publish.Report
	if stdout != "" {
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatalf("publish output is not JSON: %v\n%s\nstderr:\n%s", err, stdout, stderr)
		}
	}
	return code, rep, stderr
}

func writes(rep publish.Report) int {
	return rep.Summary["create"] + rep.Summary["update"] + rep.Summary["delete"]
}

// assertRegistryMatches compares the registry's provider summaries with
// the compiled manifests: every type, default, description, capability,
// version and schema (as JSON values), and every location.
func assertRegistryMatches(t *testing.T, server string, paths ...string) {
	t.Helper()
	cat, diags, err := generator.Compile(context.Background(), paths, generator.Options{})
	if err != nil || cat == nil {
		t.Fatalf("compile: %v %v", err, diags)
	}
	c, err := client.New(server)
	if err != nil {
		t.Fatal(err)
	}
	for _, reg := range registration.Registrations(cat, registration.Options{}) {
		sum, err := c.ProviderSummary(context.Background(), reg.Namespace)
		if err != nil {
			t.Errorf("%s: %v", reg.Namespace, err)
			continue
		}
		want := api.ProviderSummary{Name: reg.Namespace, Locations: map[string]api.LocationSummary{}, ResourceTypes: map[string]api.ResourceTypeSummary{}}
		for _, l := range reg.Locations {
			want.Locations[l.Name] = api.LocationSummary{Address: l.Properties.Address}
		}
		for _, rt := range reg.Types {
			ts := api.ResourceTypeSummary{APIVersions: map[string]api.APIVersionSummary{},
				DefaultAPIVersion: rt.Type.Properties.DefaultAPIVersion, Description: rt.Type.Properties.Description,
				Capabilities: rt.Type.Properties.Capabilities, IconHash: api.DefaultIconHash} // manifests declare no icons
			for _, v := range rt.APIVersions {
				ts.APIVersions[v.Name] = api.APIVersionSummary{Schema: v.Properties.Schema}
			}
			want.ResourceTypes[rt.Type.Name] = ts
		}
		if diff := cmp.Diff(want, sum, cmp.Comparer(jsonEqual)); diff != "" {
			t.Errorf("registry summary of %s differs from the manifests (-manifests +registry):\n%s", reg.Namespace, diff)
		}
	}
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return bytes.Equal(a, b)
	}
	return cmp.Equal(x, y)
}

// copyDir copies a directory of manifests so a test can edit them.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func edit(t *testing.T, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lifecycle publishes the examples, republishes, then changes them and
// publishes with and without --prune, asserting the exact writes.
func lifecycle(t *testing.T, server string) {
	dir := copyDir(t, "examples")
	code, rep, stderr := publishJSON(t, server, dir)
	if code != 0 || rep.Summary["create"] != 13 || len(rep.Applied) != 13 {
		t.Fatalf("first publish: exit %d %v\n%s", code, rep.Summary, stderr)
	}
	assertRegistryMatches(t, server, dir)

	code, rep, _ = publishJSON(t, server, dir)
	if code != 0 || writes(rep) != 0 || len(rep.Applied) != 0 || rep.Summary["unchanged"] != 13 {
		t.Fatalf("second publish must write nothing: exit %d %v", code, rep.Summary)
	}

	// A new type, a changed schema and a removed version.
	data := filepath.Join(dir, "data.yaml")
	edit(t, data, "  redisCaches:\n", "  mongoDatabases:\n    apiVersions:\n      '2025-06-01':\n        schema: {type: object, properties: {tier: {type: string}}}\n  redisCaches:\n")
	edit(t, data, "enum: [256, 1024, 4096]", "enum: [256, 1024, 4096, 16384]")
	edit(t, data, "      '2025-01-01-preview':\n", "      '2024-12-31-preview':\n") // renamed: one removed, one new

	code, rep, _ = publishJSON(t, server, "--dry-run", dir)
	if code != 0 || len(rep.Applied) != 0 || !rep.DryRun {
		t.Fatalf("dry run: exit %d applied %d", code, len(rep.Applied))
	}
	code, rep, _ = publishJSON(t, server, dir)
	// create: mongoDatabases, its version, the renamed version; update: the
	// redis schema, the location (serves new types/versions); no deletes.
	if code != 0 || rep.Summary["create"] != 3 || rep.Summary["update"] != 2 || rep.Summary["delete"] != 0 {
		t.Fatalf("publish without prune: exit %d %v", code, rep.Summary)
	}
	// Prune deletes the renamed version and then drops it from the
	// location, which kept serving it while it was registered.
	code, rep, _ = publishJSON(t, server, "--prune", dir)
	var order []string // the writes, in plan order
	for _, c := range rep.Plan {
		if c.Action != publish.Unchanged {
			order = append(order, string(c.Action)+" "+c.Name())
		}
	}
	if code != 0 || writes(rep) != 2 || rep.Summary["delete"] != 1 || rep.Summary["update"] != 1 ||
		strings.Join(order, ", ") != "delete Contoso.Data/postgresDatabases@2025-01-01-preview, update Contoso.Data location global" {
		t.Errorf("prune's writes: %v", order)
		t.Fatalf("publish with prune: exit %d %v", code, rep.Summary)
	}
	assertRegistryMatches(t, server, dir)

	// Pruning the messaging namespace's child type leaves Contoso.Data alone.
	edit(t, filepath.Join(dir, "messaging.yaml"), "  buses/queues:", "  busesRemoved/queues:")
	if code, _, _ := runCLI(t, "publish", "--server", server, "--prune", dir); code != 1 {
		t.Fatalf("a manifest with errors must stop publish with exit 1, got %d", code)
	}
	if err := os.WriteFile(filepath.Join(dir, "messaging.yaml"), []byte("namespace: Contoso.Messaging\ntypes:\n  buses:\n    apiVersions:\n      '2025-06-01':\n        schema: {type: object, properties: {tier: {type: string}}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// (The new buses schema drops properties of a published version: that
	// break is allowed here; TestPublishReview tests the refusal.)
	code, rep, _ = publishJSON(t, server, "--prune", "--allow-breaking", filepath.Join(dir, "messaging.yaml"))
	if code != 0 || rep.Summary["delete"] != 1 {
		t.Fatalf("prune of the child type: exit %d %v", code, rep.Summary)
	}
	assertRegistryMatches(t, server, dir)
}

func TestEndToEndSQLite(t *testing.T) {
	t.Chdir("../..")
	srv := startServeProcess(t, "sqlite:"+filepath.Join(t.TempDir(), "registry.db"))
	lifecycle(t, srv.url)
}

func TestEndToEndPostgres(t *testing.T) {
	dsn := pg.NewDatabase(t) // skips (fails under CI) without PostgreSQL
	t.Chdir("../..")
	srv := startServeProcess(t, postgresURL(t, dsn))
	lifecycle(t, srv.url)
}

// postgresURL turns a key=value DSN into the postgres:// URL --store takes.
func postgresURL(t *testing.T, dsn string) string {
	t.Helper()
	if strings.Contains(dsn, "://") {
		return dsn
	}
	kv := map[string]string{}
	for _, f := range strings.Fields(dsn) {
		k, v, _ := strings.Cut(f, "=")
		kv[k] = strings.Trim(v, "'")
	}
	u := url.URL{Scheme: "postgres", User: url.User(kv["user"]), Path: "/" + kv["dbname"]}
	q := url.Values{}
	for k, v := range kv {
		if k != "user" && k != "dbname" {
			q.Set(k, v)
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// TestPublishSurvivesServerKill kills the server with SIGKILL while a publish
// is writing, restarts it on the same database, and publishes again: the
// registry converges to the manifests, and a further publish writes nothing.
func TestPublishSurvivesServerKill(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("namespace: Contoso.Big\ntypes:\n")
	for i := range 150 {
		fmt.Fprintf(&b, "  things%d:\n    apiVersions:\n", i)
		for _, v := range []string{"2025-01-01", "2025-06-01"} {
			fmt.Fprintf(&b, "      '%s':\n        schema: {type: object, properties: {n%d: {type: integer, minimum: 0}, s: {type: string, maxLength: 10}}}\n", v, i)
		}
	}
	manifest := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(manifest, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	db := "sqlite:" + filepath.Join(dir, "registry.db")
	srv := startServeProcess(t, db)

	done := make(chan int, 1)
	go func() {
		code, _, _ := runCLI(t, "publish", "--server", srv.url, "--timeout", "5s", manifest)
		done <- code
	}()
	// Kill once some writes have landed.
	c, _ := client.New(srv.url, client.WithRetry(1, 0, 0))
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if s, err := c.ProviderSummary(context.Background(), "Contoso.Big"); err == nil && len(s.ResourceTypes) > 10 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	srv.kill(t)
	code := <-done
	t.Logf("interrupted publish exited %d", code)

	srv = startServeProcess(t, db)
	code, rep, stderr := publishJSON(t, srv.url, manifest)
	if code != 0 {
		t.Fatalf("publish after restart: exit %d\n%s", code, stderr)
	}
	t.Logf("after restart: %v", rep.Summary)
	assertRegistryMatches(t, srv.url, manifest)
	if code, rep, _ = publishJSON(t, srv.url, manifest); code != 0 || writes(rep) != 0 {
		t.Fatalf("converged registry must need no writes: exit %d %v", code, rep.Summary)
	}
}

// TestCorpusPublishes publishes every real manifest of ../shared/corpus and
// finds each in the summaries with its schemas.
func TestCorpusPublishes(t *testing.T) {
	corpus, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("skipping: the shared corpus is not at %s", corpus)
	}
	srv := startServeProcess(t, "sqlite:"+filepath.Join(t.TempDir(), "registry.db"))
	code, rep, stderr := publishJSON(t, srv.url, corpus)
	if code != 0 || len(rep.Failed) != 0 || rep.Summary["create"] == 0 {
		t.Fatalf("publish corpus: exit %d %v %v\n%s", code, rep.Summary, rep.Failed, stderr)
	}
	assertRegistryMatches(t, srv.url, corpus)
	if code, rep, _ := publishJSON(t, srv.url, corpus); code != 0 || writes(rep) != 0 {
		t.Fatalf("second corpus publish: exit %d %v", code, rep.Summary)
	}
}

// TestRegistryCommandsAndErrors: registry list/show against a server with
// auth, and the one-line errors publish gives for a missing token, an
// unknown plane and an unreachable server.
func TestRegistryCommandsAndErrors(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServeProcess(t, "sqlite:"+filepath.Join(dir, "r.db"), "--token-file", tokenFile)
	wrongToken := filepath.Join(dir, "wrong")
	if err := os.WriteFile(wrongToken, []byte("not-the-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A 401 during publish (reads are open, writes are not) stops with one
	// line, not one per write.
	if code, stdout, stderr := runCLI(t, "publish", "--server", srv.url, "examples"); code != 1 || strings.Contains(stdout, "! failed") ||
		strings.Count(stderr, "\n") != 1 {
		t.Errorf("publish without a token: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}

	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"publish", "--server", srv.url, "examples"}, 1, "requires a token and none was sent: pass --token-file FILE"},
		{[]string{"publish", "--server", srv.url, "--token-file", wrongToken, "examples"}, 1, "rejected the token in --token-file " + wrongToken + " (401 Unauthorized)"},
		{[]string{"publish", "--server", srv.url, "--token-file", tokenFile, "--plane", "nope", "examples"}, 1, `plane "nope" does not exist`},
		{[]string{"publish", "--server", "http://127.0.0.1:1", "--timeout", "5s", "examples"}, 1, "cannot reach the registry at http://127.0.0.1:1"},
		{[]string{"publish", "--server", "ftp://x", "examples"}, 2, "--server must be an http(s) URL"},
		{[]string{"publish", "--server", srv.url, "--token-file", filepath.Join(dir, "missing"), "examples"}, 2, "reading --token-file"},
		{[]string{"publish", "--server", srv.url, "--token-file", tokenFile, "examples"}, 0, ""},
		{[]string{"registry", "show", "Contoso.Nope", "--server", srv.url}, 1, "namespace Contoso.Nope is not registered"},
		{[]string{"registry", "show", "Contoso.Data/nope", "--server", srv.url}, 1, "type Contoso.Data/nope is not registered"},
	}
	for _, tc := range tests {
		code, _, stderr := runCLI(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("udtc %s: exit %d, want %d; stderr %q should contain %q", strings.Join(tc.args, " "), code, tc.code, stderr, tc.want)
		}
	}

	code, stdout, _ := runCLI(t, "registry", "list", "--server", srv.url)
	if code != 0 || !strings.Contains(stdout, "Contoso.Messaging/buses/queues  Contoso.Messaging  2025-06-01") ||
		!strings.Contains(stdout, "Contoso.Data/postgresDatabases  Contoso.Data       2025-01-01-preview, 2025-06-01  2025-06-01") {
		t.Errorf("registry list: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "registry", "show", "contoso.data/POSTGRESDATABASES", "--server", srv.url)
	if code != 0 || !strings.Contains(stdout, "Contoso.Data/postgresDatabases\n") || !strings.Contains(stdout, "      size                     string                       enum: \"S\", \"M\", \"L\", \"XL\"; default: \"S\"                      The size of database to provision.\n") {
		t.Errorf("registry show (case-insensitive): exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "registry", "show", "--output", "json", "Contoso.Data", "--server", srv.url)
	var sum api.ProviderSummary
	if code != 0 || json.Unmarshal([]byte(stdout), &sum) != nil || len(sum.ResourceTypes) != 2 {
		t.Errorf("registry show --output json: exit %d\n%s", code, stdout)
	}
}

// newKeyFile creates a secret key file for a server.
func newKeyFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "secret.key")
	if _, err := secrets.CreateKeyFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}
