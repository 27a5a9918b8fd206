package storetest

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// The state of the git sync (registry.SyncStore): the lease of the one
// process that syncs, the managed namespaces and the status, written only
// under the lease.

var syncTests = []suiteTest{
	{"SyncLease", testSyncLease},
	{"SyncCommitFenced", testSyncCommitFenced},
	{"SyncCommitAllOrNothing", testSyncCommitAllOrNothing},
	{"SyncDamagedRecord", testSyncDamagedRecord},
}

var syncSharedTests = []sharedTest{
	{"SyncLeaseOneTaker", testSyncLeaseOneTaker},
	{"SyncFenceAgainstTakeover", testSyncFenceAgainstTakeover},
}

func syncStore(t *testing.T, s registry.Store) registry.SyncStore {
	return optional[registry.SyncStore](t, s)
}

// syncHeld returns s's SyncStore with the plane registered and the first
// lease, held by "a".
func syncHeld(t *testing.T, s registry.Store) (registry.SyncStore, registry.SyncLease) {
	t.Helper()
	ss := syncStore(t, s)
	put(t, s, registry.PlaneID(plane), `{}`)
	return ss, take(t, ss, 0, "a")
}

func lease(holder string) registry.SyncLease {
	return registry.SyncLease{Holder: holder, TTL: 3 * time.Second, RenewedAt: t0}
}

var pending = api.SyncStatus{Repository: "https://git.example/types.git", Ref: "main", Dir: "manifests", State: "pending"}

// take takes the lease from version from and fails the test unless it
// gets it.
func take(t *testing.T, s registry.SyncStore, from int64, holder string) registry.SyncLease {
	t.Helper()
	l, err := s.TakeSyncLease(context.Background(), from, lease(holder), pending)
	if err != nil {
		t.Fatalf("TakeSyncLease(%d, %s): %v", from, holder, err)
	}
	if l.Version != from+1 || l.Holder != holder {
		t.Fatalf("TakeSyncLease(%d, %s) = %+v, want version %d", from, holder, l, from+1)
	}
	return l
}

func testSyncLease(t *testing.T, s registry.Store) {
	ctx := context.Background()
	ss := syncStore(t, s)
	if _, err := ss.SyncRecord(ctx); !errors.Is(err, registry.ErrNotFound) {
		t.Fatalf("SyncRecord of a fresh store = %v, want ErrNotFound", err)
	}
	a := take(t, ss, 0, "a")
	// The record exists now: creating it again loses.
	if _, err := ss.TakeSyncLease(ctx, 0, lease("b"), pending); !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("a second create = %v, want ErrPrecondition", err)
	}
	rec, err := ss.SyncRecord(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := pending
	want.Namespaces, want.Holder, want.LeaseRenewedAt = []string{}, "a", t0
	if diff := cmp.Diff(want, rec.Status); diff != "" {
		t.Errorf("the created record's status (-want +got):\n%s", diff)
	}
	if rec.Lease != a || rec.Lease.TTL != 3*time.Second || !rec.Lease.RenewedAt.Equal(t0) {
		t.Errorf("the created record's lease = %+v, want %+v", rec.Lease, a)
	}
	a = take(t, ss, a.Version, "a") // a renewal
	if _, err := ss.TakeSyncLease(ctx, a.Version-1, lease("b"), pending); !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("a take from a stale version = %v, want ErrPrecondition", err)
	}
	b := take(t, ss, a.Version, "b") // a takeover of the version b saw
	released := take(t, ss, b.Version, "")
	if rec, err := ss.SyncRecord(ctx); err != nil || rec.Lease.Holder != "" || rec.Lease.Version != released.Version {
		t.Errorf("after the release: %+v, %v", rec.Lease, err)
	}
}

