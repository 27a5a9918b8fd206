// Package pgtest gives tests a PostgreSQL database: the server named by
// UDTC_TEST_POSTGRES_DSN, or a throwaway cluster (initdb + postgres on a free
// loopback port in a temporary directory) when the server binaries are on
// PATH or under /usr/lib/postgresql/*/bin. As root, the cluster runs as the
// "postgres" OS user. Start it once per package from TestMain; each test gets
// a fresh database from NewDatabase, which skips the test (fails it when
// CI=true) when no PostgreSQL can be had.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/udtc/udtc/internal/freeport"
)

// EnvDSN names the environment variable holding an existing server's DSN.
const EnvDSN = "UDTC_TEST_POSTGRES_DSN"

// Env is a PostgreSQL for one test package.
type Env struct {
	adminDSN    string // to the maintenance database
	unavailable string // why there is no PostgreSQL, when there is none
	dir         string
	cmd         *exec.Cmd
	exited      chan struct{}
}

// Start finds or starts a PostgreSQL. It never fails: when none can be had,
// the Env records why and NewDatabase skips (or fails under CI).
func Start() *Env {
	if dsn := os.Getenv(EnvDSN); dsn != "" {
		return &Env{adminDSN: dsn}
	}
	e, err := startCluster()
	if err != nil {
		return &Env{unavailable: err.Error()}
	}
	return e
}

// Run runs the tests of m (from TestMain) with *env started before them
// and stopped after, and returns m.Run's exit code.
func Run(m *testing.M, env **Env) int {
	*env = Start()
	defer (*env).Stop()
	return m.Run()
}

// Available reports whether a PostgreSQL is running.
func (e *Env) Available() bool { return e.unavailable == "" }

// Stop stops the cluster this Env started and removes its directory.
func (e *Env) Stop() {
	if e.cmd == nil {
		return
	}
	e.cmd.Process.Signal(syscall.SIGINT) // fast shutdown
	select {
	case <-e.exited:
	case <-time.After(15 * time.Second):
		e.cmd.Process.Kill()
		<-e.exited
	}
	os.RemoveAll(e.dir)
}

// require skips or fails t when there is no PostgreSQL.
func (e *Env) require(t testing.TB) {
	t.Helper()
	if e.Available() {
		return
	}
	msg := "PostgreSQL tests need the postgresql server binaries (initdb, postgres) or " + EnvDSN + ": " + e.unavailable
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip("SKIPPING: " + msg)
}

// NewDatabase creates an empty database, dropped when t ends, and returns
// its DSN.
func (e *Env) NewDatabase(t testing.TB) string {
	t.Helper()
	e.require(t)
	dsn, drop, err := e.CreateDatabase(context.Background())
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Logf("pgtest: %v", err)
		}
	})
	return dsn
}

// CreateDatabase creates an empty database and returns its DSN and a
// function that drops it; for programs that are not tests (the benchmark
// harness). It fails when no PostgreSQL is available.
func (e *Env) CreateDatabase(ctx context.Context) (dsn string, drop func() error, err error) {
	if !e.Available() {
		return "", nil, errors.New(e.unavailable)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "udtc_test_" + hex.EncodeToString(b[:])
	if err := e.admin(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	drop = func() error {
		if err := e.admin(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop database %s: %w", name, err)
		}
		return nil
	}
	return withDatabase(e.adminDSN, name), drop, nil
}

// admin runs one statement on the maintenance database.
func (e *Env) admin(ctx context.Context, stmt string) error {
	db, err := sql.Open("pgx", e.adminDSN)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_, err = db.ExecContext(ctx, stmt)
	return err
}

// withDatabase returns dsn pointing at database name.
func withDatabase(dsn, name string) string {
	if strings.Contains(dsn, "://") {
		if u, err := url.Parse(dsn); err == nil {
			u.Path = "/" + name
			return u.String()
		}
	}
	return dsn + " dbname=" + name
}

// binDir finds the directory holding initdb and postgres.
func binDir() (string, error) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if _, err := exec.LookPath("postgres"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return versionOf(b) - versionOf(a) }) // newest first
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
				return d, nil
			}
		}
	}
	return "", errors.New("initdb and postgres are not on PATH nor under /usr/lib/postgresql/*/bin (apt-get install postgresql)")
}

func versionOf(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Cluster options for a throwaway server; fsync is off (tests that crash
// processes do not crash the machine).
var serverSettings = []string{
	"fsync=off", "synchronous_commit=off", "full_page_writes=off",
	"max_connections=200", "shared_buffers=32MB", "listen_addresses=127.0.0.1",
}

func startCluster() (*Env, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "udtc-pg-")
	if err != nil {
		return nil, err
	}
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and there is no postgres OS user to run the server as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	command := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true}
		return cmd
	}
	data := filepath.Join(dir, "data")
	if out, err := command("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	for attempt := 0; ; attempt++ {
		port, err := freeport.Port()
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		args := []string{"-D", data, "-k", dir, "-p", strconv.Itoa(port)}
		for _, s := range serverSettings {
			args = append(args, "-c", s)
		}
		cmd := command("postgres", args...)
		logPath := filepath.Join(dir, "postgres.log")
		logFile, err := os.Create(logPath)
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		cmd.Stdout, cmd.Stderr = logFile, logFile
		if err := cmd.Start(); err != nil {
			logFile.Close()
			os.RemoveAll(dir)
			return nil, fmt.Errorf("start postgres: %w", err)
		}
		e := &Env{
			adminDSN: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port),
			dir:      dir, cmd: cmd, exited: make(chan struct{}),
		}
		go func() { cmd.Wait(); logFile.Close(); close(e.exited) }()
		if err := e.waitReady(30 * time.Second); err == nil {
			return e, nil
		}
		e.cmd.Process.Kill()
		<-e.exited
		log, _ := os.ReadFile(logPath)
		if attempt < 2 && strings.Contains(string(log), "could not bind") {
			continue // the port was taken in between
		}
		os.RemoveAll(dir)
		return nil, fmt.Errorf("postgres did not start:\n%s", log)
	}
}

func (e *Env) waitReady(timeout time.Duration) error {
	db, err := sql.Open("pgx", e.adminDSN)
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-e.exited:
			return errors.New("postgres exited")
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres not ready after %v: %w", timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
