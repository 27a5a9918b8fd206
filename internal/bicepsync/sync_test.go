package bicepsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/registry/client"
)

// archiveOf is a valid extension package of extension name.
func archiveOf(t *testing.T, name, version string) []byte {
	t.Helper()
	a, err := bicep.Archive([]byte(`{"resources":{},"resourceFunctions":{},"settings":{"name":"`+name+`","version":"`+version+`","isSingleton":false}}`), []byte(`[]`))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func digestOf(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// fakeServer serves the index of one extension, contosodata, and its
// archive as mode says: "ok", "truncate" (the connection ends halfway),
// "digest" (the ETag names other bytes), "wrongname" (another extension's
// archive).
type fakeServer struct {
	mode    string
	archive []byte
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/bicep/":
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"value":[{"namespace":"Contoso.Data","extension":"contosodata","archive":"/bicep/contosodata.tgz","repository":"bicep/contosodata"}]}`))
		return
	case "/bicep/contosodata.tgz":
	default:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		w.Write([]byte(`{"error":{"code":"NamespaceNotFound","message":"no registered namespace has the extension ` + strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/bicep/"), ".tgz") + `"}}`))
		return
	}
	etag := `"` + digestOf(f.archive) + `"`
	if f.mode == "digest" {
		etag = `"` + digestOf([]byte("other")) + `"`
	}
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Content-Length", strconv.Itoa(len(f.archive)))
	if f.mode == "truncate" {
		w.WriteHeader(200)
		w.Write(f.archive[:len(f.archive)/2])
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	w.Write(f.archive)
}

