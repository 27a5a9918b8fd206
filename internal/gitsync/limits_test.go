package gitsync_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/gitsync"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

// A commit past the sync's limits (too many manifest files, or too many
// bytes of them, counted per path: many paths naming one large blob) is
// refused before any is compiled; the applied commit stays in force.
func TestSyncLimits(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		limits gitsync.Limits
		files  int
		want   string
	}{
		{"bytes", gitsync.Limits{MaxBytes: 1 << 20}, 40, "hold more than 1048576 bytes"},
		{"files", gitsync.Limits{MaxFiles: 30}, 40, "manifests holds 41 manifest files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newSyncFixture(t)
			good := f.commit(map[string]string{"data.yaml": syncData})
			f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: true, Limits: tc.limits})
			f.once(ctx)
			// One 100 KB manifest under 40 names: one blob of the commit.
			var big strings.Builder
			big.WriteString("namespace: Contoso.Big\ntypes:\n  things:\n    description: |\n")
			for big.Len() < 100<<10 {
				big.WriteString("      padding padding padding padding padding padding padding\n")
			}
			big.WriteString("    apiVersions:\n      '2025-01-01':\n        schema: {type: object}\n")
			files := map[string]string{"data.yaml": syncData}
			for i := range tc.files {
				files[fmt.Sprintf("big%02d.yaml", i)] = big.String()
			}
			bomb := f.commit(files)
			f.writes.Store(0)
			f.once(ctx)
			st := f.status()
			if st.State != "refused" || st.LastAppliedCommit != good || st.Refused == nil || st.Refused.Commit != bomb || len(st.Refused.Diagnostics) != 1 {
				t.Fatalf("after a commit past the limits: %+v", st)
			}
			d := st.Refused.Diagnostics[0]
			if d.Rule != "sync-limits" || d.File != "manifests" || !strings.Contains(d.Message, tc.want) || !strings.Contains(d.Message, "--sync-max-bytes") {
				t.Errorf("diagnostic: %+v", d)
			}
			if n := f.writes.Load(); n != 0 {
				t.Errorf("%d writes for a refused commit", n)
			}
			if _, err := f.reg.ProviderSummary(ctx, "Contoso.Big"); !client.IsNotFound(err) {
				t.Errorf("Contoso.Big: %v, want 404", err)
			}
			var ready map[string]string
			f.getJSON("/readyz", http.StatusOK, &ready)
			if !strings.Contains(ready["sync"], "refused commit "+bomb[:12]) {
				t.Errorf("/readyz: %v", ready)
			}
		})
	}
	// Within the limits the same commit is applied.
	f := newSyncFixture(t)
	f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Limits: gitsync.Limits{MaxFiles: 2, MaxBytes: int64(len(syncData) + len(syncNet))}})
	f.once(ctx)
	if st := f.status(); st.State != "synced" {
		t.Errorf("a commit at the limits: %+v", st)
	}
}

// Credentials in the --sync URL are never shown: not in /sync/status,
// /readyz, 409 messages, systemData.lastModifiedBy or the log.
func TestSyncNeverShowsCredentials(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	f.spec = "file://ci:s3cret-token@localhost" + f.dir
	f.commit(map[string]string{"data.yaml": syncData})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: true})
	f.once(ctx)
	shown := "file://localhost" + f.dir
	st := f.status()
	if st.State != "synced" || st.Repository != shown {
		t.Fatalf("status: %+v", st)
	}
	var seen []string
	var ready map[string]string
	f.getJSON("/readyz", http.StatusOK, &ready)
	seen = append(seen, fmt.Sprint(ready))
	_, err := f.reg.PutResourceType(ctx, "Contoso.Data", "queues", api.ResourceType{})
	if client.StatusCode(err) != http.StatusConflict || !strings.Contains(err.Error(), shown) {
		t.Errorf("PUT into a synced namespace: %v", err)
	}
	seen = append(seen, err.Error())
	typ, err := f.reg.GetResourceType(ctx, "Contoso.Data", "databases")
	if err != nil || typ.SystemData.LastModifiedBy != "git-sync "+shown {
		t.Errorf("databases: %+v, %v", typ.SystemData, err)
	}
	seen = append(seen, typ.SystemData.LastModifiedBy, typ.SystemData.CreatedBy, f.log.String())
	for _, s := range seen {
		if strings.Contains(s, "s3cret") || strings.Contains(s, "ci:") {
			t.Errorf("credentials shown: %s", s)
		}
	}
	resp, err := http.Get(f.ts.URL + "/sync/status")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if b, _ := io.ReadAll(resp.Body); strings.Contains(string(b), "s3cret") {
		t.Errorf("/sync/status shows the credentials: %s", b)
	}
}
