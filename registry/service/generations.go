package service

import (
	"context"
	"sync"
	"time"

	"github.com/udtc/udtc/registry"
)

// At is the store generation (registry.Generations) a request reads at:
// the service's type cache and the server's response cache hold what was
// read at one generation, and a write committed by any process sharing the
// database changes it. Read it (Generation) before reading the store:
// what is read after it and cached under it is never served once a write
// committed in between.
type At struct {
	// Gen is the generation; meaningful only when OK.
	Gen string
	// OK is false when nothing may be cached: the store has no
	// generations, or reading the generation failed (the request then
	// reads the store as if there were no cache).
	OK bool
}

// Generation returns the store's current generation.
func (s *Service) Generation(ctx context.Context) At {
	if s.gens == nil {
		return At{}
	}
	gen, ok := s.gens.read(ctx)
	return At{Gen: gen, OK: ok}
}

// generations shares the reads of a store's generation: one read runs at
// a time, and the callers that arrive meanwhile wait for the next one,
// which starts after they called, so each still gets a value read after
// its call.
type generations struct {
	gens registry.Generations

	mu      sync.Mutex
	running bool       // a read is under way
	next    *genFlight // the read that starts when it ends; nil: none yet
}

// genFlight is one shared generation read.
type genFlight struct {
	done chan struct{}
	gen  string
	err  error
}

// read returns the current generation; ok is false when reading it
// failed or ctx ended first.
func (c *generations) read(ctx context.Context) (gen string, ok bool) {
	c.mu.Lock()
	f := c.next
	if f == nil {
		f = &genFlight{done: make(chan struct{})}
		c.next = f
	}
	if !c.running {
		// No read under way: this caller reads, for itself and those
		// arriving meanwhile.
		c.running, c.next = true, nil
		c.mu.Unlock()
		c.run(f, true)
		return f.gen, f.err == nil
	}
	c.mu.Unlock()
	select {
	case <-f.done:
		return f.gen, f.err == nil
	case <-ctx.Done():
		return "", false
	}
}

// run runs f, then hands over to the flight that gathered meanwhile, if
// any: inline is true when a request's goroutine runs f (it then returns
// at once after f, the next flight running on its own).
func (c *generations) run(f *genFlight, inline bool) {
	for f != nil {
		ctx, cancel := context.WithTimeout(context.Background(), genReadTimeout)
		f.gen, f.err = c.gens.Generation(ctx)
		cancel()
		close(f.done)
		c.mu.Lock()
		f, c.next = c.next, nil
		c.running = f != nil
		c.mu.Unlock()
		if f != nil && inline {
			go c.run(f, false)
			return
		}
	}
}

// genReadTimeout bounds one shared generation read (it serves several
// requests, so it runs under none of their contexts).
const genReadTimeout = 5 * time.Second
