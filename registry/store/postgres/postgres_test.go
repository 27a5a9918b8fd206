package postgres_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/store/internal/sqlstore"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/postgres/pgtest"
	"github.com/udtc/udtc/registry/store/storetest"
)

var pg *pgtest.Env

func TestMain(m *testing.M) {
	os.Exit(pgtest.Run(m, &pg))
}

func open(t *testing.T, dsn string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		dsn := pg.NewDatabase(t)
		return func(t *testing.T) registry.Store { return open(t, dsn) }
	})
}

func TestConcurrentOpensMigrateOnce(t *testing.T) {
	dsn := pg.NewDatabase(t)
	var wg sync.WaitGroup
	stores := make([]*postgres.Store, 4)
	errs := make([]error, 4)
	for i := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = postgres.Open(context.Background(), dsn)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Open %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	var n int
	// Each migration is recorded once, however many processes start at once.
	if err := stores[0].DB().QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != postgres.Migrations() {
		t.Errorf("schema_migrations rows = %d, %v; want %d", n, err, postgres.Migrations())
	}
	if n, err := stores[0].OrphanCount(context.Background()); err != nil || n != 0 {
		t.Errorf("OrphanCount = %d, %v", n, err)
	}
}

// TestPoolBoundsWritersAndKeepsConnections: the writers of one hot row
// wait in Go and hold one connection between them (hotrow.go); writers
// of many rows hold at most MaxWriters connections at once (the rest of
// the pool stays free for reads), and the connections they used stay open
// afterwards instead of being closed down to database/sql's two idle ones.
func TestPoolBoundsWritersAndKeepsConnections(t *testing.T) {
	ctx := context.Background()
	s := open(t, pg.NewDatabase(t))
	defer s.Close()
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.PlaneID("local")}}); err != nil {
		t.Fatal(err)
	}
	writeAll := func(id func(writer int) registry.ID) (maxUsed int) {
		t.Helper()
		var (
			wg   sync.WaitGroup
			stop = make(chan struct{})
		)
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					maxUsed = max(maxUsed, s.DB().Stats().InUse)
				}
			}
		})
		var writers sync.WaitGroup
		for w := range 32 {
			writers.Go(func() {
				for i := range 10 {
					// Each write changes the row (one that changes nothing is a read).
					loc := fmt.Sprintf("region-%d-%d", w, i)
					if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id(w), Location: loc}}); err != nil {
						t.Error(err)
					}
				}
			})
		}
		writers.Wait()
		close(stop)
		wg.Wait()
		return maxUsed
	}
	hot := registry.ProviderID("local", "Hot.Row")
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: hot}}); err != nil {
		t.Fatal(err)
	}
	if used := writeAll(func(int) registry.ID { return hot }); used > 1 {
		t.Errorf("%d connections in use by the writers of one row at once, want 1", used)
	}
	used := writeAll(func(w int) registry.ID { return registry.ProviderID("local", fmt.Sprintf("Row.N%d", w)) })
	if used > postgres.MaxWriters {
		t.Errorf("%d connections in use by writers at once, want at most %d", used, postgres.MaxWriters)
	}
	if idle := s.DB().Stats().Idle; idle < used {
		t.Errorf("%d idle connections after the writers, want the %d they used at once kept open", idle, used)
	}
}

// TestHotRowBatchFailsAlone: updates of one row that queued while its lock
// was held run as one pipelined batch when it is released. One of them
// fails in the database (a NUL byte, which text columns refuse), which
// rolls back the whole batch: the others must still be written, each with
// an ETag of its own, and the one that failed must answer its error.
func TestHotRowBatchFailsAlone(t *testing.T) {
	ctx := context.Background()
	s := open(t, pg.NewDatabase(t))
	defer s.Close()
	hot := registry.ProviderID("local", "Hot.Row")
	for _, id := range []registry.ID{registry.PlaneID("local"), hot} {
		if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id}}); err != nil {
			t.Fatal(err)
		}
	}
	lock, err := s.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	if _, err := lock.Exec(`SELECT id FROM resources WHERE provider_key = 'hot.row' FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	const writers, bad = 12, 5
	out := make([]registry.Resource, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			loc := fmt.Sprintf("region-%d", i)
			if i == bad {
				loc = "bad\x00region"
			}
			out[i], _, errs[i] = s.Put(ctx, registry.Write{Resource: registry.Resource{ID: hot, Location: loc}})
		})
		if i == 0 { // the first runs, and waits for the lock in the database
			waitForLockWait(t, s)
		}
	}
	time.Sleep(200 * time.Millisecond) // let the others queue behind it
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	etags := map[string]string{}
	for i, err := range errs {
		switch {
		case i == bad && err == nil:
			t.Errorf("the write of a NUL byte succeeded")
		case i == bad:
		case err != nil:
			t.Errorf("write %d: %v", i, err)
		case etags[out[i].ETag] != "":
			t.Errorf("writes %d and %s answered ETag %s", i, etags[out[i].ETag], out[i].ETag)
		default:
			etags[out[i].ETag] = fmt.Sprint(i)
		}
	}
	got, err := s.Get(ctx, hot)
	if err != nil {
		t.Fatal(err)
	}
	if i, ok := etags[got.ETag]; !ok || got.Location != fmt.Sprintf("region-%s", i) {
		t.Errorf("stored %s at %q: not one of the writes answered", got.ETag, got.Location)
	}
}

// waitForLockWait waits until a session of s's database waits for a lock.
func waitForLockWait(t *testing.T, s *postgres.Store) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		var n int
		if err := s.DB().QueryRow(`SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no session waited for the row lock")
		}
	}
}

// TestFrozenHolder: PostgreSQL ends the session of a lease holder frozen
// inside its sync transaction once it idled for its bound, so another
// process takes the lease over while it is still frozen, and its late
// commit fails.
func TestFrozenHolder(t *testing.T) {
	dsn := pg.NewDatabase(t)
	storetest.FrozenHolder(t, func(t *testing.T) registry.Store { return open(t, dsn) },
		func(s registry.Store, hook func()) { sqlstore.SetSyncTxHook(s.(*postgres.Store).Store, hook) }, true)
}
