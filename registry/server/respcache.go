package server

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/udtc/udtc/registry"
)

// Limits of the response cache: entries past either are not cached (they
// are still served, encoded per request).
const (
	respCacheMaxEntries = 20000
	respCacheMaxBytes   = 64 << 20
)

// respCache holds encoded 200 responses of the registration reads (GET of
// a plane or registration, provider summaries) and of resource GETs (keyed
// with their api-version) for one store generation
// (registry.Generations): every write committed by any process sharing the
// database changes the generation, and the first lookup that sees a new
// one drops every entry. A store without generations disables it.
//
// Soundness: the handler reads the generation before it reads the store
// and caches what it read under that generation. A write committed in
// between changes the generation, so the entry is never served.
type respCache struct {
	gens registry.Generations // nil: disabled

	mu      sync.RWMutex
	at      string // the generation of entries
	entries map[string]cachedResponse
	bytes   int

	// Generation reads are shared: one read runs at a time, and the
	// callers that arrive meanwhile wait for the next one, which starts
	// after they called, so each still gets a value read after its call.
	genMu   sync.Mutex
	running bool       // a read is under way
	next    *genFlight // the read that starts when it ends; nil: none yet
}

// genFlight is one shared generation read.
type genFlight struct {
	done chan struct{}
	gen  string
	err  error
}

type cachedResponse struct {
	etag string // without quotes; "" for none
	body []byte // the JSON body with its trailing newline
}

func newRespCache(st registry.Store) *respCache {
	c := &respCache{entries: map[string]cachedResponse{}}
	if g, ok := st.(registry.Generations); ok {
		c.gens = g
	}
	return c
}

// generation returns the store's current generation; ok is false when
// nothing may be cached (no generations, or reading it failed: the read
// then goes to the store as if there were no cache).
func (c *respCache) generation(ctx context.Context) (gen string, ok bool) {
	if c.gens == nil {
		return "", false
	}
	c.genMu.Lock()
	f := c.next
	if f == nil {
		f = &genFlight{done: make(chan struct{})}
		c.next = f
	}
	if !c.running {
		// No read under way: this caller reads, for itself and those
		// arriving meanwhile.
		c.running, c.next = true, nil
		c.genMu.Unlock()
		c.readGenerations(f, true)
		return f.gen, f.err == nil
	}
	c.genMu.Unlock()
	select {
	case <-f.done:
		return f.gen, f.err == nil
	case <-ctx.Done():
		return "", false
	}
}

// readGenerations runs f, then hands over to the flight that gathered
// meanwhile, if any: inline is true when a request's goroutine runs f (it
// then returns at once after f, the next flight running on its own).
func (c *respCache) readGenerations(f *genFlight, inline bool) {
	for f != nil {
		ctx, cancel := context.WithTimeout(context.Background(), genReadTimeout)
		f.gen, f.err = c.gens.Generation(ctx)
		cancel()
		close(f.done)
		c.genMu.Lock()
		f, c.next = c.next, nil
		c.running = f != nil
		c.genMu.Unlock()
		if f != nil && inline {
			go c.readGenerations(f, false)
			return
		}
	}
}

// genReadTimeout bounds one shared generation read (it serves several
// requests, so it runs under none of their contexts).
const genReadTimeout = 5 * time.Second

// lookup returns the entry for key cached at gen.
func (c *respCache) lookup(gen, key string) (cachedResponse, bool) {
	c.mu.RLock()
	if c.at == gen {
		e, ok := c.entries[key]
		c.mu.RUnlock()
		return e, ok
	}
	c.mu.RUnlock()
	c.mu.Lock()
	if c.at != gen {
		c.at, c.entries, c.bytes = gen, map[string]cachedResponse{}, 0
	}
	c.mu.Unlock()
	return cachedResponse{}, false
}

// store caches e under key when gen is still the cache's generation.
func (c *respCache) store(gen, key string, e cachedResponse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != gen || len(c.entries) >= respCacheMaxEntries || c.bytes+len(e.body) > respCacheMaxBytes {
		return
	}
	if _, dup := c.entries[key]; !dup {
		c.entries[key] = e
		c.bytes += len(e.body)
	}
}

// serveCached answers r from the cache when it holds key at the store's
// current generation; otherwise it returns the generation to cache the
// response under (ok false: do not cache).
func (s *Server) serveCached(w http.ResponseWriter, r *http.Request, key string) (gen string, ok, served bool) {
	gen, ok = s.cache.generation(r.Context())
	if !ok {
		return "", false, false
	}
	e, hit := s.cache.lookup(gen, key)
	if !hit {
		return gen, true, false
	}
	writeEncoded(w, http.StatusOK, e)
	return gen, true, true
}

// writeEncoded writes an encoded response with its ETag.
func writeEncoded(w http.ResponseWriter, status int, e cachedResponse) {
	h := w.Header()
	if e.etag != "" {
		h.Set("ETag", `"`+e.etag+`"`)
	}
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(e.body)
}
