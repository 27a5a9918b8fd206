package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/maphash"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/udtc/udtc/registry"
)

// Writes of one hot row. On PostgreSQL, concurrent UPDATEs of one row
// queue on its row lock inside the database, each in a backend process of
// its own, and every commit wakes the next backend, which on a busy
// machine waits for a CPU before it can take the lock: 16 clients PUTting
// one API version had six or seven backends queued on its lock at any
// time, and a PUT p99 of 107-170 ms. Here the updates of one row that
// arrive while one is running wait in Go instead, and the first of them
// runs all of them, in arrival order, in one transaction: one backend per
// row at a time and one commit per batch. Each update keeps its own
// statement, ETag guard and result, so the outcome is the one the same
// updates performed one after another would have, and a write is answered
// only after the batch's COMMIT returned.

// Most batches of a hot row need not write every update, only the last
// that changes the row: each update is answered as if it had been
// written, and then overwritten by the next one in the same transaction,
// which no reader can tell apart. This process remembers the ETag and
// content of each row as its last batch left it (rowState); a batch
// evaluates its updates in order against that, in Go, and writes the
// outcome with one UPDATE guarded by the remembered ETag (coalesce). That
// guard is the batch's proof: when another process or statement wrote the
// row meanwhile, the UPDATE matches nothing and the batch runs its updates
// one by one in the database as above.

// rowQueues holds the updates waiting for a row that one is running on,
// and what this process last saw stored in the rows it updated.
type rowQueues struct {
	mu   sync.Mutex
	rows map[registry.ID][]*rowUpdate // by ID.Key; present while a batch runs
	// last is each row as this process last wrote it or found it
	// unchanged, by ID.Key; at most maxRemembered rows.
	last map[registry.ID]rowState
	// coalesced counts the batches written as one UPDATE.
	coalesced int
}

// rowState is what a row holds, as far as this process knows.
type rowState struct {
	content uint64 // contentHash of its location, tags, properties and writer
	etag    string
	// base has the row's stored ID and creation; no properties.
	base registry.Resource
}

// maxRemembered bounds rowQueues.last; past it, it starts over.
const maxRemembered = 4096

var contentSeed = maphash.MakeSeed()

// contentHash is a hash of what a Put of a registration stores besides
// its system data: its location, tags, properties and writer.
func contentHash(parts ...string) uint64 {
	var h maphash.Hash
	h.SetSeed(contentSeed)
	for _, p := range parts {
		h.WriteString(p)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// seen reports whether content is what this process last saw in row key.
func (q *rowQueues) seen(key registry.ID, content uint64) bool {
	st, ok := q.state(key)
	return ok && st.content == content
}

// state is what this process last saw in row key.
func (q *rowQueues) state(key registry.ID) (rowState, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	st, ok := q.last[key]
	return st, ok
}

// remember records st as what row key holds.
func (q *rowQueues) remember(key registry.ID, st rowState) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.last == nil || len(q.last) >= maxRemembered {
		q.last = map[registry.ID]rowState{}
	}
	q.last[key] = st
}

// forget drops what row key holds: this process no longer knows.
func (q *rowQueues) forget(key registry.ID) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.last, key)
}

// rowUpdate is one update of a row, and its outcome.
type rowUpdate struct {
	ctx         context.Context
	w           registry.Write
	tags, props string // as stored (encodeColumns)
	etag        string // the row's ETag if this update writes it
	content     uint64 // contentHash of what it writes
	guard       any    // the ETag the row must have (string), or nil
	out         registry.Resource
	updated     bool // out is the row written, not the current one
	err         error
	batch       []*rowUpdate  // set when this update leads the next batch
	done        chan struct{} // closed when out and err are set, or batch
}

// args are qUpdateExisting's arguments for u.
func (u *rowUpdate) args() []any {
	return append(append([]any{u.w.Resource.Location, u.tags, u.props, u.etag, formatTime(u.w.Now), u.w.Actor},
		keyArgs(u.w.Resource.ID)...), u.guard)
}

// written is the row as u writes it over base.
func (u *rowUpdate) written(base registry.Resource) registry.Resource {
	return writtenRow(base, u.w.Resource, u.props, u.etag, formatTime(u.w.Now), u.w.Actor)
}

