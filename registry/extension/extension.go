// Package extension is the Bicep extension `udtc serve` hands out: built on
// demand from the stored registrations (through the Builder cmd wires: the
// registry never imports the generator), cached by content, and described
// as the OCI artifact Bicep reads (registry/oci.NewExtension), with its
// tags. It has no HTTP: registry/server serves what Get returns as an
// archive (GET /bicep/...) and over the OCI distribution API (/v2/...).
//
// A request names an extension: one namespace's (its default extension
// name, as `udtc gen` names it), or a set of namespaces (every one: All)
// under a name. Get answers it in three steps, each cached:
//
//  1. at the store's generation (service.At), a request seen before maps
//     to the content it was built from: no store read at all;
//  2. else the namespaces' summaries are read and hashed (the content key);
//  3. a content key seen before maps to its build; else one build runs
//     (concurrent requests for the same content wait for it) and is kept,
//     the least recently used builds going first past a byte limit.
package extension

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/opencontainers/go-digest"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/oci"
	"github.com/udtc/udtc/registry/service"
)

// Package is one built extension: what a Builder returns.
type Package struct {
	// Name is the extension name, Version its version (index.json's
	// settings), Namespaces the namespaces it holds, sorted.
	Name       string
	Version    string
	Namespaces []string
	// Archive is the extension package: byte for byte bicep/<Name>.tgz of
	// `udtc gen` for the same registrations.
	Archive []byte
	// Types is types.tgz, the one entry of Archive and the artifact's layer.
	Types []byte
}

// Builder builds the extension name holding every namespace of sums (the
// registrations as stored). A problem of the input (a name that is not a
// Bicep identifier, registrations that do not compile) is a
// *registry.Error with CodeInvalid. cmd wires internal/bridge.BicepExtension.
type Builder func(ctx context.Context, sums []api.ProviderSummary, name string) (Package, error)

// Source is what Get reads: the store's generation and the summaries of
// the registrations (*service.Service).
type Source interface {
	Generation(ctx context.Context) service.At
	Summaries(ctx context.Context, plane, namespace string) ([]registry.ProviderSummary, error)
}

// All, as a request's only namespace, is every namespace of the registry.
const All = "*"

// Request names an extension: Of, or Namespaces and Name.
type Request struct {
	// Of names one namespace: its default extension name ("contosodata")
	// or the namespace itself ("Contoso.Data"), case-insensitive. The
	// extension is that namespace's, named as `udtc gen` names it.
	Of string
	// Namespaces are the namespaces it holds: several, or All.
	Namespaces []string
	// Name is the extension name of Namespaces.
	Name string
}

// key is the request's cache key at a generation.
func (r Request) key() string {
	ns := slices.Clone(r.Namespaces)
	for i := range ns {
		ns[i] = strings.ToLower(ns[i])
	}
	slices.Sort(ns)
	return strings.ToLower(r.Of) + "\x00" + r.Name + "\x00" + strings.Join(ns, "\x00")
}

// Built is an extension as served: the package, the artifact of its types
// and its tags.
type Built struct {
	Package
	// ArchiveDigest is the digest of Archive: the strong ETag of the
	// archive's response.
	ArchiveDigest digest.Digest
	Artifact      *oci.Artifact
	// Tag is the immutable tag of this content (ContentTag); Latest moves.
	Tag string
	// Key is the content key: what was built from.
	key string
}

// Latest is the tag that moves with the registrations.
const Latest = "latest"

// ContentTag is the immutable tag of an artifact: its version and the
// first 16 hex digits of its manifest's digest ("0.0.1-3f2a9c1b0d4e5f60").
// It names the same content for as long as the server can serve it, and
// is never moved to other content.
func ContentTag(version string, manifest digest.Digest) string {
	return version + "-" + manifest.Encoded()[:16]
}

// Tags are the tags of b: ContentTag, then Latest.
func (b *Built) Tags() []string { return []string{b.Tag, Latest} }

// Cache is the extensions of a source, built by a builder: safe for
// concurrent use.
type Cache struct {
	src      Source
	build    Builder
	plane    string
	maxBytes int

	mu      sync.Mutex
	gen     string
	byReq   map[string]string        // request key → content key, at gen
	byKey   map[string]*list.Element // content key → its entry in lru
	lru     *list.List               // of *Built, most recent first
	bytes   int
	flights map[string]*flight // builds under way, by content key
	builds  int                // builds run, for tests and benchmarks
	slots   chan struct{}      // bounds the builds that run at once
}

type flight struct {
	done chan struct{}
	b    *Built
	err  error
}

