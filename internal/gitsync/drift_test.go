package gitsync_test

import (
	"context"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/udtc/udtc/internal/gitsync"
	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
	"github.com/udtc/udtc/schema"
)

// driftBehindTheSync changes the registry behind the sync's back, as a
// write that slipped past the guard or a change in the database would:
// the caches type is deleted, databases' schema changed, and a type the
// commit does not declare added.
func driftBehindTheSync(t *testing.T, f *syncFixture) {
	t.Helper()
	ctx := context.Background()
	svc := f.srv.Service()
	if _, err := svc.DeleteRegistration(ctx, registry.TypeID(api.DefaultPlane, "Contoso.Data", "caches"), registry.Precondition{}, false); err != nil {
		t.Fatal(err)
	}
	// The sync registers schemas with Radius's base properties merged:
	// the drift is in size alone.
	changed, err := schema.MergeBaseJSON([]byte(`{"type":"object","properties":{"size":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	env, err := service.DecodeEnvelope([]byte(`{"properties":{"schema":` + string(changed) + `}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.PutRegistration(ctx, service.RegistrationWrite{ID: registry.APIVersionID(api.DefaultPlane, "Contoso.Data", "databases", "2025-01-01"), Body: env}); err != nil {
		t.Fatal(err)
	}
	env, _ = service.DecodeEnvelope([]byte(`{"properties":{}}`))
	if _, _, err := svc.PutRegistration(ctx, service.RegistrationWrite{ID: registry.TypeID(api.DefaultPlane, "Contoso.Net", "extras"), Body: env}); err != nil {
		t.Fatal(err)
	}
}

var wantDrift = []api.SyncDriftChange{
	{Drift: "modified", Kind: api.KindAPIVersion, Namespace: "Contoso.Data", Type: "databases", APIVersion: "2025-01-01", Fields: []string{"size.enum"}},
	{Drift: "missing", Kind: api.KindResourceType, Namespace: "Contoso.Data", Type: "caches"},
	{Drift: "missing", Kind: api.KindAPIVersion, Namespace: "Contoso.Data", Type: "caches", APIVersion: "2025-01-01"},
	{Drift: "unexpected", Kind: api.KindResourceType, Namespace: "Contoso.Net", Type: "extras"},
}

// sortDrift orders drift changes for comparison.
func sortDrift(c []api.SyncDriftChange) []api.SyncDriftChange {
	key := func(d api.SyncDriftChange) string {
		return d.Namespace + "/" + d.Type + "@" + d.APIVersion + " " + d.Location + " " + d.Drift
	}
	out := slices.Clone(c)
	slices.SortFunc(out, func(a, b api.SyncDriftChange) int { return strings.Compare(key(a), key(b)) })
	return out
}

// Each interval the registry is compared with the applied commit, not only
// when a new commit comes: drift is reported and healed.
func TestSyncHealsDrift(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	good := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: true})
	f.once(ctx)
	driftBehindTheSync(t, f)

	f.once(ctx) // the same commit: compared, healed
	st := f.status()
	if st.State != "synced" || st.Drift == nil || !st.Drift.Healed || st.Drift.Commit != good || st.Drift.DetectedAt.IsZero() {
		t.Fatalf("after healing: %+v", st)
	}
	if diff := cmp.Diff(sortDrift(wantDrift), sortDrift(st.Drift.Changes), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("drift (-want +got):\n%s", diff)
	}
	if got := strings.Join(f.types("Contoso.Data"), ","); got != "caches,databases" {
		t.Errorf("Contoso.Data types after healing: %s", got)
	}
	if got := strings.Join(f.types("Contoso.Net"), ","); got != "gateways" {
		t.Errorf("Contoso.Net types after healing: %s", got)
	}
	v, err := f.reg.GetAPIVersion(ctx, "Contoso.Data", "databases", "2025-01-01")
	if err != nil || !strings.Contains(string(v.Properties.Schema), `"enum"`) || v.SystemData.LastModifiedBy != gitsync.Actor(f.dir) {
		t.Errorf("databases after healing: %s %+v, %v", v.Properties.Schema, v.SystemData, err)
	}
	if !strings.Contains(f.log.String(), "sync healed drift") {
		t.Errorf("the log does not say drift was healed:\n%s", f.log)
	}

	// Healed: the next interval writes nothing and keeps the last drift.
	f.writes.Store(0)
	f.once(ctx)
	if st2 := f.status(); f.writes.Load() != 0 || st2.State != "synced" || st2.Drift == nil || !st2.Drift.DetectedAt.Equal(st.Drift.DetectedAt) {
		t.Errorf("the interval after healing: %d writes, %+v", f.writes.Load(), st2)
	}
}

// With --sync-heal=false drift is reported every interval, not healed.
func TestSyncReportsDriftWithoutHealing(t *testing.T) {
	ctx := context.Background()
	f := newSyncFixture(t)
	good := f.commit(map[string]string{"data.yaml": syncData, "net.yaml": syncNet})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{Heal: false})
	f.once(ctx)
	if st := f.status(); st.State != "synced" || st.Heal {
		t.Fatalf("after the first sync: %+v", st)
	}
	driftBehindTheSync(t, f)
	f.writes.Store(0)
	f.once(ctx)
	st := f.status()
	if st.State != "drifted" || st.Drift == nil || st.Drift.Healed || st.Drift.Commit != good || st.LastAppliedCommit != good {
		t.Fatalf("after drift: %+v", st)
	}
	if diff := cmp.Diff(sortDrift(wantDrift), sortDrift(st.Drift.Changes), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("drift (-want +got):\n%s", diff)
	}
	if n := f.writes.Load(); n != 0 {
		t.Errorf("%d writes without healing", n)
	}
	if got := strings.Join(f.types("Contoso.Data"), ","); got != "databases" {
		t.Errorf("Contoso.Data types were healed: %s", got)
	}
	var ready map[string]string
	f.getJSON("/readyz", http.StatusOK, &ready)
	if !strings.Contains(ready["sync"], "drifted: 4 registrations differ from commit "+good[:12]) {
		t.Errorf("/readyz: %v", ready)
	}
	// The next interval reports the same drift, found at the same time.
	f.clock.Advance(90 * time.Second)
	f.once(ctx)
	if st2 := f.status(); st2.State != "drifted" || st2.Drift == nil || !st2.Drift.DetectedAt.Equal(st.Drift.DetectedAt) || !st2.CheckedAt.After(st.CheckedAt) {
		t.Errorf("the next interval: %+v", st2)
	}
	// Undone by hand: synced again, nothing to report.
	// The type is put back by hand with a default version its manifest
	// does not declare.
	env, _ := service.DecodeEnvelope([]byte(`{"properties":{"defaultApiVersion":"2025-01-01"}}`))
	if _, _, err := f.srv.Service().PutRegistration(ctx, service.RegistrationWrite{ID: registry.TypeID(api.DefaultPlane, "Contoso.Data", "caches"), Body: env}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.srv.Service().DeleteRegistration(ctx, registry.TypeID(api.DefaultPlane, "Contoso.Net", "extras"), registry.Precondition{}, false); err != nil {
		t.Fatal(err)
	}
	f.once(ctx)
	// The type is back with another default version, its version is not.
	want := []api.SyncDriftChange{
		{Drift: "modified", Kind: api.KindAPIVersion, Namespace: "Contoso.Data", Type: "databases", APIVersion: "2025-01-01", Fields: []string{"size.enum"}},
		{Drift: "modified", Kind: api.KindResourceType, Namespace: "Contoso.Data", Type: "caches", Fields: []string{"defaultApiVersion"}},
		{Drift: "missing", Kind: api.KindAPIVersion, Namespace: "Contoso.Data", Type: "caches", APIVersion: "2025-01-01"},
	}
	st3 := f.status()
	if st3.State != "drifted" || st3.Drift == nil || !st3.Drift.DetectedAt.After(st.Drift.DetectedAt) {
		t.Fatalf("with part of the drift undone: %+v", st3)
	}
	if diff := cmp.Diff(sortDrift(want), sortDrift(st3.Drift.Changes), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("drift with part of it undone (-want +got):\n%s", diff)
	}
}
