// Package serve runs a registry server process, as `udtc serve` does: it
// listens, opens the store a spec names (ParseStore), serves the registry
// until its context ends and then shuts down gracefully. Its helpers read
// the other inputs of such a process: a token file (ParseTokens) and
// whether an address listens on loopback only (IsLoopback).
package serve

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// Store is a store named by a spec (ParseStore); nothing is created until
// Open.
type Store struct {
	// Name is for messages: never a DSN, which may hold a password.
	Name string
	// Path is the SQLite database file; "" for other stores.
	Path string
	Open func(context.Context) (registry.Store, error)
}

// ParseStore reads a store spec: sqlite:PATH or postgres://... (or
// postgresql://...). The error says what a spec must be.
func ParseStore(spec string) (Store, error) {
	switch {
	case strings.HasPrefix(spec, "sqlite:"):
		path := strings.TrimPrefix(spec, "sqlite:")
		if path == "" {
			return Store{}, errors.New("sqlite: needs a path, e.g. sqlite:./registry.db")
		}
		return Store{Name: spec, Path: path, Open: func(ctx context.Context) (registry.Store, error) { return sqlite.Open(ctx, path) }}, nil
	case IsPostgres(spec):
		return Store{Name: "postgres", Open: func(ctx context.Context) (registry.Store, error) { return postgres.Open(ctx, spec) }}, nil
	}
	return Store{}, fmt.Errorf("must be sqlite:PATH or postgres://..., not %q", spec)
}

// IsPostgres reports whether spec names a PostgreSQL store.
func IsPostgres(spec string) bool {
	return strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://")
}

// DefaultStorePath is $XDG_DATA_HOME/udtc/registry.db, else
// ~/.local/share/udtc/registry.db on Unix, else the user config directory
// (macOS: ~/Library/Application Support, Windows: %AppData%).
func DefaultStorePath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "udtc", "registry.db"), nil
	}
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("the home directory is unknown: %w", err)
		}
		return filepath.Join(home, ".local", "share", "udtc", "registry.db"), nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("the user data directory is unknown: %w", err)
	}
	return filepath.Join(dir, "udtc", "registry.db"), nil
}

// ParseTokens reads a token file: one token a line, optionally followed by
// ",NAME", the caller's name in systemData and the log (as in Kubernetes'
// static token files); blank lines and lines starting with # are ignored.
// A token without a name gets one when the server starts (NameTokens).
func ParseTokens(data []byte) ([]server.Token, error) {
	var tokens []server.Token
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		value, name, named := strings.Cut(line, ",")
		value, name = strings.TrimSpace(value), strings.TrimSpace(name)
		switch {
		case value == "":
			return nil, fmt.Errorf("line %d: no token before the ','", i+1)
		case named && !tokenNameRE.MatchString(name):
			return nil, fmt.Errorf("line %d: the name after ',' must be 1 to 64 letters, digits, '.', '_', '-', '@' or ':'", i+1)
		}
		tokens = append(tokens, server.Token{Name: name, Value: value})
	}
	return tokens, nil
}

var tokenNameRE = regexp.MustCompile(`^[A-Za-z0-9._@:-]{1,64}$`)

// NameTokens names the tokens that have no name "token:" and 8 hex digits
// of a keyed hash of the token (secrets.Sealer.Tag): servers sharing a key
// name a token alike, and a reader of systemData cannot test guesses of
// the token against its name.
func NameTokens(tokens []server.Token, sealer *secrets.Sealer) []server.Token {
	out := slices.Clone(tokens)
	for i, t := range out {
		if t.Name == "" {
			out[i].Name = "token:" + hex.EncodeToString(sealer.Tag("token name", []byte(t.Value))[:4])
		}
	}
	return out
}

// IsLoopback reports whether HOST:PORT only listens on loopback. An empty
// host means every interface; a name is loopback only if every address it
// resolves to is.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, err
	}
	if host == "" {
		return false, nil
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	if ip != nil {
		return ip.IsLoopback(), nil
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return false, nil
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false, nil
		}
	}
	return true, nil
}