// testSyncCommitFenced: a sync transaction commits only under the lease
// it names: after a takeover, the former holder writes nothing.
func testSyncCommitFenced(t *testing.T, s registry.Store) {
	ctx := context.Background()
	ss, a := syncHeld(t, s)
	applied := pending
	applied.State, applied.LastAppliedCommit, applied.Namespaces = "synced", "c1", []string{"ignored"}
	err := ss.CommitSync(ctx, registry.SyncCommit{Fence: a, Ops: []registry.BatchOp{putOp(registry.ProviderID(plane, "Git.One"), `{}`)},
		Claim: []string{"Git.One", "Git.Two"}, Status: &applied})
	if err != nil {
		t.Fatalf("CommitSync under the lease: %v", err)
	}
	mustExist(t, s, registry.ProviderID(plane, "git.one"), true)
	rec, err := ss.SyncRecord(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status.State != "synced" || rec.Status.LastAppliedCommit != "c1" || strings.Join(rec.Status.Namespaces, ",") != "Git.One,Git.Two" || rec.Status.Holder != "a" {
		t.Errorf("after a commit: %+v", rec.Status)
	}
	// Claiming again in another case keeps one row, in the new spelling;
	// a release in any case removes it.
	if err := ss.CommitSync(ctx, registry.SyncCommit{Fence: a, Claim: []string{"GIT.one"}, Release: []string{"git.TWO"}}); err != nil {
		t.Fatal(err)
	}
	if rec, err := ss.SyncRecord(ctx); err != nil || strings.Join(rec.Status.Namespaces, ",") != "GIT.one" || rec.Status.LastAppliedCommit != "c1" {
		t.Errorf("after a claim and a release without a status: %+v, %v", rec.Status, err)
	}

	b := take(t, ss, a.Version, "b")
	stale := applied
	stale.LastAppliedCommit = "c0"
	err = ss.CommitSync(ctx, registry.SyncCommit{Fence: a, Ops: []registry.BatchOp{putOp(registry.ProviderID(plane, "Git.Stale"), `{}`)},
		Claim: []string{"Git.Stale"}, Release: []string{"GIT.one"}, Status: &stale})
	if !errors.Is(err, registry.ErrNotHolder) {
		t.Fatalf("CommitSync by the former holder = %v, want ErrNotHolder", err)
	}
	mustExist(t, s, registry.ProviderID(plane, "Git.Stale"), false)
	if rec, err := ss.SyncRecord(ctx); err != nil || strings.Join(rec.Status.Namespaces, ",") != "GIT.one" || rec.Status.LastAppliedCommit != "c1" {
		t.Errorf("the fenced commit changed the record: %+v, %v", rec.Status, err)
	}
	released := take(t, ss, b.Version, "")
	if err := ss.CommitSync(ctx, registry.SyncCommit{Fence: released, Claim: []string{"x"}}); !errors.Is(err, registry.ErrNotHolder) {
		t.Errorf("CommitSync under a released lease = %v, want ErrNotHolder", err)
	}
}

// testSyncCommitAllOrNothing: a sync transaction whose write fails
// changes neither the registrations, nor the namespaces, nor the status.
func testSyncCommitAllOrNothing(t *testing.T, s registry.Store) {
	ctx := context.Background()
	ss, a := syncHeld(t, s)
	failed := pending
	failed.State = "synced"
	err := ss.CommitSync(ctx, registry.SyncCommit{Fence: a, Ops: []registry.BatchOp{
		putOp(registry.ProviderID(plane, "Git.One"), `{}`),
		putOp(registry.TypeID(plane, "Git.Absent", "things"), `{}`),
	}, Claim: []string{"Git.One"}, Status: &failed})
	var be *registry.BatchError
	if !errors.As(err, &be) || be.Index != 1 || !errors.Is(err, registry.ErrParentNotFound) {
		t.Fatalf("CommitSync with a failing write = %v, want a BatchError at 1 wrapping ErrParentNotFound", err)
	}
	mustExist(t, s, registry.ProviderID(plane, "Git.One"), false)
	if rec, err := ss.SyncRecord(ctx); err != nil || len(rec.Status.Namespaces) != 0 || rec.Status.State != "pending" {
		t.Errorf("a failed commit changed the record: %+v, %v", rec.Status, err)
	}
}

// testSyncLeaseOneTaker: of many processes taking the lease from the
// version they all saw, exactly one gets it.
func testSyncLeaseOneTaker(t *testing.T, a, b registry.Store) {
	ctx := context.Background()
	stores := []registry.SyncStore{syncStore(t, a), syncStore(t, b)}
	from := int64(0)
	for round := range raceRounds {
		var (
			wins atomic.Int64
			wg   sync.WaitGroup
		)
		for i := range raceWriters {
			s := stores[i%2]
			wg.Go(func() {
				_, err := s.TakeSyncLease(ctx, from, lease(string(rune('a'+i))), pending)
				switch {
				case err == nil:
					wins.Add(1)
				case !errors.Is(err, registry.ErrPrecondition):
					t.Errorf("round %d: TakeSyncLease: %v", round, err)
				}
			})
		}
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("round %d: %d processes took the lease from version %d, want 1", round, n, from)
		}
		rec, err := stores[round%2].SyncRecord(ctx)
		if err != nil || rec.Lease.Version != from+1 {
			t.Fatalf("round %d: the lease after the race: %+v, %v", round, rec.Lease, err)
		}
		from = rec.Lease.Version
	}
}

