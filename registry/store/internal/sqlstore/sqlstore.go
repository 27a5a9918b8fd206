// Package sqlstore is the registry.Store shared by the SQL backends (SQLite,
// PostgreSQL): one schema shape, versioned migrations, and queries written
// once with "?" placeholders. A Dialect supplies the differences. The nested
// lifecycle is enforced by the database: every row references its parent
// (and a child type its parent type) with ON DELETE CASCADE foreign keys.
package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// Dialect is what differs between SQL databases.
type Dialect struct {
	// Name is "sqlite" or "postgres", for messages.
	Name string
	// Migrations are applied in order; migration i has version i+1. Never
	// edit a released migration: append a new one.
	Migrations []string
	// DollarParams rewrites "?" placeholders to $1, $2, ...
	DollarParams bool
	// LockMigrations, when set, runs first in the migration transaction so
	// that concurrent starts apply migrations once.
	LockMigrations string
	// SerializeWrites makes the store run the writes of this process in
	// one transaction at a time, queued in Go, with group commit: the
	// writers that queue while a batch runs share its COMMIT, and so its
	// fsync (groupcommit.go). SQLite has one writer; without the queue
	// every waiting connection polls the lock with the busy handler's
	// growing sleeps, and a write waits up to 100 ms after the lock is
	// free.
	SerializeWrites bool
	// IsForeignKeyViolation and IsUniqueViolation classify driver errors.
	IsForeignKeyViolation func(error) bool
	IsUniqueViolation     func(error) bool
	// IsBusy reports a driver error saying that the database did not
	// grant a lock in time (SQLite's SQLITE_BUSY after its busy timeout;
	// PostgreSQL's lock and statement timeouts): the store wraps it with
	// registry.ErrBusy, which the server answers 503 with Retry-After.
	IsBusy func(error) bool
	// SyncTimeouts, when set, runs first in each transaction of the git
	// sync (sync.go) with three arguments, in milliseconds: how long the
	// transaction may wait for a lock, run one statement, and stay idle
	// between statements (the database ends the session of a holder
	// frozen inside its transaction, releasing its locks). "" where the
	// database cannot bound them per transaction (SQLite).
	SyncTimeouts string
	// LockRows, appended to a SELECT, locks the rows it reads until the
	// transaction ends (" FOR UPDATE"); "" where writers are serialised
	// anyway (SQLite).
	LockRows string
	// GenerationQuery returns one value that changes whenever a write is
	// committed by any connection of any process (see
	// registry.Generations); "" when the database offers none.
	// GenerationPerConnection runs it on one dedicated connection, for
	// values that only mean something when compared on the same
	// connection (SQLite's PRAGMA data_version).
	GenerationQuery         string
	GenerationPerConnection bool
	// MaxWriters bounds the write transactions of this process that hold
	// a connection at once (0: no bound, or SerializeWrites). Writers past
	// it wait in Go, not holding a pool connection while they wait for a
	// row lock, so reads keep connections of their own: without it, 16
	// writers of one hot row held the whole pool while they queued on its
	// lock and every GET waited behind them.
	MaxWriters int
	// Pipeline, when set, runs query once with each of args, in order, in
	// one round trip to the database and one transaction, and calls
	// scan(i, row) with the i-th's result row. The updates of one hot row
	// are batched with it (hotrow.go); without it a batch is a transaction
	// of one statement after another, a round trip each.
	Pipeline func(ctx context.Context, db *sql.DB, query string, args [][]any, scan func(i int, row Scanner) error) error
}

// Store is a registry.Store over database/sql.
type Store struct {
	db *sql.DB
	d  Dialect
	// stmts caches prepared statements by query text.
	stmts sync.Map
	// queue, quit and stopped run the group committer when the dialect
	// serialises writes (groupcommit.go); nil otherwise.
	queue   chan *writeReq
	quit    chan struct{}
	stopped chan struct{}
	// gen is the dedicated connection of a per-connection generation
	// query, opened on first use; genMu guards it.
	genMu   sync.Mutex
	genConn *sql.Conn
	genStmt *sql.Stmt
	// writers holds a token per write transaction under way when the
	// dialect bounds them (MaxWriters); nil otherwise.
	writers chan struct{}
	// hot queues the updates of a row while one runs (hotrow.go).
	hot rowQueues
	// syncTxHook, when set (SetSyncTxHook, in tests), runs inside each
	// CommitSync transaction just before its commit.
	syncTxHook atomic.Pointer[func()]
}

var _ registry.Store = (*Store)(nil)

