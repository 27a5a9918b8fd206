package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
	"github.com/udtc/udtc/registry/service"
)

// Registry is what a Syncer needs of the registry it keeps in step with
// the repository: the current registrations, as publish's planner reads
// them; the sync's state in the store; and the writes of one namespace in
// one transaction under the sync lease. ServiceRegistry implements it.
type Registry interface {
	// ProviderSummary and ListLocations read a namespace (publish.Reader:
	// one that does not exist is an error client.IsNotFound reports).
	publish.Reader
	// SyncRecord, TakeSyncLease and CommitSync are the store's sync state
	// (registry.SyncStore), CommitSync with the writes' checks of
	// service.Service.CommitSync.
	SyncRecord(ctx context.Context) (registry.SyncRecord, error)
	TakeSyncLease(ctx context.Context, from int64, next registry.SyncLease, status api.SyncStatus) (registry.SyncLease, error)
	CommitSync(ctx context.Context, c service.SyncCommit) error
}

// ServiceRegistry is the Registry of a syncer inside `udtc serve`: the
// registry's service, in process (server.Server.Service), on plane
// api.DefaultPlane. The sync guard of the server's routes does not apply
// to it.
type ServiceRegistry struct {
	*service.Service
}

// ProviderSummary implements Registry.
func (r ServiceRegistry) ProviderSummary(ctx context.Context, namespace string) (api.ProviderSummary, error) {
	return r.Service.ProviderSummary(ctx, api.DefaultPlane, namespace)
}

// ListLocations implements Registry.
func (r ServiceRegistry) ListLocations(ctx context.Context, namespace string) ([]api.Location, error) {
	return r.Service.Locations(ctx, api.DefaultPlane, namespace)
}

// ResourceCounts implements Registry.
func (r ServiceRegistry) ResourceCounts(ctx context.Context, namespace string, _ []string) ([]api.ResourceCount, error) {
	return r.Service.ResourceCounts(ctx, api.DefaultPlane, namespace)
}

// syncCommit is a transaction of the sync under lease.
func syncCommit(lease registry.SyncLease, actor string, writes []service.SyncWrite, claim, release []string, st *api.SyncStatus) service.SyncCommit {
	return service.SyncCommit{Fence: lease, Actor: actor, Writes: writes, Claim: claim, Release: release, Status: st}
}

// reconciled is what reconcile found and did.
type reconciled struct {
	// changes are the writes the registry needed to hold the commit,
	// namespace by namespace.
	changes []publish.Change
	writes  int
	pruned  []string
}

// reconcile makes the registry hold regs, the registrations of a commit:
// with write, each namespace that differs is written (and claimed) in one
// transaction, and the managed namespaces regs no longer declares are
// pruned (and released); without, it only finds what differs. A failure of
// a namespace leaves it as it was and the others go on; the failures are
// joined. An error wrapping registry.ErrNotHolder means the lease was
// lost: nothing more was written.
func (s *Syncer) reconcile(ctx context.Context, reg Registry, regs []api.Registration, managed []string, write bool) (reconciled, error) {
	var (
		res     reconciled
		errs    []error
		owned   = lowerSet(managed)
		present = map[string]bool{}
	)
	for _, w := range regs {
		present[strings.ToLower(w.Namespace)] = true
		plan, err := publish.MakePlan(ctx, reg, []api.Registration{w}, publish.Options{Prune: true})
		if err == nil {
			res.changes = append(res.changes, writesOf(plan)...)
			switch mine := owned[strings.ToLower(w.Namespace)]; {
			case write && (plan.Writes() > 0 || !mine):
				var n int
				n, err = s.applyPlan(ctx, reg, w.Namespace, plan, false)
				res.writes += n
			case !mine:
				// Declared by the commit, so managed, written or not.
				err = reg.CommitSync(ctx, syncCommit(s.lease.held, "", nil, []string{w.Namespace}, nil, nil))
			}
		}
		if errors.Is(err, registry.ErrNotHolder) {
			return res, err
		}
		errs = append(errs, err)
	}
	for _, ns := range managed {
		if present[strings.ToLower(ns)] {
			continue
		}
		n, changes, err := s.prune(ctx, reg, ns, write)
		res.changes = append(res.changes, changes...)
		res.writes += n
		if errors.Is(err, registry.ErrNotHolder) {
			return res, err
		}
		if err == nil && write {
			res.pruned = append(res.pruned, ns)
		}
		errs = append(errs, err)
	}
	return res, errors.Join(errs...)
}

// writesOf returns the changes of plan that write.
func writesOf(plan *publish.Plan) []publish.Change {
	var out []publish.Change
	for _, c := range plan.Changes {
		if c.IsWrite() {
			out = append(out, c)
		}
	}
	return out
}

