package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// syncTemplate is the fourth migration: the state of the git sync
// (registry.SyncStore). sync_state has one row (id 1): the lease of the
// process that syncs (holder, lease_version, lease_ttl_ms, renewed_at)
// and the status it recorded (status: the JSON of api.SyncStatus without
// its namespaces and lease). sync_namespaces holds the managed namespaces,
// lower-cased in namespace_key, as declared in namespace.
const syncTemplate = `
CREATE TABLE sync_state (
	id            INTEGER PRIMARY KEY CHECK (id = 1),
	holder        TEXT NOT NULL,
	lease_version BIGINT NOT NULL,
	lease_ttl_ms  BIGINT NOT NULL,
	renewed_at    TEXT NOT NULL,
	status        TEXT NOT NULL
);
CREATE TABLE sync_namespaces (
	namespace_key TEXT {{C}} PRIMARY KEY,
	namespace     TEXT NOT NULL
)
`

// SyncTables returns the fourth migration for a dialect (collate as in
// Schema).
func SyncTables(collate string) string {
	return strings.ReplaceAll(syncTemplate, "{{C}}", collate)
}

// The statements of the sync state. qSyncRecord reads the record and the
// namespaces in one statement, so in one snapshot: the first row (tag 0)
// is the record, the others (tag 1) the namespaces.
const (
	qSyncRecord = `SELECT 0, holder, lease_version, lease_ttl_ms, renewed_at, status FROM sync_state WHERE id = 1
		UNION ALL SELECT 1, namespace, 0, 0, '', '' FROM sync_namespaces`
	qSyncCreate  = `INSERT INTO sync_state (id, holder, lease_version, lease_ttl_ms, renewed_at, status) VALUES (1, ?, 1, ?, ?, ?) ON CONFLICT DO NOTHING`
	qSyncLease   = `UPDATE sync_state SET holder = ?, lease_version = lease_version + 1, lease_ttl_ms = ?, renewed_at = ? WHERE id = 1 AND lease_version = ?`
	qSyncFence   = `SELECT holder, lease_version FROM sync_state WHERE id = 1`
	qSyncStatus  = `UPDATE sync_state SET status = ? WHERE id = 1`
	qSyncClaim   = `INSERT INTO sync_namespaces (namespace_key, namespace) VALUES (?, ?) ON CONFLICT (namespace_key) DO UPDATE SET namespace = excluded.namespace`
	qSyncRelease = `DELETE FROM sync_namespaces WHERE namespace_key = ?`
)

// syncTxStatements are prepared at Open (see txStatements).
var syncTxStatements = []string{qSyncCreate, qSyncLease, qSyncStatus, qSyncClaim, qSyncRelease}

var _ registry.SyncStore = (*Store)(nil)

