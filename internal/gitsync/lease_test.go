package gitsync_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/internal/gitsync"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// Two servers with --sync on one store: one syncs (the lease holder), the
// other watches; when the holder stops renewing, the other takes the sync
// over once the lease's TTL passed on its own clock; a released lease is
// taken at the next interval.
func TestSyncLeaseOneSyncerAndFailover(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	first := f.commit(map[string]string{"data.yaml": syncData})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: true})
	a, areg := f.syncer, f.sreg
	b, breg := f.newSyncer(gitsync.Config{Heal: true})
	a.Once(ctx, areg)
	if st := f.status(); st.Holder != a.Holder() || st.LastAppliedCommit != first {
		t.Fatalf("after a's first sync: %+v", st)
	}

	// b watches: a new commit is not b's to apply.
	second := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.writes.Store(0)
	for range 3 {
		b.Once(ctx, breg)
		f.clock.Advance(time.Minute) // one interval
		a.Once(ctx, areg)            // a renews, and applies the commit once
	}
	if st := f.status(); st.Holder != a.Holder() || st.LastAppliedCommit != second {
		t.Fatalf("with a holding the lease: %+v", st)
	}
	if n := breg.(counted).commits.Load(); n != 0 {
		t.Errorf("b made %d sync transactions while a held the lease", n)
	}
	if len(f.batches) != 2 {
		t.Errorf("%d transactions with writes, want the first commit's and Contoso.Net's", len(f.batches))
	}

	// a stops (killed: the lease is not released). b takes over only once
	// it has seen the same lease for its TTL (3 intervals).
	third := f.commit(map[string]string{"net.yaml": syncNet})
	ttl := gitsync.LeaseIntervals * time.Minute
	b.Once(ctx, breg) // sees a's last renewal
	f.clock.Advance(ttl - time.Second)
	b.Once(ctx, breg)
	if st := f.status(); st.Holder != a.Holder() || st.LastAppliedCommit != second {
		t.Fatalf("b took over before the TTL: %+v", st)
	}
	f.clock.Advance(time.Second)
	b.Once(ctx, breg)
	st := f.status()
	if st.Holder != b.Holder() || st.LastAppliedCommit != third || strings.Join(st.Namespaces, ",") != "Contoso.Net" {
		t.Fatalf("after the TTL: %+v", st)
	}
	if !strings.Contains(f.log.String(), "sync lease taken: this server syncs") {
		t.Errorf("the log does not say b took the lease:\n%s", f.log)
	}

	// a comes back: it finds b holding the lease and stands by, writing
	// nothing even with a commit to apply.
	f.commit(map[string]string{"data.yaml": syncData})
	acommits := areg.(counted).commits.Load()
	a.Once(ctx, areg)
	if st := f.status(); st.Holder != b.Holder() || st.LastAppliedCommit != third || areg.(counted).commits.Load() != acommits {
		t.Fatalf("a came back and made %d transactions: %+v", areg.(counted).commits.Load()-acommits, st)
	}
	if !strings.Contains(f.log.String(), "sync lease lost to another server") {
		t.Errorf("the log does not say a lost the lease:\n%s", f.log)
	}

	// b shuts down and releases the lease: a takes it at its next interval.
	b.Release(ctx, breg)
	a.Once(ctx, areg)
	if st := f.status(); st.Holder != a.Holder() || st.LastAppliedCommit == third {
		t.Fatalf("after b released the lease: %+v", st)
	}
}

// A hand-edited sync_state.status: every replica keeps serving writes
// outside the managed namespaces (which stay guarded) and reports the
// damage at /sync/status; the sync refuses to run from a state it cannot
// read, and runs again once the status is reset (docs/git.md).
func TestSyncDamagedState(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	f.commit(map[string]string{"data.yaml": syncData})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: true})
	f.once(ctx)
	db := f.store.(*sqlite.Store).DB()
	if _, err := db.ExecContext(ctx, `UPDATE sync_state SET status = '{"state": "synced", ' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	second := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})

	commits := f.sreg.(counted).commits.Load()
	f.once(ctx)
	if n := f.sreg.(counted).commits.Load() - commits; n != 0 {
		t.Errorf("the sync made %d transactions from a damaged state", n)
	}
	if !strings.Contains(f.log.String(), "sync refused") || !strings.Contains(f.log.String(), "sync_state.status") {
		t.Errorf("the log does not say why the sync refused:\n%s", f.log)
	}
	st := f.status()
	if st.State != "damaged" || !strings.Contains(st.Error, "sync_state.status") || strings.Join(st.Namespaces, ",") != "Contoso.Data" || st.Holder != f.syncer.Holder() {
		t.Errorf("/sync/status of a damaged state: %+v", st)
	}
	if _, err := f.reg.PutProvider(ctx, "Other.Things", api.ResourceProvider{}); err != nil {
		t.Errorf("PUT outside the managed namespaces with a damaged sync state: %v", err)
	}
	if _, err := f.reg.PutResourceType(ctx, "Contoso.Data", "queues", api.ResourceType{}); client.StatusCode(err) != http.StatusConflict {
		t.Errorf("PUT into a managed namespace with a damaged sync state: %v, want 409", err)
	}

	// Repaired as docs/git.md says: the sync applies the commit again.
	if _, err := db.ExecContext(ctx, `UPDATE sync_state SET status = '{}', renewed_at = '' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	f.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != second || strings.Join(st.Namespaces, ",") != "Contoso.Data,Contoso.Net" {
		t.Errorf("after the repair: %+v", st)
	}
}
