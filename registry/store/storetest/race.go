package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// The lost-update race: many writers holding one ETag, spread over two
// stores on one database (as two server processes would be). Exactly one
// conditional write may win each round; every other one must fail its
// precondition, and what is stored afterwards is the winner's write.

var sharedTests = []sharedTest{
	{"OneETagOneWinner", testOneETagOneWinner},
	{"UnconditionalWritersAllSucceed", testUnconditionalWriters},
	{"UnchangedAfterAnotherStoreWrote", testUnchangedAcrossStores},
	{"IncrementsAreNotLost", testIncrements},
}

// testIncrements: writers on both stores increment a number in one
// registration, each reading it and writing it back under If-Match, and
// reading again when another write came first. No increment may be lost:
// the number ends at the count of writes that succeeded.
func testIncrements(t *testing.T, a, b registry.Store) {
	ctx := context.Background()
	seedTypes(t, a)
	version := registry.APIVersionID(plane, "Aa.Bb", "widgets", ver)
	props := func(n int) json.RawMessage {
		return json.RawMessage(fmt.Sprintf(`{"schema":{"type":"object","title":"%d"}}`, n))
	}
	if _, _, err := a.Put(ctx, registry.Write{Resource: registry.Resource{ID: version, Properties: props(0)}, Now: t0}); err != nil {
		t.Fatal(err)
	}
	read := func(s registry.Store) (int, string) {
		r, err := s.Get(ctx, version)
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		var p struct{ Schema struct{ Title string } }
		n := -1 // when the title is not a number
		if json.Unmarshal(r.Properties, &p) == nil {
			fmt.Sscan(p.Schema.Title, &n)
		}
		return n, r.ETag
	}
	const writers, each = 8, 6
	var wg sync.WaitGroup
	for i := range writers {
		s := []registry.Store{a, b}[i%2]
		wg.Go(func() {
			for done := 0; done < each && !t.Failed(); {
				n, etag := read(s)
				_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: version, Properties: props(n + 1)},
					If: registry.Precondition{IfMatch: []string{etag}}, Now: t0})
				switch {
				case err == nil:
					done++
				case !errors.Is(err, registry.ErrPrecondition):
					t.Errorf("writer %d: %v", i, err)
				}
			}
		})
	}
	wg.Wait()
	for _, s := range []registry.Store{a, b} {
		if n, _ := read(s); n != writers*each {
			t.Errorf("the number is %d after %d increments", n, writers*each)
		}
	}
}

// testUnchangedAcrossStores: a store that wrote a registration and sees
// the same Put again must not take it for unchanged once another store
// (another server process) changed the row in between.
func testUnchangedAcrossStores(t *testing.T, a, b registry.Store) {
	ctx := context.Background()
	seedTypes(t, a)
	version := registry.APIVersionID(plane, "Aa.Bb", "widgets", ver)
	write := func(s registry.Store, title string) registry.Resource {
		t.Helper()
		props := fmt.Sprintf(`{"schema":{"type":"object","title":%q}}`, title)
		r, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: version, Properties: json.RawMessage(props)}, Now: t0, Actor: "bob"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := write(a, "x")
	if again := write(a, "x"); again.ETag != first.ETag {
		t.Errorf("the same Put again wrote: ETag %s, then %s", first.ETag, again.ETag)
	}
	other := write(b, "y")
	back := write(a, "x")
	if back.ETag == other.ETag || back.ETag == first.ETag {
		t.Errorf("a Put of x after the other store wrote y answered ETag %s (x: %s, y: %s), want a new one", back.ETag, first.ETag, other.ETag)
	}
	if got, err := b.Get(ctx, version); err != nil || got.ETag != back.ETag || !strings.Contains(string(got.Properties), `"x"`) {
		t.Errorf("stored %s %s (%v), want x under ETag %s", got.ETag, got.Properties, err, back.ETag)
	}
}

