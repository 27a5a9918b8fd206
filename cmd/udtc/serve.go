package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/internal/gctune"
	"github.com/udtc/udtc/registry/oci"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/serve"
	"github.com/udtc/udtc/registry/server"
)

// DefaultServeAddr is where udtc serve listens without --addr.
const DefaultServeAddr = "127.0.0.1:7443"

// bootstrap registers every manifest in dir with the registry at baseURL
// before the server reports ready; a manifest with errors stops the start.
// It returns nil when dir is "".
var bootstrap = bridge.RegisterDir

type serveFlags struct {
	addr      string
	store     string
	bootstrap string
	tokenFile string
	authReads bool
	insecure  bool
	hosts     cli.StringSlice
	logFormat string
	maxBody   int64
	secretKey string
	extReg    string
	tlsCert   string
	tlsKey    string
	sync      syncFlags    // sync.go
	forward   forwardFlags // forward.go
}

func (f *serveFlags) flags() []cli.Flag {
	return slices.Concat([]cli.Flag{
		&cli.StringFlag{Name: "addr", Value: DefaultServeAddr, Usage: "`HOST:PORT` to listen on", Destination: &f.addr},
		&cli.StringFlag{Name: "store", EnvVars: []string{"UDTC_STORE"}, Usage: "`STORE`: sqlite:PATH or postgres://user@host/db (default sqlite in the user's data directory)", Destination: &f.store},
		&cli.StringFlag{Name: "bootstrap", Usage: "check and register every manifest in `DIR` at start", Destination: &f.bootstrap},
		&cli.StringFlag{Name: "token-file", Usage: "`FILE` of bearer tokens, one a line (TOKEN or TOKEN,NAME); writes then require one", Destination: &f.tokenFile},
		&cli.BoolFlag{Name: "auth-reads", Usage: "require the token on reads too", Destination: &f.authReads},
		&cli.BoolFlag{Name: "insecure", Usage: "allow listening on a non-loopback address without --token-file", Destination: &f.insecure},
		&cli.StringSliceFlag{Name: "allowed-hosts", Usage: "answer only requests whose Host is localhost, an IP address or one of these `NAMES` (repeatable or comma-separated; .example.com: it and its subdomains; *: any); checked without this flag only on loopback without --token-file", Destination: &f.hosts},
		&cli.StringFlag{Name: "log-format", Value: "json", Usage: "request log format: json or text", Destination: &f.logFormat},
		&cli.StringFlag{Name: "secret-key-file", Usage: "`FILE` holding the key (64 hex digits, mode 0600) that encrypts resources' sensitive values at rest; default with sqlite: PATH.key, created on first start", Destination: &f.secretKey},
		&cli.Int64Flag{Name: "max-body-bytes", Value: server.DefaultMaxBodyBytes, Usage: "largest request body accepted", Destination: &f.maxBody},
		&cli.StringFlag{Name: "extension-registry", Usage: "show on the catalog's pages the br: reference of each Bicep extension, published to `REGISTRY/PATH[:TAG]` (udtc publish-extension --target 'br:REGISTRY/PATH/{namespace}[:TAG]'; the tag defaults to " + bicep.DefaultVersion + ")", Destination: &f.extReg},
		&cli.StringFlag{Name: "tls-cert-file", Usage: "serve HTTPS with the certificate (PEM) in `FILE`, read again when it changes", Destination: &f.tlsCert},
		&cli.StringFlag{Name: "tls-key-file", Usage: "the private key (PEM) in `FILE` of --tls-cert-file", Destination: &f.tlsKey},
	}, f.sync.flags(), f.forward.flags())
}

