// Package storetest is the conformance suite every registry.Store runs:
// lookups, casing, preconditions, the nested lifecycle (404 parents,
// cascading deletes that touch only descendants), paging and summaries; and
// for resource groups and resources of user-defined types, owners, cascades,
// lists and refused or forced unregistering (instances.go).
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// suiteTest is one test of the suite, run on a fresh store.
type suiteTest struct {
	name string
	fn   func(t *testing.T, s registry.Store)
}

// sharedTest is a test of two stores on one fresh database, as two server
// processes sharing it would be.
type sharedTest struct {
	name string
	fn   func(t *testing.T, a, b registry.Store)
}

// Opener opens a store on one database. Each call returns a store of its
// own (its own connections and, where the store has one, its own write
// queue), as a separate process would have.
type Opener func(t *testing.T) registry.Store

// Run runs the suite. newDatabase makes a fresh, empty database and returns
// how to open stores on it; Run closes the stores it opens.
func Run(t *testing.T, newDatabase func(t *testing.T) Opener) {
	newStore := func(t *testing.T) registry.Store {
		s := newDatabase(t)(t)
		t.Cleanup(func() { s.Close() })
		return s
	}
	tests := []suiteTest{
		{"PlanesAndCasing", testPlanesAndCasing},
		{"ParentMustExist", testParentMustExist},
		{"ChildTypes", testChildTypes},
		{"UpdateKeepsCreation", testUpdateKeepsCreation},
		{"UnchangedPutWritesNothing", testUnchangedPut},
		{"Preconditions", testPreconditions},
		{"DeleteCascadesOnlyDescendants", testDeleteCascade},
		{"ListPaging", testListPaging},
		{"Summaries", testSummaries},
		{"ConcurrentDeleteAndCreate", testConcurrentDeleteAndCreate},
	}
	tests = append(tests, instanceTests...)
	tests = append(tests, batchTests...)
	tests = append(tests, syncTests...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
	for _, tc := range slices.Concat(sharedTests, syncSharedTests) {
		t.Run(tc.name, func(t *testing.T) {
			open := newDatabase(t)
			a, b := open(t), open(t)
			t.Cleanup(func() { a.Close(); b.Close() })
			tc.fn(t, a, b)
		})
	}
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

const plane = "local"

func put(t *testing.T, s registry.Store, id registry.ID, props string) registry.Resource {
	t.Helper()
	r, _, err := s.Put(context.Background(), registry.Write{Resource: registry.Resource{ID: id, Properties: json.RawMessage(props)}, Now: t0})
	if err != nil {
		t.Fatalf("Put(%s): %v", id, err)
	}
	return r
}

func mustExist(t *testing.T, s registry.Store, id registry.ID, want bool) {
	t.Helper()
	_, err := s.Get(context.Background(), id)
	switch {
	case want && err != nil:
		t.Errorf("Get(%s) = %v, want it to exist", id, err)
	case !want && !errors.Is(err, registry.ErrNotFound):
		t.Errorf("Get(%s) = %v, want ErrNotFound", id, err)
	}
}

// seed creates plane local and provider ns with type t, version v and
// location global.
func seed(t *testing.T, s registry.Store, ns string) {
	t.Helper()
	put(t, s, registry.PlaneID(plane), `{}`)
	put(t, s, registry.ProviderID(plane, ns), `{}`)
	put(t, s, registry.TypeID(plane, ns, "widgets"), `{"defaultApiVersion":"2024-01-01"}`)
	put(t, s, registry.APIVersionID(plane, ns, "widgets", "2024-01-01"), `{"schema":{"type":"object"}}`)
	put(t, s, registry.LocationID(plane, ns, "global"), `{"address":"http://x"}`)
}

func testPlanesAndCasing(t *testing.T, s registry.Store) {
	ctx := context.Background()
	r, created, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.PlaneID("Local"), Location: "global", Tags: map[string]string{"a": "b"}, Properties: json.RawMessage(`{}`)}, Now: t0, Actor: "alice"})
	if err != nil || !created {
		t.Fatalf("Put plane = %v, created %v", err, created)
	}
	if r.ETag == "" || r.System.CreatedBy != "alice" || !r.System.CreatedAt.Equal(t0) {
		t.Errorf("Put plane returned %+v", r)
	}
	put(t, s, registry.ProviderID("LOCAL", "Contoso.Platform"), `{}`)
	got, err := s.Get(ctx, registry.ProviderID("local", "contoso.platform"))
	if err != nil {
		t.Fatal(err)
	}
	want := registry.ProviderID("Local", "Contoso.Platform")
	if got.ID != want {
		t.Errorf("stored ID = %+v, want %+v (names keep their creation casing)", got.ID, want)
	}
	// An update with other casing keeps the original casing.
	put(t, s, registry.ProviderID("local", "CONTOSO.PLATFORM"), `{}`)
	got, _ = s.Get(ctx, registry.ProviderID("local", "contoso.platform"))
	if got.ID != want {
		t.Errorf("after update stored ID = %+v, want %+v", got.ID, want)
	}
	pg, err := s.List(ctx, registry.ID{}, api.KindPlane, registry.ListOptions{})
	if err != nil || len(pg.Items) != 1 || pg.Items[0].ID.Plane != "Local" || pg.Items[0].Tags["a"] != "b" || pg.Items[0].Location != "global" {
		t.Errorf("List planes = %+v, %v", pg, err)
	}
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.ProviderID(plane, "bad name")}, Now: t0}); !errors.Is(err, registry.ErrInvalid) {
		t.Errorf("Put with invalid name = %v, want ErrInvalid", err)
	}
}

