package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/oci"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// DefaultServeAddr is where udtc serve listens without --addr.
const DefaultServeAddr = "127.0.0.1:7443"

// bootstrap registers every manifest in dir with the registry at baseURL
// before the server reports ready; a manifest with errors stops the start.
// It returns nil when dir is "".
var bootstrap = registerDir

type serveFlags struct {
	addr      string
	store     string
	bootstrap string
	tokenFile string
	authReads bool
	insecure  bool
	logFormat string
	maxBody   int64
	secretKey string
	extReg    string
	sync      syncFlags // sync.go
}

func serveCommand(e *env) *cli.Command {
	f := &serveFlags{}
	return &cli.Command{
		Name:  "serve",
		Usage: "serve the resource type registry (UCP-compatible registration APIs) and resources of its types",
		Description: "Serves /planes/radius/{plane}/providers/System.Resources/... (registrations) and\n" +
			"/planes/radius/{plane}/resourceGroups/... (resources of the registered types) on --addr until SIGINT/SIGTERM.\n" +
			"Stores: sqlite:PATH (default: " + displayDefaultStore() + ") or postgres://... .",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "addr", Value: DefaultServeAddr, Usage: "`HOST:PORT` to listen on", Destination: &f.addr},
			&cli.StringFlag{Name: "store", EnvVars: []string{"UDTC_STORE"}, Usage: "`STORE`: sqlite:PATH or postgres://user@host/db (default sqlite in the user's data directory)", Destination: &f.store},
			&cli.StringFlag{Name: "bootstrap", Usage: "check and register every manifest in `DIR` at start", Destination: &f.bootstrap},
			&cli.StringFlag{Name: "token-file", Usage: "`FILE` of bearer tokens, one a line; writes then require one", Destination: &f.tokenFile},
			&cli.BoolFlag{Name: "auth-reads", Usage: "require the token on reads too", Destination: &f.authReads},
			&cli.BoolFlag{Name: "insecure", Usage: "allow listening on a non-loopback address without --token-file", Destination: &f.insecure},
			&cli.StringFlag{Name: "log-format", Value: "json", Usage: "request log format: json or text", Destination: &f.logFormat},
			&cli.StringFlag{Name: "secret-key-file", Usage: "`FILE` holding the key (64 hex digits, mode 0600) that encrypts resources' sensitive values at rest; default with sqlite: PATH.key, created on first start", Destination: &f.secretKey},
			&cli.Int64Flag{Name: "max-body-bytes", Value: server.DefaultMaxBodyBytes, Usage: "largest request body accepted", Destination: &f.maxBody},
			&cli.StringFlag{Name: "extension-registry", Usage: "show on the catalog's pages the br: reference of each Bicep extension, published to `REGISTRY/PATH[:TAG]` (udtc publish-extension --target 'br:REGISTRY/PATH/{namespace}[:TAG]'; the tag defaults to " + bicep.DefaultVersion + ")", Destination: &f.extReg},
		}, f.sync.flags()...),
		Action: func(c *cli.Context) error {
			if c.Args().Len() > 0 {
				return usageErrorf("serve takes no arguments")
			}
			return f.run(c.Context, e)
		},
	}
}

