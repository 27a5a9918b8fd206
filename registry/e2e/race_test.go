package e2e_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
)

// TestTwoServersOnePostgresLeaveNoOrphans races provider deletes on one
// server against type, API version and location creates on another, both
// on one PostgreSQL database, then counts orphans in the database.
func TestTwoServersOnePostgresLeaveNoOrphans(t *testing.T) {
	ctx := context.Background()
	dsn := pg.NewDatabase(t)
	// Two "processes" (each its own connection pool and server) start at
	// the same moment: migrations and the local plane are created once.
	var stores [2]*postgres.Store
	var servers [2]*server.Server
	var errs [2]error
	var start sync.WaitGroup
	for i := range stores {
		start.Add(1)
		go func() {
			defer start.Done()
			if stores[i], errs[i] = postgres.Open(ctx, dsn); errs[i] == nil {
				servers[i], errs[i] = server.New(ctx, server.Options{Store: stores[i], Secrets: testSealer(t)})
			}
		}()
	}
	start.Wait()
	var clients [2]*client.Client
	for i := range stores {
		if errs[i] != nil {
			t.Fatalf("starting server %d: %v", i, errs[i])
		}
		defer stores[i].Close()
		ts := httptest.NewServer(servers[i])
		defer ts.Close()
		var err error
		if clients[i], err = client.New(ts.URL, client.WithRetry(5, time.Millisecond, 20*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	deleter, creator := clients[0], clients[1]

	const providers, workers, rounds = 4, 4, 12
	var created, rejected atomic.Int64
	deadline := time.Now().Add(20 * time.Second)
	for round := range rounds {
		if time.Now().After(deadline) {
			break
		}
		var wg sync.WaitGroup
		for p := range providers {
			ns := fmt.Sprintf("Race%d.Provider", p)
			if _, err := deleter.PutProvider(ctx, ns, api.ResourceProvider{Location: "global"}); err != nil {
				t.Fatal(err)
			}
			// Deletes (and re-creates) on server A...
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
				if _, err := deleter.DeleteProvider(ctx, ns); err != nil {
					t.Errorf("DeleteProvider: %v", err)
				}
				if rand.IntN(2) == 0 {
					if _, err := deleter.PutProvider(ctx, ns, api.ResourceProvider{}); err != nil {
						t.Errorf("PutProvider: %v", err)
					}
				}
			}()
			// ...while server B creates children.
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					typ := fmt.Sprintf("t%dw%d", round, w)
					ok := func(err error) bool {
						switch {
						case err == nil:
							created.Add(1)
							return true
						case client.IsNotFound(err):
							rejected.Add(1)
							return false
						}
						t.Errorf("create under %s: %v", ns, err)
						return false
					}
					if !ok(putType(ctx, creator, ns, typ)) {
						return
					}
					ok(putVersion(ctx, creator, ns, typ))
					if ok(putType(ctx, creator, ns, typ+"/children")) {
						ok(putVersion(ctx, creator, ns, typ+"/children"))
					}
					ok(putLocation(ctx, creator, ns, fmt.Sprintf("loc%d", w)))
				}()
			}
		}
		wg.Wait()
	}
	t.Logf("child creates: %d succeeded, %d rejected with 404", created.Load(), rejected.Load())
	if created.Load() == 0 {
		t.Error("no child create succeeded: the race was not exercised")
	}
	for i, st := range stores {
		n, err := st.OrphanCount(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("store %d sees %d orphaned rows", i, n)
		}
	}
	// Every surviving child is reachable through its parents' lists.
	sums, err := creator.ProviderSummaries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := stores[0].DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM resources WHERE kind <> 1`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	var seen int
	for _, s := range sums {
		seen += 1 + len(s.Locations)
		for _, ty := range s.ResourceTypes {
			seen += 1 + len(ty.APIVersions)
		}
	}
	if seen != rows {
		t.Errorf("summaries show %d resources but the database holds %d", seen, rows)
	}
}

func putType(ctx context.Context, c *client.Client, ns, typ string) error {
	_, err := c.PutResourceType(ctx, ns, typ, api.ResourceType{Properties: api.ResourceTypeProperties{DefaultAPIVersion: "2024-01-01"}})
	return err
}

func putVersion(ctx context.Context, c *client.Client, ns, typ string) error {
	_, err := c.PutAPIVersion(ctx, ns, typ, "2024-01-01", api.APIVersion{})
	return err
}

func putLocation(ctx context.Context, c *client.Client, ns, loc string) error {
	_, err := c.PutLocation(ctx, ns, loc, api.Location{})
	return err
}