// Open applies pending migrations and returns the store. It takes ownership
// of db: Close closes it.
func Open(ctx context.Context, db *sql.DB, d Dialect) (*Store, error) {
	s := &Store{db: db, d: d}
	if err := s.migrate(ctx); err != nil {
		return nil, err
	}
	if d.SerializeWrites {
		s.startCommitter()
	} else if d.MaxWriters > 0 {
		s.writers = make(chan struct{}, d.MaxWriters)
	}
	for _, q := range txStatements {
		if _, err := s.prepared(ctx, q); err != nil {
			s.Close()
			return nil, fmt.Errorf("%s: prepare: %w", s.d.Name, err)
		}
	}
	return s, nil
}

// DB returns the underlying database, for integrity checks in tests.
func (s *Store) DB() *sql.DB { return s.db }

// Generation implements registry.Generations with the dialect's
// GenerationQuery.
func (s *Store) Generation(ctx context.Context) (string, error) {
	if s.d.GenerationQuery == "" {
		return "", fmt.Errorf("%s: generation: %w", s.d.Name, errors.ErrUnsupported)
	}
	var v string
	if !s.d.GenerationPerConnection {
		if err := s.queryRow(ctx, nil, s.d.GenerationQuery).Scan(&v); err != nil {
			return "", fmt.Errorf("%s: generation: %w", s.d.Name, err)
		}
		return v, nil
	}
	s.genMu.Lock()
	defer s.genMu.Unlock()
	if s.genConn == nil {
		c, err := s.db.Conn(ctx)
		if err != nil {
			return "", fmt.Errorf("%s: generation: %w", s.d.Name, err)
		}
		st, err := c.PrepareContext(ctx, s.d.GenerationQuery)
		if err != nil {
			c.Close()
			return "", fmt.Errorf("%s: generation: %w", s.d.Name, err)
		}
		s.genConn, s.genStmt = c, st
	}
	if err := s.genStmt.QueryRowContext(ctx).Scan(&v); err != nil {
		// Start over on a fresh connection next time: a value read on
		// another connection must never be compared with this one's.
		s.closeGen()
		return "", fmt.Errorf("%s: generation: %w", s.d.Name, err)
	}
	return v, nil
}

// closeGen releases the generation connection; genMu is held.
func (s *Store) closeGen() {
	if s.genConn != nil {
		s.genStmt.Close()
		s.genConn.Close()
		s.genConn, s.genStmt = nil, nil
	}
}

