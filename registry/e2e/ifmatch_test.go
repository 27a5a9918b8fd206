package e2e_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// TestIfMatchOneWinnerAcrossTwoServers: 20 concurrent PUTs carrying one
// ETag, sent alternately to two servers on one database, for a resource
// type, a resource group and a resource, on both stores. Exactly one is
// answered 200 and the others 412, every round. On PostgreSQL two or more
// used to win most rounds: the ETag was read with a plain SELECT under
// READ COMMITTED and the UPDATE did not recheck it.
func TestIfMatchOneWinnerAcrossTwoServers(t *testing.T) {
	openers := []struct {
		name string
		db   func(t *testing.T) func() registry.Store
	}{
		{"sqlite", func(t *testing.T) func() registry.Store {
			path := filepath.Join(t.TempDir(), "registry.db")
			return func() registry.Store {
				s, err := sqlite.Open(context.Background(), path)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}},
		{"postgres", func(t *testing.T) func() registry.Store {
			dsn := pg.NewDatabase(t)
			return func() registry.Store {
				s, err := postgres.Open(context.Background(), dsn)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
		}},
	}
	for _, o := range openers {
		t.Run(o.name, func(t *testing.T) {
			open := o.db(t)
			var hs [2]httpc
			for i := range hs {
				st := open()
				t.Cleanup(func() { st.Close() })
				srv, err := server.New(context.Background(), server.Options{Store: st, Secrets: testSealer(t)})
				if err != nil {
					t.Fatal(err)
				}
				ts := httptest.NewServer(srv)
				t.Cleanup(ts.Close)
				hs[i] = httpc{t, ts.URL}
			}
			h := hs[0]
			typ := rpPath + "Race.Test/resourceTypes/widgets" + regVersion
			h.must(201, "PUT", rpPath+"Race.Test"+regVersion, `{}`)
			h.must(201, "PUT", typ, `{}`)
			h.must(201, "PUT", rpPath+"Race.Test/resourceTypes/widgets/apiVersions/2025-01-01"+regVersion, `{"properties":{"schema":{}}}`)
			h.must(201, "PUT", rpPath+"Race.Test/locations/global"+regVersion, `{"properties":{"resourceTypes":{"widgets":{"apiVersions":{"2025-01-01":{}}}}}}`)
			group := "/planes/radius/local/resourceGroups/rg" + regVersion
			h.must(201, "PUT", group, `{"location":"global"}`)
			res := "/planes/radius/local/resourceGroups/rg/providers/Race.Test/widgets/w?api-version=2025-01-01"
			h.must(201, "PUT", res, `{"properties":{"size":"S"}}`)
			targets := []struct {
				what, path string
				body       func(i int) string
			}{
				{"resource type", typ, func(i int) string {
					return fmt.Sprintf(`{"properties":{"description":"writer %d","defaultApiVersion":"2025-01-01"}}`, i)
				}},
				{"resource group", group, func(i int) string { return fmt.Sprintf(`{"location":"global","tags":{"w":"%d"}}`, i) }},
				{"resource", res, func(i int) string { return fmt.Sprintf(`{"properties":{"size":"S","label":"w%d"}}`, i) }},
			}
			for _, tg := range targets {
				for round := range 5 {
					etag := hs[1].must(200, "GET", tg.path, "").header.Get("ETag")
					var (
						wg    sync.WaitGroup
						start = make(chan struct{})
						codes [20]int
					)
					for i := range codes {
						wg.Add(1)
						go func() {
							defer wg.Done()
							<-start
							// Every body of every round differs from what is
							// stored: a PUT of the stored body changes nothing
							// and is not a write (see TestUnchangedPutKeepsETag).
							codes[i] = hs[i%2].do("PUT", tg.path, tg.body(round*len(codes)+i), "If-Match: "+etag).status
						}()
					}
					close(start)
					wg.Wait()
					won := 0
					for i, c := range codes {
						switch c {
						case 200:
							won++
						case 412:
						default:
							t.Errorf("%s round %d: writer %d got %d, want 200 or 412", tg.what, round, i, c)
						}
					}
					if won != 1 {
						t.Fatalf("%s round %d: %d of %d PUTs with one ETag answered 200, want 1 (%v)", tg.what, round, won, len(codes), codes)
					}
				}
			}
		})
	}
}
