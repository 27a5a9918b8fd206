package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/maphash"
	"sync"

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

// rowQueues holds the updates waiting for a row that one is running on,
// and what this process last saw stored in the rows it updated.
type rowQueues struct {
	mu   sync.Mutex
	rows map[registry.ID][]*rowUpdate // by ID.Key; present while a batch runs
	// last is the contentHash of each row as this process last wrote it
	// or found it unchanged, by ID.Key; at most maxRemembered rows.
	last map[registry.ID]uint64
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
	q.mu.Lock()
	defer q.mu.Unlock()
	last, ok := q.last[key]
	return ok && last == content
}

// remember records content as what row key holds.
func (q *rowQueues) remember(key registry.ID, content uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.last == nil || len(q.last) >= maxRemembered {
		q.last = map[registry.ID]uint64{}
	}
	q.last[key] = content
}

// rowUpdate is one qUpdateExisting of a row, and its outcome.
type rowUpdate struct {
	ctx     context.Context
	args    []any
	out     registry.Resource
	updated bool // out is the row written, not the current one
	err     error
	batch   []*rowUpdate  // set when this update leads the next batch
	done    chan struct{} // closed when out and err are set, or batch
}

// updateRow runs qUpdateExisting with args on the row key, batched with
// the other updates of that row (see above), and returns the row it
// answered and whether it is the one written. Its error is sql.ErrNoRows
// when there is no row.
func (s *Store) updateRow(ctx context.Context, key registry.ID, args []any) (registry.Resource, bool, error) {
	u := &rowUpdate{ctx: ctx, args: args, done: make(chan struct{})}
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
	if len(batch) > 1 && s.runRowTx(ctx, batch) == nil {
		return
	}
	// Alone, or again after a failed batch.
	for _, u := range batch {
		if u.err = u.ctx.Err(); u.err == nil {
			u.scan(s.queryRow(ctx, nil, qUpdateExisting, u.args...))
		}
	}
}

// runRowTx runs batch in one transaction, through the dialect's Pipeline
// when it has one, and returns nil when it committed: on an error nothing
// is written and the outcomes are unset.
func (s *Store) runRowTx(ctx context.Context, batch []*rowUpdate) error {
	var live []*rowUpdate
	for _, u := range batch {
		if u.err = u.ctx.Err(); u.err == nil {
			live = append(live, u)
		}
	}
	scan := func(i int, row Scanner) error {
		if err := live[i].scan(row); !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		return nil
	}
	if s.d.Pipeline != nil {
		args := make([][]any, len(live))
		for i, u := range live {
			args[i] = u.args
		}
		return s.d.Pipeline(ctx, s.db, s.q(qUpdateExisting), args, scan)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for i, u := range live {
		if err := scan(i, s.queryRow(ctx, tx, qUpdateExisting, u.args...)); err != nil {
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