func testParentMustExist(t *testing.T, s registry.Store) {
	ctx := context.Background()
	w := func(id registry.ID) error {
		_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id, Properties: json.RawMessage(`{}`)}, Now: t0})
		return err
	}
	if err := w(registry.ProviderID("nope", "Aa.Bb")); !errors.Is(err, registry.ErrParentNotFound) {
		t.Errorf("provider without plane: %v", err)
	}
	put(t, s, registry.PlaneID(plane), `{}`)
	for _, id := range []registry.ID{
		registry.TypeID(plane, "Aa.Bb", "widgets"),
		registry.LocationID(plane, "Aa.Bb", "global"),
		registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01"),
	} {
		if err := w(id); !errors.Is(err, registry.ErrParentNotFound) {
			t.Errorf("Put(%s) without parent = %v, want ErrParentNotFound", id, err)
		}
	}
	put(t, s, registry.ProviderID(plane, "Aa.Bb"), `{}`)
	if err := w(registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01")); !errors.Is(err, registry.ErrParentNotFound) {
		t.Errorf("version without type = %v, want ErrParentNotFound", err)
	}
	if _, err := s.List(ctx, registry.TypeID(plane, "Aa.Bb", "widgets"), api.KindAPIVersion, registry.ListOptions{}); !errors.Is(err, registry.ErrParentNotFound) {
		t.Errorf("List under missing type = %v, want ErrParentNotFound", err)
	}
	mustExist(t, s, registry.TypeID(plane, "Aa.Bb", "widgets"), false)
	if deleted, err := s.Delete(ctx, registry.TypeID(plane, "Xx.Yy", "widgets"), registry.Precondition{}); deleted || err != nil {
		t.Errorf("Delete of absent = %v, %v; want false, nil", deleted, err)
	}
}

