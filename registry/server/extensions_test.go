package server_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/extension"
	"github.com/udtc/udtc/registry/oci"
	"github.com/udtc/udtc/registry/server"
)

// fakeBuilder builds an "archive" that spells what it was built from, and
// counts its builds (the real builder is internal/bridge's, tested in
// cmd/udtc).
type fakeBuilder struct{ builds atomic.Int32 }

func (b *fakeBuilder) build(_ context.Context, sums []api.ProviderSummary, name string) (extension.Package, error) {
	b.builds.Add(1)
	data, err := json.Marshal(sums)
	if err != nil {
		return extension.Package{}, err
	}
	if strings.Contains(name, "-") {
		return extension.Package{}, registry.Errorf(registry.CodeInvalid, "", "extension name %q is not a Bicep identifier", name)
	}
	var ns []string
	for _, s := range sums {
		ns = append(ns, s.Name)
	}
	slices.Sort(ns)
	return extension.Package{Name: name, Version: "0.0.1", Namespaces: ns,
		Archive: append([]byte("archive:"+name+":"), data...), Types: append([]byte("types:"+name+":"), data...)}, nil
}

func newExtFixture(t *testing.T, opts server.Options) (*fixture, *fakeBuilder) {
	b := &fakeBuilder{}
	opts.BicepExtension = b.build
	return newFixture(t, opts), b
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// TestBicepArchive: the archive of a namespace, by its extension name or
// the namespace, with its digest as a strong ETag; conditional and range
// requests are answered without a rebuild, and a changed registration
// gives a new archive.
func TestBicepArchive(t *testing.T) {
	f, b := newExtFixture(t, server.Options{})
	f.seed()
	r := f.must(200, "GET", "!/bicep/contosoplatform.tgz", "")
	if !strings.HasPrefix(string(r.body), "archive:contosoplatform:") {
		t.Fatalf("body %.40q", r.body)
	}
	etag := `"` + sha(r.body) + `"`
	if got := r.header.Get("ETag"); got != etag {
		t.Errorf("ETag %s, want %s", got, etag)
	}
	if ct := r.header.Get("Content-Type"); ct != server.ArchiveMediaType {
		t.Errorf("Content-Type %s", ct)
	}
	if got := f.must(200, "GET", "!/bicep/Contoso.Platform.tgz", "").body; string(got) != string(r.body) {
		t.Errorf("by namespace: another archive")
	}
	f.must(304, "GET", "!/bicep/contosoplatform.tgz", "", "If-None-Match: "+etag)
	part := f.must(206, "GET", "!/bicep/contosoplatform.tgz", "", "Range: bytes=0-7")
	if string(part.body) != "archive:" {
		t.Errorf("range: %q", part.body)
	}
	if h := f.must(200, "HEAD", "!/bicep/contosoplatform.tgz", ""); len(h.body) != 0 || h.header.Get("ETag") != etag {
		t.Errorf("HEAD: %d bytes, ETag %s", len(h.body), h.header.Get("ETag"))
	}
	if n := b.builds.Load(); n != 1 {
		t.Errorf("%d builds for one content, want 1", n)
	}

	f.must(201, "PUT", buses+"/apiVersions/2025-01-01", `{"properties":{"schema":{"type":"object","properties":{"size":{"type":"integer"}}}}}`)
	r2 := f.must(200, "GET", "!/bicep/contosoplatform.tgz", "", "If-None-Match: "+etag)
	if r2.header.Get("ETag") == etag {
		t.Errorf("a changed registration kept the ETag")
	}
	if n := b.builds.Load(); n != 2 {
		t.Errorf("%d builds after a change, want 2", n)
	}
}

// TestBicepArchiveSets: several namespaces, or every one, as one extension.
func TestBicepArchiveSets(t *testing.T) {
	f, _ := newExtFixture(t, server.Options{})
	f.seed()
	f.seedCatalog()
	r := f.must(200, "GET", "!/bicep/contoso.tgz?namespace=Contoso.Data&namespace=Contoso.Other", "")
	if got := r.header.Get("Udtc-Extension-Namespaces"); got != "Contoso.Data,Contoso.Other" {
		t.Errorf("namespaces %q", got)
	}
	all := f.must(200, "GET", "!/bicep/contoso.tgz?namespace=*", "")
	if got := all.header.Get("Udtc-Extension-Namespaces"); got != "Contoso.Data,Contoso.Other,Contoso.Platform" {
		t.Errorf("every namespace: %q", got)
	}
	var idx struct{ Value []api.BicepExtension }
	if err := json.Unmarshal(f.must(200, "GET", "!/bicep/", "").body, &idx); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range idx.Value {
		names = append(names, e.Namespace+"="+e.Extension)
	}
	if want := []string{"Contoso.Data=contosodata", "Contoso.Other=contosoother", "Contoso.Platform=contosoplatform"}; !slices.Equal(names, want) {
		t.Errorf("index %v, want %v", names, want)
	}
}

// TestBicepArchiveErrors: each bad request gets its clear error.
func TestBicepArchiveErrors(t *testing.T) {
	f, _ := newExtFixture(t, server.Options{})
	f.seed()
	f.must(201, "PUT", rp+"/Contoso.Empty", `{}`)
	for _, c := range []struct {
		path   string
		status int
		code   string
		says   string
	}{
		{"/bicep/nope.tgz", 404, api.CodeNamespaceNotFound, "the registry's extensions: contosoempty, contosoplatform"},
		{"/bicep/contosoempty.tgz", 400, api.CodeInvalidRequestContent, "namespace Contoso.Empty has no registered resource types"},
		{"/bicep/x.tgz?namespace=Contoso.Platform&namespace=Nope.Nope", 404, api.CodeNamespaceNotFound, "namespace Nope.Nope is not registered"},
		{"/bicep/bad-name.tgz?namespace=Contoso.Platform", 400, api.CodeInvalidRequestContent, "not a Bicep identifier"},
		{"/bicep/contosoplatform.zip", 404, api.CodeNotFound, "ask for /bicep/NAME.tgz"},
	} {
		r := f.must(c.status, "GET", "!"+c.path, "")
		if code := r.errorCode(t); code != c.code || !strings.Contains(string(r.body), c.says) {
			t.Errorf("%s: %s %s, want %s saying %q", c.path, code, r.body, c.code, c.says)
		}
	}
	// A server without a builder serves none.
	g := newFixture(t, server.Options{})
	g.must(404, "GET", "!/bicep/contosoplatform.tgz", "")
	g.must(404, "GET", "!/v2/", "")
}

// TestBicepArchiveOneBuildUnderLoad: concurrent requests of a cold cache
// wait for one build.
func TestBicepArchiveOneBuildUnderLoad(t *testing.T) {
	f, b := newExtFixture(t, server.Options{})
	f.seed()
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			resp, err := http.Get(f.url + "/bicep/contosoplatform.tgz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != 200 {
					t.Errorf("status %d", resp.StatusCode)
				}
			}
		})
	}
	wg.Wait()
	if n := b.builds.Load(); n != 1 {
		t.Errorf("%d builds for 16 concurrent requests, want 1", n)
	}
}

