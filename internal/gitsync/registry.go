package gitsync

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
	"github.com/udtc/udtc/registry/server"
)

// Registry is what a Syncer needs of the registry it keeps in step with
// the repository: the current registrations, as publish's planner reads
// them, and the writes of one namespace applied in one transaction.
// Loopback implements it for a syncer inside `udtc serve`.
type Registry interface {
	// ProviderSummary and ListLocations read a namespace (publish.Reader:
	// one that does not exist is an error client.IsNotFound reports).
	publish.Reader
	// Apply performs writes, all of one namespace, in order and in one
	// transaction: all or none. actor is their author.
	Apply(ctx context.Context, actor string, writes []Write) error
}

// Write is one write of a namespace's transaction: a PUT of Body (the wire
// body a client would send: api.ResourceProvider, api.ResourceType,
// api.APIVersion or api.Location) at ID, or a DELETE of ID when Body is
// nil.
type Write struct {
	ID   registry.ID
	Body any
}

// Loopback is the Registry of a syncer that runs in the process of the
// server it syncs: reads go to the server's HTTP API through Client
// (whose transport is the syncer's, Syncer.Transport), writes to
// ApplyRegistrations (server.Server's) in one transaction of its store.
type Loopback struct {
	Client             *client.Client
	ApplyRegistrations func(ctx context.Context, actor string, writes []server.RegistrationWrite) error
}

// ProviderSummary implements Registry.
func (l Loopback) ProviderSummary(ctx context.Context, namespace string) (api.ProviderSummary, error) {
	return l.Client.ProviderSummary(ctx, namespace)
}

// ListLocations implements Registry.
func (l Loopback) ListLocations(ctx context.Context, namespace string) ([]api.Location, error) {
	return l.Client.ListLocations(ctx, namespace)
}

// Apply implements Registry.
func (l Loopback) Apply(ctx context.Context, actor string, writes []Write) error {
	ws := make([]server.RegistrationWrite, len(writes))
	for i, w := range writes {
		ws[i] = server.RegistrationWrite{ID: w.ID, Body: w.Body}
	}
	return l.ApplyRegistrations(ctx, actor, ws)
}

// applyAll publishes regs and prunes the namespaces gone, each namespace
// in one transaction; it returns the number of writes.
func (s *Syncer) applyAll(ctx context.Context, reg Registry, regs []api.Registration, gone []string) (int, error) {
	var errs []error
	writes := 0
	for _, w := range regs {
		n, err := s.apply(ctx, reg, w)
		writes += n
		errs = append(errs, err)
	}
	for _, ns := range gone {
		n, err := s.prune(ctx, reg, ns)
		writes += n
		errs = append(errs, err)
	}
	return writes, errors.Join(errs...)
}

// apply publishes one namespace like `publish --prune`, in one
// transaction: the plan is made with the publish planner, and its writes
// are applied all at once, so a write that fails leaves the namespace as
// it was.
func (s *Syncer) apply(ctx context.Context, reg Registry, w api.Registration) (int, error) {
	plan, err := publish.MakePlan(ctx, reg, []api.Registration{w}, publish.Options{Prune: true})
	if err != nil {
		return 0, err
	}
	return s.applyPlan(ctx, reg, w.Namespace, plan, false)
}

// prune removes a namespace no longer declared, in one transaction: its
// types, API versions and locations (the planner's prune of an empty
// registration), then the provider itself.
func (s *Syncer) prune(ctx context.Context, reg Registry, ns string) (int, error) {
	if _, err := reg.ProviderSummary(ctx, ns); client.IsNotFound(err) {
		return 0, nil
	}
	plan, err := publish.MakePlan(ctx, reg, []api.Registration{{Namespace: ns}}, publish.Options{Prune: true})
	if err != nil {
		return 0, err
	}
	return s.applyPlan(ctx, reg, ns, plan, true)
}

// applyPlan applies the plan's writes (and, with dropProvider, the delete
// of the provider ns) in one transaction.
func (s *Syncer) applyPlan(ctx context.Context, reg Registry, ns string, plan *publish.Plan, dropProvider bool) (int, error) {
	rec := &recorder{Reader: reg, plane: api.DefaultPlane}
	// One write at a time, in plan order (parents before children).
	res := publish.Apply(ctx, rec, plan, publish.ApplyOptions{Concurrency: 1})
	var errs []error
	for _, f := range res.Failed {
		errs = append(errs, fmt.Errorf("%s %s: %w", f.Change.Action, f.Change.Name(), f.Err))
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	if dropProvider {
		rec.writes = append(rec.writes, Write{ID: registry.ProviderID(rec.plane, ns)})
	}
	if len(rec.writes) == 0 {
		return 0, nil
	}
	if err := reg.Apply(ctx, "git-sync "+s.cfg.Repository, rec.writes); err != nil {
		return 0, fmt.Errorf("namespace %s (nothing of it applied): %w", ns, err)
	}
	return len(rec.writes), nil
}

// recorder is the publish.Registry that publish.Apply writes to: it
// records the writes, for one transaction, instead of sending them. Reads
// go to the embedded Reader.
type recorder struct {
	publish.Reader
	plane  string
	mu     sync.Mutex
	writes []Write
}

func (r *recorder) add(id registry.ID, body any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, Write{ID: id, Body: body})
}

func (r *recorder) PutProvider(_ context.Context, ns string, body api.ResourceProvider, _ ...client.Condition) (api.ResourceProvider, error) {
	r.add(registry.ProviderID(r.plane, ns), body)
	return body, nil
}

func (r *recorder) PutResourceType(_ context.Context, ns, typ string, body api.ResourceType, _ ...client.Condition) (api.ResourceType, error) {
	r.add(registry.TypeID(r.plane, ns, typ), body)
	return body, nil
}

func (r *recorder) PutAPIVersion(_ context.Context, ns, typ, version string, body api.APIVersion, _ ...client.Condition) (api.APIVersion, error) {
	r.add(registry.APIVersionID(r.plane, ns, typ, version), body)
	return body, nil
}

func (r *recorder) PutLocation(_ context.Context, ns, location string, body api.Location, _ ...client.Condition) (api.Location, error) {
	r.add(registry.LocationID(r.plane, ns, location), body)
	return body, nil
}

func (r *recorder) DeleteResourceType(_ context.Context, ns, typ string, _ ...client.Condition) (bool, error) {
	r.add(registry.TypeID(r.plane, ns, typ), nil)
	return true, nil
}

func (r *recorder) DeleteAPIVersion(_ context.Context, ns, typ, version string, _ ...client.Condition) (bool, error) {
	r.add(registry.APIVersionID(r.plane, ns, typ, version), nil)
	return true, nil
}

func (r *recorder) DeleteLocation(_ context.Context, ns, location string, _ ...client.Condition) (bool, error) {
	r.add(registry.LocationID(r.plane, ns, location), nil)
	return true, nil
}