// Close closes the prepared statements and the database.
func (s *Store) Close() error {
	s.stopCommitter()
	s.genMu.Lock()
	s.closeGen()
	s.genMu.Unlock()
	s.stmts.Range(func(_, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
	return s.db.Close()
}

// Ping checks the connection.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// prepared returns the prepared statement for query (written with ?
// placeholders), preparing it once per store: parsing SQL was half the cost
// of a GET. *sql.Stmt is safe for concurrent use and re-prepares itself on
// each pooled connection as needed. It must not be called inside a
// transaction for a statement that is not cached yet: preparing takes a
// second pool connection, and on SQLite every other connection may be
// waiting for the write lock the transaction holds (see inTx).
func (s *Store) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, s.q(query))
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// inTx returns the cached statement for query bound to tx's connection
// (tx.StmtContext prepares it there when needed), or nil when the query is
// not cached: the caller then runs it unprepared on tx. Either way only the
// transaction's own connection is used.
func (s *Store) inTx(ctx context.Context, tx *sql.Tx, query string) *sql.Stmt {
	st, ok := s.stmts.Load(query)
	if !ok {
		return nil
	}
	return tx.StmtContext(ctx, st.(*sql.Stmt))
}

// txStatements are the statements used inside write transactions; Open
// prepares them so that a transaction never needs a second connection.
var txStatements = slices.Concat([]string{qLookup, qCurrent, qUpdate, qInsert, qDeleteLookup, qDelete}, instanceTxStatements, syncTxStatements)

// Statements run inside write transactions.
const (
	qLookup       = `SELECT id, plane, provider, type FROM resources WHERE ` + keyWhere
	qCurrent      = `SELECT id, etag, name, created_at, created_by FROM resources WHERE ` + keyWhere
	qGet          = `SELECT ` + cols + ` FROM resources WHERE ` + keyWhere
	qUpdate       = `UPDATE resources SET location = ?, tags = ?, properties = ?, etag = ?, modified_at = ?, modified_by = ? WHERE id = ? AND etag = COALESCE(?, etag)`
	qInsert       = `INSERT INTO resources (parent_id, owner_id, kind, plane_key, provider_key, type_key, name_key, plane, provider, type, name, location, tags, properties, etag, created_at, created_by, modified_at, modified_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`
	qDeleteLookup = `SELECT id, etag FROM resources WHERE ` + keyWhere
	qDelete       = `DELETE FROM resources WHERE id = ? AND etag = COALESCE(?, etag)`
)

// queryRow runs a single-row query through the statement cache, in tx when
// tx is not nil.
func (s *Store) queryRow(ctx context.Context, tx *sql.Tx, query string, args ...any) *sql.Row {
	if tx != nil {
		if st := s.inTx(ctx, tx, query); st != nil {
			return st.QueryRowContext(ctx, args...)
		}
		return tx.QueryRowContext(ctx, s.q(query), args...)
	}
	st, err := s.prepared(ctx, query)
	if err != nil {
		// Let the error surface from Scan, through an unprepared query.
		return s.db.QueryRowContext(ctx, s.q(query), args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// query runs a query through the statement cache.
func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := s.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// exec runs a statement through the statement cache, in tx when tx is
// not nil.
func (s *Store) exec(ctx context.Context, tx *sql.Tx, query string, args ...any) (sql.Result, error) {
	if tx == nil {
		st, err := s.prepared(ctx, query)
		if err != nil {
			return nil, err
		}
		return st.ExecContext(ctx, args...)
	}
	if st := s.inTx(ctx, tx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, s.q(query), args...)
}

// beginWrite starts a write transaction, first waiting (as long as ctx
// allows) for its turn when the dialect serialises or bounds writes.
// Finish it with the writeEnd: commit, and a deferred end.
func (s *Store) beginWrite(ctx context.Context) (*sql.Tx, *writeEnd, error) {
	if s.queue != nil {
		return s.enqueue(ctx)
	}
	release, err := s.writeToken(ctx)
	if err != nil {
		return nil, nil, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("%s: begin: %w", s.d.Name, s.busy(err))
	}
	return tx, &writeEnd{tx: tx, done: release}, nil
}

// writeToken waits (as long as ctx allows) for one of the dialect's
// MaxWriters tokens and returns its release; a no-op without a bound.
func (s *Store) writeToken(ctx context.Context) (release func(), err error) {
	if s.writers == nil {
		return func() {}, nil
	}
	select {
	case s.writers <- struct{}{}:
		return func() { <-s.writers }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: begin: %w", s.d.Name, ctx.Err())
	}
}

func (s *Store) q(query string) string {
	if !s.d.DollarParams {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: begin migration: %w", s.d.Name, err)
	}
	defer tx.Rollback()
	if s.d.LockMigrations != "" {
		if _, err := tx.ExecContext(ctx, s.d.LockMigrations); err != nil {
			return fmt.Errorf("%s: lock migrations: %w", s.d.Name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("%s: create schema_migrations: %w", s.d.Name, err)
	}
	var current int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("%s: read schema version: %w", s.d.Name, err)
	}
	if current > len(s.d.Migrations) {
		return fmt.Errorf("%s: database schema version %d is newer than this udtc (%d)", s.d.Name, current, len(s.d.Migrations))
	}
	for i := current; i < len(s.d.Migrations); i++ {
		for _, stmt := range splitStatements(s.d.Migrations[i]) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("%s: migration %d: %w", s.d.Name, i+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), i+1, time.Now().UTC().Format(time.RFC3339)); err != nil {
			return fmt.Errorf("%s: record migration %d: %w", s.d.Name, i+1, err)
		}
	}
	return tx.Commit()
}

func splitStatements(m string) []string {
	var out []string
	for _, s := range strings.Split(m, ";") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// keys returns the key columns of an ID, in index order after plane_key and
// kind: provider_key, type_key, name_key.
func keys(id registry.ID) (plane string, kind int, provider, typ, name string) {
	k := id.Key()
	plane, kind = k.Plane, int(k.Kind)
	switch k.Kind {
	case api.KindPlane:
		name = k.Plane
	case api.KindProvider:
		provider, name = k.Provider, k.Provider
	case api.KindResourceType:
		provider, typ, name = k.Provider, k.Type, k.Type
	case api.KindAPIVersion:
		provider, typ, name = k.Provider, k.Type, k.Name
	case api.KindLocation:
		provider, name = k.Provider, k.Name
	}
	return
}

func keyArgs(id registry.ID) []any {
	p, k, pr, t, n := keys(id)
	return []any{p, k, pr, t, n}
}

const keyWhere = `plane_key = ? AND kind = ? AND provider_key = ? AND type_key = ? AND name_key = ?`

const cols = `kind, plane, provider, type, name, location, tags, properties, etag, created_at, created_by, modified_at, modified_by`

// Scanner is a result row: *sql.Row, or a driver's own.
type Scanner interface{ Scan(...any) error }

func scanResource(sc Scanner) (registry.Resource, error) {
	var (
		r                          registry.Resource
		kind                       int
		plane, provider, typ, name string
		tags, props                string
		createdAt, modifiedAt      string
	)
	if err := sc.Scan(&kind, &plane, &provider, &typ, &name, &r.Location, &tags, &props, &r.ETag, &createdAt, &r.System.CreatedBy, &modifiedAt, &r.System.LastModifiedBy); err != nil {
		return r, err
	}
	r.ID = registry.ID{Kind: registry.Kind(kind), Plane: plane, Provider: provider, Type: typ}
	if r.ID.Kind == api.KindAPIVersion || r.ID.Kind == api.KindLocation {
		r.ID.Name = name
	}
	var err error
	if r.Tags, err = decodeTags(tags, r.ID.String()); err != nil {
		return r, err
	}
	r.Properties = json.RawMessage(props)
	return r, parseTimes(&r.System, createdAt, modifiedAt, r.ID.String())
}

// Get implements registry.Store.
func (s *Store) Get(ctx context.Context, id registry.ID) (registry.Resource, error) {
	row := s.queryRow(ctx, nil, qGet, keyArgs(id)...)
	r, err := scanResource(row)
	if errors.Is(err, sql.ErrNoRows) {
		return registry.Resource{}, fmt.Errorf("%s %s: %w", id.Kind, id, registry.ErrNotFound)
	}
	if err != nil {
		return registry.Resource{}, fmt.Errorf("%s: get %s: %w", s.d.Name, id, err)
	}
	return r, nil
}

// parentRow is what a write needs to know about a parent.
type parentRow struct {
	id                   int64
	plane, provider, typ string
}

func (s *Store) lookup(ctx context.Context, tx *sql.Tx, id registry.ID) (parentRow, bool, error) {
	var p parentRow
	err := s.queryRow(ctx, tx, qLookup, keyArgs(id)...).
		Scan(&p.id, &p.plane, &p.provider, &p.typ)
	if errors.Is(err, sql.ErrNoRows) {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("%s: look up %s: %w", s.d.Name, id, err)
	}
	return p, true, nil
}

func newETag() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// Put implements registry.Store.
func (s *Store) Put(ctx context.Context, w registry.Write) (registry.Resource, bool, error) {
	if out, done, err := s.putExisting(ctx, w); done || err != nil {
		return out, false, err
	}
	tx, we, err := s.beginWrite(ctx)
	if err != nil {
		return registry.Resource{}, false, err
	}
	defer we.end()
	out, created, err := s.putIn(ctx, tx, w)
	if err != nil {
		return registry.Resource{}, false, err
	}
	if err := we.commit(); err != nil {
		return registry.Resource{}, false, s.writeErr(w.Resource.ID, err)
	}
	return out, created, nil
}

// putIn performs the Put w in tx, which the caller commits.
func (s *Store) putIn(ctx context.Context, tx *sql.Tx, w registry.Write) (registry.Resource, bool, error) {
	r := w.Resource
	id := r.ID
	if err := id.Validate(); err != nil {
		return registry.Resource{}, false, err
	}
	parentID, ownerID, stored, err := s.registrationOwners(ctx, tx, id)
	if err != nil {
		return registry.Resource{}, false, err
	}
	tags, props, err := encodeColumns(r.Tags, r.Properties)
	if err != nil {
		return registry.Resource{}, false, err
	}
	etag, now := newETag(), formatTime(w.Now)
	row, err := s.upsert(ctx, tx, upsert{
		what: id.String(), current: qCurrent, args: keyArgs(id), cond: w.If, now: now, actor: w.Actor,
		insert: func() (bool, error) {
			p, k, pr, t, n := keys(id)
			done, err := affected(s.exec(ctx, tx, qInsert,
				parentID, ownerID, k, p, pr, t, n, stored.Plane, stored.Provider, stored.Type, stored.Leaf(),
				r.Location, tags, props, etag, now, w.Actor, now, w.Actor))
			return done, s.writeErr(id, err)
		},
		update: func(rowID int64, guard any, oldName string) (bool, error) {
			stored = withLeaf(stored, oldName) // keep the stored casing of the leaf name
			done, err := affected(s.exec(ctx, tx, qUpdate,
				r.Location, tags, props, etag, now, w.Actor, rowID, guard))
			return done, s.writeErr(id, err)
		},
	})
	if err != nil {
		return registry.Resource{}, false, err
	}
	base := registry.Resource{ID: stored, System: registry.SystemData{CreatedBy: row.createdBy}}
	base.System.CreatedAt, _ = time.Parse(time.RFC3339Nano, row.createdAt)
	return writtenRow(base, r, props, etag, now, w.Actor), !row.exists, nil
}

// writtenRow is the row a write of r leaves over base (the row's stored ID
// and creation): r's location and tags, props as stored, etag, and the
// modification at now (as stored) by actor.
func writtenRow(base, r registry.Resource, props, etag, now, actor string) registry.Resource {
	out := base
	out.Location, out.Tags = r.Location, r.Tags
	if len(out.Tags) == 0 {
		out.Tags = nil
	}
	out.Properties = json.RawMessage(props)
	out.ETag = etag
	out.System.LastModifiedBy = actor
	out.System.LastModifiedAt, _ = time.Parse(time.RFC3339Nano, now)
	return out
}

// qUpdateExisting is the write of a registration that exists, in one
// statement: qUpdate's columns, matched by key and guarded by ETag, unless
// they are what is stored already. It answers the updated row (TRUE), or
// the current one (FALSE) when the update matched nothing: unchanged, or
// its guard failed. It answers no row when there is none.
var qUpdateExisting = `WITH new AS (SELECT CAST(? AS TEXT) AS location, CAST(? AS TEXT) AS tags, CAST(? AS TEXT) AS properties,
		CAST(? AS TEXT) AS etag, CAST(? AS TEXT) AS modified_at, CAST(? AS TEXT) AS modified_by),
	cur AS (SELECT id, ` + cols + ` FROM resources WHERE ` + keyWhere + `),
	upd AS (UPDATE resources SET location = new.location, tags = new.tags, properties = new.properties,
			etag = new.etag, modified_at = new.modified_at, modified_by = new.modified_by
		FROM new, cur
		WHERE resources.id = cur.id AND resources.etag = COALESCE(?, resources.etag)
			AND NOT (resources.location = new.location AND resources.tags = new.tags
				AND resources.properties = new.properties AND resources.modified_by = new.modified_by)
		RETURNING ` + qualifiedCols + `)
SELECT TRUE, ` + cols + ` FROM upd
UNION ALL SELECT FALSE, ` + cols + ` FROM cur WHERE NOT EXISTS (SELECT 1 FROM upd)`

// qualifiedCols are cols of the resources table, where a join makes the
// bare names ambiguous.
var qualifiedCols = "resources." + strings.ReplaceAll(cols, ", ", ", resources.")

// putExisting performs the Put w as one statement outside a transaction
// when the registration exists and its precondition (none, If-Match: * or
// one ETag) is the statement's guard; done is false, and nothing written,
// when the statement matched no row, or its guard failed, or the dialect
// serialises writes (then it only answers an unchanged registration): Put
// then takes the transaction, which inserts, or answers why not. An existing row has its parents (foreign keys), and a
// lone statement commits as it ends: on PostgreSQL it holds the row lock
// for itself only, where a transaction held it across two round trips to
// the server, while every other writer of the row queued behind it (the
// PUT tail under load). A write that would store nothing new is not
// performed (unchanged).
func (s *Store) putExisting(ctx context.Context, w registry.Write) (out registry.Resource, done bool, err error) {
	guard, ok := updateGuard(w.If)
	if !ok {
		return out, false, nil
	}
	id := w.Resource.ID
	if err := id.Validate(); err != nil {
		return out, false, err
	}
	tags, props, err := encodeColumns(w.Resource.Tags, w.Resource.Properties)
	if err != nil {
		return out, false, err
	}
	key, content := id.Key(), contentHash(w.Resource.Location, tags, props, w.Actor)
	// With one writer (group commit), a Put that changes nothing must not
	// wait for it; and a Put of what this process last saw stored most
	// likely changes nothing, which a read tells without queueing behind
	// the row's writers. A wrong guess costs the read, not a wrong answer.
	if s.queue != nil || s.hot.seen(key, content) {
		if cur, ok := s.unchangedIn(ctx, nil, w, props); ok {
			return cur, true, nil
		}
		if s.queue != nil {
			return out, false, nil
		}
	}
	u := &rowUpdate{ctx: ctx, w: w, tags: tags, props: props, etag: newETag(), content: content, guard: guard}
	out, updated, err := s.updateRow(key, u)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return registry.Resource{}, false, nil
	case err != nil:
		return registry.Resource{}, false, s.writeErr(id, err)
	case updated || unchanged(out, w, props):
		return out, true, nil
	}
	return registry.Resource{}, false, nil
}

// unchanged reports whether the Put w over cur, the stored registration,
// would store nothing new: the same location, tags and properties (props,
// as encodeColumns stores them) by the same caller, under a precondition
// that holds. Such a Put is not performed and answers cur, as Kubernetes
// answers an update that changes nothing: the ETag stays, and so do the
// response caches of every replica.
func unchanged(cur registry.Resource, w registry.Write, props string) bool {
	return w.If.Check(true, cur.ETag) == nil && cur.Location == w.Resource.Location &&
		maps.Equal(cur.Tags, w.Resource.Tags) && string(cur.Properties) == props &&
		cur.System.LastModifiedBy == w.Actor
}

// unchangedIn reads the registration of w in tx (nil: outside any) and
// reports whether w over it is unchanged; props is w's as encodeColumns
// stores them.
func (s *Store) unchangedIn(ctx context.Context, tx *sql.Tx, w registry.Write, props string) (registry.Resource, bool) {
	cur, err := scanResource(s.queryRow(ctx, tx, qGet, keyArgs(w.Resource.ID)...))
	return cur, err == nil && unchanged(cur, w, props)
}

// updateGuard is the ETag guard of qUpdateExisting for cond (see guard),
// and whether cond can be one: no condition and If-Match: * (the row must
// exist, and the UPDATE proves it does) need none; one If-Match ETag is
// the guard; If-None-Match and lists of ETags take the transaction.
func updateGuard(cond registry.Precondition) (any, bool) {
	switch {
	case len(cond.IfNoneMatch) > 0 || len(cond.IfMatch) > 1:
		return nil, false
	case len(cond.IfMatch) == 0 || cond.IfMatch[0] == "*":
		return nil, true
	}
	return cond.IfMatch[0], true
}

// lookupOwner is lookup of a registration's owner, which must exist: a
// missing one is ErrParentNotFound, named with prefix.
func (s *Store) lookupOwner(ctx context.Context, tx *sql.Tx, id registry.ID, prefix string) (parentRow, error) {
	p, found, err := s.lookup(ctx, tx, id)
	if err == nil && !found {
		err = fmt.Errorf("%s%s %s: %w", prefix, id.Kind, id, registry.ErrParentNotFound)
	}
	return p, err
}

// registrationOwners looks up, in tx, the parent of the registration id
// and, for a child type, its parent type, and returns their row IDs and
// id in their stored names (a child type keeps its parent type's stored
// casing as its prefix). It returns ErrParentNotFound when one is missing.
func (s *Store) registrationOwners(ctx context.Context, tx *sql.Tx, id registry.ID) (parentID, ownerID sql.NullInt64, stored registry.ID, err error) {
	stored = id
	if pid, ok := id.Parent(); ok {
		p, err := s.lookupOwner(ctx, tx, pid, "")
		if err != nil {
			return parentID, ownerID, stored, err
		}
		parentID = sql.NullInt64{Int64: p.id, Valid: true}
		stored.Plane = p.plane
		if id.Kind != api.KindProvider {
			stored.Provider = p.provider
		}
		if id.Kind == api.KindAPIVersion {
			stored.Type = p.typ
		}
	}
	if tid, ok := id.ParentType(); ok {
		p, err := s.lookupOwner(ctx, tx, tid, "parent ")
		if err != nil {
			return parentID, ownerID, stored, err
		}
		ownerID = sql.NullInt64{Int64: p.id, Valid: true}
		stored.Type = p.typ + id.Type[len(p.typ):]
	}
	return parentID, ownerID, stored, nil
}

// withLeaf returns id with its own name (ID.Leaf) replaced by name.
func withLeaf(id registry.ID, name string) registry.ID {
	switch id.Kind {
	case api.KindPlane:
		id.Plane = name
	case api.KindProvider:
		id.Provider = name
	case api.KindResourceType:
		id.Type = name
	default:
		id.Name = name
	}
	return id
}

// upsert is one write of a row that may exist: current reads it (its id,
// etag, stored name, created_at and created_by) with args; insert creates
// it when it does not exist, update changes it (rowID) when it does,
// under guard, the ETag the read returned when cond has one (see guard).
// Each reports whether a row changed, and classifies its error.
type upsert struct {
	what       string // the row, for messages
	current    string
	args       []any
	cond       registry.Precondition
	now, actor string
	insert     func() (bool, error)
	update     func(rowID int64, guard any, oldName string) (bool, error)
}

// upserted is what an upsert found: whether the row existed, and its
// creation data (now and the actor's when it did not).
type upserted struct {
	exists               bool
	createdAt, createdBy string
}

// upsert performs u in tx as one compare-and-swap (casLoop): the
// condition is checked against the row as read and is part of the write.
func (s *Store) upsert(ctx context.Context, tx *sql.Tx, u upsert) (upserted, error) {
	var row upserted
	err := casLoop(u.what, func() (bool, error) {
		var (
			rowID            int64
			oldETag, oldName string
		)
		err := s.queryRow(ctx, tx, u.current, u.args...).
			Scan(&rowID, &oldETag, &oldName, &row.createdAt, &row.createdBy)
		row.exists = err == nil
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("%s: look up %s: %w", s.d.Name, u.what, err)
		}
		if err := u.cond.Check(row.exists, oldETag); err != nil {
			return false, fmt.Errorf("%s: %w", u.what, err)
		}
		if !row.exists {
			row.createdAt, row.createdBy = u.now, u.actor
			return u.insert()
		}
		return u.update(rowID, guard(u.cond, oldETag), oldName)
	})
	return row, err
}

// writeErr classifies a failed registration write; nil stays nil.
func (s *Store) writeErr(id registry.ID, err error) error { return s.classifyWrite(id, "parent", err) }

// classifyWrite classifies a failed write of id: a foreign key violation
// is its owner (named owner) deleted concurrently, a unique violation
// another write of it; nil stays nil.
func (s *Store) classifyWrite(id fmt.Stringer, owner string, err error) error {
	switch {
	case err == nil:
		return nil
	case s.d.IsForeignKeyViolation != nil && s.d.IsForeignKeyViolation(err):
		return fmt.Errorf("%s of %s was deleted concurrently: %w", owner, id, registry.ErrParentNotFound)
	case s.d.IsUniqueViolation != nil && s.d.IsUniqueViolation(err):
		return fmt.Errorf("%s was written concurrently: %w", id, registry.ErrConflict)
	}
	return fmt.Errorf("%s: write %s: %w", s.d.Name, id, s.busy(err))
}

// busy wraps err with registry.ErrBusy when the dialect says the database
// did not grant a lock in time; any other error, and nil, is returned as
// it is.
func (s *Store) busy(err error) error {
	if err == nil || s.d.IsBusy == nil || errors.Is(err, registry.ErrBusy) || !s.d.IsBusy(err) {
		return err
	}
	return fmt.Errorf("%w: %w", registry.ErrBusy, err)
}

// maxSwaps bounds casLoop: how many times one write reads a row again
// because other transactions kept changing it.
const maxSwaps = 5

// guard is the ETag argument of an UPDATE or DELETE that matches
// "etag = COALESCE(?, etag)": the ETag the precondition was checked
// against, or NULL (any ETag) for an unconditional write, which must not
// fail because another writer got there first.
func guard(cond registry.Precondition, etag string) any {
	if cond.IsZero() {
		return nil
	}
	return etag
}

// casLoop makes a precondition part of the write it guards. step reads the
// row, checks the precondition against the ETag it read, and writes with
// that ETag in the UPDATE's or DELETE's WHERE clause (guard), or inserts
// the row ON CONFLICT DO NOTHING; it reports done=false when no row
// changed because another transaction changed, deleted or created the row
// after the read. Under PostgreSQL's READ COMMITTED the UPDATE waits
// for that transaction and rechecks the ETag of the committed row, and the
// next read sees it, so of many writers holding one ETag exactly one
// wins and the others fail the recheck. casLoop runs step again until it
// is done or fails, at most maxSwaps times.
func casLoop(what string, step func() (done bool, err error)) error {
	for range maxSwaps {
		if done, err := step(); done || err != nil {
			return err
		}
	}
	return fmt.Errorf("%s changed under %d consecutive writes: %w", what, maxSwaps, registry.ErrConflict)
}

// affected reports whether the statement changed a row.
func affected(res sql.Result, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// Delete implements registry.Store: DeleteRegistration without force.
func (s *Store) Delete(ctx context.Context, id registry.ID, cond registry.Precondition) (bool, error) {
	deleted, _, err := s.DeleteRegistration(ctx, id, cond, false)
	return deleted, err
}

// List implements registry.Store.
func (s *Store) List(ctx context.Context, parent registry.ID, kind registry.Kind, opts registry.ListOptions) (registry.Page, error) {
	top := pageSize(opts)
	var rows *sql.Rows
	var err error
	if kind == api.KindPlane {
		rows, err = s.query(ctx, `SELECT `+cols+` FROM resources WHERE kind = ? AND name_key > ? ORDER BY name_key LIMIT ?`,
			int(kind), opts.After, top+1)
	} else {
		var pid int64
		err = s.queryRow(ctx, nil, `SELECT id FROM resources WHERE `+keyWhere, keyArgs(parent)...).Scan(&pid)
		if errors.Is(err, sql.ErrNoRows) {
			return registry.Page{}, fmt.Errorf("%s %s: %w", parent.Kind, parent, registry.ErrParentNotFound)
		}
		if err != nil {
			return registry.Page{}, fmt.Errorf("%s: look up %s: %w", s.d.Name, parent, err)
		}
		rows, err = s.query(ctx, `SELECT `+cols+` FROM resources WHERE parent_id = ? AND kind = ? AND name_key > ? ORDER BY name_key LIMIT ?`,
			pid, int(kind), opts.After, top+1)
	}
	if err != nil {
		return registry.Page{}, fmt.Errorf("%s: list %s under %s: %w", s.d.Name, kind, parent, err)
	}
	var page registry.Page
	page.Items, page.Next, err = scanPage(rows, top, scanResource, func(r registry.Resource) string {
		return strings.ToLower(r.ID.Leaf())
	})
	if err != nil {
		return registry.Page{}, fmt.Errorf("%s: list: %w", s.d.Name, err)
	}
	return page, nil
}

// scanPage reads the rows of a list query that asked for top+1 rows (and
// closes them): the first top items, and when the extra row came, next,
// the key of the last item, which the following page starts after.
func scanPage[T any](rows *sql.Rows, top int, scan func(Scanner) (T, error), key func(T) string) (items []T, next string, err error) {
	defer rows.Close()
	for rows.Next() {
		it, err := scan(rows)
		if err != nil {
			return nil, "", err
		}
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, "", err
	}
	if len(items) > top {
		items = items[:top]
		next = key(items[top-1])
	}
	return items, next, nil
}

// Summaries implements registry.Store with one query.
func (s *Store) Summaries(ctx context.Context, plane, namespace string) ([]registry.ProviderSummary, error) {
	pk := strings.ToLower(plane)
	var rows *sql.Rows
	var err error
	if namespace == "" {
		rows, err = s.query(ctx, `SELECT `+cols+` FROM resources WHERE plane_key = ?`, pk)
	} else {
		// Two index lookups (the plane row; the provider's rows), not an OR
		// that scans every provider of the plane.
		rows, err = s.query(ctx, `SELECT `+cols+` FROM resources WHERE plane_key = ? AND kind = ?
			UNION ALL SELECT `+cols+` FROM resources WHERE plane_key = ? AND provider_key = ?`,
			pk, int(api.KindPlane), pk, strings.ToLower(namespace))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: summaries: %w", s.d.Name, err)
	}
	defer rows.Close()
	var all []registry.Resource
	planeFound := false
	for rows.Next() {
		r, err := scanResource(rows)
		if err != nil {
			return nil, fmt.Errorf("%s: summaries: %w", s.d.Name, err)
		}
		if r.ID.Kind == api.KindPlane {
			planeFound = true
			continue
		}
		all = append(all, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: summaries: %w", s.d.Name, err)
	}
	if !planeFound {
		return nil, fmt.Errorf("plane %s: %w", registry.PlaneID(plane), registry.ErrParentNotFound)
	}
	sums, err := registry.BuildSummaries(all)
	if err != nil {
		return nil, err
	}
	if namespace != "" && len(sums) == 0 {
		return nil, fmt.Errorf("%s %s: %w", api.KindProvider, registry.ProviderID(plane, namespace), registry.ErrNotFound)
	}
	return sums, nil
}

// OrphanCount returns how many rows reference a parent (or parent type) row
// that does not exist, or whose parent is of the wrong kind. It is zero in a
// healthy database.
func (s *Store) OrphanCount(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM resources c
		WHERE (c.kind <> 1 AND NOT EXISTS (SELECT 1 FROM resources p WHERE p.id = c.parent_id AND p.kind = CASE c.kind WHEN 2 THEN 1 WHEN 3 THEN 2 WHEN 5 THEN 2 WHEN 4 THEN 3 END))
		   OR (c.owner_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM resources o WHERE o.id = c.owner_id))`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("%s: orphan count: %w", s.d.Name, err)
	}
	return n, nil
}