// testUnconditionalWriters: writes without a condition never fail because
// another writer changed the row first (the last one wins), however many
// race on one row from both stores.
func testUnconditionalWriters(t *testing.T, a, b registry.Store) {
	ctx := context.Background()
	seedTypes(t, a)
	version := registry.APIVersionID(plane, "Aa.Bb", "widgets", ver)
	res := rid(t, rgPrefix+"/widgets/w1")
	var wg sync.WaitGroup
	for i := range 4 * raceWriters {
		s := []registry.Store{a, b}[i%2]
		wg.Go(func() {
			for j := range 5 {
				props := fmt.Sprintf(`{"schema":{"type":"object","title":"%d-%d"}}`, i, j)
				if _, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: version, Properties: json.RawMessage(props)}, Now: t0}); err != nil {
					t.Errorf("unconditional Put %d: %v", i, err)
				}
				if _, err := putInstance(s, res.String(), fmt.Sprintf(`{"n":"%d-%d"}`, i, j)); err != nil {
					t.Errorf("unconditional PutInstance %d: %v", i, err)
				}
			}
		})
	}
	wg.Wait()
}

const (
	raceWriters = 20
	raceRounds  = 8
)

// guarded is one kind of conditional write the race covers: read returns
// the current ETag and a value identifying the stored write; write writes
// value i under If-Match etag on s.
type guarded struct {
	name  string
	read  func(s registry.Store) (etag, value string, err error)
	write func(s registry.Store, etag string, i int) error
}

func testOneETagOneWinner(t *testing.T, a, b registry.Store) {
	seedTypes(t, a)
	res := rid(t, rgPrefix+"/widgets/w1")
	if _, err := putInstance(a, res.String(), `{"n":"first"}`); err != nil {
		t.Fatal(err)
	}
	for _, k := range guardedWrites(t, res) {
		for round := range raceRounds {
			// Each round's values are new: a write of what is stored
			// already changes nothing, and succeeds without writing.
			write := func(s registry.Store, etag string, i int) error { return k.write(s, etag, round*raceWriters+i) }
			ok := race(t, k.name, []registry.Store{a, b}, func(s registry.Store) (string, error) {
				etag, _, err := k.read(s)
				return etag, err
			}, write)
			if !ok {
				return
			}
			// Every other writer's value differs from the winner's, so
			// the stored value tells whose write is there.
			_, got, err := k.read(b)
			if err != nil {
				t.Fatal(err)
			}
			_, want, err := k.read(a)
			if err != nil || got != want {
				t.Fatalf("%s round %d: the two stores read %q and %q (%v)", k.name, round, got, want, err)
			}
		}
	}
	raceDeleteAndUpdate(t, a, b)
}

