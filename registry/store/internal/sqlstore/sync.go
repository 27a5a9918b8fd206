package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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

// decodeSyncRecord builds the record of the sync_state row; a column that
// does not read (edited by hand) makes it Damaged, not an error, so that
// the managed namespaces, kept elsewhere, are still known.
func decodeSyncRecord(holder string, version, ttlMillis int64, renewed, status string) registry.SyncRecord {
	rec := registry.SyncRecord{Lease: registry.SyncLease{Holder: holder, Version: version, TTL: time.Duration(ttlMillis) * time.Millisecond}}
	if renewed != "" {
		t, err := time.Parse(time.RFC3339Nano, renewed)
		if err != nil {
			rec.Damaged = fmt.Sprintf("sync_state.renewed_at is not a time (%v)", err)
		}
		rec.Lease.RenewedAt = t
	}
	if err := json.Unmarshal([]byte(status), &rec.Status); err != nil {
		rec.Status = api.SyncStatus{}
		rec.Damaged = fmt.Sprintf("sync_state.status is not the JSON of a sync status (%v)", err)
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

// TakeSyncLease implements registry.SyncStore.
func (s *Store) TakeSyncLease(ctx context.Context, from int64, next registry.SyncLease, status api.SyncStatus) (registry.SyncLease, error) {
	st, err := encodeSyncStatus(status)
	if err != nil {
		return registry.SyncLease{}, err
	}
	tx, we, err := s.beginWrite(ctx)
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
		err = we.commit()
	}
	if err != nil {
		if s.d.IsUniqueViolation != nil && s.d.IsUniqueViolation(err) {
			return registry.SyncLease{}, fmt.Errorf("the sync lease was taken concurrently: %w", registry.ErrPrecondition)
		}
		return registry.SyncLease{}, fmt.Errorf("%s: write the sync lease: %w", s.d.Name, err)
	}
	next.Version = from + 1
	next.RenewedAt = next.RenewedAt.UTC()
	return next, nil
}

// CommitSync implements registry.SyncStore. On PostgreSQL the fence check
// locks the sync_state row until the commit, so a process taking the
// lease over waits for this transaction, or this transaction for it and
// then fails the check.
func (s *Store) CommitSync(ctx context.Context, c registry.SyncCommit) error {
	var status string
	if c.Status != nil {
		var err error
		if status, err = encodeSyncStatus(*c.Status); err != nil {
			return err
		}
	}
	tx, we, err := s.beginWrite(ctx)
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
			return fmt.Errorf("%s: write the sync status: %w", s.d.Name, err)
		}
	}
	if err := we.commit(); err != nil {
		return fmt.Errorf("%s: commit a sync of %d writes: %w", s.d.Name, len(c.Ops), err)
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
		return fmt.Errorf("%s: read the sync lease: %w", s.d.Name, err)
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
