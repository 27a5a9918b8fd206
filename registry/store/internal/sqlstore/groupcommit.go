package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Group commit (Dialect.SerializeWrites): one goroutine, the committer,
// owns the write transaction of this process. Writers queue on an
// unbuffered channel; the committer begins a transaction, hands it to each
// queued writer in turn inside a savepoint of its own (a failed writer
// rolls back to its savepoint and leaves the others' writes alone), and
// once no writer is waiting commits all of them at once: one fsync for the
// whole batch. A writer's commit returns only after the batch's COMMIT
// returned, so with synchronous=FULL a write is never acknowledged before
// it is durable. Writers wait in Go, on a channel, never in SQLite's busy
// handler: no lock convoy.

// maxBatch bounds the writers of one transaction, so that one batch's
// latency stays bounded under a steady stream of writers.
const maxBatch = 64

// writeReq is a writer waiting for, then holding, the shared transaction.
type writeReq struct {
	ctx     context.Context
	granted chan grant // the committer's answer: the transaction, or why not
	outcome chan error // the writer's: nil when its savepoint was released (to commit)
	result  chan error // the batch's COMMIT, for writers that released
}

type grant struct {
	tx  *sql.Tx
	err error
}

// startCommitter starts the committer goroutine.
func (s *Store) startCommitter() {
	s.queue = make(chan *writeReq)
	s.quit = make(chan struct{})
	s.stopped = make(chan struct{})
	go s.committer()
}

// stopCommitter stops it, waiting for the batch in progress.
func (s *Store) stopCommitter() {
	if s.quit == nil {
		return
	}
	close(s.quit)
	<-s.stopped
}

func (s *Store) committer() {
	defer close(s.stopped)
	for {
		select {
		case r := <-s.queue:
			s.runBatch(r)
		case <-s.quit:
			return
		}
	}
}

// runBatch runs first and every writer that queues while the batch runs,
// up to maxBatch, in one transaction.
func (s *Store) runBatch(first *writeReq) {
	tx, err := s.db.BeginTx(context.Background(), nil)
	if err != nil {
		// Every writer queued now gets the error: when another process
		// holds the database's write lock (one frozen inside its
		// transaction), each BEGIN waits for the busy timeout, and the
		// writers behind the first would otherwise wait one timeout more
		// each.
		g := grant{err: fmt.Errorf("%s: begin: %w", s.d.Name, s.busy(err))}
		first.granted <- g
		for {
			select {
			case r := <-s.queue:
				r.granted <- g
			default:
				return
			}
		}
	}
	var (
		released []*writeReq
		broken   error // the transaction can no longer commit
	)
	for n, r := 0, first; r != nil; n++ {
		switch {
		case r.ctx.Err() != nil:
			r.granted <- grant{err: fmt.Errorf("%s: waiting to write: %w", s.d.Name, r.ctx.Err())}
		default:
			if _, err := tx.Exec(`SAVEPOINT w`); err != nil {
				broken = err
				r.granted <- grant{err: fmt.Errorf("%s: begin: %w", s.d.Name, err)}
				break
			}
			r.granted <- grant{tx: tx}
			switch err := <-r.outcome; {
			case err == nil:
				released = append(released, r)
			case !errors.Is(err, errRolledBack):
				broken = err
			}
		}
		r = nil
		if broken == nil && n+1 < maxBatch {
			select {
			case r = <-s.queue:
			default:
			}
		}
	}
	var cerr error
	if broken != nil {
		tx.Rollback()
		cerr = fmt.Errorf("%s: the write transaction failed: %w", s.d.Name, broken)
	} else {
		cerr = tx.Commit()
	}
	for _, r := range released {
		r.result <- cerr
	}
}

// errRolledBack is a writer's outcome when it rolled back its savepoint
// cleanly.
var errRolledBack = errors.New("rolled back")

// enqueue waits (as long as ctx allows) for the shared transaction.
func (s *Store) enqueue(ctx context.Context) (*sql.Tx, *writeEnd, error) {
	r := &writeReq{ctx: ctx, granted: make(chan grant, 1), outcome: make(chan error, 1), result: make(chan error, 1)}
	select {
	case s.queue <- r:
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("%s: waiting to write: %w", s.d.Name, ctx.Err())
	case <-s.quit:
		return nil, nil, fmt.Errorf("%s: store closed", s.d.Name)
	}
	g := <-r.granted
	if g.err != nil {
		return nil, nil, g.err
	}
	return g.tx, &writeEnd{tx: g.tx, req: r}, nil
}

// writeEnd finishes a write transaction begun by beginWrite: commit
// commits (in group commit: releases the writer's savepoint and waits for
// the batch's COMMIT), end rolls back unless committed; defer end right
// after beginWrite.
type writeEnd struct {
	tx   *sql.Tx
	req  *writeReq // nil without group commit
	done func()    // without group commit: releases the write token
	over bool
}

func (w *writeEnd) commit() error {
	if w.over {
		return errors.New("write transaction already ended")
	}
	w.over = true
	if w.req == nil {
		return w.tx.Commit()
	}
	if _, err := w.tx.Exec(`RELEASE SAVEPOINT w`); err != nil {
		w.req.outcome <- err
		return err
	}
	w.req.outcome <- nil
	return <-w.req.result
}

func (w *writeEnd) end() {
	if w.req == nil {
		if !w.over {
			w.tx.Rollback()
		}
		w.done()
		return
	}
	if w.over {
		return
	}
	w.over = true
	_, err := w.tx.Exec(`ROLLBACK TO SAVEPOINT w`)
	if err == nil {
		_, err = w.tx.Exec(`RELEASE SAVEPOINT w`)
	}
	if err == nil {
		err = errRolledBack
	}
	w.req.outcome <- err
}