// guardedWrites are the conditional writes of each kind that
// testOneETagOneWinner races: of a type, an API version (alone and in a
// batch), the resource group rg and the resource res.
func guardedWrites(t *testing.T, res api.ResourceID) []guarded {
	ctx := context.Background()
	version := registry.APIVersionID(plane, "Aa.Bb", "widgets", ver)
	group := registry.GroupID{Plane: plane, Name: "rg"}
	registration := func(id registry.ID, props func(i int) string) guarded {
		return guarded{
			name: id.Kind.String(),
			read: func(s registry.Store) (string, string, error) {
				r, err := s.Get(ctx, id)
				return r.ETag, string(r.Properties), err
			},
			write: func(s registry.Store, etag string, i int) error {
				_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id, Properties: json.RawMessage(props(i))},
					If: registry.Precondition{IfMatch: []string{etag}}, Now: t0})
				return err
			},
		}
	}
	return []guarded{
		registration(registry.TypeID(plane, "Aa.Bb", "widgets"), func(i int) string {
			return fmt.Sprintf(`{"defaultApiVersion":"v%d"}`, i)
		}),
		registration(version, func(i int) string { return fmt.Sprintf(`{"schema":{"type":"object","description":"w%d"}}`, i) }),
		{
			name: "batch of one API version",
			read: func(s registry.Store) (string, string, error) {
				r, err := s.Get(ctx, version)
				return r.ETag, string(r.Properties), err
			},
			write: func(s registry.Store, etag string, i int) error {
				return batcher(t, s).ApplyBatch(ctx, []registry.BatchOp{{Put: &registry.Write{
					Resource: registry.Resource{ID: version, Properties: json.RawMessage(fmt.Sprintf(`{"schema":{"type":"object","title":"b%d"}}`, i))},
					If:       registry.Precondition{IfMatch: []string{etag}}, Now: t0}}})
			},
		},
		{
			name: "resource group",
			read: func(s registry.Store) (string, string, error) {
				g, err := s.GetGroup(ctx, group)
				return g.ETag, g.Tags["w"], err
			},
			write: func(s registry.Store, etag string, i int) error {
				_, _, err := s.PutGroup(ctx, registry.GroupWrite{Group: registry.Group{ID: group, Location: "global", Tags: map[string]string{"w": fmt.Sprint(i)}},
					If: registry.Precondition{IfMatch: []string{etag}}, Now: t0})
				return err
			},
		},
		{
			name: "resource",
			read: func(s registry.Store) (string, string, error) {
				in, err := s.GetInstance(ctx, res)
				return in.ETag, string(in.Properties), err
			},
			write: func(s registry.Store, etag string, i int) error {
				_, _, err := s.PutInstance(ctx, registry.InstanceWrite{Instance: registry.Instance{ID: res, APIVersion: ver, Location: "global",
					Properties: json.RawMessage(fmt.Sprintf(`{"n":"w%d"}`, i))}, If: registry.Precondition{IfMatch: []string{etag}}, Now: t0})
				return err
			},
		},
	}
}

// raceDeleteAndUpdate races deletes under an ETag with updates under the
// same ETag: one of them wins.
func raceDeleteAndUpdate(t *testing.T, a, b registry.Store) {
	ctx := context.Background()
	for round := range raceRounds {
		id := registry.LocationID(plane, "Aa.Bb", fmt.Sprintf("loc%d", round))
		put(t, a, id, `{"address":"http://x"}`)
		ok := race(t, "location delete and update", []registry.Store{a, b}, func(s registry.Store) (string, error) {
			r, err := s.Get(ctx, id)
			return r.ETag, err
		}, func(s registry.Store, etag string, i int) error {
			cond := registry.Precondition{IfMatch: []string{etag}}
			if i%2 == 0 {
				deleted, err := s.Delete(ctx, id, cond)
				if err == nil && !deleted {
					return errors.New("a delete under a matching If-Match deleted nothing")
				}
				return err
			}
			_, _, err := s.Put(ctx, registry.Write{Resource: registry.Resource{ID: id, Properties: json.RawMessage(fmt.Sprintf(`{"address":"http://w%d"}`, i))}, If: cond, Now: t0})
			return err
		})
		if !ok {
			return
		}
	}
}

// race reads the ETag once, then lets raceWriters writers write under it at
// the same moment, alternating between the stores. It checks that exactly
// one succeeded and every other one failed with ErrPrecondition.
func race(t *testing.T, what string, stores []registry.Store, etag func(registry.Store) (string, error), write func(s registry.Store, etag string, i int) error) bool {
	t.Helper()
	tag, err := etag(stores[0])
	if err != nil {
		t.Fatalf("%s: read the ETag: %v", what, err)
	}
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  = make([]error, raceWriters)
	)
	for i := range raceWriters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = write(stores[i%len(stores)], tag, i)
		}()
	}
	close(start)
	wg.Wait()
	winners := 0
	for i, err := range errs {
		switch {
		case err == nil:
			winners++
		case !errors.Is(err, registry.ErrPrecondition):
			t.Errorf("%s: writer %d: %v, want success or ErrPrecondition", what, i, err)
		}
	}
	if winners != 1 {
		t.Errorf("%s: %d of %d writers holding one ETag succeeded, want exactly 1", what, winners, raceWriters)
		return false
	}
	return !t.Failed()
}
