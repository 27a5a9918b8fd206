package server

import (
	"context"
	"strings"
	"sync"

	"github.com/udtc/udtc/registry"
)

// maxCachedTypes bounds the type cache; past it, entries are not cached.
const maxCachedTypes = 4096

// typeInfo is what a resource request needs of its type's registration:
// the API version row (its schema compiled by schemaCache) and the
// locations that serve it, with their addresses.
type typeInfo struct {
	ver  registry.Resource
	locs []servingLocation
}

// typeCache holds the typeInfo of each requested type and API version for
// one store generation, like respCache (and with the same soundness: the
// generation is read before the registration rows, so a registration
// written in between, by this process or another sharing the database,
// changes the generation and the entry is never used). A resource request
// at an unchanged generation reads no registration rows.
type typeCache struct {
	mu      sync.RWMutex
	at      string
	entries map[string]typeInfo
}

func typeKey(plane, ns, typ, version string) string {
	return strings.ToLower(plane + "\x00" + ns + "\x00" + typ + "\x00" + version)
}

func (c *typeCache) lookup(gen, key string) (typeInfo, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.at != gen {
		return typeInfo{}, false
	}
	t, ok := c.entries[key]
	return t, ok
}

func (c *typeCache) store(gen, key string, t typeInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at != gen || c.entries == nil {
		c.at, c.entries = gen, map[string]typeInfo{}
	}
	if len(c.entries) < maxCachedTypes {
		c.entries[key] = t
	}
}

// typeInfo resolves the registration of a resource request (resolveType's
// errors) and the locations serving it, from the cache when nothing was
// written since they were read. gen and cache are serveCached's (or
// respCache.generation's): cache false reads the store.
func (s *Server) typeInfo(ctx context.Context, gen string, cache bool, plane, ns, typ, version string) (typeInfo, error) {
	key := typeKey(plane, ns, typ, version)
	if cache {
		if t, ok := s.types.lookup(gen, key); ok {
			return t, nil
		}
	}
	ver, err := s.resolveType(ctx, plane, ns, typ, version)
	if err != nil {
		return typeInfo{}, err
	}
	locs, err := s.servingLocations(ctx, ver.ID)
	if err != nil {
		return typeInfo{}, err
	}
	t := typeInfo{ver: ver, locs: locs}
	if cache {
		s.types.store(gen, key, t)
	}
	return t, nil
}
