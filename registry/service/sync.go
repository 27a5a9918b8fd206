package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// The git sync's state, kept in the store (registry.SyncStore): every
// server sharing the store refuses writes to the managed namespaces
// (SyncGuard) and answers /sync/status (SyncStatus) from it, whether it
// syncs or not; the server that syncs reads and writes it through the
// other methods here.

// syncView is what the store said of the sync at one generation.
type syncView struct {
	found  bool
	status api.SyncStatus
	owned  map[string]bool // lower-cased managed namespaces
}

// syncCache holds the syncView read at gen.
type syncCache struct {
	mu   sync.Mutex
	gen  string
	ok   bool
	view syncView
}

// syncView returns the sync state at the store's current generation,
// read once per generation (every write of any process sharing the store
// changes it). A store without registry.SyncStore has no sync.
func (s *Service) syncView(ctx context.Context) (syncView, error) {
	ss, ok := s.store.(registry.SyncStore)
	if !ok {
		return syncView{}, nil
	}
	at := s.Generation(ctx)
	c := &s.syncs
	if at.OK {
		c.mu.Lock()
		if c.ok && c.gen == at.Gen {
			v := c.view
			c.mu.Unlock()
			return v, nil
		}
		c.mu.Unlock()
	}
	rec, err := ss.SyncRecord(ctx)
	found := err == nil
	if errors.Is(err, registry.ErrNotFound) {
		err = nil
	}
	if err != nil {
		return syncView{}, err
	}
	v := syncView{found: found, status: rec.Status, owned: map[string]bool{}}
	if rec.Damaged != "" {
		v.status.State = "damaged"
		v.status.Error = "the stored sync state is damaged: " + rec.Damaged + "; the sync is stopped until it is repaired (restore the row, or delete it for the sync to start afresh)"
	}
	for _, ns := range rec.Status.Namespaces {
		v.owned[strings.ToLower(ns)] = true
	}
	if at.OK {
		c.mu.Lock()
		c.gen, c.ok, c.view = at.Gen, true, v
		c.mu.Unlock()
	}
	return v, nil
}

// SyncGuard returns the refusal (registry.CodeSyncManaged, 409) of a
// write to namespace by anyone but the git sync, nil when the namespace
// is not managed by a sync.
func (s *Service) SyncGuard(ctx context.Context, namespace string) error {
	if namespace == "" {
		return nil
	}
	v, err := s.syncView(ctx)
	if err != nil {
		return fmt.Errorf("reading which namespaces git sync manages: %w", err)
	}
	if !v.owned[strings.ToLower(namespace)] {
		return nil
	}
	return registry.Errorf(registry.CodeSyncManaged, namespace,
		"namespace %s is managed by git sync from %s: change it there (the repository is the source of truth)", namespace, v.status.Repository)
}

// SyncStatus returns the status of the git sync of the store; ok is false
// when no server ever synced it.
func (s *Service) SyncStatus(ctx context.Context) (st api.SyncStatus, ok bool, err error) {
	v, err := s.syncView(ctx)
	if err != nil || !v.found {
		return api.SyncStatus{}, false, err
	}
	st = v.status
	st.Namespaces = append([]string{}, st.Namespaces...)
	return st, true, nil
}

// syncStore returns the store as a registry.SyncStore.
func (s *Service) syncStore() (registry.SyncStore, error) {
	ss, ok := s.store.(registry.SyncStore)
	if !ok {
		return nil, fmt.Errorf("the store cannot keep the git sync's state: %w", errors.ErrUnsupported)
	}
	return ss, nil
}

// SyncRecord reads the stored sync state afresh (registry.SyncStore); an
// error wraps registry.ErrNotFound when there is none yet.
func (s *Service) SyncRecord(ctx context.Context) (registry.SyncRecord, error) {
	ss, err := s.syncStore()
	if err != nil {
		return registry.SyncRecord{}, err
	}
	return ss.SyncRecord(ctx)
}

// TakeSyncLease takes, renews or releases the sync lease (see
// registry.SyncStore.TakeSyncLease).
func (s *Service) TakeSyncLease(ctx context.Context, from int64, next registry.SyncLease, status api.SyncStatus) (registry.SyncLease, error) {
	ss, err := s.syncStore()
	if err != nil {
		return registry.SyncLease{}, err
	}
	return ss.TakeSyncLease(ctx, from, next, status)
}

// SyncCommit is one transaction of the git sync (CommitSync).
type SyncCommit struct {
	// Fence is the lease the transaction is made under.
	Fence registry.SyncLease
	// Actor is the author of Writes (systemData.lastModifiedBy).
	Actor string
	// Writes are checked as in ApplyRegistrations.
	Writes []SyncWrite
	// Claim, Release and Status: see registry.SyncCommit.
	Claim, Release []string
	Status         *api.SyncStatus
}

// CommitSync checks the writes of c like the bodies of PUTs (schemas
// included) and performs c in one transaction of the store, all or none,
// only while c.Fence still holds the lease (registry.SyncStore.CommitSync;
// else an error wrapping registry.ErrNotHolder).
func (s *Service) CommitSync(ctx context.Context, c SyncCommit) error {
	ss, err := s.syncStore()
	if err != nil {
		return err
	}
	ops, err := s.syncOps(ctx, c.Actor, c.Writes)
	if err != nil {
		return err
	}
	return ss.CommitSync(ctx, registry.SyncCommit{Fence: c.Fence, Ops: ops, Claim: c.Claim, Release: c.Release, Status: c.Status})
}
