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
