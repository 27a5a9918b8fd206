package oci_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/oci"
)

// fakeRegistry asks for Basic credentials and, once it has them, sends
// every request to elsewhere (a 307, as registries do for blobs).
func fakeRegistry(t *testing.T, elsewhere string) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			w.Header().Set("WWW-Authenticate", `Basic realm="fake"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		http.Redirect(w, r, elsewhere+r.URL.RequestURI(), http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// The credentials of a registry follow its redirects only to its own
// origin: not to another port of its host.
func TestPushKeepsCredentialsToTheirOrigin(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" Authorization="+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}`))
	}))
	defer other.Close()
	reg := fakeRegistry(t, other.URL)
	ref := oci.Reference{Registry: strings.TrimPrefix(reg.URL, "http://"), Repository: "bicep/x", Tag: "1.0.0"}
	_, err := newClient(t, oci.Options{Username: "ci", Password: "s3cret"}).Push(context.Background(), ref, artifact(t, typesArchive(t, "1.0.0"), time.Time{}))
	t.Logf("push: %v", err)
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("no request was redirected")
	}
	for _, s := range seen {
		if !strings.HasSuffix(s, "Authorization=") {
			t.Errorf("another port of the registry's host got credentials: %s", s)
		}
	}
}

// A 401 from the origin a redirect led to is not blamed on credentials
// that were never sent there, and a 401 without a challenge is not
// blamed on missing credentials.
func TestPushExplainsA401ItSentNothingFor(t *testing.T) {
	push := func(registry string) error {
		ref := oci.Reference{Registry: strings.TrimPrefix(registry, "http://"), Repository: "bicep/x", Tag: "1.0.0"}
		_, err := newClient(t, oci.Options{Username: "ci", Password: "s3cret"}).Push(context.Background(), ref, artifact(t, typesArchive(t, "1.0.0"), time.Time{}))
		return err
	}
	refuse := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Basic realm="other"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	other := httptest.NewServer(refuse)
	defer other.Close()
	err := push(fakeRegistry(t, other.URL).URL)
	host := strings.TrimPrefix(other.URL, "http://")
	if err == nil || strings.Contains(err.Error(), "were refused") || !strings.Contains(err.Error(), "redirected to "+host) || !strings.Contains(err.Error(), "none were sent") {
		t.Errorf("a 401 after a redirect to another origin: %v", err)
	}

	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer bare.Close()
	err = push(bare.URL)
	if err == nil || strings.Contains(err.Error(), "no credentials") || !strings.Contains(err.Error(), "did not ask for credentials") {
		t.Errorf("a 401 without a challenge: %v", err)
	}
}
