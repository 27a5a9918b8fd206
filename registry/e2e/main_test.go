package e2e_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/udtc/udtc/registry/secrets"
	"net"
	"os"
	"testing"

	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres/pgtest"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// Environment switches that make the test binary act as a registry server
// process for the crash test.
const (
	envServeDB   = "UDTC_E2E_SERVE_DB"
	envServeAddr = "UDTC_E2E_SERVE_ADDR_FILE"
)

var pg *pgtest.Env

func TestMain(m *testing.M) {
	if db := os.Getenv(envServeDB); db != "" {
		if err := serve(db, os.Getenv(envServeAddr)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(pgtest.Run(m, &pg))
}

// serve runs a registry server on the SQLite file db until killed, writing
// its address to addrFile once it listens.
func serve(db, addrFile string) error {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		return err
	}
	sealer, err := secrets.New(testKey)
	if err != nil {
		return err
	}
	srv, err := server.New(ctx, server.Options{Store: st, Secrets: sealer})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	tmp := addrFile + ".tmp"
	if err := os.WriteFile(tmp, []byte(ln.Addr().String()), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, addrFile); err != nil {
		return err
	}
	srv.SetReady(true)
	return server.HTTPServer("", srv).Serve(ln)
}

// testSealer seals with a fixed key (tests only).
func testSealer(tb testing.TB) *secrets.Sealer {
	tb.Helper()
	s, err := secrets.New(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// testKey is the key of every e2e server, also across restarts.
var testKey = bytes.Repeat([]byte{7}, secrets.KeySize)
