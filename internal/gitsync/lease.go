package gitsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// The sync lease (registry.SyncLease), as Kubernetes' leader election does
// it: a record with the holder and a version that the holder bumps at
// every renewal (one compare-and-swap a interval). Another server watches
// it: once it has seen the same holder and version for the lease's TTL,
// on its own clock, it takes the lease over with a compare-and-swap on
// that version, which exactly one watcher wins. Clocks are never compared
// across servers. Unlike Kubernetes' election, the holder's writes are
// fenced: each sync transaction checks, inside the transaction, that its
// lease is still the stored one, so a holder that paused past its TTL and
// lost the lease writes nothing.

// HolderID names this process in the sync lease: host, process id and a
// random suffix (a restarted process is a new holder).
func HolderID() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// errDamaged is the refusal to sync from a damaged record
// (registry.SyncRecord.Damaged).
var errDamaged = errors.New("not syncing: the stored sync state is damaged until it is repaired")

// leaser takes, renews and watches the sync lease for one process.
type leaser struct {
	holder string
	ttl    time.Duration
	now    func() time.Time
	log    *slog.Logger
	repo   string // for the log
	// held is the lease this process holds; Holder is "" when it holds
	// none.
	held registry.SyncLease
	// seen is another holder's lease as last seen, at seenAt.
	seen   registry.SyncLease
	seenAt time.Time
}

// acquire renews the lease this process holds, takes it when nobody holds
// it or its holder has not renewed it for its TTL, and otherwise watches
// it. It returns the stored record (with the lease as written) and
// whether this process holds the lease now.
func (l *leaser) acquire(ctx context.Context, reg Registry, initial api.SyncStatus) (registry.SyncRecord, bool, error) {
	rec, err := reg.SyncRecord(ctx)
	if errors.Is(err, registry.ErrNotFound) {
		// The first sync of this store: create the record, holding it.
		rec.Status = initial
		return l.take(ctx, reg, rec, initial)
	}
	if err != nil {
		return rec, false, err
	}
	if rec.Damaged != "" {
		// Syncing from a state it cannot read could prune or rewrite what
		// it does not know of: stop, and say so every interval, until an
		// operator repairs it (docs/git.md). The managed namespaces stay
		// guarded; other writes go on.
		return rec, false, fmt.Errorf("%w: %s", errDamaged, rec.Damaged)
	}
	cur := rec.Lease
	if cur.Holder != "" && cur.Holder != l.holder {
		if l.held.Holder != "" {
			l.lost(cur.Holder)
		}
		if cur.Holder != l.seen.Holder || cur.Version != l.seen.Version {
			if cur.Holder != l.seen.Holder {
				l.log.Info("sync lease held by another server: standing by", "repository", l.repo, "holder", cur.Holder)
			}
			l.seen, l.seenAt = cur, l.now()
			return rec, false, nil
		}
		if l.now().Sub(l.seenAt) < cur.TTL {
			return rec, false, nil
		}
	}
	return l.take(ctx, reg, rec, initial)
}

// take takes (or renews) the lease from the version in rec.
func (l *leaser) take(ctx context.Context, reg Registry, rec registry.SyncRecord, initial api.SyncStatus) (registry.SyncRecord, bool, error) {
	prev := rec.Lease
	next := registry.SyncLease{Holder: l.holder, TTL: l.ttl, RenewedAt: l.now().UTC()}
	lease, err := reg.TakeSyncLease(ctx, prev.Version, next, initial)
	if errors.Is(err, registry.ErrPrecondition) {
		// Another process took or renewed it first: watch from now on.
		if l.held.Holder != "" {
			l.lost("")
		}
		return rec, false, nil
	}
	if err != nil {
		return rec, false, err
	}
	if l.held.Holder == "" {
		from := prev.Holder
		if from == "" {
			from = "nobody"
		}
		l.log.Info("sync lease taken: this server syncs", "repository", l.repo, "holder", l.holder, "from", from)
	}
	l.held = lease
	rec.Lease = lease
	rec.Status.Holder, rec.Status.LeaseRenewedAt = lease.Holder, lease.RenewedAt
	return rec, true, nil
}

// lost forgets the lease another server took (to, when known).
func (l *leaser) lost(to string) {
	l.log.Warn("sync lease lost to another server: standing by", "repository", l.repo, "holder", l.holder, "to", to)
	l.held = registry.SyncLease{}
}

// release gives the lease up (on shutdown), so another server takes the
// sync over at its next interval instead of after the TTL.
func (l *leaser) release(ctx context.Context, reg Registry) {
	if l.held.Holder == "" {
		return
	}
	_, _ = reg.TakeSyncLease(ctx, l.held.Version, registry.SyncLease{TTL: l.ttl, RenewedAt: l.now().UTC()}, api.SyncStatus{})
	l.held = registry.SyncLease{}
}