func testChildTypes(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seed(t, s, "Contoso.Platform")
	child := registry.TypeID(plane, "contoso.platform", "WIDGETS/Queues")
	put(t, s, child, `{}`)
	got, err := s.Get(ctx, registry.TypeID(plane, "Contoso.Platform", "widgets/queues"))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID.Type != "widgets/Queues" || got.ID.Provider != "Contoso.Platform" {
		t.Errorf("child type stored as %+v, want widgets/Queues under Contoso.Platform", got.ID)
	}
	if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.TypeID(plane, "Contoso.Platform", "gadgets/queues")}, Now: t0}); !errors.Is(err, registry.ErrParentNotFound) {
		t.Errorf("child type without parent type = %v, want ErrParentNotFound", err)
	}
	put(t, s, registry.APIVersionID(plane, "Contoso.Platform", "widgets/queues", "2024-01-01"), `{"schema":{}}`)
	// Deleting the parent type deletes its child types and their versions.
	if deleted, err := s.Delete(ctx, registry.TypeID(plane, "Contoso.Platform", "Widgets"), registry.Precondition{}); !deleted || err != nil {
		t.Fatalf("Delete type = %v, %v", deleted, err)
	}
	mustExist(t, s, child, false)
	mustExist(t, s, registry.APIVersionID(plane, "Contoso.Platform", "widgets/queues", "2024-01-01"), false)
	mustExist(t, s, registry.LocationID(plane, "Contoso.Platform", "global"), true)
}

func testUpdateKeepsCreation(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seed(t, s, "Aa.Bb")
	id := registry.TypeID(plane, "Aa.Bb", "widgets")
	before, _ := s.Get(ctx, id)
	t1 := t0.Add(time.Hour)
	r, created, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id, Properties: json.RawMessage(`{"description":"d"}`)}, Now: t1, Actor: "bob"})
	if err != nil || created {
		t.Fatalf("update = %v, created %v", err, created)
	}
	if !r.System.CreatedAt.Equal(t0) || !r.System.LastModifiedAt.Equal(t1) || r.System.LastModifiedBy != "bob" {
		t.Errorf("system data after update = %+v", r.System)
	}
	if r.ETag == before.ETag {
		t.Error("ETag did not change on update")
	}
	got, _ := s.Get(ctx, id)
	if diff := cmp.Diff(r, got); diff != "" {
		t.Errorf("Get after Put (-put +get):\n%s", diff)
	}
	if string(got.Properties) != `{"description":"d"}` {
		t.Errorf("properties = %s", got.Properties)
	}
}

