package server

import (
	"net/http"
	"sync"

	"github.com/udtc/udtc/registry/service"
)

// Limits of the response cache: entries past either are not cached (they
// are still served, encoded per request).
const (
	respCacheMaxEntries = 20000
	respCacheMaxBytes   = 64 << 20
)

// respCache holds encoded 200 responses of the registration reads (GET of
// a plane or registration, provider summaries) and of resource GETs (keyed
// with their api-version) for one store generation (service.At): every
// write committed by any process sharing the database changes the
// generation, and the first lookup that sees a new one drops every entry.
// A store without generations disables it.
//
// Soundness: the handler reads the generation before it reads the store
// and caches what it read under that generation. A write committed in
// between changes the generation, so the entry is never served.
type respCache struct {
	mu      sync.RWMutex
	at      string // the generation of entries
	entries map[string]cachedResponse
	bytes   int
}

type cachedResponse struct {
	etag string // without quotes; "" for none
	body []byte // the JSON body with its trailing newline
}

func newRespCache() *respCache {
	return &respCache{entries: map[string]cachedResponse{}}
}

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

// store caches e under key when at allows and is still the cache's
// generation.
func (c *respCache) store(at service.At, key string, e cachedResponse) {
	if !at.OK {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != at.Gen || len(c.entries) >= respCacheMaxEntries || c.bytes+len(e.body) > respCacheMaxBytes {
		return
	}
	if _, dup := c.entries[key]; !dup {
		c.entries[key] = e
		c.bytes += len(e.body)
	}
}

// serveCached answers r from the cache when it holds key at the store's
// current generation; otherwise it returns the generation to cache the
// response under.
func (s *Server) serveCached(w http.ResponseWriter, r *http.Request, key string) (at service.At, served bool) {
	at = s.svc.Generation(r.Context())
	return at, s.serveCachedAt(w, at, key)
}

// serveCachedAt is serveCached at a generation the caller read.
func (s *Server) serveCachedAt(w http.ResponseWriter, at service.At, key string) bool {
	if !at.OK {
		return false
	}
	e, hit := s.cache.lookup(at.Gen, key)
	if !hit {
		return false
	}
	writeEncoded(w, http.StatusOK, e)
	return true
}
