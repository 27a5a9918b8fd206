package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/udtc/udtc/registry"
)

// TestGroupCommitIsolatesWriters runs many concurrent writers, a third of
// which fail (a missing parent, a precondition that does not hold), so
// that failures land in the middle of shared transactions: every write
// that was acknowledged must be there after a reopen, and no failed one.
func TestGroupCommitIsolatesWriters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "registry.db")
	s := open(t, path)
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.PlaneID("local")}}); err != nil {
		t.Fatal(err)
	}
	const writers, rounds = 24, 10
	type outcome struct {
		id  registry.ID
		err error
	}
	results := make(chan outcome, writers*rounds*2)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range rounds {
				ns := fmt.Sprintf("W%d.P%d", w, i)
				var id registry.ID
				var cond registry.Precondition
				switch (w + i) % 3 {
				case 0: // succeeds
					id = registry.ProviderID("local", ns)
				case 1: // the provider does not exist
					id = registry.TypeID("local", ns, "things")
				case 2: // If-Match on an absent provider
					id = registry.ProviderID("local", ns)
					cond.IfMatch = []string{"*"}
				}
				_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id}, If: cond})
				results <- outcome{id, err}
			}
		})
	}
	wg.Wait()
	close(results)
	s.Close()
	s = open(t, path)
	defer s.Close()
	var ok, failed int
	for r := range results {
		_, err := s.Get(ctx, r.id)
		switch {
		case r.err == nil:
			ok++
			if err != nil {
				t.Errorf("%s was acknowledged but is not there after a reopen: %v", r.id, err)
			}
		case errors.Is(r.err, registry.ErrParentNotFound) || errors.Is(r.err, registry.ErrPrecondition):
			failed++
			if !errors.Is(err, registry.ErrNotFound) {
				t.Errorf("%s failed (%v) but Get returns %v", r.id, r.err, err)
			}
		default:
			t.Errorf("%s: unexpected error %v", r.id, r.err)
		}
	}
	if ok != writers*rounds/3 || failed != writers*rounds*2/3 {
		t.Errorf("%d writes succeeded and %d failed, want %d and %d", ok, failed, writers*rounds/3, writers*rounds*2/3)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// TestGroupCommitCancelledWriter: a writer whose context ends while it
// waits for its turn gets the context's error and writes nothing.
func TestGroupCommitCancelledWriter(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "registry.db"))
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.PlaneID("local")}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Put with a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := s.Get(context.Background(), registry.PlaneID("local")); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("Get after a cancelled Put = %v, want ErrNotFound", err)
	}
	// The store still writes.
	if _, _, err := s.Put(context.Background(), registry.Write{Resource: registry.Resource{ID: registry.PlaneID("local")}}); err != nil {
		t.Fatal(err)
	}
}
