package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/udtc/udtc/registry"
)

var batchTests = []suiteTest{
	{"BatchApplies", testBatchApplies},
	{"BatchAllOrNothing", testBatchAllOrNothing},
	{"BatchInUseFailsWhole", testBatchInUse},
	{"BatchFailureLeavesOtherWriters", testBatchOtherWriters},
}

func batcher(t *testing.T, s registry.Store) registry.Batcher {
	return optional[registry.Batcher](t, s)
}

func putOp(id registry.ID, props string) registry.BatchOp {
	return registry.BatchOp{Put: &registry.Write{Resource: registry.Resource{ID: id, Properties: json.RawMessage(props)}, Now: t0, Actor: "sync"}}
}

func deleteOp(id registry.ID) registry.BatchOp { return registry.BatchOp{Delete: id} }

// snapshot is every registration resource of ns with its ETag.
func snapshot(t *testing.T, s registry.Store, ns string) map[string]string {
	t.Helper()
	ctx := context.Background()
	out := map[string]string{}
	pid := registry.ProviderID(plane, ns)
	p, err := s.Get(ctx, pid)
	if errors.Is(err, registry.ErrNotFound) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	out[pid.String()] = p.ETag
	for _, kind := range []registry.Kind{registry.KindResourceType, registry.KindLocation} {
		pg, err := s.List(ctx, pid, kind, registry.ListOptions{Top: registry.MaxPageSize})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range pg.Items {
			out[r.ID.String()] = r.ETag + " " + string(r.Properties)
			if kind != registry.KindResourceType {
				continue
			}
			vs, err := s.List(ctx, r.ID, registry.KindAPIVersion, registry.ListOptions{Top: registry.MaxPageSize})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs.Items {
				out[v.ID.String()] = v.ETag + " " + string(v.Properties)
			}
		}
	}
	return out
}