// testSyncFenceAgainstTakeover: a holder's transactions racing a takeover
// from another process either commit before the takeover or fail with
// ErrNotHolder; after a takeover, none commits.
func testSyncFenceAgainstTakeover(t *testing.T, a, b registry.Store) {
	ctx := context.Background()
	sa, sb := syncStore(t, a), syncStore(t, b)
	put(t, a, registry.PlaneID(plane), `{}`)
	held := take(t, sa, 0, "a")
	var (
		mu        sync.Mutex
		committed []string
		taken     = make(chan struct{})
		wg        sync.WaitGroup
	)
	for i := range raceWriters {
		wg.Go(func() {
			ns := "Git.N" + string(rune('a'+i))
			err := sa.CommitSync(ctx, registry.SyncCommit{Fence: held, Claim: []string{ns}})
			switch {
			case err == nil:
				mu.Lock()
				committed = append(committed, strings.ToLower(ns))
				mu.Unlock()
			case !errors.Is(err, registry.ErrNotHolder):
				t.Errorf("CommitSync: %v", err)
			}
		})
	}
	wg.Go(func() {
		defer close(taken)
		if _, err := sb.TakeSyncLease(ctx, held.Version, lease("b"), pending); err != nil {
			t.Errorf("takeover: %v", err)
		}
	})
	wg.Wait()
	<-taken
	// Every acknowledged claim is stored; nothing else is.
	rec, err := sb.SyncRecord(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ns := range rec.Status.Namespaces {
		got = append(got, strings.ToLower(ns))
	}
	if diff := cmp.Diff(slices.Sorted(slices.Values(committed)), got); diff != "" {
		t.Errorf("managed namespaces vs acknowledged claims (-acknowledged +stored):\n%s", diff)
	}
	if err := sa.CommitSync(ctx, registry.SyncCommit{Fence: held, Claim: []string{"Git.Late"}}); !errors.Is(err, registry.ErrNotHolder) {
		t.Errorf("CommitSync after the takeover = %v, want ErrNotHolder", err)
	}
}

// Freezer makes hook run inside each CommitSync transaction of s, just
// before its commit, holding the transaction's locks (for the SQL stores,
// sqlstore.SetSyncTxHook): a hook that blocks freezes the lease holder
// inside its transaction, as a stopped process, a frozen VM or a network
// partition would.
type Freezer func(s registry.Store, hook func())

// frozenDeadline bounds the waits of FrozenHolder: functional, far above
// the bounds of the sync's transactions with the lease of lease() (a
// second each on PostgreSQL) and SQLite's busy timeout (10 s).
const frozenDeadline = 2 * time.Minute

// FrozenHolder freezes the lease holder, store a, inside a sync
// transaction and checks what store b, another process on the same
// database, sees meanwhile and afterwards. preempts says whether the
// database takes a frozen holder's locks away: PostgreSQL ends the session
// of a transaction idle past its bound, so b takes the lease over and
// writes while a is still frozen. SQLite cannot: b's writes fail with
// registry.ErrBusy (503, never 500) until a resumes. Either way a's late
// commit is refused, writes nothing, and b holds the lease afterwards.
func FrozenHolder(t *testing.T, open Opener, freeze Freezer, preempts bool) {
	ctx := context.Background()
	a, b := open(t), open(t)
	t.Cleanup(func() { a.Close(); b.Close() })
	sa, sb := syncStore(t, a), syncStore(t, b)
	put(t, a, registry.PlaneID(plane), `{}`)
	held := take(t, sa, 0, "a")

	frozen, thaw := make(chan struct{}), make(chan struct{})
	var once sync.Once
	freeze(a, func() {
		once.Do(func() { close(frozen) })
		<-thaw
	})
	thawOnce := sync.OnceFunc(func() { close(thaw) })
	t.Cleanup(thawOnce)
	late := api.SyncStatus{Repository: pending.Repository, State: "frozen"}
	committed := make(chan error, 1)
	go func() {
		committed <- sa.CommitSync(ctx, registry.SyncCommit{Fence: held, Claim: []string{"Git.Frozen"}, Status: &late})
	}()
	select {
	case <-frozen:
	case err := <-committed:
		t.Fatalf("CommitSync returned %v without running the freezer's hook", err)
	case <-time.After(frozenDeadline):
		t.Fatal("the holder's transaction never reached the freezer's hook")
	}

	// While a is frozen: b writes outside the sync, and tries to take the
	// lease over, as its sync does at each interval once the TTL passed.
	var wg sync.WaitGroup
	wg.Go(func() {
		_, _, err := b.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.ProviderID(plane, "Other.Ns"), Properties: []byte(`{}`)}, Now: t0})
		switch {
		case preempts && err != nil:
			t.Errorf("a write outside the sync while the holder is frozen: %v", err)
		case !preempts && !errors.Is(err, registry.ErrBusy):
			t.Errorf("a write while the holder is frozen holding the write lock = %v, want ErrBusy", err)
		}
	})
	wg.Go(func() {
		// Without a bound on a's transaction, b's takeover waits for a's
		// lock for as long as a is frozen: this context fails it instead.
		tctx, cancel := context.WithTimeout(ctx, frozenDeadline)
		defer cancel()
		for {
			_, err := sb.TakeSyncLease(tctx, held.Version, lease("b"), pending)
			if err == nil {
				if !preempts {
					t.Error("b took the lease while the holder held the database's write lock")
				}
				return
			}
			if tctx.Err() != nil {
				t.Errorf("b did not take the lease over from the frozen holder within %s: %v", frozenDeadline, err)
				return
			}
			if !errors.Is(err, registry.ErrBusy) {
				t.Errorf("taking the lease over from a frozen holder: %v, want nil or ErrBusy", err)
				return
			}
			if !preempts {
				return
			}
		}
	})
	wg.Wait()
	if t.Failed() {
		return
	}

	// a resumes: its late commit is refused and writes nothing.
	thawOnce()
	select {
	case err := <-committed:
		if err == nil {
			t.Error("the frozen holder's late commit succeeded")
		}
	case <-time.After(frozenDeadline):
		t.Fatal("the thawed holder's commit never returned")
	}
	if !preempts {
		// Only now can b take the lease over: nobody renewed it.
		take(t, sb, held.Version, "b")
		put(t, b, registry.ProviderID(plane, "Other.Ns"), `{}`)
	}
	rec, err := sb.SyncRecord(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Lease.Holder != "b" || len(rec.Status.Namespaces) != 0 || rec.Status.State == late.State {
		t.Errorf("after the frozen holder's late commit: lease %+v, namespaces %v, state %q; want b's lease and nothing of a's commit",
			rec.Lease, rec.Status.Namespaces, rec.Status.State)
	}
	if err := sa.CommitSync(ctx, registry.SyncCommit{Fence: held, Claim: []string{"Git.Late"}}); !errors.Is(err, registry.ErrNotHolder) {
		t.Errorf("CommitSync of the thawed holder = %v, want ErrNotHolder", err)
	}
}