// prune finds, and with write removes, a managed namespace no longer
// declared, in one transaction that releases it: its types, API versions
// and locations (the planner's prune of an empty registration), then the
// provider itself.
func (s *Syncer) prune(ctx context.Context, reg Registry, ns string, write bool) (int, []publish.Change, error) {
	_, err := reg.ProviderSummary(ctx, ns)
	if client.IsNotFound(err) {
		if !write {
			return 0, nil, nil
		}
		// Gone already: only release it.
		return 0, nil, reg.CommitSync(ctx, syncCommit(s.lease.held, "", nil, nil, []string{ns}, nil))
	}
	if err != nil {
		return 0, nil, err
	}
	plan, err := publish.MakePlan(ctx, reg, []api.Registration{{Namespace: ns}}, publish.Options{Prune: true})
	if err != nil {
		return 0, nil, err
	}
	changes := append(writesOf(plan), publish.Change{Action: publish.Delete, Kind: publish.KindProvider, Namespace: ns})
	if !write {
		return 0, changes, nil
	}
	n, err := s.applyPlan(ctx, reg, ns, plan, true)
	return n, changes, err
}

// applyPlan applies the plan's writes of namespace ns (and, with prune,
// the delete of the provider ns) in one transaction under the lease,
// which claims ns (with prune: releases it).
func (s *Syncer) applyPlan(ctx context.Context, reg Registry, ns string, plan *publish.Plan, prune bool) (int, error) {
	rec := &recorder{Reader: reg, plane: api.DefaultPlane, maxBody: s.cfg.Limits.MaxBodyBytes}
	// One write at a time, in plan order (parents before children).
	res := publish.Apply(ctx, rec, plan, publish.ApplyOptions{Concurrency: 1})
	var errs []error
	for _, f := range res.Failed {
		errs = append(errs, fmt.Errorf("%s %s: %w", f.Change.Action, f.Change.Name(), f.Err))
	}
	if err := errors.Join(errs...); err != nil {
		return 0, err
	}
	claim, release := []string{ns}, []string(nil)
	if prune {
		rec.DeleteProvider(ctx, ns)
		claim, release = nil, claim
	}
	err := reg.CommitSync(ctx, syncCommit(s.lease.held, Actor(s.repo), rec.writes, claim, release, nil))
	if errors.Is(err, registry.ErrNotHolder) {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("namespace %s (nothing of it applied): %w", ns, err)
	}
	return len(rec.writes), nil
}

// recorder is the publish.Registry that publish.Apply writes to: it
// records the writes, for one transaction, instead of sending them. Reads
// go to the embedded Reader.
type recorder struct {
	publish.Reader
	plane   string
	maxBody int64 // Limits.MaxBodyBytes
	mu      sync.Mutex
	writes  []service.SyncWrite
}

func (r *recorder) add(id registry.ID, body any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, service.SyncWrite{ID: id, Body: body})
}

// put records a PUT of body, unless its body is larger than the API
// takes.
func (r *recorder) put(id registry.ID, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	if int64(len(b)) > r.maxBody {
		return fmt.Errorf("its body is %d bytes, more than the %d bytes a write may have (udtc serve --max-body-bytes)", len(b), r.maxBody)
	}
	r.add(id, body)
	return nil
}

func (r *recorder) PutProvider(_ context.Context, ns string, body api.ResourceProvider, _ ...client.Condition) (api.ResourceProvider, error) {
	return body, r.put(registry.ProviderID(r.plane, ns), body)
}

func (r *recorder) PutResourceType(_ context.Context, ns, typ string, body api.ResourceType, _ ...client.Condition) (api.ResourceType, error) {
	return body, r.put(registry.TypeID(r.plane, ns, typ), body)
}

func (r *recorder) PutAPIVersion(_ context.Context, ns, typ, version string, body api.APIVersion, _ ...client.Condition) (api.APIVersion, error) {
	return body, r.put(registry.APIVersionID(r.plane, ns, typ, version), body)
}

func (r *recorder) PutLocation(_ context.Context, ns, location string, body api.Location, _ ...client.Condition) (api.Location, error) {
	return body, r.put(registry.LocationID(r.plane, ns, location), body)
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

func (r *recorder) DeleteProvider(_ context.Context, ns string, _ ...client.Condition) (bool, error) {
	r.add(registry.ProviderID(r.plane, ns), nil)
	return true, nil
}

// errNoForce: the sync never deletes resources (it plans without
// publish.Options.DeleteResources); its transaction fails as a whole on a
// registration that still has some.
var errNoForce = errors.New("the git sync does not delete resources with their types")

func (r *recorder) ForceDeleteProvider(context.Context, string) (bool, error) {
	return false, errNoForce
}

func (r *recorder) ForceDeleteResourceType(context.Context, string, string) (bool, error) {
	return false, errNoForce
}

func (r *recorder) ForceDeleteAPIVersion(context.Context, string, string, string) (bool, error) {
	return false, errNoForce
}
