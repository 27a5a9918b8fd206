package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/egress"
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

	f := newForwarder(ForwardOptions{}, egress.New(nil, nil), nil)
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
			f := newForwarder(ForwardOptions{Timeout: tc.timeout}, egress.New(nil, nil), nil)
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

// forwardOnce sends a GET through f to address and returns the answer
// with its ARM error code ("" for another body).
func forwardOnce(t *testing.T, f *forwarder, address string, headers ...string) (*httptest.ResponseRecorder, api.ErrorDetail) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://registry.test/planes/radius/local/resourceGroups/rg/providers/A.B/c/d?api-version=1", nil)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	f.forward(rec, req, address, nil)
	var e api.ErrorResponse
	_ = json.Unmarshal(rec.Body.Bytes(), &e)
	return rec, e.Error
}

// TestForwardLimits: a provider's answer reaches the client only whole
// and within the limits; a body cut short, a body or headers too large,
// or a provider that stalls mid-body are a 502, never a truncated answer
// under the provider's status.
func TestForwardLimits(t *testing.T) {
	const max = 1000
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("case") {
		case "fits":
			w.Write(bytes.Repeat([]byte("a"), max))
		case "too-large":
			w.(http.Flusher).Flush() // chunked: no Content-Length to go by
			w.Write(bytes.Repeat([]byte("a"), max+1))
		case "headers":
			w.Header().Set("X-Big", strings.Repeat("h", MaxForwardHeaderBytes))
		case "cut":
			w.Header().Set("Content-Length", "100")
			w.Write([]byte("0123456789"))
			w.(http.Flusher).Flush()
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
		case "stall":
			w.Write([]byte(`{"partial":`))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}
	}))
	defer provider.Close()
	for _, tc := range []struct {
		name, want string
		timeout    time.Duration
	}{
		{"fits", "", time.Minute},
		{"too-large", "larger than 1000 bytes", time.Minute},
		{"headers", "headers larger than", time.Minute},
		{"cut", "did not answer", time.Minute},
		{"stall", "did not answer within 100ms", 100 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newForwarder(ForwardOptions{MaxBodyBytes: max, Timeout: tc.timeout}, egress.New(nil, nil), nil)
			rec, e := forwardOnce(t, f, provider.URL+"/?case="+tc.name)
			if tc.want == "" {
				if rec.Code != 200 || rec.Body.Len() != max || rec.Header().Get("Content-Length") != "1000" {
					t.Errorf("got %d, %d bytes, Content-Length %q; want the whole body", rec.Code, rec.Body.Len(), rec.Header().Get("Content-Length"))
				}
				return
			}
			if rec.Code != http.StatusBadGateway || e.Code != api.CodeBadGateway || !strings.Contains(e.Message, tc.want) {
				t.Errorf("got %d %+v (body %.80q), want 502 BadGateway with %q", rec.Code, e, rec.Body.String(), tc.want)
			}
		})
	}
}

// TestForwardChecksAddressesWhenConnecting: what a name resolves to when
// the registry connects is what counts, so a name that resolves to a
// guarded address (DNS rebinding), or to the server's own listener, is
// refused before any connection, and the provider there sees nothing.
func TestForwardChecksAddressesWhenConnecting(t *testing.T) {
	var hits atomic.Int32
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer provider.Close()
	port := provider.Listener.Addr().(*net.TCPAddr).Port
	rules, err := egress.Parse([]string{"10.0.0.0/8"})
	if err != nil {
		t.Fatal(err)
	}
	self := netip.MustParseAddrPort(provider.Listener.Addr().String())
	for _, tc := range []struct {
		name   string
		policy *egress.Policy
		status int
		code   string
		want   string
	}{
		{"rebinding to loopback", egress.New(rules, nil), 502, api.CodeBadGateway, "127.0.0.1:" + strconv.Itoa(port) + ", loopback"},
		{"an alias of the listener", egress.New(nil, []netip.AddrPort{self}), 508, api.CodeLoopDetected, "forwarding there would loop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newForwarder(ForwardOptions{}, tc.policy, nil)
			f.lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
				if host != "provider.example" {
					return nil, fmt.Errorf("no such host %s", host)
				}
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			}
			rec, e := forwardOnce(t, f, fmt.Sprintf("http://provider.example:%d", port))
			if rec.Code != tc.status || e.Code != tc.code || !strings.Contains(e.Message, tc.want) {
				t.Errorf("got %d %+v, want %d %s with %q", rec.Code, e, tc.status, tc.code, tc.want)
			}
			if n := hits.Load(); n != 0 {
				t.Errorf("the provider saw %d requests, want 0", n)
			}
		})
	}
	// An allowed address is connected to.
	f := newForwarder(ForwardOptions{}, egress.New(nil, nil), nil)
	if rec, e := forwardOnce(t, f, provider.URL); rec.Code != 200 || hits.Load() != 1 {
		t.Errorf("an allowed provider: %d %+v, %d requests", rec.Code, e, hits.Load())
	}
}

