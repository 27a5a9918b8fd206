package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// The part of the suite for resource groups and resources of user-defined
// types (registry.ResourceStore).

var instanceTests = []suiteTest{
	{"Groups", testGroups},
	{"InstanceOwnersMustExist", testInstanceOwners},
	{"InstanceCasingAndUpdate", testInstanceCasingAndUpdate},
	{"InstanceDeleteCascades", testInstanceCascades},
	{"InstanceLists", testInstanceLists},
	{"UnregisterInUse", testUnregisterInUse},
	{"ConcurrentParentDeleteAndChildCreate", testConcurrentParentDelete},
	{"ConcurrentUnregisterAndCreate", testConcurrentUnregister},
}

const ver = "2024-01-01"

// seedTypes registers Aa.Bb with widgets and widgets/parts (API version
// 2024-01-01 each) and creates resource group rg.
func seedTypes(t *testing.T, s registry.Store) {
	t.Helper()
	seed(t, s, "Aa.Bb")
	put(t, s, registry.TypeID(plane, "Aa.Bb", "widgets/parts"), `{}`)
	put(t, s, registry.APIVersionID(plane, "Aa.Bb", "widgets/parts", ver), `{"schema":{}}`)
	putGroup(t, s, "rg")
}

func putGroup(t *testing.T, s registry.Store, name string) registry.Group {
	t.Helper()
	g, _, err := s.PutGroup(context.Background(), registry.GroupWrite{Group: registry.Group{ID: registry.GroupID{Plane: plane, Name: name}, Location: "global"}, Now: t0})
	if err != nil {
		t.Fatalf("PutGroup(%s): %v", name, err)
	}
	return g
}