// sameContent reports whether a and b store the same location, tags,
// properties and writer.
func sameContent(a, b *rowUpdate) bool {
	return a.content == b.content && a.w.Resource.Location == b.w.Resource.Location && a.tags == b.tags &&
		a.props == b.props && a.w.Actor == b.w.Actor
}

// updateRow runs the update u of the row key, batched with the other
// updates of that row (see above), and returns the row it answered and
// whether it is the one written. Its error is sql.ErrNoRows when there is
// no row.
func (s *Store) updateRow(key registry.ID, u *rowUpdate) (registry.Resource, bool, error) {
	u.done = make(chan struct{})
	s.hot.mu.Lock()
	if s.hot.rows == nil {
		s.hot.rows = map[registry.ID][]*rowUpdate{}
	}
	queued, busy := s.hot.rows[key]
	if busy {
		s.hot.rows[key] = append(queued, u)
		s.hot.mu.Unlock()
		<-u.done
		if u.batch == nil {
			return u.out, u.updated, u.err
		}
	} else {
		s.hot.rows[key] = nil
		s.hot.mu.Unlock()
		u.batch = []*rowUpdate{u}
	}
	s.leadRow(key, u)
	return u.out, u.updated, u.err
}

// leadRow runs lead's batch, answers its other updates and hands the
// updates that queued meanwhile to the first of them, or marks the row
// idle when none did.
func (s *Store) leadRow(key registry.ID, lead *rowUpdate) {
	batch := lead.batch
	s.runRowBatch(batch)
	for _, u := range batch[1:] {
		close(u.done)
	}
	s.hot.mu.Lock()
	next := s.hot.rows[key]
	if len(next) == 0 {
		delete(s.hot.rows, key)
		s.hot.mu.Unlock()
		return
	}
	if len(next) > maxBatch {
		next, s.hot.rows[key] = next[:maxBatch], next[maxBatch:]
	} else {
		s.hot.rows[key] = nil
	}
	s.hot.mu.Unlock()
	next[0].batch = next
	close(next[0].done)
}

// runRowBatch sets the outcome of every update of batch: one alone is one
// statement, several are one transaction. Should the transaction fail as a
// whole, nothing of it is written, and each update runs again on its own.
func (s *Store) runRowBatch(batch []*rowUpdate) {
	// The batch is everyone's: one writer giving up must not fail the
	// others' updates. Each update's own context is checked before it runs.
	ctx := context.WithoutCancel(batch[0].ctx)
	release, err := s.writeToken(ctx)
	if err != nil {
		for _, u := range batch {
			u.err = err
		}
		return
	}
	defer release()
	live := liveUpdates(batch)
	if len(live) == 0 {
		return
	}
	key := live[0].w.Resource.ID.Key()
	if s.coalesce(ctx, key, live) {
		return
	}
	if len(live) == 1 || s.runRowTx(ctx, live) != nil {
		// Alone, or again after a failed batch.
		for _, u := range live {
			if u.err = u.ctx.Err(); u.err == nil {
				u.scan(s.queryRow(ctx, nil, qUpdateExisting, u.args()...))
			}
		}
	}
	// The row as the last update left it, when that one wrote it or found
	// it unchanged: its content is the update's.
	if last := live[len(live)-1]; last.err == nil && (last.updated || unchangedRow(last)) {
		s.hot.remember(key, rowState{content: last.content, etag: last.out.ETag, base: baseOf(last.out)})
	} else {
		s.hot.forget(key)
	}
}

// unchangedRow reports whether u's answer, the current row, holds what u
// would have written.
func unchangedRow(u *rowUpdate) bool {
	return unchanged(u.out, registry.Write{Resource: u.w.Resource, Actor: u.w.Actor}, u.props)
}

// baseOf is r without what an update changes.
func baseOf(r registry.Resource) registry.Resource {
	return registry.Resource{ID: r.ID, System: registry.SystemData{CreatedAt: r.System.CreatedAt, CreatedBy: r.System.CreatedBy}}
}