// TestForwardHopHeader: a request that a registry forwarded already is
// not forwarded again, and never reaches a provider.
func TestForwardHopHeader(t *testing.T) {
	var hits atomic.Int32
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.Header.Get(HopHeader) == "" {
			t.Errorf("a forwarded request lacks %s", HopHeader)
		}
	}))
	defer provider.Close()
	f := newForwarder(ForwardOptions{}, egress.New(nil, nil), nil)
	if rec, _ := forwardOnce(t, f, provider.URL); rec.Code != 200 || hits.Load() != 1 {
		t.Fatalf("first hop: %d, %d requests", rec.Code, hits.Load())
	}
	rec, e := forwardOnce(t, f, provider.URL, HopHeader+": 1")
	if rec.Code != http.StatusLoopDetected || e.Code != api.CodeLoopDetected || hits.Load() != 1 {
		t.Errorf("second hop: %d %+v, the provider saw %d requests; want 508 LoopDetected and 1", rec.Code, e, hits.Load())
	}
}

// TestForwardRedactsCredentials: an address stored before credentials
// were refused is forwarded to without them, and no answer or log line
// shows them.
func TestForwardRedactsCredentials(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	addr := strings.Replace(dead.URL, "http://", "http://user:hunter2@", 1)
	dead.Close()
	var logs strings.Builder
	f := newForwarder(ForwardOptions{}, egress.New(nil, nil), slog.New(slog.NewTextHandler(&logs, nil)))
	rec, e := forwardOnce(t, f, addr)
	if rec.Code != 502 || !strings.Contains(e.Message, "xxxxx@") || strings.Contains(rec.Body.String()+logs.String(), "hunter2") {
		t.Errorf("got %d %s; log %s", rec.Code, rec.Body.String(), logs.String())
	}
	var auth atomic.Value
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { auth.Store(r.Header.Get("Authorization")) }))
	defer live.Close()
	if rec, _ := forwardOnce(t, f, strings.Replace(live.URL, "http://", "http://user:hunter2@", 1)); rec.Code != 200 || auth.Load() != "" {
		t.Errorf("got %d, the provider saw Authorization %q", rec.Code, auth.Load())
	}
}

// BenchmarkForward forwards a GET whose answer (64 KiB) is read whole
// before it is answered: the cost of buffering a provider's body.
func BenchmarkForward(b *testing.B) {
	body := bytes.Repeat([]byte("x"), 64<<10)
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer provider.Close()
	f := newForwarder(ForwardOptions{}, egress.New(nil, nil), nil)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, "http://registry.test/planes/radius/local/resourceGroups/rg/providers/A.B/c/d?api-version=1", nil)
		rec := httptest.NewRecorder()
		f.forward(rec, req, provider.URL, nil)
		if rec.Code != 200 || rec.Body.Len() != len(body) {
			b.Fatalf("got %d, %d bytes", rec.Code, rec.Body.Len())
		}
	}
}
