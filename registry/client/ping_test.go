package client_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/udtc/udtc/registry/client"
)

// TestPingUnreachable: a server that does not answer is Unreachable, with
// the innermost cause; one that answers with a status is not.
func TestPingUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	reg, err := client.New("http://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	err = reg.Ping(context.Background(), "local")
	if cause, ok := client.Unreachable(err); !ok || cause == nil {
		t.Errorf("Ping of a closed port = %v: Unreachable = %v, %v", err, cause, ok)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	if reg, err = client.New(srv.URL); err != nil {
		t.Fatal(err)
	}
	err = reg.Ping(context.Background(), "local")
	if _, ok := client.Unreachable(err); err == nil || ok {
		t.Errorf("Ping of a server answering 503 = %v: Unreachable = %v", err, ok)
	}
	if _, ok := client.Unreachable(nil); ok {
		t.Error("Unreachable(nil) = true")
	}
}