func (f *serveFlags) run(ctx context.Context, e *env) error {
	if f.logFormat != "json" && f.logFormat != "text" {
		return usageErrorf("--log-format must be json or text, not %q", f.logFormat)
	}
	if f.authReads && f.tokenFile == "" {
		return usageErrorf("--auth-reads needs --token-file")
	}
	if isPostgres(f.store) && f.secretKey == "" {
		return usageErrorf("a postgres store needs --secret-key-file FILE (the key that encrypts sensitive values, the same for every server sharing the database); create one with: (umask 077; openssl rand -hex 32 > FILE)")
	}
	extensionRef, err := extensionReference(f.extReg)
	if err != nil {
		return err
	}
	tokens, err := readTokens(f.tokenFile)
	if err != nil {
		return err
	}
	loopback, err := isLoopbackAddr(f.addr)
	if err != nil {
		return usageErrorf("--addr %q: %v", f.addr, err)
	}
	if !loopback && len(tokens) == 0 && !f.insecure {
		return usageErrorf("refusing to listen on non-loopback address %s without --token-file (pass --insecure to allow it)", f.addr)
	}
	var logger *slog.Logger
	if f.logFormat == "text" {
		logger = slog.New(slog.NewTextHandler(e.stderr, nil))
	} else {
		logger = slog.New(slog.NewJSONHandler(e.stderr, nil))
	}

	syncer, err := f.sync.newSyncer(logger)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer tuneGC(os.LookupEnv, serveGCPercent, func() int64 { return serveMemoryLimit })()

	// Bind first: on a port in use, fail before the store (a new SQLite
	// file) is created.
	openStore, storeName, dbPath, err := storeOpener(f.store)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return fail(exitFail, fmt.Errorf("listen: %w", err))
	}
	defer ln.Close()
	store, err := openStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	sealer, err := secretKey(f.secretKey, dbPath, logger)
	if err != nil {
		return err
	}
	patterns := newPatterns() // the same patterns checked at PUT and compared
	srv, err := server.New(ctx, server.Options{
		Store:          store,
		Secrets:        sealer,
		CheckSchema:    newSchemaCheck(patterns),
		CompareSchemas: newCompareSchemas(patterns),
		Logger:         logger,
		Tokens:         tokens,
		AuthReads:      f.authReads,
		MaxBodyBytes:   f.maxBody,
		Sync:           syncer.asServerSync(),
		// The catalog's br: references (--extension-registry).
		ExtensionReference: extensionRef,
	})
	if err != nil {
		return fail(exitFail, err)
	}
	httpSrv := server.HTTPServer(f.addr, srv)
	httpSrv.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	served := make(chan error, 1)
	go func() { served <- httpSrv.Serve(ln) }()
	baseURL := "http://" + ln.Addr().String()

	// The bootstrap registers through the server itself (not ready yet);
	// only when it succeeded does the server announce itself.
	token := ""
	if len(tokens) > 0 {
		token = tokens[0].Value
	}
	if err := bootstrap(ctx, baseURL, token, f.bootstrap); err != nil {
		shutdown(httpSrv, logger)
		return fail(exitFail, fmt.Errorf("bootstrap %s: %w", f.bootstrap, err))
	}
	if err := syncer.start(ctx, srv, baseURL, token); err != nil {
		shutdown(httpSrv, logger)
		return fail(exitFail, fmt.Errorf("sync %s: %w", f.sync.repo, err))
	}
	logger.Info("listening", "url", baseURL, "store", storeName, "auth", len(tokens) > 0)
	fmt.Fprintf(e.stdout, "udtc serve: listening on %s (store %s)\n", baseURL, storeName)
	srv.SetReady(true)

	select {
	case <-ctx.Done():
		logger.Info("shutting down", "reason", context.Cause(ctx))
		srv.SetReady(false)
		if err := shutdown(httpSrv, logger); err != nil {
			return fail(exitFail, err)
		}
		return nil
	case err := <-served:
		return fail(exitFail, fmt.Errorf("serve: %w", err))
	}
}

// extensionReference is the br: reference of each extension published
// under --extension-registry REGISTRY/PATH[:TAG], as publish-extension's
// target br:REGISTRY/PATH/{namespace}[:TAG] names it; nil without the flag.
func extensionReference(registryPath string) (func(string) string, error) {
	if registryPath == "" {
		return nil, nil
	}
	t, err := oci.ParseRegistryPath(registryPath)
	if err != nil {
		return nil, usageErrorf("--extension-registry %v", err)
	}
	return func(extension string) string {
		r, err := t.For(extension, bicep.DefaultVersion)
		if err != nil {
			return "" // a name that makes no repository: no reference
		}
		return r.String()
	}, nil
}

// The server's garbage collector settings, unless $GOGC or $GOMEMLIMIT
// set them. Its live heap is small (tens of MB: caches, statements,
// connections), but a PUT of an API version allocates about 30 times its
// schema in the check; at the default GOGC=100 the collector ran every
// few PUTs and took a quarter of the CPU of each. At 400 it runs a fifth
// as often for a heap of a few tens of MB more under a steady load. It
// does let a burst of large schemas cost more memory than at 100: the heap
// may grow to five times the live heap between collections instead of
// twice, up to the soft memory limit, near which the collector runs as
// often as it needs to again (a soft limit: a live heap above 512 MiB
// still passes it).
const (
	serveGCPercent   = 400
	serveMemoryLimit = 512 << 20
)

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

