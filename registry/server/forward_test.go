package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/api"
)

func TestForward(t *testing.T) {
	type seen struct {
		method, path, rawQuery, body, auth, xff, xfh, xfp, ctype string
	}
	got := make(chan seen, 1)
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(b), r.Header.Get("Authorization"),
			r.Header.Get("X-Forwarded-For"), r.Header.Get("X-Forwarded-Host"), r.Header.Get("X-Forwarded-Proto"), r.Header.Get("Content-Type")}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"p1"`)
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"from":"provider"}`)
	}))
	defer provider.Close()

	f := newForwarder(nil, nil)
	path := "/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/dbs/d1"
	req := httptest.NewRequest(http.MethodPut, "http://registry.test"+path+"?api-version=2025-01-01", strings.NewReader(`{"properties":{"size":"S","extra":1}}`))
	req.Header.Set("Authorization", "Bearer registry-secret")
	req.RemoteAddr = "127.0.0.1:5555"
	rec := httptest.NewRecorder()
	f.forward(rec, req, provider.URL, []byte(`{"properties":{"size":"S"}}`))

	if rec.Code != http.StatusCreated || rec.Body.String() != `{"from":"provider"}` || rec.Header().Get("ETag") != `"p1"` {
		t.Errorf("response %d %q ETag %q, want the provider's", rec.Code, rec.Body.String(), rec.Header().Get("ETag"))
	}
	s := <-got
	want := seen{http.MethodPut, path, "api-version=2025-01-01", `{"properties":{"size":"S"}}`, "", "127.0.0.1", "registry.test", "http", "application/json"}
	if s != want {
		t.Errorf("provider saw\n%+v\nwant\n%+v", s, want)
	}

	// A GET carries no body.
	req = httptest.NewRequest(http.MethodGet, "http://registry.test"+path+"?api-version=2025-01-01", nil)
	rec = httptest.NewRecorder()
	f.forward(rec, req, provider.URL+"/base", nil)
	s = <-got
	if s.method != http.MethodGet || s.body != "" || s.path != "/base"+path {
		t.Errorf("GET: provider saw %+v", s)
	}
}

func TestForwardUnreachable(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	addr := dead.URL
	dead.Close()

	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer hang.Close()

	for _, tc := range []struct {
		name, address, want string
		timeout             time.Duration
	}{
		{"closed port", addr, "did not answer", time.Second},
		{"not a URL", "ftp://x", "not an absolute http(s) URL", time.Second},
		{"slow", hang.URL, "did not answer within 50ms", 50 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newForwarder(nil, nil)
			f.timeout = tc.timeout
			req := httptest.NewRequest(http.MethodDelete, "http://registry.test/planes/radius/local/resourceGroups/rg/providers/A.B/c/d", nil)
			rec := httptest.NewRecorder()
			f.forward(rec, req, tc.address, nil)
			var e api.ErrorResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
				t.Fatalf("body %q: %v", rec.Body.String(), err)
			}
			if rec.Code != http.StatusBadGateway || e.Error.Code != api.CodeBadGateway || !strings.Contains(e.Error.Message, tc.want) {
				t.Errorf("got %d %+v, want 502 BadGateway with %q", rec.Code, e.Error, tc.want)
			}
		})
	}
}