func (f *serveFlags) run(c *cli.Context, e *env) error {
	f.sync.isSet = c.IsSet
	if err := choice("log-format", f.logFormat, choicesOf("serve", "log-format")...); err != nil {
		return err
	}
	if f.authReads && f.tokenFile == "" {
		return usageErrorf("--auth-reads needs --token-file")
	}
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return usageErrorf("--tls-cert-file and --tls-key-file go together")
	}
	if f.tlsCert != "" {
		if _, err := tls.LoadX509KeyPair(f.tlsCert, f.tlsKey); err != nil {
			return usageErrorf("--tls-cert-file %s and --tls-key-file %s: %v", f.tlsCert, f.tlsKey, err)
		}
	}
	if serve.IsPostgres(f.store) && f.secretKey == "" {
		return usageErrorf("a postgres store needs --secret-key-file FILE (the key that encrypts sensitive values, the same for every server sharing the database); create one with: (umask 077; openssl rand -hex 32 > FILE)")
	}
	var extensionRef func(string) string
	if f.extReg != "" {
		t, err := oci.ParseRegistryPath(f.extReg)
		if err != nil {
			return usageErrorf("--extension-registry %v", err)
		}
		extensionRef = t.Names(bicep.DefaultVersion)
	}
	forward, err := f.forward.options()
	if err != nil {
		return err
	}
	tokens, err := readTokens(f.tokenFile)
	if err != nil {
		return err
	}
	loopback, err := serve.IsLoopback(f.addr)
	if err != nil {
		return usageErrorf("--addr %q: %v", f.addr, err)
	}
	if !loopback && len(tokens) == 0 && !f.insecure {
		return usageErrorf("refusing to listen on non-loopback address %s without --token-file (pass --insecure to allow it)", f.addr)
	}
	if err := server.CheckAllowedHosts(f.hosts.Value()); err != nil {
		return usageErrorf("--allowed-hosts: %v", err)
	}
	// A page on a name its DNS points at 127.0.0.1 (DNS rebinding) must
	// not reach a registry that takes writes without a token.
	checkHost := (loopback && len(tokens) == 0) || c.IsSet("allowed-hosts")
	logger := serve.NewLogger(f.logFormat, e.stderr)
	f.warnCredentials(logger)
	f.sync.maxBody = f.maxBody
	syncer, err := f.sync.newSyncer(logger)
	if err != nil {
		return err
	}
	store, err := storeOpener(f.store)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer gctune.Set(os.LookupEnv, gctune.ServePercent, func() int64 { return gctune.ServeMemoryLimit })()
	patterns := bridge.NewPatterns() // the same patterns checked at PUT and compared
	err = serve.Run(ctx, serve.Config{
		Addr:        f.addr,
		Store:       store,
		TLSCertFile: f.tlsCert,
		TLSKeyFile:  f.tlsKey,
		Sealer:      func() (*secrets.Sealer, error) { return secretKey(f.secretKey, store.Path, logger) },
		Server: server.Options{
			CheckSchema:    bridge.CheckSchema(patterns),
			CompareSchemas: bridge.CompareSchemas(patterns),
			GoProperties:   bridge.GoProperties(patterns),
			Logger:         logger,
			Tokens:         tokens,
			AuthReads:      f.authReads,
			CheckHost:      checkHost,
			AllowedHosts:   f.hosts.Value(),
			MaxBodyBytes:   f.maxBody,
			Forward:        forward,
			// The catalog's br: references (--extension-registry).
			ExtensionReference: extensionRef,
			// The Bicep extensions of the registrations (GET /bicep/, /v2/).
			BicepExtension: bridge.BicepExtension,
		},
		Start: func(ctx context.Context, srv *server.Server, baseURL, token string) error {
			if err := bootstrap(ctx, baseURL, token, f.bootstrap); err != nil {
				return fail(exitFail, fmt.Errorf("bootstrap %s: %w", f.bootstrap, err))
			}
			startSync(ctx, syncer, srv)
			return nil
		},
		Stopped: func() { stopSync(syncer) },
		Ready: func(baseURL string) {
			fmt.Fprintf(e.stdout, "udtc serve: listening on %s (store %s)\n", baseURL, store.Name)
		},
	})
	var ee *exitError
	if err != nil && !errors.As(err, &ee) {
		return fail(exitFail, err)
	}
	return err
}

// warnCredentials warns about a password given on the command line: the
// process list shows it for as long as the server runs. The environment
// (UDTC_STORE, PGPASSWORD, UDTC_SYNC) and files (PGPASSFILE,
// --sync-token-file) do not.
func (f *serveFlags) warnCredentials(logger *slog.Logger) {
	fromArgs := func(value, env string) bool { return value != "" && os.Getenv(env) != value }
	if serve.IsPostgres(f.store) && userinfo(f.store, true) && fromArgs(f.store, "UDTC_STORE") {
		logger.Warn("the --store URL holds a password, which the process list shows while the server runs: leave it out and set PGPASSWORD or a password file (PGPASSFILE, ~/.pgpass), or give the whole URL in UDTC_STORE")
	}
	if userinfo(f.sync.repo, false) && fromArgs(f.sync.repo, "UDTC_SYNC") {
		logger.Warn("the --sync URL holds credentials, which the process list shows while the server runs: leave them out and give the token with --sync-token-file, or give the whole URL in UDTC_SYNC")
	}
}

// userinfo reports whether a URL carries user information (with
// password: a password); one that does not parse is taken to, whatever
// it holds.
func userinfo(s string, password bool) bool {
	if !strings.Contains(s, "://") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil {
		return strings.Contains(s, "@")
	}
	if u.User == nil {
		return false
	}
	_, has := u.User.Password()
	return has || !password
}

// readTokens reads a token file (serve.ParseTokens); "" has none.
func readTokens(path string) ([]server.Token, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fail(exitUsage, fmt.Errorf("reading --token-file: %w", err))
	}
	tokens, err := serve.ParseTokens(b)
	if err != nil {
		return nil, usageErrorf("--token-file %s: %v", path, err)
	}
	if len(tokens) == 0 {
		return nil, usageErrorf("--token-file %s holds no token", path)
	}
	return tokens, nil
}

// storeOpener checks a --store spec (serve.ParseStore; "" is SQLite at
// serve.DefaultStorePath). Nothing is created until the store is opened.
func storeOpener(spec string) (serve.Store, error) {
	if spec == "" {
		path, err := serve.DefaultStorePath()
		if err != nil {
			return serve.Store{}, fail(exitUsage, fmt.Errorf("no --store given and %w", err))
		}
		spec = "sqlite:" + path
	}
	st, err := serve.ParseStore(spec)
	if err != nil {
		return serve.Store{}, usageErrorf("--store %v", err)
	}
	return st, nil
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