// readTokens reads a token file: one token a line; blank lines and lines
// starting with # are ignored. Callers are named by a hash prefix of their
// token in systemData.
func readTokens(path string) ([]server.Token, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fail(exitUsage, fmt.Errorf("reading --token-file: %w", err))
	}
	var tokens []server.Token
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum := sha256.Sum256([]byte(line))
		tokens = append(tokens, server.Token{Name: "token:" + hex.EncodeToString(sum[:4]), Value: line})
	}
	if len(tokens) == 0 {
		return nil, usageErrorf("--token-file %s holds no token", path)
	}
	return tokens, nil
}

// isLoopbackAddr reports whether HOST:PORT only listens on loopback. An
// empty host means every interface.
func isLoopbackAddr(addr string) (bool, error) {
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
	if ip == nil {
		// A name: loopback only if every address it resolves to is.
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
	return ip.IsLoopback(), nil
}

// storeOpener checks a --store spec and returns the function that opens
// it, the store's name for messages (never a DSN, which may hold a
// password) and, for SQLite, the database file ("" for other stores).
// Nothing is created until open is called.
func storeOpener(spec string) (open func(context.Context) (registry.Store, error), name, dbPath string, err error) {
	sqliteAt := func(path string) func(context.Context) (registry.Store, error) {
		return func(ctx context.Context) (registry.Store, error) {
			s, err := sqlite.Open(ctx, path)
			if err != nil {
				return nil, fail(exitFail, err)
			}
			return s, nil
		}
	}
	switch {
	case spec == "":
		path, err := defaultStorePath()
		if err != nil {
			return nil, "", "", fail(exitUsage, fmt.Errorf("no --store given and %w", err))
		}
		return sqliteAt(path), "sqlite:" + path, path, nil
	case strings.HasPrefix(spec, "sqlite:"):
		path := strings.TrimPrefix(spec, "sqlite:")
		if path == "" {
			return nil, "", "", usageErrorf("--store sqlite: needs a path, e.g. sqlite:./registry.db")
		}
		return sqliteAt(path), spec, path, nil
	case isPostgres(spec):
		return func(ctx context.Context) (registry.Store, error) {
			s, err := postgres.Open(ctx, spec)
			if err != nil {
				return nil, fail(exitFail, err)
			}
			return s, nil
		}, "postgres", "", nil
	}
	return nil, "", "", usageErrorf("--store must be sqlite:PATH or postgres://..., not %q", spec)
}

func isPostgres(spec string) bool {
	return strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://")
}

// secretKey returns the sealer of resources' sensitive values: the key in
// file (--secret-key-file), else, for an SQLite store, the key file
// dbPath+".key" beside the database, created with mode 0600 on first
// start. A PostgreSQL store needs the flag (run checks it before): its
// database may be shared by several servers, which must use one key.
func secretKey(file, dbPath string, logger *slog.Logger) (*secrets.Sealer, error) {
	if file != "" {
		s, err := secrets.LoadKeyFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usageErrorf("--secret-key-file %s does not exist; create one with: (umask 077; openssl rand -hex 32 > %s)", file, file)
		}
		if err != nil {
			return nil, fail(exitUsage, fmt.Errorf("--secret-key-file: %w", err))
		}
		return s, nil
	}
	if dbPath == "" {
		return nil, usageErrorf("this store needs --secret-key-file FILE")
	}
	path := dbPath + ".key"
	s, created, err := secrets.LoadOrCreateKeyFile(path)
	if err != nil {
		return nil, fail(exitFail, err)
	}
	if created {
		logger.Info("created the secret key file", "path", path, "fingerprint", s.Fingerprint())
	}
	return s, nil
}

// defaultStorePath is $XDG_DATA_HOME/udtc/registry.db, else
// ~/.local/share/udtc/registry.db on Unix, else the user config directory
// (macOS: ~/Library/Application Support, Windows: %AppData%).
func defaultStorePath() (string, error) {
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

func displayDefaultStore() string {
	if p, err := defaultStorePath(); err == nil {
		return "sqlite:" + p
	}
	return "sqlite in the user's data directory"
}