func newClient(t *testing.T, h http.Handler) *client.Client {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	c, err := client.New(ts.URL, client.WithRetry(1, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const projectConfig = `{
  // Mine.
  "extensions": {
    "contosodata": "./out/bicep/contosodata.tgz", // from udtc init
  },
}
`

// TestSyncFaults: a server gone halfway, a digest mismatch, an archive of
// another extension, an unknown namespace and a bicepconfig.json that is
// not JSONC each give an error, and nothing is written: the local copy
// stays as it was.
func TestSyncFaults(t *testing.T) {
	good := archiveOf(t, "contosodata", "0.0.1")
	for _, c := range []struct {
		mode, config string
		namespaces   []string
		says         string
	}{
		{"truncate", projectConfig, nil, "unexpected EOF"},
		{"digest", projectConfig, nil, "digest mismatch: the server named " + digestOf([]byte("other"))},
		{"wrongname", projectConfig, nil, "the archive is of extension other, not contosodata"},
		{"ok", projectConfig, []string{"Nope.Nope"}, "namespace Nope.Nope: "},
		{"ok", "{\n  \"extensions\": {\n    \"a\": \"b\"\n    \"c\": \"d\"\n  }\n}\n", nil, "is not valid JSON with comments"},
		{"ok", `{"extensions": []}`, nil, `has "extensions" that is not an object`},
	} {
		t.Run(c.mode+c.says, func(t *testing.T) {
			f := &fakeServer{mode: c.mode, archive: good}
			if c.mode == "wrongname" {
				f.archive = archiveOf(t, "other", "0.0.1")
			}
			dir := t.TempDir()
			cfg := filepath.Join(dir, "bicepconfig.json")
			os.WriteFile(cfg, []byte(c.config), 0o644)
			_, err := Sync(context.Background(), Options{Client: newClient(t, f), Config: cfg, Namespaces: c.namespaces})
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Sync = %v, want an error saying %q", err, c.says)
			}
			if got, _ := os.ReadFile(cfg); string(got) != c.config {
				t.Errorf("bicepconfig.json changed:\n%s", got)
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, DefaultDir)); len(entries) != 0 {
				t.Errorf("files were written: %v", entries)
			}
		})
	}
}

// TestSyncKeepsLocalCopyWhenServerFails: a synced project whose server
// fails halfway through the next download keeps its pinned copy.
func TestSyncKeepsLocalCopyWhenServerFails(t *testing.T) {
	f := &fakeServer{mode: "ok", archive: archiveOf(t, "contosodata", "0.0.1")}
	c := newClient(t, f)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "bicepconfig.json")
	os.WriteFile(cfg, []byte(projectConfig), 0o644)
	res, err := Sync(context.Background(), Options{Client: c, Config: cfg})
	if err != nil || !res.Wrote {
		t.Fatalf("Sync = %+v %v", res, err)
	}
	synced, _ := os.ReadFile(cfg)
	local := filepath.Join(dir, filepath.FromSlash(res.Extensions[0].Entry))
	f.mode, f.archive = "truncate", archiveOf(t, "contosodata", "0.0.2")
	if _, err := Sync(context.Background(), Options{Client: c, Config: cfg}); err == nil {
		t.Fatal("a truncated download succeeded")
	}
	if got, _ := os.ReadFile(cfg); string(got) != string(synced) {
		t.Errorf("bicepconfig.json changed")
	}
	if got, err := os.ReadFile(local); err != nil || digestOf(got) != res.Extensions[0].Digest {
		t.Errorf("the local copy changed: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, DefaultDir))
	if len(entries) != 1 {
		t.Errorf("files in the extension directory: %v", entries)
	}
	// --check sees it stale; the server back, the next sync fetches it.
	f.mode = "ok"
	if res, err := Sync(context.Background(), Options{Client: c, Config: cfg, Check: true}); err != nil || !res.Stale() {
		t.Errorf("check = %+v %v", res, err)
	}
	if res, err := Sync(context.Background(), Options{Client: c, Config: cfg}); err != nil || res.Extensions[0].State != Updated {
		t.Errorf("sync = %+v %v", res, err)
	}
}

// TestConfigEdits: entries are added and updated in bicepconfig.json files
// of every shape, and everything else stays byte for byte.
func TestConfigEdits(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{ // comments, trailing commas, another extension
			"// top\n{\n  \"analyzers\": {}, // keep\n  \"extensions\": {\n    /* k8s */ \"kubernetes\": \"br:mcr.microsoft.com/bicep/extensions/kubernetes/v1:1.0.0\", // by hand\n  },\n}\n",
			"// top\n{\n  \"analyzers\": {}, // keep\n  \"extensions\": {\n    /* k8s */ \"kubernetes\": \"br:mcr.microsoft.com/bicep/extensions/kubernetes/v1:1.0.0\", // by hand\n    \"new\": \"./n.tgz\",\n  },\n}\n",
		},
		{ // no trailing comma, comment after the last member
			"{\n\t\"extensions\": {\n\t\t\"a\": \"x\" // a's\n\t}\n}",
			"{\n\t\"extensions\": {\n\t\t\"a\": \"x\", // a's\n\t\t\"new\": \"./n.tgz\"\n\t}\n}",
		},
		{ // an existing entry keeps its comments
			"{\n  \"extensions\": {\n    // the data extension\n    \"new\": \"./out/bicep/new.tgz\" /* init */\n  }\n}\n",
			"{\n  \"extensions\": {\n    // the data extension\n    \"new\": \"./n.tgz\" /* init */\n  }\n}\n",
		},
		{ // no extensions yet
			"{\n  // nothing yet\n  \"analyzers\": {}\n}\n",
			"{\n  // nothing yet\n  \"analyzers\": {},\n  \"extensions\": {\n    \"new\": \"./n.tgz\"\n  }\n}\n",
		},
		{ // an empty extensions object
			"{\n  \"extensions\": {}\n}\n",
			"{\n  \"extensions\": {\n    \"new\": \"./n.tgz\"\n  }\n}\n",
		},
		{ // one line
			`{"extensions": {"a": "x"}}`,
			`{"extensions": {"a": "x", "new": "./n.tgz"}}`,
		},
		{"", "{\n  \"extensions\": {\n    \"new\": \"./n.tgz\"\n  }\n}\n"},
	} {
		cfg, err := parseConfig([]byte(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if err := cfg.setExtension("new", "./n.tgz"); err != nil {
			t.Fatal(err)
		}
		if got := string(cfg.bytes()); got != c.want {
			t.Errorf("edit of\n%s\ngot\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
}

// TestSyncFromServerWithoutExtensions: a server that does not hand out
// extensions (Radius's UCP, an older udtc serve) is named as such.
func TestSyncFromServerWithoutExtensions(t *testing.T) {
	c := newClient(t, http.NotFoundHandler())
	_, err := Sync(context.Background(), Options{Client: c, Config: filepath.Join(t.TempDir(), "bicepconfig.json")})
	if err == nil || !strings.Contains(err.Error(), "the server hands out no Bicep extensions") {
		t.Errorf("Sync = %v", err)
	}
}