func rid(t *testing.T, s string) api.ResourceID {
	t.Helper()
	id, err := api.ParseResourceID(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

const rgPrefix = "/planes/radius/local/resourceGroups/rg/providers/Aa.Bb"

func putInstance(s registry.Store, id string, props string) (registry.Instance, error) {
	pid, err := api.ParseResourceID(id)
	if err != nil {
		return registry.Instance{}, err
	}
	in, _, err := s.PutInstance(context.Background(), registry.InstanceWrite{
		Instance: registry.Instance{ID: pid, APIVersion: ver, Location: "global", Properties: json.RawMessage(props)}, Now: t0})
	return in, err
}

func mustPutInstance(t *testing.T, s registry.Store, id string) registry.Instance {
	t.Helper()
	in, err := putInstance(s, id, `{}`)
	if err != nil {
		t.Fatalf("PutInstance(%s): %v", id, err)
	}
	return in
}

func instanceExists(t *testing.T, s registry.Store, id string, want bool) {
	t.Helper()
	_, err := s.GetInstance(context.Background(), rid(t, id))
	switch {
	case want && err != nil:
		t.Errorf("GetInstance(%s) = %v, want it to exist", id, err)
	case !want && !errors.Is(err, registry.ErrNotFound):
		t.Errorf("GetInstance(%s) = %v, want ErrNotFound", id, err)
	}
}

func testGroups(t *testing.T, s registry.Store) {
	ctx := context.Background()
	if _, _, err := s.PutGroup(ctx, registry.GroupWrite{Group: registry.Group{ID: registry.GroupID{Plane: "nope", Name: "rg"}}, Now: t0}); !errors.Is(err, registry.ErrParentNotFound) {
		t.Errorf("PutGroup in a missing plane = %v, want ErrParentNotFound", err)
	}
	put(t, s, registry.PlaneID(plane), `{}`)
	if _, _, err := s.PutGroup(ctx, registry.GroupWrite{Group: registry.Group{ID: registry.GroupID{Plane: plane, Name: "a/b"}}, Now: t0}); !errors.Is(err, registry.ErrInvalid) {
		t.Errorf("PutGroup with an invalid name = %v, want ErrInvalid", err)
	}
	g, created, err := s.PutGroup(ctx, registry.GroupWrite{Group: registry.Group{ID: registry.GroupID{Plane: "LOCAL", Name: "My.Group"}, Location: "global", Tags: map[string]string{"a": "b"}}, Now: t0, Actor: "alice"})
	if err != nil || !created || g.ETag == "" || g.ID != (registry.GroupID{Plane: plane, Name: "My.Group"}) || g.System.CreatedBy != "alice" {
		t.Fatalf("PutGroup = %+v, %v, %v", g, created, err)
	}
	got, err := s.GetGroup(ctx, registry.GroupID{Plane: plane, Name: "my.group"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(g, got); diff != "" {
		t.Errorf("GetGroup after PutGroup (-put +get):\n%s", diff)
	}
	// Update: new ETag, kept casing and creation data, precondition checked.
	if _, _, err := s.PutGroup(ctx, registry.GroupWrite{Group: registry.Group{ID: registry.GroupID{Plane: plane, Name: "MY.GROUP"}}, If: registry.Precondition{IfMatch: []string{"stale"}}, Now: t0}); !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("PutGroup with stale If-Match = %v", err)
	}
	g2, created, err := s.PutGroup(ctx, registry.GroupWrite{Group: registry.Group{ID: registry.GroupID{Plane: plane, Name: "MY.GROUP"}}, If: registry.Precondition{IfMatch: []string{g.ETag}}, Now: t0.Add(1), Actor: "bob"})
	if err != nil || created || g2.ID.Name != "My.Group" || g2.ETag == g.ETag || g2.System.CreatedBy != "alice" || g2.Tags != nil {
		t.Errorf("update = %+v, %v, %v", g2, created, err)
	}
	testGroupPagesAndDeletes(t, s)
}

// testGroupPagesAndDeletes pages the groups of testGroups and deletes one.
func testGroupPagesAndDeletes(t *testing.T, s registry.Store) {
	ctx := context.Background()
	for _, n := range []string{"c", "b", "A"} {
		putGroup(t, s, n)
	}
	var names []string
	opts := registry.ListOptions{Top: 2}
	for range 5 {
		pg, err := s.ListGroups(ctx, plane, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range pg.Items {
			names = append(names, g.ID.Name)
		}
		if opts.After = pg.Next; pg.Next == "" {
			break
		}
	}
	if diff := cmp.Diff([]string{"A", "b", "c", "My.Group"}, names); diff != "" {
		t.Errorf("paged groups (-want +got):\n%s", diff)
	}
	if _, err := s.ListGroups(ctx, "nope", registry.ListOptions{}); !errors.Is(err, registry.ErrParentNotFound) {
		t.Errorf("ListGroups of a missing plane = %v", err)
	}
	if deleted, err := s.DeleteGroup(ctx, registry.GroupID{Plane: plane, Name: "b"}, registry.Precondition{IfMatch: []string{"stale"}}); deleted || !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("DeleteGroup with stale If-Match = %v, %v", deleted, err)
	}
	if deleted, err := s.DeleteGroup(ctx, registry.GroupID{Plane: plane, Name: "B"}, registry.Precondition{}); !deleted || err != nil {
		t.Errorf("DeleteGroup = %v, %v", deleted, err)
	}
	if deleted, err := s.DeleteGroup(ctx, registry.GroupID{Plane: plane, Name: "b"}, registry.Precondition{}); deleted || err != nil {
		t.Errorf("second DeleteGroup = %v, %v; want false, nil", deleted, err)
	}
	if _, err := s.GetGroup(ctx, registry.GroupID{Plane: plane, Name: "b"}); !errors.Is(err, registry.ErrNotFound) {
		t.Errorf("GetGroup after delete = %v", err)
	}
}

func testInstanceOwners(t *testing.T, s registry.Store) {
	seedTypes(t, s)
	if _, err := putInstance(s, "/planes/radius/local/resourceGroups/nope/providers/Aa.Bb/widgets/w1", `{}`); !errors.Is(err, registry.ErrGroupNotFound) {
		t.Errorf("resource without its group = %v, want ErrGroupNotFound", err)
	}
	if _, err := putInstance(s, rgPrefix+"/widgets/w1/parts/p1", `{}`); !errors.Is(err, registry.ErrParentResourceNotFound) {
		t.Errorf("child without its parent = %v, want ErrParentResourceNotFound", err)
	}
	if _, err := putInstance(s, rgPrefix+"/gadgets/g1", `{}`); !errors.Is(err, registry.ErrParentNotFound) || errors.Is(err, registry.ErrGroupNotFound) {
		t.Errorf("resource of an unregistered type = %v, want ErrParentNotFound", err)
	}
	mustPutInstance(t, s, rgPrefix+"/widgets/w1")
	mustPutInstance(t, s, rgPrefix+"/widgets/w1/parts/p1")
	instanceExists(t, s, rgPrefix+"/widgets/w1/parts/p1", true)
}

func testInstanceCasingAndUpdate(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seedTypes(t, s)
	id := rid(t, "/planes/radius/LOCAL/resourceGroups/RG/providers/aa.bb/WIDGETS/My-W.1")
	in, created, err := s.PutInstance(ctx, registry.InstanceWrite{Instance: registry.Instance{
		ID: id, APIVersion: ver, Location: "global", Tags: map[string]string{"k": "v"},
		Properties: json.RawMessage(`{"size":"S"}`), Secrets: []byte("sealed"),
	}, Now: t0, Actor: "alice"})
	if err != nil || !created {
		t.Fatalf("PutInstance = %v, created %v", err, created)
	}
	want := rgPrefix + "/widgets/My-W.1"
	if in.ID.String() != want || in.ETag == "" || !in.System.CreatedAt.Equal(t0) || in.System.CreatedBy != "alice" {
		t.Errorf("PutInstance returned %+v, want ID %s (names as registered and as created)", in, want)
	}
	got, err := s.GetInstance(ctx, rid(t, rgPrefix+"/widgets/my-w.1"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("GetInstance after PutInstance (-put +get):\n%s", diff)
	}
	if sid, sealed, found, err := s.AnySecrets(ctx); err != nil || !found || sid.String() != want || string(sealed) != "sealed" {
		t.Errorf("AnySecrets = %s %q %v %v, want %s \"sealed\"", sid, sealed, found, err, want)
	}
	testInstanceUpdate(t, s, id, in)
}

// testInstanceUpdate updates and deletes the resource id that
// testInstanceCasingAndUpdate created as in.
func testInstanceUpdate(t *testing.T, s registry.Store, id api.ResourceID, in registry.Instance) {
	ctx := context.Background()
	want := rgPrefix + "/widgets/My-W.1"
	// An update keeps the creation casing and data; no secrets is NULL.
	up, created, err := s.PutInstance(ctx, registry.InstanceWrite{Instance: registry.Instance{
		ID: rid(t, rgPrefix+"/widgets/MY-W.1"), APIVersion: ver, Properties: json.RawMessage(`{"size":"M"}`),
	}, If: registry.Precondition{IfMatch: []string{in.ETag}}, Now: t0.Add(1), Actor: "bob"})
	if err != nil || created {
		t.Fatalf("update = %v, created %v", err, created)
	}
	if up.ID.String() != want || up.ETag == in.ETag || !up.System.CreatedAt.Equal(t0) || up.System.LastModifiedBy != "bob" || up.Secrets != nil || up.Tags != nil {
		t.Errorf("update returned %+v", up)
	}
	got, _ := s.GetInstance(ctx, id)
	if diff := cmp.Diff(up, got); diff != "" {
		t.Errorf("GetInstance after update (-put +get):\n%s", diff)
	}
	if _, _, found, err := s.AnySecrets(ctx); err != nil || found {
		t.Errorf("AnySecrets with no secrets stored = %v, %v", found, err)
	}
	if _, _, err := s.PutInstance(ctx, registry.InstanceWrite{Instance: registry.Instance{ID: id, APIVersion: ver}, If: registry.Precondition{IfNoneMatch: []string{"*"}}, Now: t0}); !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("If-None-Match * on an existing resource = %v", err)
	}
	if deleted, err := s.DeleteInstance(ctx, id, registry.Precondition{IfMatch: []string{in.ETag}}); deleted || !errors.Is(err, registry.ErrPrecondition) {
		t.Errorf("DeleteInstance with a stale ETag = %v, %v", deleted, err)
	}
	if deleted, err := s.DeleteInstance(ctx, id, registry.Precondition{IfMatch: []string{up.ETag}}); !deleted || err != nil {
		t.Errorf("DeleteInstance = %v, %v", deleted, err)
	}
	if deleted, err := s.DeleteInstance(ctx, id, registry.Precondition{}); deleted || err != nil {
		t.Errorf("second DeleteInstance = %v, %v", deleted, err)
	}
}

func testInstanceCascades(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seedTypes(t, s)
	putGroup(t, s, "other")
	for _, id := range []string{"/widgets/w1", "/widgets/w1/parts/p1", "/widgets/w1/parts/p2", "/widgets/w2", "/widgets/w2/parts/p1"} {
		mustPutInstance(t, s, rgPrefix+id)
	}
	other := "/planes/radius/local/resourceGroups/other/providers/Aa.Bb/widgets/w1"
	mustPutInstance(t, s, other)
	mustPutInstance(t, s, other+"/parts/p1")
	if deleted, err := s.DeleteInstance(ctx, rid(t, rgPrefix+"/widgets/W1"), registry.Precondition{}); !deleted || err != nil {
		t.Fatalf("DeleteInstance(parent) = %v, %v", deleted, err)
	}
	instanceExists(t, s, rgPrefix+"/widgets/w1/parts/p1", false)
	instanceExists(t, s, rgPrefix+"/widgets/w1/parts/p2", false)
	instanceExists(t, s, rgPrefix+"/widgets/w2/parts/p1", true)
	instanceExists(t, s, other+"/parts/p1", true)
	if deleted, err := s.DeleteGroup(ctx, registry.GroupID{Plane: plane, Name: "rg"}, registry.Precondition{}); !deleted || err != nil {
		t.Fatalf("DeleteGroup = %v, %v", deleted, err)
	}
	instanceExists(t, s, rgPrefix+"/widgets/w2", false)
	instanceExists(t, s, rgPrefix+"/widgets/w2/parts/p1", false)
	instanceExists(t, s, other, true)
	instanceExists(t, s, other+"/parts/p1", true)
	// A group of the same name starts empty.
	putGroup(t, s, "rg")
	pg, err := s.ListInstances(ctx, registry.InstanceQuery{Plane: plane, Namespace: "Aa.Bb", Type: "widgets", Group: "rg"}, registry.ListOptions{})
	if err != nil || len(pg.Items) != 0 {
		t.Errorf("re-created group lists %d resources, %v", len(pg.Items), err)
	}
}

func testInstanceLists(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seedTypes(t, s)
	putGroup(t, s, "rg2")
	for _, id := range []string{"/widgets/w3", "/widgets/W1", "/widgets/w2", "/widgets/w1/parts/b", "/widgets/w1/parts/a", "/widgets/w2/parts/c"} {
		mustPutInstance(t, s, rgPrefix+id)
	}
	mustPutInstance(t, s, "/planes/radius/local/resourceGroups/rg2/providers/Aa.Bb/widgets/w0")
	list := func(q registry.InstanceQuery) []string {
		t.Helper()
		var out []string
		opts := registry.ListOptions{Top: 2}
		for range 10 {
			pg, err := s.ListInstances(ctx, q, opts)
			if err != nil {
				t.Fatalf("ListInstances(%+v) = %v", q, err)
			}
			if len(pg.Items) > 2 {
				t.Fatalf("page of %d items with Top 2", len(pg.Items))
			}
			for _, in := range pg.Items {
				out = append(out, in.ID.String()[len("/planes/radius/local/resourceGroups/"):])
			}
			if opts.After = pg.Next; pg.Next == "" {
				return out
			}
		}
		t.Fatal("paging does not end")
		return nil
	}
	if diff := cmp.Diff([]string{"rg/providers/Aa.Bb/widgets/W1", "rg/providers/Aa.Bb/widgets/w2", "rg/providers/Aa.Bb/widgets/w3"},
		list(registry.InstanceQuery{Plane: plane, Namespace: "aa.bb", Type: "WIDGETS", Group: "RG"})); diff != "" {
		t.Errorf("widgets in rg (-want +got):\n%s", diff)
	}
	parent := rid(t, rgPrefix+"/widgets/w1")
	if diff := cmp.Diff([]string{"rg/providers/Aa.Bb/widgets/W1/parts/a", "rg/providers/Aa.Bb/widgets/W1/parts/b"},
		list(registry.InstanceQuery{Plane: plane, Namespace: "Aa.Bb", Type: "widgets/parts", Parent: &parent})); diff != "" {
		t.Errorf("parts of w1 (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"rg/providers/Aa.Bb/widgets/W1", "rg/providers/Aa.Bb/widgets/w2", "rg/providers/Aa.Bb/widgets/w3", "rg2/providers/Aa.Bb/widgets/w0"},
		list(registry.InstanceQuery{Plane: plane, Namespace: "Aa.Bb", Type: "widgets"})); diff != "" {
		t.Errorf("widgets in the plane (-want +got):\n%s", diff)
	}
	if got := list(registry.InstanceQuery{Plane: plane, Namespace: "Aa.Bb", Type: "widgets/parts"}); len(got) != 3 {
		t.Errorf("parts in the plane = %v, want 3", got)
	}
	if _, err := s.ListInstances(ctx, registry.InstanceQuery{Plane: plane, Namespace: "Aa.Bb", Type: "widgets", Group: "nope"}, registry.ListOptions{}); !errors.Is(err, registry.ErrGroupNotFound) {
		t.Errorf("list in a missing group = %v", err)
	}
	missing := rid(t, rgPrefix+"/widgets/nope")
	if _, err := s.ListInstances(ctx, registry.InstanceQuery{Plane: plane, Namespace: "Aa.Bb", Type: "widgets/parts", Parent: &missing}, registry.ListOptions{}); !errors.Is(err, registry.ErrParentResourceNotFound) {
		t.Errorf("list under a missing parent = %v", err)
	}
}

func testUnregisterInUse(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seedTypes(t, s)
	put(t, s, registry.APIVersionID(plane, "Aa.Bb", "widgets", "2025-01-01"), `{"schema":{}}`)
	mustPutInstance(t, s, rgPrefix+"/widgets/w1")
	mustPutInstance(t, s, rgPrefix+"/widgets/w1/parts/p1")
	mustPutInstance(t, s, rgPrefix+"/widgets/w2")
	inUse := func(id registry.ID, want int) {
		t.Helper()
		deleted, err := s.Delete(ctx, id, registry.Precondition{})
		var iu *registry.InUseError
		if deleted || !errors.As(err, &iu) || !errors.Is(err, registry.ErrInUse) || iu.Count != want {
			t.Errorf("Delete(%s) = %v, %v; want an InUseError with count %d", id, deleted, err, want)
		}
	}
	// The counts the refusals below give, by type and API version.
	counts := func(ns string, want []registry.InstanceCount) {
		t.Helper()
		got, err := s.CountInstances(ctx, plane, ns)
		if err != nil {
			t.Fatalf("CountInstances(%s): %v", ns, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("CountInstances(%s) (-want +got):\n%s", ns, diff)
		}
	}
	counts("aa.BB", []registry.InstanceCount{{Type: "widgets", APIVersion: ver, Count: 2}, {Type: "widgets/parts", APIVersion: ver, Count: 1}})
	counts("Other.Ns", []registry.InstanceCount{})
	inUse(registry.ProviderID(plane, "aa.bb"), 3)
	inUse(registry.TypeID(plane, "Aa.Bb", "widgets"), 3) // with its child type's
	inUse(registry.TypeID(plane, "Aa.Bb", "widgets/parts"), 1)
	inUse(registry.APIVersionID(plane, "Aa.Bb", "widgets", ver), 2)
	// Refused deletes deleted nothing; an unused version and a location go.
	instanceExists(t, s, rgPrefix+"/widgets/w1/parts/p1", true)
	if deleted, err := s.Delete(ctx, registry.APIVersionID(plane, "Aa.Bb", "widgets", "2025-01-01"), registry.Precondition{}); !deleted || err != nil {
		t.Errorf("Delete of an unused version = %v, %v", deleted, err)
	}
	if deleted, err := s.Delete(ctx, registry.LocationID(plane, "Aa.Bb", "global"), registry.Precondition{}); !deleted || err != nil {
		t.Errorf("Delete of a location = %v, %v", deleted, err)
	}
	// Forced: the resources go in the same transaction.
	deleted, removed, err := s.DeleteRegistration(ctx, registry.TypeID(plane, "Aa.Bb", "widgets/parts"), registry.Precondition{}, true)
	if !deleted || removed != 1 || err != nil {
		t.Errorf("forced delete of widgets/parts = %v, %d, %v", deleted, removed, err)
	}
	instanceExists(t, s, rgPrefix+"/widgets/w1/parts/p1", false)
	instanceExists(t, s, rgPrefix+"/widgets/w1", true)
	counts("Aa.Bb", []registry.InstanceCount{{Type: "widgets", APIVersion: ver, Count: 2}})
	deleted, removed, err = s.DeleteRegistration(ctx, registry.ProviderID(plane, "Aa.Bb"), registry.Precondition{}, true)
	if !deleted || removed != 2 || err != nil {
		t.Errorf("forced delete of the provider = %v, %d, %v", deleted, removed, err)
	}
	instanceExists(t, s, rgPrefix+"/widgets/w1", false)
	if _, err := s.GetGroup(ctx, registry.GroupID{Plane: plane, Name: "rg"}); err != nil {
		t.Errorf("the group must survive unregistering: %v", err)
	}
}

// testConcurrentParentDelete races parent deletes against child creates;
// afterwards no child may survive its parent.
func testConcurrentParentDelete(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seedTypes(t, s)
	const rounds, children = 15, 5
	for i := range rounds {
		parent := fmt.Sprintf("%s/widgets/race%d", rgPrefix, i)
		mustPutInstance(t, s, parent)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range children {
				_, err := putInstance(s, fmt.Sprintf("%s/parts/p%d", parent, j), `{}`)
				if err != nil && !errors.Is(err, registry.ErrParentResourceNotFound) && !errors.Is(err, registry.ErrConflict) {
					t.Errorf("PutInstance(child): %v", err)
				}
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := s.DeleteInstance(ctx, rid(t, parent), registry.Precondition{}); err != nil {
				t.Errorf("DeleteInstance(parent): %v", err)
			}
		}()
		wg.Wait()
		if _, err := s.GetInstance(ctx, rid(t, parent)); errors.Is(err, registry.ErrNotFound) {
			for j := range children {
				instanceExists(t, s, fmt.Sprintf("%s/parts/p%d", parent, j), false)
			}
		}
	}
}

// testConcurrentUnregister races an unforced API version delete against
// resource creates: the delete may only succeed when no create was
// acknowledged (a create either is counted, and the delete refused, or
// fails after it), so an acknowledged resource is never deleted silently.
func testConcurrentUnregister(t *testing.T, s registry.Store) {
	ctx := context.Background()
	seedTypes(t, s)
	const rounds, creates = 15, 4
	var deletes, refusals int
	for i := range rounds {
		v := fmt.Sprintf("2025-01-%02d", i+1)
		vid := registry.APIVersionID(plane, "Aa.Bb", "widgets", v)
		put(t, s, vid, `{"schema":{}}`)
		var (
			wg      sync.WaitGroup
			acked   []string
			deleted bool
		)
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := range creates {
				id := fmt.Sprintf("%s/widgets/r%dv%d", rgPrefix, j, i)
				pid, _ := api.ParseResourceID(id)
				_, _, err := s.PutInstance(ctx, registry.InstanceWrite{Instance: registry.Instance{ID: pid, APIVersion: v, Properties: json.RawMessage(`{}`)}, Now: t0})
				switch {
				case err == nil:
					acked = append(acked, id)
				case errors.Is(err, registry.ErrParentNotFound) && !errors.Is(err, registry.ErrGroupNotFound), errors.Is(err, registry.ErrConflict):
				default:
					t.Errorf("PutInstance: %v (the group exists: only the API version can be missing)", err)
				}
			}
		}()
		go func() {
			defer wg.Done()
			ok, err := s.Delete(ctx, vid, registry.Precondition{})
			switch {
			case err == nil:
				deleted = ok
			case errors.Is(err, registry.ErrInUse), errors.Is(err, registry.ErrConflict):
				refusals++
			default:
				t.Errorf("Delete: %v", err)
			}
		}()
		wg.Wait()
		if deleted {
			deletes++
			if len(acked) > 0 {
				t.Errorf("round %d: the unforced delete succeeded although %v were created", i, acked)
			}
		}
		for _, id := range acked {
			instanceExists(t, s, id, true)
		}
	}
	t.Logf("%d unforced deletes succeeded, %d refused", deletes, refusals)
}
