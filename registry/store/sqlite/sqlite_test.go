package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/store/internal/sqlstore"
	"github.com/udtc/udtc/registry/store/sqlite"
	"github.com/udtc/udtc/registry/store/storetest"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Opener {
		path := filepath.Join(t.TempDir(), "registry.db")
		return func(t *testing.T) registry.Store { return open(t, path) }
	})
}

func TestReopenKeepsDataAndIntegrity(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub", "registry.db")
	s := open(t, path)
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.PlaneID("local")}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.ProviderID("local", "Aa.Bb")}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path) // migrations are idempotent
	defer s.Close()
	if _, err := s.Get(ctx, registry.ProviderID("local", "aa.bb")); err != nil {
		t.Errorf("after reopen: %v", err)
	}
	if err := s.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	if n, err := s.OrphanCount(ctx); err != nil || n != 0 {
		t.Errorf("OrphanCount = %d, %v", n, err)
	}
	// The foreign keys are enforced by the database itself.
	if _, err := s.DB().ExecContext(ctx, `INSERT INTO resources (parent_id, kind, plane_key, provider_key, type_key, name_key, plane, provider, type, name, location, tags, properties, etag, created_at, created_by, modified_at, modified_by)
		VALUES (99999, 3, 'local', 'x.y', 'z', 'z', 'local', 'X.Y', 'z', 'z', '', '', '{}', 'e', '', '', '', '')`); err == nil {
		t.Error("inserting a row with a missing parent succeeded; foreign keys are off")
	}
}

// TestFrozenHolder: a lease holder frozen inside its sync transaction
// keeps SQLite's write lock; the other process's writes fail with
// registry.ErrBusy after the busy timeout, and the holder's late commit
// is refused.
func TestFrozenHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "registry.db")
	storetest.FrozenHolder(t, func(t *testing.T) registry.Store { return open(t, path) },
		func(s registry.Store, hook func()) { sqlstore.SetSyncTxHook(s.(*sqlite.Store).Store, hook) }, false)
}