// testUnchangedPut: a Put, or a Put of a batch, that would store nothing
// new answers the stored registration and writes nothing; one that
// changes anything, or by another caller, or whose condition fails, is
// what it always was.
func testUnchangedPut(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seed(t, s, "Aa.Bb")
	id := registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01")
	write := func(tags map[string]string, actor string, cond registry.Precondition) registry.Write {
		return registry.Write{Resource: registry.Resource{ID: id, Tags: tags, Properties: json.RawMessage(`{"schema":{"type":"object","title":"w"}}`)},
			If: cond, Now: t0.Add(time.Hour), Actor: actor}
	}
	first, _, err := s.Put(ctx, write(map[string]string{"a": "b"}, "bob", registry.Precondition{}))
	if err != nil {
		t.Fatal(err)
	}
	later := func(w registry.Write) registry.Write { w.Now = w.Now.Add(time.Hour); return w }
	for _, c := range []struct {
		what string
		w    registry.Write
		err  error
		same bool
	}{
		{"the same Put", later(write(map[string]string{"a": "b"}, "bob", registry.Precondition{})), nil, true},
		{"under If-Match of its ETag", later(write(map[string]string{"a": "b"}, "bob", registry.Precondition{IfMatch: []string{first.ETag}})), nil, true},
		{"under If-Match: *", later(write(map[string]string{"a": "b"}, "bob", registry.Precondition{IfMatch: []string{"*"}})), nil, true},
		{"under a stale If-Match", write(map[string]string{"a": "b"}, "bob", registry.Precondition{IfMatch: []string{"stale"}}), registry.ErrPrecondition, false},
		{"under If-None-Match: *", write(map[string]string{"a": "b"}, "bob", registry.Precondition{IfNoneMatch: []string{"*"}}), registry.ErrPrecondition, false},
	} {
		r, created, err := s.Put(ctx, c.w)
		if !errors.Is(err, c.err) || created {
			t.Fatalf("%s: err %v, created %v; want %v", c.what, err, created, c.err)
		}
		if c.same {
			if diff := cmp.Diff(first, r); diff != "" {
				t.Errorf("%s answered (-stored +answered):\n%s", c.what, diff)
			}
		}
	}
	if err := batcher(t, s).ApplyBatch(ctx, []registry.BatchOp{{Put: ptr(later(write(map[string]string{"a": "b"}, "bob", registry.Precondition{})))}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx, id); !cmp.Equal(got, first) {
		t.Errorf("after the unchanged Puts, stored %+v, want %+v", got, first)
	}
	for _, c := range []struct {
		what string
		w    registry.Write
	}{
		{"by another caller", write(map[string]string{"a": "b"}, "carol", registry.Precondition{})},
		{"with other tags", write(map[string]string{"a": "c"}, "carol", registry.Precondition{})},
	} {
		before, _ := s.Get(ctx, id)
		r, _, err := s.Put(ctx, c.w)
		if err != nil || r.ETag == before.ETag {
			t.Errorf("%s: err %v, ETag %s before and after: want a write", c.what, err, r.ETag)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func testPreconditions(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seed(t, s, "Aa.Bb")
	id := registry.TypeID(plane, "Aa.Bb", "widgets")
	cur, _ := s.Get(ctx, id)
	newID := registry.TypeID(plane, "Aa.Bb", "gadgets")
	cases := []struct {
		id   registry.ID
		cond registry.Precondition
		ok   bool
	}{
		{id, registry.Precondition{IfMatch: []string{"nope"}}, false},
		{id, registry.Precondition{IfNoneMatch: []string{"*"}}, false},
		{newID, registry.Precondition{IfMatch: []string{"*"}}, false},
		{newID, registry.Precondition{IfMatch: []string{cur.ETag}}, false},
		{id, registry.Precondition{IfMatch: []string{"other", cur.ETag}}, true},
		{newID, registry.Precondition{IfNoneMatch: []string{"*"}}, true},
	}
	for i, c := range cases {
		_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: c.id, Properties: json.RawMessage(`{}`)}, If: c.cond, Now: t0})
		if c.ok != (err == nil) || (!c.ok && !errors.Is(err, registry.ErrPrecondition)) {
			t.Errorf("case %d: Put(%s, %+v) = %v, want ok=%v", i, c.id, c.cond, err, c.ok)
		}
	}
	cur, _ = s.Get(ctx, id)
	if _, err := s.Delete(ctx, id, registry.Precondition{IfMatch: []string{"stale"}}); !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("Delete with stale If-Match = %v", err)
	}
	mustExist(t, s, id, true)
	if _, err := s.Delete(ctx, registry.TypeID(plane, "Aa.Bb", "absent"), registry.Precondition{IfMatch: []string{"*"}}); !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("Delete absent with If-Match * = %v", err)
	}
	if deleted, err := s.Delete(ctx, id, registry.Precondition{IfMatch: []string{cur.ETag}}); !deleted || err != nil {
		t.Errorf("Delete with current If-Match = %v, %v", deleted, err)
	}
}