// liveUpdates are the updates of batch whose writers still wait; the
// others get their context's error.
func liveUpdates(batch []*rowUpdate) []*rowUpdate {
	var live []*rowUpdate
	for _, u := range batch {
		if u.err = u.ctx.Err(); u.err == nil {
			live = append(live, u)
		}
	}
	return live
}

// qUpdateIfETag writes an update over the row with the given ETag.
const qUpdateIfETag = `UPDATE resources SET location = ?, tags = ?, properties = ?, etag = ?, modified_at = ?, modified_by = ? WHERE ` + keyWhere + ` AND etag = ?`

// storable reports whether the database surely accepts u's values: the
// updates a batch coalesces are answered without being written, so they
// must be ones it would have taken. Text without NUL bytes in valid UTF-8
// is (the columns are TEXT without constraints); PostgreSQL refuses the
// rest, which then runs in the database to answer its own error.
func (u *rowUpdate) storable() bool {
	for _, v := range []string{u.w.Resource.Location, u.tags, u.props, u.w.Actor} {
		if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
			return false
		}
	}
	return true
}

// coalesce answers live, the updates of row key in order, from what this
// process remembers of the row, and writes the last one that changes it
// with one UPDATE guarded by the remembered ETag. It reports false, having
// written nothing, when it cannot; the updates then run in the database,
// which sets their outcomes again. It cannot when nothing is remembered,
// when an update's outcome depends on content not remembered (an update
// that fails its guard or changes nothing before any update of the batch
// changed the row), when an update is not storable, when no update
// changes the row, or when the guard finds another ETag.
func (s *Store) coalesce(ctx context.Context, key registry.ID, live []*rowUpdate) bool {
	st, ok := s.hot.state(key)
	if !ok {
		return false
	}
	etag, content := st.etag, st.content
	var last *rowUpdate // the update whose write the row holds, in order
	for _, u := range live {
		if !u.storable() {
			return false
		}
		stale := u.guard != nil && u.guard != etag
		if stale || u.content == content {
			if last == nil {
				return false // the answer is the remembered row, whose content is not kept
			}
			if stale || sameContent(u, last) {
				u.out, u.updated = last.written(st.base), false
				continue
			}
			// Equal hashes of different content: a change.
		}
		last, etag, content = u, u.etag, u.content
		u.out, u.updated = u.written(st.base), true
	}
	if last == nil {
		return false
	}
	args := last.args() // qUpdateExisting's are qUpdateIfETag's, with the row's ETag for the guard
	args[len(args)-1] = st.etag
	written, err := affected(s.exec(ctx, nil, qUpdateIfETag, args...))
	if err != nil || !written {
		s.hot.forget(key)
		return false
	}
	s.hot.mu.Lock()
	s.hot.coalesced++
	s.hot.mu.Unlock()
	s.hot.remember(key, rowState{content: last.content, etag: last.etag, base: st.base})
	return true
}

// runRowTx runs live, the updates of a batch whose writers still wait, in
// one transaction, through the dialect's Pipeline when it has one, and
// returns nil when it committed: on an error nothing is written and the
// outcomes are unset.
func (s *Store) runRowTx(ctx context.Context, live []*rowUpdate) error {
	scan := func(i int, row Scanner) error {
		if err := live[i].scan(row); !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return nil
	}
	if s.d.Pipeline != nil {
		args := make([][]any, len(live))
		for i, u := range live {
			args[i] = u.args()
		}
		return s.d.Pipeline(ctx, s.db, s.q(qUpdateExisting), args, scan)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("%s: begin: %w", s.d.Name, s.busy(err))
	}
	for i, u := range live {
		if err := scan(i, s.queryRow(ctx, tx, qUpdateExisting, u.args()...)); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: commit: %w", s.d.Name, err)
	}
	return nil
}

// scan sets u's outcome from the row qUpdateExisting answered, and
// returns its error.
func (u *rowUpdate) scan(row Scanner) error {
	u.out, u.err = scanResource(flagged{row, &u.updated})
	return u.err
}

// flagged is a row of a boolean, then the columns of a resource.
type flagged struct {
	Scanner
	flag *bool
}

func (f flagged) Scan(dest ...any) error {
	return f.Scanner.Scan(append([]any{f.flag}, dest...)...)
}
