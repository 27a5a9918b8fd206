package extension

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
)

// fakeSource holds summaries by namespace at a generation tests move.
type fakeSource struct {
	gen   string
	sums  map[string]registry.ProviderSummary
	reads int
}

func (f *fakeSource) Generation(context.Context) service.At { return service.At{Gen: f.gen, OK: true} }

func (f *fakeSource) Summaries(_ context.Context, _, ns string) ([]registry.ProviderSummary, error) {
	f.reads++
	if ns == "" {
		var out []registry.ProviderSummary
		for _, s := range f.sums {
			out = append(out, s)
		}
		return out, nil
	}
	for name, s := range f.sums {
		if strings.EqualFold(name, ns) {
			return []registry.ProviderSummary{s}, nil
		}
	}
	return nil, registry.ErrNotFound
}

func summary(ns, desc string) registry.ProviderSummary {
	return registry.ProviderSummary{Name: ns, ResourceTypes: map[string]registry.TypeSummary{"things": {Description: desc}}}
}

func build(_ context.Context, sums []api.ProviderSummary, name string) (Package, error) {
	return Package{Name: name, Version: "0.0.1", Archive: []byte(name + sums[0].ResourceTypes["things"].Description),
		Types: []byte("types:" + sums[0].ResourceTypes["things"].Description)}, nil
}

// TestCacheGenerationsAndEviction: at one generation a repeated request
// reads nothing; a new generation reads again but builds only new
// content; past the byte limit the least recently used build goes, and
// Find no longer sees it.
func TestCacheGenerationsAndEviction(t *testing.T) {
	src := &fakeSource{gen: "1", sums: map[string]registry.ProviderSummary{"Contoso.Data": summary("Contoso.Data", "a")}}
	c := NewCache(src, "local", build)
	first, err := c.Get(t.Context(), Request{Of: "contosodata"})
	if err != nil {
		t.Fatal(err)
	}
	reads := src.reads
	if again, err := c.Get(t.Context(), Request{Of: "Contoso.Data"}); err != nil || again != first || src.reads != reads+1 {
		t.Errorf("another spelling: %v, %d reads", err, src.reads-reads)
	}
	reads = src.reads
	if again, _ := c.Get(t.Context(), Request{Of: "contosodata"}); again != first || src.reads != reads {
		t.Errorf("a repeated request read the store %d times", src.reads-reads)
	}
	src.gen = "2" // a write elsewhere, same content
	if again, _ := c.Get(t.Context(), Request{Of: "contosodata"}); again != first || c.Builds() != 1 {
		t.Errorf("same content at a new generation: %d builds", c.Builds())
	}
	c.maxBytes = size(first) + 1 // room for one build
	src.gen, src.sums["Contoso.Data"] = "3", summary("Contoso.Data", "b")
	second, err := c.Get(t.Context(), Request{Of: "contosodata"})
	if err != nil || second == first || c.Builds() != 2 {
		t.Fatalf("changed content: %v, %d builds", err, c.Builds())
	}
	if c.Find(func(b *Built) bool { return b == first }) != nil {
		t.Errorf("the evicted build is still found")
	}
	if c.Find(func(b *Built) bool { return b.Tag == second.Tag }) != second {
		t.Errorf("the kept build is not found by its tag")
	}
}

// TestCacheBoundsBuilds: builds of distinct content wait for a slot, and a
// request that ends while it waits gets an error saying so.
func TestCacheBoundsBuilds(t *testing.T) {
	src := &fakeSource{gen: "1", sums: map[string]registry.ProviderSummary{
		"A.One": summary("A.One", "a"), "B.Two": summary("B.Two", "b")}}
	release := make(chan struct{})
	started := make(chan string, 2)
	var running, most atomic.Int32
	c := NewCache(src, "local", func(ctx context.Context, sums []api.ProviderSummary, name string) (Package, error) {
		n := running.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		started <- name
		<-release
		running.Add(-1)
		return build(ctx, sums, name)
	})
	c.slots = make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() { _, err := c.Get(context.Background(), Request{Of: "aone"}); done <- err }()
	<-started // the first build holds the slot
	ctx, cancel := context.WithCancel(context.Background())
	waited := make(chan error, 1)
	go func() { _, err := c.Get(ctx, Request{Of: "btwo"}); waited <- err }()
	cancel()
	if err := <-waited; registry.CodeOf(err) != registry.CodeUnavailable || !strings.Contains(err.Error(), "waited for a build of extension btwo") {
		t.Errorf("cancelled while waiting: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(context.Background(), Request{Of: "btwo"}); err != nil {
		t.Fatal(err)
	}
	if most.Load() != 1 {
		t.Errorf("%d builds ran at once, want 1", most.Load())
	}
}
