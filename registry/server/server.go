// Package server is the registry's HTTP API: one route table (routes.go),
// handlers as methods, middleware composed in one place (middleware.go), and
// one function mapping errors to statuses and the ARM error envelope
// (errors.go). It serves the registry's service (registry/service) over
// the UCP-compatible URL space under /planes/radius/{plane}: a handler
// decodes, calls the service, encodes, and returns its error to the one
// adapter that answers it.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/catalog"
	"github.com/udtc/udtc/registry/egress"
	"github.com/udtc/udtc/registry/extension"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/service"
)

// DefaultMaxBodyBytes is the request body limit unless Options says
// otherwise: 4 MiB.
const DefaultMaxBodyBytes = 4 << 20

// changesCacheSize is how many catalog comparisons of two API versions a
// server keeps (the changes pages): each costs two schema checks.
const changesCacheSize = 256

// DefaultPlane is the plane that exists from the start.
const DefaultPlane = api.DefaultPlane

// DefaultLocation is the location of a resource, resource group, plane or
// provider whose body names none.
const DefaultLocation = registry.DefaultLocation

// Token is a bearer token the server accepts; Name identifies the caller in
// systemData.
type Token struct {
	Name  string
	Value string
}

// Options configure a Server. Store and Secrets are required.
type Options struct {
	Store registry.Store
	// Secrets seals the sensitive values of resources before they are
	// stored and opens them for listSecrets. Where its key comes from is
	// the caller's business (udtc serve: --secret-key-file, or a key file
	// beside an SQLite database); New checks that it opens what the store
	// holds.
	Secrets *secrets.Sealer
	// CheckSchema checks an API version's schema; diagnostics of error
	// severity reject the PUT with 400. Nil accepts any JSON object.
	CheckSchema func(schema json.RawMessage) []api.Diagnostic
	// CompareSchemas judges the catalog's changes between two API versions
	// of a type (udtc serve: the rules of `udtc breaking`). Nil means a
	// structural comparison of the property tables. Its answers are kept
	// for changesCacheSize pairs of schemas (catalog.CachedCompare).
	CompareSchemas catalog.CompareFunc
	// GoProperties writes the catalog's Go snippets with the generated
	// types (catalog.Options.GoProperties); nil decodes JSON.
	GoProperties catalog.GoPropertiesFunc
	// ExtensionReference returns the br: reference a Bicep extension is
	// published at, shown on the catalog's type pages (udtc serve
	// --extension-registry); nil shows none.
	ExtensionReference func(extension string) string
	// BicepExtension builds the Bicep extensions the server hands out
	// (extensions.go: GET /bicep/NAME.tgz and the OCI API under /v2/);
	// nil serves none. udtc serve wires internal/bridge.BicepExtension.
	BicepExtension extension.Builder
	// Logger receives one structured line per request; nil discards.
	Logger *slog.Logger
	// Now is the clock for systemData; nil means time.Now.
	Now func() time.Time
	// Tokens, when not empty, are required on writes (and on reads when
	// AuthReads) as "Authorization: Bearer <token>".
	Tokens    []Token
	AuthReads bool
	// CheckHost refuses (403) a request whose Host is not one of the
	// server's names: an IP address, localhost or a name under .localhost
	// (any port), or one of AllowedHosts (CheckAllowedHosts says what
	// they may be). udtc serve sets it when it listens on loopback without
	// a token, and when --allowed-hosts is given (guard.go).
	CheckHost    bool
	AllowedHosts []string
	// MaxBodyBytes limits request bodies; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Forward configures forwarding to the locations' addresses
	// (forward.go): where it may go, its limits.
	Forward ForwardOptions
}

// Server is the registry HTTP handler: it decodes requests, calls the
// service (registry/service) and encodes its answers.
type Server struct {
	svc            *service.Service
	compareSchemas catalog.CompareFunc
	goProperties   catalog.GoPropertiesFunc
	extensionRef   func(string) string
	ext            *extension.Cache // nil: no extensions served
	log            *slog.Logger
	tokens         []Token
	checkHost      bool
	hosts          hostNames
	authReads      bool
	maxBody        int64
	cache          *respCache // respcache.go
	fwd            *forwarder
	mux            *http.ServeMux
	handler        http.Handler
	ready          atomic.Bool
	// writeKinds are the kinds of the registration write routes, by
	// pattern: the batch routes its writes with the mux (batch.go).
	writeKinds map[string]registry.Kind
}

// New returns a server over opts.Store and makes sure the plane "local"
// exists. It returns an error wrapping secrets.ErrWrongKey when the store
// holds secrets that opts.Secrets cannot open because they were sealed with
// another key. The server reports ready on /readyz once SetReady(true) is
// called.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, errors.New("server: no store")
	}
	if opts.Secrets == nil {
		return nil, errors.New("server: no secrets sealer (Options.Secrets)")
	}
	hosts, err := newHostNames(opts.AllowedHosts)
	if err != nil {
		return nil, fmt.Errorf("server: allowed hosts: %w", err)
	}
	policy := egress.New(opts.Forward.Allow, opts.Forward.Listen)
	svc, err := service.New(ctx, service.Options{Store: opts.Store, Secrets: opts.Secrets, CheckSchema: opts.CheckSchema, Now: opts.Now, Egress: policy})
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	s := &Server{
		svc:            svc,
		compareSchemas: catalog.CachedCompare(opts.CompareSchemas, changesCacheSize),
		goProperties:   opts.GoProperties,
		extensionRef:   opts.ExtensionReference,
		log:            opts.Logger,
		tokens:         opts.Tokens,
		checkHost:      opts.CheckHost,
		hosts:          hosts,
		authReads:      opts.AuthReads,
		maxBody:        opts.MaxBodyBytes,
		cache:          newRespCache(),
		fwd:            newForwarder(opts.Forward, policy, opts.Logger),
		mux:            http.NewServeMux(),
		writeKinds:     map[string]registry.Kind{},
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBodyBytes
	}
	if opts.BicepExtension != nil {
		s.ext = extension.NewCache(svc, DefaultPlane, opts.BicepExtension)
	}
	s.routes()
	s.handler = s.middleware(s.mux)
	return s, nil
}

// Service returns the service the server serves: the git sync reads and
// writes through it directly.
func (s *Server) Service() *service.Service { return s.svc }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// ForwardRules describes where the server forwards to (egress.Policy.Rules),
// for the start's log line.
func (s *Server) ForwardRules() string { return s.fwd.policy.Rules() }

// SetReady sets what /readyz reports.
func (s *Server) SetReady(ready bool) { s.ready.Store(ready) }

// HTTPServer returns an http.Server for h with the registry's timeouts.
func HTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    HTTPMaxHeaderBytes, // limitHeaders enforces MaxHeaderBytes

	}
}