// testSyncDamagedRecord: a hand-edited status or renewal time is no error
// of SyncRecord (which every write's sync guard reads): the record says
// what is damaged, keeps the lease and the managed namespaces, and the
// status says "damaged"; writing a status and renewing the lease repair
// it.
func testSyncDamagedRecord(t *testing.T, s registry.Store) {
	ctx := context.Background()
	ss, held := syncHeld(t, s)
	if err := ss.CommitSync(ctx, registry.SyncCommit{Fence: held, Claim: []string{"Git.Kept"}, Status: &pending}); err != nil {
		t.Fatal(err)
	}
	db := optional[interface{ DB() *sql.DB }](t, s)
	if _, err := db.DB().ExecContext(ctx, `UPDATE sync_state SET status = '[1,', renewed_at = 'yesterday' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	rec, err := ss.SyncRecord(ctx)
	if err != nil {
		t.Fatalf("SyncRecord of a damaged record: %v, want the record", err)
	}
	if !strings.Contains(rec.Damaged, "sync_state.status") || !strings.Contains(rec.Damaged, "sync_state.renewed_at") ||
		rec.Status.State != "damaged" || !strings.Contains(rec.Status.Error, rec.Damaged) ||
		rec.Lease.Holder != "a" || rec.Lease.Version != held.Version || strings.Join(rec.Status.Namespaces, ",") != "Git.Kept" {
		t.Fatalf("a damaged record = %+v", rec)
	}
	held = take(t, ss, held.Version, "a")
	if err := ss.CommitSync(ctx, registry.SyncCommit{Fence: held, Status: &pending}); err != nil {
		t.Fatal(err)
	}
	if rec, err := ss.SyncRecord(ctx); err != nil || rec.Damaged != "" || rec.Status.State != pending.State {
		t.Errorf("after a renewal and a status: %+v, %v", rec, err)
	}
}