// DefaultMaxBytes bounds the builds a Cache keeps (their archives and
// types together); the most recent one is always kept.
const DefaultMaxBytes = 128 << 20

// maxRequests bounds the requests a Cache remembers at one generation
// (distinct sets of namespaces); past it, it starts over.
const maxRequests = 10000

// NewCache returns the extensions of src's plane, built by build. At most
// half the CPUs (at least one) build at once: a build of a large catalog
// takes seconds of CPU, and distinct requests must not take the server.
func NewCache(src Source, plane string, build Builder) *Cache {
	return &Cache{src: src, build: build, plane: plane, maxBytes: DefaultMaxBytes,
		byReq: map[string]string{}, byKey: map[string]*list.Element{}, lru: list.New(), flights: map[string]*flight{},
		slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))}
}

// Builds returns how many builds the cache ran.
func (c *Cache) Builds() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.builds
}

// Get returns the extension r names, built from the registrations as they
// are now. An unknown namespace is CodeNamespaceNotFound; a namespace
// without resource types, or a request without a name where it needs one,
// is CodeInvalid.
func (c *Cache) Get(ctx context.Context, r Request) (*Built, error) {
	switch {
	case r.Of == "" && len(r.Namespaces) == 0:
		return nil, registry.Errorf(registry.CodeInvalid, "", "name the namespace of the extension")
	case r.Of == "" && r.Name == "":
		return nil, registry.Errorf(registry.CodeInvalid, "", "an extension of several namespaces needs a name")
	}
	at := c.src.Generation(ctx)
	rk := r.key()
	if at.OK {
		if b := c.atGen(at.Gen, rk); b != nil {
			return b, nil
		}
	}
	var sums []registry.ProviderSummary
	var err error
	name := r.Name
	if r.Of != "" {
		var sum registry.ProviderSummary
		if sum, err = c.namespaceOf(ctx, r.Of); err != nil {
			return nil, err
		}
		sums, name = []registry.ProviderSummary{sum}, naming.BicepExtension(sum.Name)
	} else if sums, err = c.summaries(ctx, r.Namespaces); err != nil {
		return nil, err
	}
	wire := registry.WireSummaries(sums)
	ck, err := contentKey(name, wire)
	if err != nil {
		return nil, err
	}
	b, err := c.built(ctx, ck, name, wire)
	if err != nil {
		return nil, err
	}
	if at.OK {
		c.mu.Lock()
		if c.gen == at.Gen {
			if len(c.byReq) >= maxRequests {
				c.byReq = map[string]string{}
			}
			c.byReq[rk] = ck
		}
		c.mu.Unlock()
	}
	return b, nil
}

// atGen returns the build of request key rk at generation gen, if known
// and still kept; it starts over when gen is new.
func (c *Cache) atGen(gen, rk string) *Built {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		c.gen, c.byReq = gen, map[string]string{}
		return nil
	}
	if e, ok := c.byKey[c.byReq[rk]]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*Built)
	}
	return nil
}

// namespaceOf returns the summary of the namespace whose extension name,
// or whose own name, is of (case-insensitive).
func (c *Cache) namespaceOf(ctx context.Context, of string) (registry.ProviderSummary, error) {
	sums, err := c.src.Summaries(ctx, c.plane, "")
	if err != nil {
		return registry.ProviderSummary{}, err
	}
	var names []string
	for _, sum := range sums {
		if strings.EqualFold(sum.Name, of) || naming.BicepExtension(sum.Name) == strings.ToLower(of) {
			if len(sum.ResourceTypes) == 0 {
				return registry.ProviderSummary{}, registry.Errorf(registry.CodeInvalid, sum.Name, "namespace %s has no registered resource types: there is no extension to build", sum.Name)
			}
			return sum, nil
		}
		names = append(names, naming.BicepExtension(sum.Name))
	}
	slices.Sort(names)
	known := strings.Join(names, ", ")
	if known == "" {
		known = "none"
	}
	return registry.ProviderSummary{}, registry.Errorf(registry.CodeNamespaceNotFound, of,
		"%s is neither a registered namespace nor the extension of one (the registry's extensions: %s)", of, known)
}

