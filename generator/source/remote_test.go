package source_test

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"

	"github.com/udtc/udtc/generator/source"
)

// smartHTTP serves the repository at dir over git's smart HTTP protocol
// (upload-pack only), with go-git's server: a remote for Remote to clone and
// fetch without a git binary. With a token it wants basic auth with it as
// the password.
func smartHTTP(t *testing.T, dir, token string, requests *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := server.NewServer(server.NewFilesystemLoader(osfs.New(filepath.Join(dir, ".git"))))
	ep, err := transport.NewEndpoint("/")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if _, pass, _ := r.BasicAuth(); token != "" && pass != token {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		sess, err := srv.NewUploadPackSession(ep, nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/info/refs"):
			ar, err := sess.AdvertisedReferencesContext(r.Context())
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			ar.Prefix = [][]byte{[]byte("# service=git-upload-pack"), pktline.Flush}
			w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
			if err := ar.Encode(w); err != nil {
				t.Error(err)
			}
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/git-upload-pack"):
			req := packp.NewUploadPackRequest()
			if err := req.Decode(r.Body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			resp, err := sess.UploadPack(r.Context(), req)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
			if err := resp.Encode(w); err != nil {
				t.Error(err)
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

func TestRemoteOverHTTP(t *testing.T) {
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := commit(t, r, "main", "one", source.File{Path: "m/a.yaml", Data: []byte("a: 1\n")})
	var requests atomic.Int64
	ts := smartHTTP(t, dir, "s3cret", &requests)
	ctx := context.Background()

	if _, err := source.OpenRemote(ts.URL+"/types.git", ""); err != nil {
		t.Fatal(err)
	}
	anon, _ := source.OpenRemote(ts.URL+"/types.git", "")
	if err := anon.Fetch(ctx); err == nil {
		t.Fatal("cloned without the token")
	}

	rem, err := source.OpenRemote(ts.URL+"/types.git", "s3cret")
	if err != nil {
		t.Fatal(err)
	}
	if err := rem.Fetch(ctx); err != nil {
		t.Fatal(err)
	}
	if b, err := rem.DefaultBranch(); err != nil || b != "main" {
		t.Fatalf("default branch %q, %v", b, err)
	}
	s, err := rem.Resolve("main")
	if err != nil || s.Hash() != first {
		t.Fatalf("main = %v, %v; want %s", s, err, first)
	}

	// A new commit upstream is seen after the next Fetch.
	second := commit(t, r, "main", "two", source.File{Path: "m/a.yaml", Data: []byte("a: 2\n")})
	if s, _ := rem.Resolve("main"); s.Hash() != first {
		t.Errorf("changed before a fetch")
	}
	if err := rem.Fetch(ctx); err != nil {
		t.Fatal(err)
	}
	s, err = rem.Resolve("main")
	if err != nil || s.Hash() != second {
		t.Fatalf("after fetch: %v, %v; want %s", s, err, second)
	}
	if b, err := fs.ReadFile(s.FS(), "m/a.yaml"); err != nil || string(b) != "a: 2\n" {
		t.Errorf("file at the fetched commit: %q %v", b, err)
	}
	if _, err := rem.Resolve("nope"); err == nil {
		t.Error("an unknown ref resolved")
	}
	if requests.Load() == 0 {
		t.Error("no request reached the server")
	}

	// A local path is read in place, without cloning.
	local, err := source.OpenRemote(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := local.Fetch(ctx); err != nil {
		t.Fatal(err)
	}
	if s, err := local.Resolve("main"); err != nil || s.Hash() != second {
		t.Errorf("local: %v %v", s, err)
	}
	if _, err := source.OpenRemote(filepath.Join(dir, "missing"), ""); err == nil {
		t.Error("a missing directory opened")
	}
}

// Credentials in an HTTP(S) URL authenticate the clone but are never shown:
// not by String, not in the errors of a clone they do not open.
func TestRemoteURLCredentials(t *testing.T) {
	dir := t.TempDir()
	r, err := source.Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := commit(t, r, "main", "one", source.File{Path: "m/a.yaml", Data: []byte("a: 1\n")})
	var requests atomic.Int64
	ts := smartHTTP(t, dir, "s3cret-token", &requests)
	ctx := context.Background()
	withCreds := strings.Replace(ts.URL, "http://", "http://ci:s3cret-token@", 1) + "/types.git"
	rem, err := source.OpenRemote(withCreds, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rem.String(), ts.URL+"/types.git"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if err := rem.Fetch(ctx); err != nil {
		t.Fatalf("clone with the URL's credentials: %v", err)
	}
	if s, err := rem.Resolve("main"); err != nil || s.Hash() != first {
		t.Fatalf("main = %v, %v", s, err)
	}
	wrong, err := source.OpenRemote(strings.Replace(withCreds, "s3cret-token", "wr0ng-pass", 1), "")
	if err != nil {
		t.Fatal(err)
	}
	err = wrong.Fetch(ctx)
	if err == nil || strings.Contains(err.Error(), "wr0ng-pass") || !strings.Contains(err.Error(), ts.URL) {
		t.Errorf("a clone with wrong credentials: %v; want an error naming the URL without its password", err)
	}
	if _, err := source.OpenRemote(withCreds, "tok"); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("credentials in the URL and a token: %v; want an error without the password", err)
	}
	if _, err := source.OpenRemote("https://u:p4ss@/", ""); err != nil && strings.Contains(err.Error(), "p4ss") {
		t.Errorf("an invalid URL's error shows its password: %v", err)
	}
}

func TestRedactURL(t *testing.T) {
	for spec, want := range map[string]string{
		"https://user:token@git.example/org/types.git": "https://git.example/org/types.git",
		"https://token@git.example/types.git":          "https://git.example/types.git",
		"https://git.example/types.git":                "https://git.example/types.git",
		"ssh://git@git.example:2222/types.git":         "ssh://git.example:2222/types.git",
		"git@github.com:org/types.git":                 "github.com:org/types.git",
		"https://us%er:p%zz@git.example/x":             "https://git.example/x", // not a valid URL
		"./platform-types":                             "./platform-types",
		"/srv/git/types@2":                             "/srv/git/types@2",
	} {
		if got := source.RedactURL(spec); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", spec, got, want)
		}
	}
}