func testDeleteCascade(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seed(t, s, "Aa.Bb")
	seed(t, s, "Cc.Dd")
	put(t, s, registry.PlaneID("other"), `{}`)
	put(t, s, registry.ProviderID("other", "Aa.Bb"), `{}`)
	put(t, s, registry.TypeID("other", "Aa.Bb", "widgets"), `{}`)
	if deleted, err := s.Delete(ctx, registry.ProviderID(plane, "aa.bb"), registry.Precondition{}); !deleted || err != nil {
		t.Fatalf("Delete provider = %v, %v", deleted, err)
	}
	for _, id := range []registry.ID{
		registry.ProviderID(plane, "Aa.Bb"),
		registry.TypeID(plane, "Aa.Bb", "widgets"),
		registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01"),
		registry.LocationID(plane, "Aa.Bb", "global"),
	} {
		mustExist(t, s, id, false)
	}
	for _, id := range []registry.ID{
		registry.TypeID(plane, "Cc.Dd", "widgets"),
		registry.APIVersionID(plane, "Cc.Dd", "widgets", "2024-01-01"),
		registry.LocationID(plane, "Cc.Dd", "global"),
		registry.TypeID("other", "Aa.Bb", "widgets"),
	} {
		mustExist(t, s, id, true)
	}
	if deleted, err := s.Delete(ctx, registry.ProviderID(plane, "Aa.Bb"), registry.Precondition{}); deleted || err != nil {
		t.Errorf("second Delete = %v, %v; want false, nil", deleted, err)
	}
	// A type's delete removes its versions but not its provider's locations.
	if _, err := s.Delete(ctx, registry.TypeID(plane, "Cc.Dd", "widgets"), registry.Precondition{}); err != nil {
		t.Fatal(err)
	}
	mustExist(t, s, registry.APIVersionID(plane, "Cc.Dd", "widgets", "2024-01-01"), false)
	mustExist(t, s, registry.LocationID(plane, "Cc.Dd", "global"), true)
}

func testListPaging(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seed(t, s, "Aa.Bb")
	seed(t, s, "Cc.Dd")
	tid := registry.TypeID(plane, "Aa.Bb", "widgets")
	names := []string{"2024-03-01", "2023-01-01-preview", "2025-01-01", "2024-01-01-preview"}
	for _, n := range names {
		put(t, s, registry.APIVersionID(plane, "Aa.Bb", "widgets", n), `{"schema":{}}`)
	}
	want := []string{"2023-01-01-preview", "2024-01-01", "2024-01-01-preview", "2024-03-01", "2025-01-01"}
	var got []string
	opts := registry.ListOptions{Top: 2}
	pages := 0
	for {
		pg, err := s.List(ctx, tid, api.KindAPIVersion, opts)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(pg.Items) > 2 {
			t.Fatalf("page of %d items with Top 2", len(pg.Items))
		}
		for _, r := range pg.Items {
			got = append(got, r.ID.Name)
		}
		if pg.Next == "" {
			break
		}
		if pages > 10 {
			t.Fatal("paging does not end")
		}
		opts.After = pg.Next
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paged versions (-want +got):\n%s", diff)
	}
	if pages != 3 {
		t.Errorf("pages = %d, want 3", pages)
	}
	pg, err := s.List(ctx, registry.ProviderID(plane, "Aa.Bb"), api.KindResourceType, registry.ListOptions{})
	if err != nil || len(pg.Items) != 1 || pg.Items[0].ID.Provider != "Aa.Bb" {
		t.Errorf("types of A.B = %+v, %v; want only widgets of A.B", pg.Items, err)
	}
	pg, err = s.List(ctx, registry.PlaneID(plane), api.KindProvider, registry.ListOptions{})
	if err != nil || len(pg.Items) != 2 {
		t.Errorf("providers = %+v, %v", pg.Items, err)
	}
	pg, err = s.List(ctx, registry.ProviderID(plane, "Cc.Dd"), api.KindLocation, registry.ListOptions{})
	if err != nil || len(pg.Items) != 1 || pg.Items[0].ID.Provider != "Cc.Dd" {
		t.Errorf("locations of C.D = %+v, %v", pg.Items, err)
	}
}