// summaries reads the summaries of the namespaces (All: every one), in the
// order of the namespaces, each with at least one resource type.
func (c *Cache) summaries(ctx context.Context, namespaces []string) ([]registry.ProviderSummary, error) {
	if len(namespaces) == 1 && namespaces[0] == All {
		sums, err := c.src.Summaries(ctx, c.plane, "")
		if err != nil {
			return nil, err
		}
		sums = slices.DeleteFunc(sums, func(s registry.ProviderSummary) bool { return len(s.ResourceTypes) == 0 })
		if len(sums) == 0 {
			return nil, registry.Errorf(registry.CodeInvalid, "", "the registry holds no resource types: there is no extension to build")
		}
		return sums, nil
	}
	var out []registry.ProviderSummary
	for _, ns := range namespaces {
		sums, err := c.src.Summaries(ctx, c.plane, ns)
		if err != nil {
			if registry.CodeOf(err) == registry.CodeNotFound || registry.CodeOf(err) == registry.CodeInvalid {
				return nil, registry.Errorf(registry.CodeNamespaceNotFound, ns, "namespace %s is not registered", ns)
			}
			return nil, err
		}
		if len(sums) == 0 {
			return nil, registry.Errorf(registry.CodeNamespaceNotFound, ns, "namespace %s is not registered", ns)
		}
		if len(sums[0].ResourceTypes) == 0 {
			return nil, registry.Errorf(registry.CodeInvalid, ns, "namespace %s has no registered resource types: there is no extension to build", sums[0].Name)
		}
		if slices.ContainsFunc(out, func(s registry.ProviderSummary) bool { return s.Name == sums[0].Name }) {
			continue
		}
		out = append(out, sums[0])
	}
	return out, nil
}

// contentKey is the hash of what an extension is built from.
func contentKey(name string, sums []api.ProviderSummary) (string, error) {
	sorted := slices.Clone(sums)
	slices.SortFunc(sorted, func(a, b api.ProviderSummary) int { return strings.Compare(a.Name, b.Name) })
	b, err := json.Marshal(struct {
		Name string                `json:"name"`
		Sums []api.ProviderSummary `json:"sums"`
	}{name, sorted})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// built returns the build of content key ck, building it once.
func (c *Cache) built(ctx context.Context, ck, name string, sums []api.ProviderSummary) (*Built, error) {
	c.mu.Lock()
	if e, ok := c.byKey[ck]; ok {
		c.lru.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*Built), nil
	}
	f, running := c.flights[ck]
	if !running {
		f = &flight{done: make(chan struct{})}
		c.flights[ck] = f
		c.builds++
	}
	c.mu.Unlock()
	if running {
		select {
		case <-f.done:
			return f.b, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	// The build waits for a slot while its request lasts, then does not
	// stop with it: others may wait for it.
	select {
	case c.slots <- struct{}{}:
		f.b, f.err = c.make(context.WithoutCancel(ctx), ck, name, sums)
		<-c.slots
	case <-ctx.Done():
		f.err = registry.Errorf(registry.CodeUnavailable, "", "the request ended while it waited for a build of extension %s", name)
	}
	c.mu.Lock()
	delete(c.flights, ck)
	if f.err == nil {
		c.keep(f.b)
	}
	c.mu.Unlock()
	close(f.done)
	return f.b, f.err
}

func (c *Cache) make(ctx context.Context, ck, name string, sums []api.ProviderSummary) (*Built, error) {
	p, err := c.build(ctx, sums, name)
	if err != nil {
		return nil, err
	}
	a, err := oci.NewExtension(p.Types, time.Time{})
	if err != nil {
		return nil, fmt.Errorf("extension %s: %w", name, err)
	}
	return &Built{Package: p, ArchiveDigest: digest.FromBytes(p.Archive), Artifact: a,
		Tag: ContentTag(p.Version, a.Manifest.Descriptor.Digest), key: ck}, nil
}

// keep adds b to the cache and drops the least recently used builds past
// maxBytes; c.mu is held.
func (c *Cache) keep(b *Built) {
	c.byKey[b.key] = c.lru.PushFront(b)
	c.bytes += size(b)
	for c.bytes > c.maxBytes && c.lru.Len() > 1 {
		e := c.lru.Back()
		old := c.lru.Remove(e).(*Built)
		delete(c.byKey, old.key)
		c.bytes -= size(old)
	}
}

func size(b *Built) int { return len(b.Archive) + len(b.Types) + len(b.Artifact.Manifest.Data) }

// Find returns a kept build whose artifact holds the blob or manifest d, or
// whose content tag is tag: what the OCI API serves by digest or by
// immutable tag once the registrations moved on. Nil when none is kept.
func (c *Cache) Find(match func(*Built) bool) *Built {
	c.mu.Lock()
	defer c.mu.Unlock()
	for e := c.lru.Front(); e != nil; e = e.Next() {
		if b := e.Value.(*Built); match(b) {
			return b
		}
	}
	return nil
}
