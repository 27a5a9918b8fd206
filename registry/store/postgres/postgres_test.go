package postgres_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/postgres/pgtest"
	"github.com/udtc/udtc/registry/store/storetest"
)

var pg *pgtest.Env

func TestMain(m *testing.M) {
	pg = pgtest.Start()
	code := m.Run()
	pg.Stop()
	os.Exit(code)
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

// TestPoolBoundsWritersAndKeepsConnections: however many writers queue on
// one hot row, at most MaxWriters of them hold a connection (the rest of
// the pool stays free for reads), and the connections stay open afterwards
// instead of being closed down to database/sql's two idle ones.
func TestPoolBoundsWritersAndKeepsConnections(t *testing.T) {
	ctx := context.Background()
	s := open(t, pg.NewDatabase(t))
	defer s.Close()
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.PlaneID("local")}}); err != nil {
		t.Fatal(err)
	}
	var (
		wg      sync.WaitGroup
		stop    = make(chan struct{})
		maxUsed int
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
				maxUsed = max(maxUsed, s.DB().Stats().InUse)
			}
		}
	}()
	var writers sync.WaitGroup
	for range 32 {
		writers.Go(func() {
			for range 10 {
				if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.ProviderID("local", "Hot.Row")}}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	writers.Wait()
	close(stop)
	wg.Wait()
	if maxUsed > postgres.MaxWriters {
		t.Errorf("%d connections in use by writers at once, want at most %d", maxUsed, postgres.MaxWriters)
	}
	if idle := s.DB().Stats().Idle; idle < postgres.MaxWriters {
		t.Errorf("%d idle connections after the writers, want the %d they used kept open", idle, postgres.MaxWriters)
	}
}
