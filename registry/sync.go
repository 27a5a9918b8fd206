package registry

import (
	"context"
	"errors"
	"time"

	"github.com/udtc/udtc/registry/api"
)

// The state of the git sync (`udtc serve --sync`) is kept in the store, so
// that every process sharing the database refuses writes to the namespaces
// it manages and answers /sync/status alike, and so that one process at a
// time syncs: the holder of the sync lease.

// SyncLease is the lease of the one process that syncs. Version grows by
// one at every take and renewal; a process judges whether the lease
// expired by how long it has seen the same Holder and Version (on its own
// clock, never by comparing clocks), against TTL: RenewedAt, written on
// the holder's clock, is for people.
type SyncLease struct {
	// Holder identifies the process; "" when nobody holds the lease.
	Holder    string
	Version   int64
	TTL       time.Duration
	RenewedAt time.Time
}

// SyncRecord is the stored state of the git sync.
type SyncRecord struct {
	Lease SyncLease
	// Status is what the holder last recorded; its Namespaces are the
	// managed namespaces (the ownership the store keeps).
	Status api.SyncStatus
	// Damaged, when not "", says what of the stored record could not be
	// read (a hand-edited status): Status then holds only the namespaces
	// and the lease, which the store keeps apart and are intact. The sync
	// refuses to run on a damaged record; the managed namespaces stay
	// guarded.
	Damaged string
}

// SyncCommit is one transaction of the sync (SyncStore.CommitSync), fenced
// by the lease: it is committed only while Fence.Holder still holds the
// lease at Fence.Version.
type SyncCommit struct {
	Fence SyncLease
	// Ops are the writes of registrations, as in Batcher.ApplyBatch.
	Ops []BatchOp
	// Claim and Release add namespaces to the managed ones and remove
	// them (any case; a namespace is managed once).
	Claim, Release []string
	// Status, when not nil, replaces the recorded status (its Namespaces
	// are ignored: the managed namespaces are the claimed ones).
	Status *api.SyncStatus
}

// ErrNotHolder is the error of a fenced sync write or a renewal by a
// process that no longer holds the sync lease.
var ErrNotHolder = errors.New("the sync lease is held by another process")

// SyncStore is implemented by stores that keep the state of the git sync.
type SyncStore interface {
	// SyncRecord returns the stored state. It returns ErrNotFound when no
	// process ever synced this database. A status that cannot be read is
	// no error: the record says so in Damaged.
	SyncRecord(ctx context.Context) (SyncRecord, error)
	// TakeSyncLease replaces the lease with next (Version is ignored: the
	// stored one plus one is written) when the stored lease's version is
	// still from; from 0 creates the record, with status. It returns the
	// lease written, or ErrPrecondition when another process changed the
	// lease (or created the record) first. A holder renews its lease with
	// its own version, and releases it with an empty Holder.
	TakeSyncLease(ctx context.Context, from int64, next SyncLease, status api.SyncStatus) (SyncLease, error)
	// CommitSync performs c in one transaction, all or none: the fence
	// check (ErrNotHolder), the writes (a failed one as a *BatchError),
	// the ownership changes and the status.
	CommitSync(ctx context.Context, c SyncCommit) error
}