func testSummaries(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seed(t, s, "Cc.Dd")
	seed(t, s, "Aa.Bb")
	put(t, s, registry.TypeID(plane, "Aa.Bb", "widgets/parts"), `{"description":"parts","capabilities":["x"]}`)
	put(t, s, registry.APIVersionID(plane, "Aa.Bb", "widgets/parts", "2024-02-01-preview"), `{"schema":{"b":1,"a":2}}`)
	sums, err := s.Summaries(ctx, plane, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) != 2 || sums[0].Name != "Aa.Bb" || sums[1].Name != "Cc.Dd" {
		t.Fatalf("summaries = %+v", sums)
	}
	one, err := s.Summaries(ctx, "LOCAL", "aa.bb")
	if err != nil {
		t.Fatal(err)
	}
	want := registry.ProviderSummary{
		Name:      "Aa.Bb",
		Locations: map[string]registry.LocationSummary{"global": {Address: "http://x"}},
		ResourceTypes: map[string]registry.TypeSummary{
			"widgets": {
				APIVersions:       map[string]json.RawMessage{"2024-01-01": json.RawMessage(`{"type":"object"}`)},
				DefaultAPIVersion: "2024-01-01",
			},
			"widgets/parts": {
				APIVersions:  map[string]json.RawMessage{"2024-02-01-preview": json.RawMessage(`{"b":1,"a":2}`)},
				Description:  "parts",
				Capabilities: []string{"x"},
			},
		},
	}
	if diff := cmp.Diff([]registry.ProviderSummary{want}, one); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if _, err := s.Summaries(ctx, plane, "Xx.Yy"); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("summary of missing provider = %v, want ErrNotFound", err)
	}
	if _, err := s.Summaries(ctx, "nope", ""); !errors.Is(err, registry.ErrParentNotFound) {
		t.Errorf("summaries of missing plane = %v, want ErrParentNotFound", err)
	}
	if _, err := s.Delete(ctx, registry.APIVersionID(plane, "Aa.Bb", "widgets", "2024-01-01"), registry.Precondition{}); err != nil {
		t.Fatal(err)
	}
	one, _ = s.Summaries(ctx, plane, "Aa.Bb")
	if n := len(one[0].ResourceTypes["widgets"].APIVersions); n != 0 {
		t.Errorf("summary still lists %d versions after delete", n)
	}
}

// testConcurrentDeleteAndCreate races provider deletes against child
// creates; afterwards every surviving child must have its parents.
func testConcurrentDeleteAndCreate(t *testing.T, s registry.Store) {
	ctx := context.Background()
	put(t, s, registry.PlaneID(plane), `{}`)
	const rounds = 15
	for i := range rounds {
		ns := fmt.Sprintf("P%d.Race", i)
		put(t, s, registry.ProviderID(plane, ns), `{}`)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range 5 {
				typ := fmt.Sprintf("t%d", j)
				_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.TypeID(plane, ns, typ)}, Now: t0})
				if err != nil && !errors.Is(err, registry.ErrParentNotFound) && !errors.Is(err, registry.ErrConflict) {
					t.Errorf("Put type: %v", err)
				}
				_, _, err = s.Put(ctx, registry.Write{Resource: registry.Resource{ID: registry.APIVersionID(plane, ns, typ, "2024-01-01")}, Now: t0})
				if err != nil && !errors.Is(err, registry.ErrParentNotFound) && !errors.Is(err, registry.ErrConflict) {
					t.Errorf("Put version: %v", err)
				}
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.Delete(ctx, registry.ProviderID(plane, ns), registry.Precondition{}); err != nil {
				t.Errorf("Delete provider: %v", err)
			}
		}()
		wg.Wait()
		if _, err := s.Get(ctx, registry.ProviderID(plane, ns)); errors.Is(err, registry.ErrNotFound) {
			for j := range 5 {
				mustExist(t, s, registry.TypeID(plane, ns, fmt.Sprintf("t%d", j)), false)
				mustExist(t, s, registry.APIVersionID(plane, ns, fmt.Sprintf("t%d", j), "2024-01-01"), false)
			}
		}
	}
}

// optional returns s as the optional interface I of a store, and skips
// the test when s does not implement it.
func optional[I any](t *testing.T, s registry.Store) I {
	t.Helper()
	i, ok := any(s).(I)
	if !ok {
		t.Skipf("%T does not implement %s (optional)", s, reflect.TypeFor[I]())
	}
	return i
}
