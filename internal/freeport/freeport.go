// Package freeport finds a TCP port for a test server that must be told
// its port before it starts (a PostgreSQL cluster, an OCI registry).
package freeport

import "net"

// Port returns a port on 127.0.0.1 that nothing listened on a moment ago.
// Another process may take it before the caller binds it: use it only for
// servers that cannot bind port 0 and report theirs.
func Port() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
