package e2e_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// lockedBuffer collects a server's log lines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestSecretsNeverInClear: on each store, the sensitive values of a
// resource (x-radius-sensitive, fixture valid_secrets) reach no log line,
// no response but listSecrets, and the database only encrypted; refused
// PUTs holding sensitive values do not echo them either.
func TestSecretsNeverInClear(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			ctx := context.Background()
			var (
				st      registry.Store
				rawScan func() string // the database's content, as bytes on disk or as text
			)
			switch kind {
			case "sqlite":
				dir := t.TempDir()
				s, err := sqlite.Open(ctx, filepath.Join(dir, "registry.db"))
				if err != nil {
					t.Fatal(err)
				}
				st = s
				rawScan = func() string {
					// The database file, its WAL and shared memory: every byte.
					var all []byte
					files, _ := filepath.Glob(filepath.Join(dir, "*"))
					for _, f := range files {
						b, err := os.ReadFile(f)
						if err != nil {
							t.Fatal(err)
						}
						all = append(all, b...)
					}
					if len(all) == 0 {
						t.Fatal("no database files to scan")
					}
					return string(all)
				}
			case "postgres":
				s, err := postgres.Open(ctx, pg.NewDatabase(t))
				if err != nil {
					t.Fatal(err)
				}
				st = s
				rawScan = func() string {
					var text sql.NullString
					if err := s.DB().QueryRowContext(ctx, `SELECT string_agg(t::text, ' ') FROM instances t`).Scan(&text); err != nil {
						t.Fatal(err)
					}
					if !text.Valid || text.String == "" {
						t.Fatal("no instance rows to scan")
					}
					return text.String
				}
			}
			defer st.Close()
			var logs lockedBuffer
			srv, err := server.New(ctx, server.Options{Store: st, Secrets: testSealer(t),
				Logger: slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			h := httpc{t, ts.URL}
			registerGolden(h, "valid_secrets")
			const (
				rg     = "/planes/radius/local/resourceGroups/rg"
				vaults = rg + "/providers/Contoso.Security/vaults"
				v      = "?api-version=2025-01-01"
			)
			h.must(201, "PUT", rg+regVersion, `{}`)
			secretValues := []string{"Adm1n-P4ssw0rd-zq", "k3y-VALUE-one-zq", "sh0rt-zq", "unkn0wn-VALUE-zq"}
			var bodies []string
			r := h.must(201, "PUT", vaults+"/v1"+v, `{"properties":{"environment":"e","adminPassword":"Adm1n-P4ssw0rd-zq","keys":{"one":"k3y-VALUE-one-zq"},"owner":"team-a"}}`)
			bodies = append(bodies, string(r.body))
			want := map[string]any{"environment": "e", "adminPassword": nil, "keys": nil, "owner": "team-a", "provisioningState": "Succeeded"}
			if diff := cmp.Diff(want, properties(t, r.body)); diff != "" {
				t.Errorf("PUT response properties (-want +got):\n%s", diff)
			}
			r = h.must(200, "GET", vaults+"/v1"+v, "")
			bodies = append(bodies, string(r.body))
			if diff := cmp.Diff(want, properties(t, r.body)); diff != "" {
				t.Errorf("GET properties (-want +got):\n%s", diff)
			}
			r = h.must(200, "GET", vaults+v, "")
			bodies = append(bodies, string(r.body))
			if !strings.Contains(string(r.body), `"adminPassword":null`) {
				t.Errorf("LIST does not show adminPassword as null: %s", r.body)
			}
			// Refused PUTs: a too short password, an unknown sibling, a
			// map value of the wrong type, malformed JSON.
			for _, body := range []string{
				`{"properties":{"adminPassword":"sh0rt-zq"}}`,
				`{"properties":{"adminPassword":"Adm1n-P4ssw0rd-zq","bogus":"unkn0wn-VALUE-zq"}}`,
				`{"properties":{"adminPassword":"Adm1n-P4ssw0rd-zq","keys":{"one":5,"two":"k3y-VALUE-one-zq"},"owner":7}}`,
				`{"properties":{"adminPassword":"Adm1n-P4ssw0rd-zq",}}`,
			} {
				r := h.do("PUT", vaults+"/v2"+v, body)
				if r.status != 400 {
					t.Errorf("PUT %s = %d %s, want 400", body, r.status, r.body)
				}
				bodies = append(bodies, string(r.body))
			}
			// listSecrets is the one place they come back.
			r = h.must(200, "POST", vaults+"/v1/listSecrets"+v, "")
			var got map[string]any
			if err := json.Unmarshal(r.body, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(map[string]any{"adminPassword": "Adm1n-P4ssw0rd-zq", "keys": map[string]any{"one": "k3y-VALUE-one-zq"}}, got); diff != "" {
				t.Errorf("listSecrets (-want +got):\n%s", diff)
			}
			h.must(404, "POST", vaults+"/nope/listSecrets"+v, "")

			for _, b := range bodies {
				for _, s := range secretValues {
					if strings.Contains(b, s) {
						t.Errorf("a response holds the sensitive value %q: %s", s, b)
					}
				}
			}
			if !strings.Contains(logs.String(), "/listSecrets") {
				t.Fatalf("the log holds no request lines: %s", logs.String())
			}
			db := rawScan()
			if !strings.Contains(db, "team-a") {
				t.Fatal("the database scan does not see the resource's public values: the scan is blind")
			}
			for _, s := range secretValues {
				if strings.Contains(logs.String(), s) {
					t.Errorf("the log holds the sensitive value %q", s)
				}
				// bytea reads back as hex text on PostgreSQL: look for both.
				if strings.Contains(db, s) || strings.Contains(db, hex.EncodeToString([]byte(s))) {
					t.Errorf("the database holds the sensitive value %q in clear text", s)
				}
			}
		})
	}
}