// TestBicepAuthReads: with --auth-reads the archive and the OCI API need
// the token.
func TestBicepAuthReads(t *testing.T) {
	f, _ := newExtFixture(t, server.Options{Tokens: []server.Token{{Value: "s3cret"}}, AuthReads: true})
	f.must(201, "PUT", provider, `{}`, "Authorization: Bearer s3cret")
	f.must(201, "PUT", buses, `{"properties":{}}`, "Authorization: Bearer s3cret")
	f.must(201, "PUT", version, `{"properties":{"schema":{}}}`, "Authorization: Bearer s3cret")
	for _, p := range []string{"/bicep/contosoplatform.tgz", "/bicep/", "/v2/", "/v2/bicep/contosoplatform/tags/list"} {
		f.must(401, "GET", "!"+p, "")
		f.must(200, "GET", "!"+p, "", "Authorization: Bearer s3cret")
	}
}

// TestOCIDistribution: the extension over the OCI distribution API:
// manifests by tag and digest with Bicep's media types, blobs, tags, HEAD;
// writes are refused; the content tag stays with its content when latest
// moves.
func TestOCIDistribution(t *testing.T) {
	f, _ := newExtFixture(t, server.Options{})
	f.seed()
	base := f.must(200, "GET", "!/v2/", "")
	if base.header.Get("Docker-Distribution-API-Version") != "registry/2.0" {
		t.Errorf("no Docker-Distribution-API-Version")
	}
	repo := "/v2/bicep/contosoplatform"
	var tags struct {
		Name string
		Tags []string
	}
	if err := json.Unmarshal(f.must(200, "GET", "!"+repo+"/tags/list", "").body, &tags); err != nil {
		t.Fatal(err)
	}
	if tags.Name != "bicep/contosoplatform" || len(tags.Tags) != 2 || tags.Tags[1] != extension.Latest || !strings.HasPrefix(tags.Tags[0], "0.0.1-") {
		t.Fatalf("tags %+v", tags)
	}
	mr := f.must(200, "GET", "!"+repo+"/manifests/latest", "", "Accept: "+ocispec.MediaTypeImageManifest)
	if ct := mr.header.Get("Content-Type"); ct != ocispec.MediaTypeImageManifest {
		t.Errorf("manifest Content-Type %s", ct)
	}
	md := mr.header.Get("Docker-Content-Digest")
	if md != sha(mr.body) {
		t.Errorf("Docker-Content-Digest %s, body %s", md, sha(mr.body))
	}
	var m ocispec.Manifest
	if err := json.Unmarshal(mr.body, &m); err != nil {
		t.Fatal(err)
	}
	if m.ArtifactType != oci.ArtifactType || m.Config.MediaType != oci.ConfigMediaType || len(m.Layers) != 1 || m.Layers[0].MediaType != oci.LayerMediaType {
		t.Fatalf("manifest %s", mr.body)
	}
	for _, ref := range []string{md, tags.Tags[0]} {
		if got := f.must(200, "GET", "!"+repo+"/manifests/"+ref, "").body; string(got) != string(mr.body) {
			t.Errorf("manifest %s differs from latest", ref)
		}
	}
	layer := f.must(200, "GET", "!"+repo+"/blobs/"+m.Layers[0].Digest.String(), "")
	if !strings.HasPrefix(string(layer.body), "types:contosoplatform:") || sha(layer.body) != m.Layers[0].Digest.String() {
		t.Errorf("layer %.30q", layer.body)
	}
	if cfg := f.must(200, "GET", "!"+repo+"/blobs/"+m.Config.Digest.String(), ""); string(cfg.body) != "{}" {
		t.Errorf("config %q", cfg.body)
	}
	if h := f.must(200, "HEAD", "!"+repo+"/manifests/latest", ""); h.header.Get("Docker-Content-Digest") != md || len(h.body) != 0 {
		t.Errorf("HEAD manifest: %v", h.header)
	}
	for _, c := range []struct{ method, path, code string }{
		{"GET", repo + "/manifests/0.0.1-0000000000000000", "MANIFEST_UNKNOWN"},
		{"GET", repo + "/blobs/sha256:" + strings.Repeat("0", 64), "BLOB_UNKNOWN"},
		{"GET", "/v2/bicep/nope/manifests/latest", "NAME_UNKNOWN"},
		{"GET", "/v2/other/repo/manifests/latest", "NAME_UNKNOWN"},
		{"PUT", repo + "/manifests/latest", "UNSUPPORTED"},
		{"POST", repo + "/blobs/uploads/", "UNSUPPORTED"},
	} {
		r := f.do(c.method, "!"+c.path, "")
		var e struct {
			Errors []struct{ Code, Message string }
		}
		if err := json.Unmarshal(r.body, &e); err != nil || len(e.Errors) != 1 || e.Errors[0].Code != c.code || r.status < 400 {
			t.Errorf("%s %s = %d %s, want %s", c.method, c.path, r.status, r.body, c.code)
		}
	}

	// latest moves; the content tag and digest keep their content.
	f.must(201, "PUT", buses+"/apiVersions/2025-01-01", `{"properties":{"schema":{}}}`)
	if got := f.must(200, "GET", "!"+repo+"/manifests/latest", "").header.Get("Docker-Content-Digest"); got == md {
		t.Errorf("latest did not move")
	}
	for _, ref := range []string{md, tags.Tags[0]} {
		if got := f.must(200, "GET", "!"+repo+"/manifests/"+ref, "").body; string(got) != string(mr.body) {
			t.Errorf("%s moved", ref)
		}
	}
	// Every namespace as one extension.
	if got := f.must(200, "GET", "!/v2/bicep/all/contoso/tags/list", "").body; !strings.Contains(string(got), `"bicep/all/contoso"`) {
		t.Errorf("all: %s", got)
	}
}