func testBatchApplies(t *testing.T, s registry.Store) {
	b := batcher(t, s)
	seed(t, s, "Aa.Bb")
	err := b.ApplyBatch(context.Background(), []registry.BatchOp{
		putOp(registry.TypeID(plane, "Aa.Bb", "widgets"), `{"defaultApiVersion":"2025-01-01"}`),
		putOp(registry.TypeID(plane, "aa.bb", "gadgets"), `{}`),
		// A child of a resource created earlier in the same batch.
		putOp(registry.APIVersionID(plane, "Aa.Bb", "gadgets", "2025-01-01"), `{"schema":{}}`),
		putOp(registry.TypeID(plane, "Aa.Bb", "gadgets/parts"), `{}`),
		deleteOp(registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01")),
		deleteOp(registry.LocationID(plane, "Aa.Bb", "absent")), // absent: not an error
	})
	if err != nil {
		t.Fatalf("ApplyBatch: %v", err)
	}
	r, err := s.Get(context.Background(), registry.TypeID(plane, "Aa.Bb", "widgets"))
	if err != nil || string(r.Properties) != `{"defaultApiVersion":"2025-01-01"}` || r.System.LastModifiedBy != "sync" {
		t.Errorf("widgets = %s by %q, %v; want the batch's properties", r.Properties, r.System.LastModifiedBy, err)
	}
	mustExist(t, s, registry.APIVersionID(plane, "Aa.Bb", "gadgets", "2025-01-01"), true)
	mustExist(t, s, registry.TypeID(plane, "Aa.Bb", "gadgets/parts"), true)
	mustExist(t, s, registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01"), false)
	mustExist(t, s, registry.LocationID(plane, "Aa.Bb", "global"), true)
	if err := b.ApplyBatch(context.Background(), nil); err != nil {
		t.Errorf("empty ApplyBatch: %v", err)
	}
}

func testBatchAllOrNothing(t *testing.T, s registry.Store) {
	b := batcher(t, s)
	seed(t, s, "Aa.Bb")
	cur, err := s.Get(context.Background(), registry.LocationID(plane, "Aa.Bb", "global"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		last registry.BatchOp
		want error
	}{
		{"parent missing", putOp(registry.APIVersionID(plane, "Aa.Bb", "nothing", "2025-01-01"), `{}`), registry.ErrParentNotFound},
		{"precondition", registry.BatchOp{Delete: cur.ID, If: registry.Precondition{IfMatch: []string{"stale"}}}, registry.ErrPrecondition},
		{"invalid name", putOp(registry.TypeID(plane, "Aa.Bb", "no spaces"), `{}`), registry.ErrInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, s, "Aa.Bb")
			ops := []registry.BatchOp{
				putOp(registry.TypeID(plane, "Aa.Bb", "widgets"), `{"description":"changed"}`),
				putOp(registry.TypeID(plane, "Aa.Bb", "gadgets"), `{}`),
				putOp(registry.APIVersionID(plane, "Aa.Bb", "gadgets", "2025-01-01"), `{"schema":{}}`),
				deleteOp(registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01")),
				deleteOp(registry.LocationID(plane, "Aa.Bb", "global")),
				tc.last,
			}
			err := b.ApplyBatch(context.Background(), ops)
			var be *registry.BatchError
			if !errors.As(err, &be) || be.Index != len(ops)-1 || !errors.Is(err, tc.want) {
				t.Fatalf("ApplyBatch = %v; want a BatchError at %d wrapping %v", err, len(ops)-1, tc.want)
			}
			if after := snapshot(t, s, "Aa.Bb"); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("a failed batch changed the store:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

func testBatchInUse(t *testing.T, s registry.Store) {
	b := batcher(t, s)
	seedTypes(t, s)
	mustPutInstance(t, s, rgPrefix+"/widgets/w1")
	before := snapshot(t, s, "Aa.Bb")
	err := b.ApplyBatch(context.Background(), []registry.BatchOp{
		putOp(registry.TypeID(plane, "Aa.Bb", "gadgets"), `{}`),
		deleteOp(registry.LocationID(plane, "Aa.Bb", "global")),
		deleteOp(registry.TypeID(plane, "Aa.Bb", "widgets")),
	})
	var iu *registry.InUseError
	var be *registry.BatchError
	if !errors.As(err, &iu) || iu.Count != 1 || !errors.As(err, &be) || be.Index != 2 {
		t.Fatalf("ApplyBatch = %v; want an InUseError (1 resource) at write 3", err)
	}
	if after := snapshot(t, s, "Aa.Bb"); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("a refused batch changed the store:\nbefore %v\nafter  %v", before, after)
	}
	instanceExists(t, s, rgPrefix+"/widgets/w1", true)
}

// testBatchOtherWriters: a failing batch rolls back its own writes only,
// never those of writers committing at the same time (on SQLite they share
// the group commit's transaction).
func testBatchOtherWriters(t *testing.T, s registry.Store) {
	b := batcher(t, s)
	seed(t, s, "Aa.Bb")
	seed(t, s, "Cc.Dd")
	ctx := context.Background()
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			if i%2 == 0 {
				_, _, errs[i] = s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.TypeID(plane, "Cc.Dd", fmt.Sprintf("t%d", i)), Properties: json.RawMessage(`{}`)}, Now: t0})
				return
			}
			err := b.ApplyBatch(ctx, []registry.BatchOp{
				putOp(registry.TypeID(plane, "Aa.Bb", fmt.Sprintf("t%d", i)), `{}`),
				putOp(registry.APIVersionID(plane, "Aa.Bb", "missing", "2025-01-01"), `{}`),
			})
			if !errors.Is(err, registry.ErrParentNotFound) {
				errs[i] = fmt.Errorf("batch %d = %v, want ErrParentNotFound", i, err)
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
		mustExist(t, s, registry.TypeID(plane, "Cc.Dd", fmt.Sprintf("t%d", i)), i%2 == 0)
		mustExist(t, s, registry.TypeID(plane, "Aa.Bb", fmt.Sprintf("t%d", i)), false)
	}
}
