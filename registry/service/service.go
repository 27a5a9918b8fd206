// Package service is the registry's service layer: every read and write
// of the registry goes through it, whichever transport asks
// (registry/server's handlers and its batch endpoint, the git sync). It
// owns the resolution of a resource's type and the caches that make it
// cheap, the admission of resources against their registered schema, the
// checks of their references, the sealing of their secrets, the decision
// to forward a request to the address a type is served at, the checks of
// registration bodies (schemas included) and the transaction of a write;
// the store (registry.Store) stores.
//
// Errors are *registry.Error values with a code, or the store's typed
// errors: registry.CodeOf classifies both, and registry/server maps each
// code to a status in one table.
package service

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/egress"
	"github.com/udtc/udtc/registry/secrets"
)

// Options configure a Service. Store and Secrets are required.
type Options struct {
	Store registry.Store
	// Secrets seals the sensitive values of resources before they are
	// stored and opens them for ListSecrets; New checks that it opens what
	// the store holds.
	Secrets *secrets.Sealer
	// CheckSchema checks an API version's schema; diagnostics of error
	// severity refuse the write. Nil accepts any JSON object.
	CheckSchema func(schema json.RawMessage) []api.Diagnostic
	// Now is the clock of the writes' systemData; nil means time.Now.
	Now func() time.Time
	// Egress is where forwarded requests may go: a location whose address
	// it refuses by name (egress.Policy.CheckURL) is not registered. Nil
	// means egress.New(nil, nil): loopback only.
	Egress *egress.Policy
}

// maxAcceptedSchemas bounds the hashes of the schemas validSchema
// accepted, least recently used first out.
const maxAcceptedSchemas = 1024

// Service is the registry's service layer; it is safe for concurrent use.
type Service struct {
	store       registry.Store
	sealer      *secrets.Sealer
	checkSchema func(json.RawMessage) []api.Diagnostic
	now         func() time.Time
	gens        *generations // nil: the store has none, nothing is cached
	types       typeCache
	schemas     *schemaCache
	checkSlots  chan struct{}                           // see validSchema
	accepted    *lru.Cache[[sha256.Size]byte, struct{}] // schemas validSchema accepted
	syncs       syncCache                               // sync.go
	egress      *egress.Policy
}

// New returns the service over opts.Store and makes sure the plane
// api.DefaultPlane exists. It returns an error wrapping secrets.ErrWrongKey
// when the store holds secrets that opts.Secrets cannot open because they
// were sealed with another key.
func New(ctx context.Context, opts Options) (*Service, error) {
	if opts.Store == nil {
		return nil, errors.New("no store")
	}
	if opts.Secrets == nil {
		return nil, errors.New("no secrets sealer (Options.Secrets)")
	}
	if err := checkSecretKey(ctx, opts.Store, opts.Secrets); err != nil {
		return nil, err
	}
	s := &Service{
		store:       opts.Store,
		sealer:      opts.Secrets,
		checkSchema: opts.CheckSchema,
		now:         opts.Now,
		schemas:     newSchemaCache(),
		checkSlots:  make(chan struct{}, max(2, runtime.GOMAXPROCS(0))),
		egress:      opts.Egress,
	}
	s.accepted, _ = lru.New[[sha256.Size]byte, struct{}](maxAcceptedSchemas) // errs only on a size < 1
	if s.egress == nil {
		s.egress = egress.New(nil, nil)
	}
	if g, ok := opts.Store.(registry.Generations); ok {
		s.gens = &generations{gens: g}
	}
	if s.now == nil {
		s.now = time.Now
	}
	_, _, err := s.store.Put(ctx, registry.Write{
		Resource: registry.Resource{ID: registry.PlaneID(api.DefaultPlane), Location: registry.DefaultLocation, Properties: json.RawMessage(`{}`)},
		If:       registry.Precondition{IfNoneMatch: []string{"*"}},
		Now:      s.now(),
	})
	// ErrPrecondition: it exists; ErrConflict: another process sharing the
	// store created it at the same moment.
	if err != nil && !errors.Is(err, registry.ErrPrecondition) && !errors.Is(err, registry.ErrConflict) {
		return nil, fmt.Errorf("create plane %q: %w", api.DefaultPlane, err)
	}
	return s, nil
}

// Ping checks the store's connection.
func (s *Service) Ping(ctx context.Context) error { return s.store.Ping(ctx) }

// stamp returns the time of a write, in UTC.
func (s *Service) stamp() time.Time { return s.now().UTC() }