// TestCatalogShowsSync: a server that serves extensions shows, for each
// namespace of its home page, the sync command and the bicepconfig.json
// entry; one that does not shows neither.
func TestCatalogShowsSync(t *testing.T) {
	f, _ := newExtFixture(t, server.Options{})
	f.seed()
	var home struct {
		Namespaces []struct {
			Name string
			Sync *struct{ Extension, Command, Entry string }
		}
	}
	if err := json.Unmarshal(f.must(200, "GET", "!/", "", "Accept: application/json").body, &home); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(f.url, "http://")
	if len(home.Namespaces) != 1 || home.Namespaces[0].Sync == nil {
		t.Fatalf("home %+v", home)
	}
	s := home.Namespaces[0].Sync
	if s.Command != "udtc bicep sync --server "+f.url+" Contoso.Platform" || s.Entry != `"contosoplatform": "br:`+host+`/bicep/contosoplatform:latest"` {
		t.Errorf("sync %+v", s)
	}
	html := string(f.must(200, "GET", "!/", "").body)
	if !strings.Contains(html, "<code>udtc bicep sync --server "+f.url+" Contoso.Platform</code>") || !strings.Contains(html, "br:"+host+"/bicep/contosoplatform:latest") {
		t.Errorf("the home page lacks the sync command:\n%s", html)
	}
	g := newFixture(t, server.Options{})
	g.seed()
	if html := string(g.must(200, "GET", "!/", "").body); strings.Contains(html, "bicep sync") {
		t.Errorf("a server without extensions shows the sync command")
	}
}