// Config is a server process.
type Config struct {
	Addr  string
	Store Store
	// TLSCertFile and TLSKeyFile, when set, make the server serve HTTPS
	// with that certificate and key (PEM), read again when either file
	// changes.
	TLSCertFile, TLSKeyFile string
	// Sealer returns the sealer of sensitive values, once the store is
	// open; its error is returned as it is.
	Sealer func() (*secrets.Sealer, error)
	// Server holds the server's options but Store and Secrets.
	Server server.Options
	// Start runs once the server listens, before it reports ready (the
	// bootstrap, the git sync): an error stops the process. token is the
	// first of Server.Tokens, "" without.
	Start func(ctx context.Context, srv *server.Server, baseURL, token string) error
	// Ready is told the server's URL once it reports ready.
	Ready func(baseURL string)
	// Stopped, when set, runs once the server stopped serving after its
	// context ended, before the store closes: it waits for what Start
	// started to end (the git sync releasing its lease).
	Stopped func()
}

// Run serves cfg until ctx is done, then lets requests in flight finish
// (at most 30s). It listens before it opens the store, so a port in use
// fails before a new SQLite file is created.
func Run(ctx context.Context, cfg Config) error {
	logger := cfg.Server.Logger
	var cert *certificate
	if cfg.TLSCertFile != "" || cfg.TLSKeyFile != "" {
		var err error
		if cert, err = loadCertificate(cfg.TLSCertFile, cfg.TLSKeyFile, logger); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	store, err := cfg.Store.Open(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	opts := cfg.Server
	opts.Store = store
	if opts.Forward.Listen == nil {
		if ap, err := netip.ParseAddrPort(ln.Addr().String()); err == nil {
			opts.Forward.Listen = []netip.AddrPort{ap} // never forwarded to, and the default of --forward-allow
		}
	}
	if opts.Secrets, err = cfg.Sealer(); err != nil {
		return err
	}
	opts.Tokens = NameTokens(opts.Tokens, opts.Secrets)
	srv, err := server.New(ctx, opts)
	if err != nil {
		return err
	}
	httpSrv := server.HTTPServer(cfg.Addr, srv)
	httpSrv.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	served := make(chan error, 1)
	baseURL := "http://" + ln.Addr().String()
	startURL, stopStart := baseURL, func() {}
	if cert != nil {
		httpSrv.TLSConfig = cert.tlsConfig()
		go func() { served <- httpSrv.ServeTLS(ln, "", "") }()
		baseURL = "https://" + ln.Addr().String()
		// The start registers over plain HTTP on a loopback listener of
		// its own, closed once it is done: the certificate need not name
		// the loopback address.
		start, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			shutdown(httpSrv, logger)
			return fmt.Errorf("listen: %w", err)
		}
		startSrv := server.HTTPServer(start.Addr().String(), srv)
		go startSrv.Serve(start)
		stopStart = func() { startSrv.Close() }
		startURL = "http://" + start.Addr().String()
	} else {
		go func() { served <- httpSrv.Serve(ln) }()
	}
	// The start registers through the server itself (not ready yet); only
	// when it succeeded does the server announce itself.
	token := ""
	if len(opts.Tokens) > 0 {
		token = opts.Tokens[0].Value
	}
	err = cfg.Start(ctx, srv, startURL, token)
	stopStart()
	if err != nil {
		shutdown(httpSrv, logger)
		return err
	}
	logger.Info("listening", "url", baseURL, "store", cfg.Store.Name, "auth", len(opts.Tokens) > 0, "forward_allow", srv.ForwardRules())
	cfg.Ready(baseURL)
	srv.SetReady(true)
	select {
	case <-ctx.Done():
		logger.Info("shutting down", "reason", context.Cause(ctx))
		srv.SetReady(false)
		err := shutdown(httpSrv, logger)
		if cfg.Stopped != nil {
			cfg.Stopped()
		}
		return err
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	}
}

// shutdown lets in-flight requests finish (at most 30s).
func shutdown(s *http.Server, logger *slog.Logger) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		logger.Error("shutdown", "err", err)
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// NewLogger is a server's logger writing to w: JSON lines, or text with
// format "text".
func NewLogger(format string, w io.Writer) *slog.Logger {
	if format == "text" {
		return slog.New(slog.NewTextHandler(w, nil))
	}
	return slog.New(slog.NewJSONHandler(w, nil))
}

// DefaultStoreName names the default store for help texts.
func DefaultStoreName() string {
	if p, err := DefaultStorePath(); err == nil {
		return "sqlite:" + p
	}
	return "sqlite in the user's data directory"
}