// SyncRecord implements registry.SyncStore.
func (s *Store) SyncRecord(ctx context.Context) (registry.SyncRecord, error) {
	rows, err := s.query(ctx, qSyncRecord)
	if err != nil {
		return registry.SyncRecord{}, fmt.Errorf("%s: read the sync state: %w", s.d.Name, err)
	}
	defer rows.Close()
	var (
		rec        registry.SyncRecord
		found      bool
		namespaces = []string{}
	)
	for rows.Next() {
		var (
			tag                int
			text, renewed, st  string
			version, ttlMillis int64
		)
		if err := rows.Scan(&tag, &text, &version, &ttlMillis, &renewed, &st); err != nil {
			return registry.SyncRecord{}, fmt.Errorf("%s: read the sync state: %w", s.d.Name, err)
		}
		if tag == 1 {
			namespaces = append(namespaces, text)
			continue
		}
		found = true
		rec = decodeSyncRecord(text, version, ttlMillis, renewed, st)
	}
	if err := rows.Err(); err != nil {
		return registry.SyncRecord{}, fmt.Errorf("%s: read the sync state: %w", s.d.Name, err)
	}
	if !found {
		return registry.SyncRecord{}, fmt.Errorf("sync state: %w", registry.ErrNotFound)
	}
	slices.SortFunc(namespaces, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	rec.Status.Namespaces = namespaces
	return rec, nil
}

// decodeSyncRecord builds the record of the sync_state row. A renewed_at
// or status that cannot be read (edited by hand) leaves the record
// Damaged, with the lease columns, which are typed, intact, and the
// status saying so (State "damaged").
func decodeSyncRecord(holder string, version, ttlMillis int64, renewed, status string) registry.SyncRecord {
	rec := registry.SyncRecord{Lease: registry.SyncLease{Holder: holder, Version: version, TTL: time.Duration(ttlMillis) * time.Millisecond}}
	var damage []string
	if renewed != "" {
		t, err := time.Parse(time.RFC3339Nano, renewed)
		if err != nil {
			damage = append(damage, fmt.Sprintf("sync_state.renewed_at %q is not a time", renewed))
		}
		rec.Lease.RenewedAt = t
	}
	// Unknown fields are no damage: a newer replica may have written them.
	if err := json.Unmarshal([]byte(status), &rec.Status); err != nil {
		rec.Status = api.SyncStatus{}
		damage = append(damage, fmt.Sprintf("sync_state.status is not a sync status: %v", err))
	}
	if len(damage) > 0 {
		rec.Damaged = strings.Join(damage, "; ")
		rec.Status.State = "damaged"
		rec.Status.Error = "the stored sync state is damaged (" + rec.Damaged + "): the git sync is stopped until it is repaired"
	}
	rec.Status.Holder, rec.Status.LeaseRenewedAt = holder, rec.Lease.RenewedAt
	return rec
}

// encodeSyncStatus is the stored form of st: without what the store keeps
// elsewhere (the namespaces, the lease).
func encodeSyncStatus(st api.SyncStatus) (string, error) {
	st.Namespaces, st.Holder, st.LeaseRenewedAt = nil, "", time.Time{}
	b, err := json.Marshal(st)
	return string(b), err
}

// The bounds of the sync's transactions. A process frozen inside one (a
// stopped process, a frozen VM, a network partition) must not keep the
// lease's row locked for longer than the lease lasts, or no other process
// can take the lease over: on PostgreSQL each transaction of the sync
// (CommitSync, TakeSyncLease) waits for a lock, runs a statement and stays
// idle between two statements for at most syncBound(TTL) each
// (Dialect.SyncTimeouts: the server itself rolls back the transaction of
// a frozen client and ends its session), and the whole transaction
// commits only within three times as long (the TTL), on this process's
// clock: one that resumes past it rolls back instead. On SQLite a frozen process
// keeps the database's write lock until it resumes or dies; the others'
// writes wait for the busy timeout and then fail with registry.ErrBusy.
const minSyncBound = time.Second

// syncBound is a third of the lease's TTL (one sync interval with
// gitsync's three intervals a lease), at least minSyncBound.
func syncBound(ttl time.Duration) time.Duration {
	return max(ttl/3, minSyncBound)
}

// beginSync begins a transaction of the sync under lease TTL ttl, bounded
// as above, and returns the time past which it must not commit. That is
// checked on this process's clock just before the commit, not by a
// context: a context would roll the transaction back from this process,
// which a frozen process cannot do either.
func (s *Store) beginSync(ctx context.Context, ttl time.Duration) (*sql.Tx, *writeEnd, time.Time, error) {
	tx, we, err := s.beginWrite(ctx)
	if err != nil {
		return nil, nil, time.Time{}, err
	}
	bound := syncBound(ttl)
	deadline := time.Now().Add(3 * bound)
	if s.d.SyncTimeouts != "" {
		ms := strconv.FormatInt(bound.Milliseconds(), 10)
		if _, err := s.exec(ctx, tx, s.d.SyncTimeouts, ms, ms, ms); err != nil {
			we.end()
			return nil, nil, time.Time{}, fmt.Errorf("%s: bound the sync's transaction: %w", s.d.Name, err)
		}
	}
	return tx, we, deadline, nil
}

// outlived is the error of a transaction of the sync that would commit
// past its deadline (beginSync), nil before it: frozen or slow that long,
// its process may have lost the lease meanwhile.
func (s *Store) outlived(deadline time.Time, ttl time.Duration) error {
	if time.Now().Before(deadline) {
		return nil
	}
	return fmt.Errorf("%s: the transaction of the sync outlived its bound (%s): not committed: %w",
		s.d.Name, 3*syncBound(ttl), context.DeadlineExceeded)
}

// SetSyncTxHook makes f run inside each CommitSync transaction of s just
// before its commit, holding the transaction's locks (nil: nothing runs).
// Tests block in it to freeze a lease holder inside its transaction.
func SetSyncTxHook(s *Store, f func()) {
	if f == nil {
		s.syncTxHook.Store(nil)
		return
	}
	s.syncTxHook.Store(&f)
}

// TakeSyncLease implements registry.SyncStore.
func (s *Store) TakeSyncLease(ctx context.Context, from int64, next registry.SyncLease, status api.SyncStatus) (registry.SyncLease, error) {
	st, err := encodeSyncStatus(status)
	if err != nil {
		return registry.SyncLease{}, err
	}
	tx, we, deadline, err := s.beginSync(ctx, next.TTL)
	if err != nil {
		return registry.SyncLease{}, err
	}
	defer we.end()
	renewed := ""
	if !next.RenewedAt.IsZero() {
		renewed = formatTime(next.RenewedAt)
	}
	ttl := next.TTL.Milliseconds()
	var done bool
	if from == 0 {
		done, err = affected(s.exec(ctx, tx, qSyncCreate, next.Holder, ttl, renewed, st))
	} else {
		done, err = affected(s.exec(ctx, tx, qSyncLease, next.Holder, ttl, renewed, from))
	}
	if err == nil && !done {
		return registry.SyncLease{}, fmt.Errorf("the sync lease changed since version %d: %w", from, registry.ErrPrecondition)
	}
	if err == nil {
		err = s.outlived(deadline, next.TTL)
	}
	if err == nil {
		err = we.commit()
	}
	if err != nil {
		if s.d.IsUniqueViolation != nil && s.d.IsUniqueViolation(err) {
			return registry.SyncLease{}, fmt.Errorf("the sync lease was taken concurrently: %w", registry.ErrPrecondition)
		}
		return registry.SyncLease{}, fmt.Errorf("%s: write the sync lease: %w", s.d.Name, s.busy(err))
	}
	next.Version = from + 1
	next.RenewedAt = next.RenewedAt.UTC()
	return next, nil
}

// CommitSync implements registry.SyncStore. On PostgreSQL the fence check
// locks the sync_state row until the commit, so a process taking the
// lease over waits for this transaction, or this transaction for it and
// then fails the check; the transaction is bounded (beginSync), so a
// holder frozen inside it loses the lock, and its late commit fails.
func (s *Store) CommitSync(ctx context.Context, c registry.SyncCommit) error {
	var status string
	if c.Status != nil {
		var err error
		if status, err = encodeSyncStatus(*c.Status); err != nil {
			return err
		}
	}
	tx, we, deadline, err := s.beginSync(ctx, c.Fence.TTL)
	if err != nil {
		return err
	}
	defer we.end()
	if err := s.checkFence(ctx, tx, c.Fence); err != nil {
		return err
	}
	if err := s.applyOps(ctx, tx, c.Ops); err != nil {
		return err
	}
	if err := s.syncOwnership(ctx, tx, c.Claim, c.Release); err != nil {
		return err
	}
	if c.Status != nil {
		if _, err := s.exec(ctx, tx, qSyncStatus, status); err != nil {
			return fmt.Errorf("%s: write the sync status: %w", s.d.Name, s.busy(err))
		}
	}
	if f := s.syncTxHook.Load(); f != nil {
		(*f)()
	}
	if err := s.outlived(deadline, c.Fence.TTL); err != nil {
		return err
	}
	if err := we.commit(); err != nil {
		return fmt.Errorf("%s: commit a sync of %d writes: %w", s.d.Name, len(c.Ops), s.busy(err))
	}
	return nil
}

// checkFence returns ErrNotHolder unless fence is the stored lease.
func (s *Store) checkFence(ctx context.Context, tx *sql.Tx, fence registry.SyncLease) error {
	var (
		holder  string
		version int64
	)
	err := s.queryRow(ctx, tx, qSyncFence+s.d.LockRows).Scan(&holder, &version)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("no sync state: %w", registry.ErrNotHolder)
	}
	if err != nil {
		return fmt.Errorf("%s: read the sync lease: %w", s.d.Name, s.busy(err))
	}
	if holder != fence.Holder || version != fence.Version || holder == "" {
		return fmt.Errorf("%w: %q at version %d, not %q at %d", registry.ErrNotHolder, holder, version, fence.Holder, fence.Version)
	}
	return nil
}

// syncOwnership adds the claimed namespaces to the managed ones and
// removes the released ones, in tx.
func (s *Store) syncOwnership(ctx context.Context, tx *sql.Tx, claim, release []string) error {
	for _, ns := range claim {
		if _, err := s.exec(ctx, tx, qSyncClaim, strings.ToLower(ns), ns); err != nil {
			return fmt.Errorf("%s: claim namespace %s: %w", s.d.Name, ns, err)
		}
	}
	for _, ns := range release {
		if _, err := s.exec(ctx, tx, qSyncRelease, strings.ToLower(ns)); err != nil {
			return fmt.Errorf("%s: release namespace %s: %w", s.d.Name, ns, err)
		}
	}
	return nil
}
