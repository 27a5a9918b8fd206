package freeport

import (
	"net"
	"strconv"
	"testing"
)

func TestPortCanBeBound(t *testing.T) {
	port, err := Port()
	if err != nil {
		t.Fatal(err)
	}
	if port <= 0 || port > 65535 {
		t.Fatalf("Port() = %d, want a TCP port", port)
	}
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("the port Port returned cannot be bound: %v", err)
	}
	l.Close()
}
