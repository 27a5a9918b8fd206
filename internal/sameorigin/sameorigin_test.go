package sameorigin_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/udtc/udtc/internal/sameorigin"
)

func TestSame(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"https://r.example/x", "https://R.example:443/y", true},
		{"http://r.example", "http://r.example:80", true},
		{"http://127.0.0.1:7443", "http://127.0.0.1:7443/planes", true},
		{"http://127.0.0.1:7443", "http://127.0.0.1:7444", false},
		{"https://r.example", "http://r.example", false},
		{"https://r.example", "https://r.example:8443", false},
		{"https://r.example", "https://s.r.example", false},
		{"http://[::1]:1", "http://[::1]:1/a", true},
	} {
		a, _ := url.Parse(c.a)
		b, _ := url.Parse(c.b)
		if got := sameorigin.Same(a, b); got != c.same {
			t.Errorf("Same(%s, %s) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

// recorder is a server that remembers the Authorization of each request.
type recorder struct {
	mu   sync.Mutex
	auth []string
	*httptest.Server
}

func record(t *testing.T) *recorder {
	r := &recorder{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.auth = append(r.auth, req.Header.Get("Authorization"))
		r.mu.Unlock()
	}))
	t.Cleanup(r.Close)
	return r
}

func redirector(t *testing.T, to string) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, to+req.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// A redirect to another port of the same host gets no credentials;
// net/http alone sends them (it compares host names only).
func TestClientDropsCredentialsOnAnotherPort(t *testing.T) {
	target := record(t)
	from := redirector(t, target.URL)
	req, _ := http.NewRequest("PUT", from.URL+"/x", strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer s3cret")
	req.Header.Set("Cookie", "c=1")
	resp, err := sameorigin.Client(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(target.auth) != 1 || target.auth[0] != "" {
		t.Errorf("the other port got Authorization %q", target.auth)
	}
}

// A redirect from https to http is not followed.
func TestClientRefusesDowngrade(t *testing.T) {
	target := record(t)
	from := httptest.NewTLSServer(http.RedirectHandler(target.URL+"/x", http.StatusTemporaryRedirect))
	defer from.Close()
	hc := sameorigin.Client(from.Client())
	req, _ := http.NewRequest("GET", from.URL, nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	_, err := hc.Do(req)
	if err == nil || !strings.Contains(err.Error(), "leaves https") {
		t.Errorf("err = %v, want a refusal", err)
	}
	if len(target.auth) != 0 {
		t.Errorf("the http server got %d requests", len(target.auth))
	}
}

// The client's own CheckRedirect still runs, after the rule.
func TestClientKeepsItsCheckRedirect(t *testing.T) {
	target := record(t)
	from := redirector(t, target.URL)
	called := false
	hc := sameorigin.Client(&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { called = true; return http.ErrUseLastResponse }})
	resp, err := hc.Get(from.URL + "/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if !called || resp.StatusCode != http.StatusTemporaryRedirect {
		t.Errorf("own CheckRedirect called %v, status %d", called, resp.StatusCode)
	}
}

// A chain that left the origin and comes back gets no credentials either.
func TestClientDropsCredentialsForGood(t *testing.T) {
	var back *httptest.Server
	seen := make(chan string, 4)
	back = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/start" {
			http.Redirect(w, req, strings.Replace(back.URL, "127.0.0.1", "localhost", 1)+"/away", http.StatusTemporaryRedirect)
			return
		}
		if req.URL.Path == "/away" {
			http.Redirect(w, req, back.URL+"/home", http.StatusTemporaryRedirect)
			return
		}
		seen <- req.Header.Get("Authorization")
	}))
	defer back.Close()
	req, _ := http.NewRequest("GET", back.URL+"/start", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := sameorigin.Client(nil).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := <-seen; got != "" {
		t.Errorf("the first origin, reached again through another, got Authorization %q", got)
	}
}
