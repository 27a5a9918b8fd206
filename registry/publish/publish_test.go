package publish_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// counting is a client of a test server that counts the writes that reach
// it: PUT and DELETE requests, and the writes of batches. With noBatch the
// server has no batch endpoint (404), as an older one.
type counting struct {
	*client.Client
	writes   atomic.Int64 // registrations written
	requests atomic.Int64 // PUT and DELETE requests
	batches  atomic.Int64 // POST of a batch
	noBatch  atomic.Bool
	tooBig   atomic.Bool // every batch is over the body limit (413)
}

func (c *counting) count(w http.ResponseWriter, r *http.Request) bool {
	switch {
	case r.Method == http.MethodPut || r.Method == http.MethodDelete:
		c.writes.Add(1)
		c.requests.Add(1)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/System.Resources/batch"):
		c.batches.Add(1)
		if c.noBatch.Load() {
			http.NotFound(w, r)
			return false
		}
		if c.tooBig.Load() {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return false
		}
		body, _ := io.ReadAll(r.Body)
		var req api.BatchRequest
		if json.Unmarshal(body, &req) == nil {
			c.writes.Add(int64(len(req.Requests)))
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	return true
}

func newRegistry(t *testing.T) *counting {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := server.New(context.Background(), server.Options{Store: st, Secrets: testSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	reg := &counting{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if reg.count(w, r) {
			srv.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(ts.Close)
	if reg.Client, err = client.New(ts.URL); err != nil {
		t.Fatal(err)
	}
	return reg
}

func version(name, schema string) api.APIVersion {
	return api.APIVersion{Name: name, Properties: api.APIVersionProperties{Schema: json.RawMessage(schema)}}
}

func registration(ns string, types map[string][]api.APIVersion, order ...string) api.Registration {
	r := api.Registration{Namespace: ns, Provider: api.ResourceProvider{Location: "global"}}
	served := map[string]api.LocationResourceType{}
	for _, name := range order {
		rt := api.RegisteredType{Type: api.ResourceType{Name: name, Properties: api.ResourceTypeProperties{
			DefaultAPIVersion: types[name][len(types[name])-1].Name, Description: "the " + name + " type"}}}
		rt.APIVersions = types[name]
		vs := map[string]api.LocationAPIVersion{}
		for _, v := range types[name] {
			vs[v.Name] = api.LocationAPIVersion{}
		}
		served[name] = api.LocationResourceType{APIVersions: vs}
		r.Types = append(r.Types, rt)
	}
	r.Locations = []api.Location{{Name: "global", Properties: api.LocationProperties{Address: "http://localhost:8080", ResourceTypes: served}}}
	return r
}

const obj = `{"type":"object","properties":{"size":{"type":"string"}}}`

func planFor(t *testing.T, reg *counting, want []api.Registration, prune bool) *publish.Plan {
	t.Helper()
	p, err := publish.MakePlan(context.Background(), reg, want, publish.Options{Prune: prune})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func apply(t *testing.T, reg *counting, p *publish.Plan) {
	t.Helper()
	res := publish.Apply(context.Background(), reg, p, publish.ApplyOptions{Batch: true})
	for _, f := range res.Failed {
		t.Errorf("failed: %s %s: %v", f.Change.Action, f.Change.Name(), f.Err)
	}
}

func lines(p *publish.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		if c.Action != publish.Unchanged {
			out = append(out, string(c.Action)+" "+c.Name())
		}
	}
	return out
}

func TestPublishLifecycle(t *testing.T) {
	reg := newRegistry(t)
	v1 := registration("Contoso.Bus", map[string][]api.APIVersion{
		"buses":        {version("2025-01-01", obj), version("2025-06-01", obj)},
		"buses/queues": {version("2025-01-01", obj)},
	}, "buses", "buses/queues")
	// Another namespace, not published below: prune must never touch it.
	other := registration("Other.Ns", map[string][]api.APIVersion{"things": {version("2025-01-01", `{}`)}}, "things")

	p := planFor(t, reg, []api.Registration{v1, other}, false)
	if p.Count(publish.Create) != 11 || p.Writes() != 11 {
		t.Fatalf("first plan: %v", lines(p))
	}
	// Parents are created before children.
	if diff := cmp.Diff([]string{
		"create Contoso.Bus", "create Other.Ns",
		"create Contoso.Bus/buses", "create Other.Ns/things", "create Contoso.Bus/buses/queues",
		"create Contoso.Bus/buses@2025-01-01", "create Contoso.Bus/buses@2025-06-01", "create Contoso.Bus/buses/queues@2025-01-01",
	}, lines(p)[:8]); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	apply(t, reg, p)

	// Second publish: nothing to write.
	before := reg.writes.Load()
	p = planFor(t, reg, []api.Registration{v1, other}, true)
	if p.Writes() != 0 {
		t.Fatalf("second plan writes: %v", lines(p))
	}
	apply(t, reg, p)
	if reg.writes.Load() != before {
		t.Fatalf("a no-op publish wrote %d times", reg.writes.Load()-before)
	}

	// Change: new type, changed schema, removed version, new description.
	v2 := registration("Contoso.Bus", map[string][]api.APIVersion{
		"buses":        {version("2025-06-01", `{"type":"object","properties":{"size":{"type":"string","enum":["S","M"]}}}`)},
		"buses/queues": {version("2025-01-01", obj)},
		"topics":       {version("2025-06-01", obj)},
	}, "buses", "buses/queues", "topics")
	v2.Types[0].Type.Properties.Description = "a bus"

	p = planFor(t, reg, []api.Registration{v2}, false)
	want := []string{
		"update Contoso.Bus/buses", "create Contoso.Bus/topics",
		"update Contoso.Bus/buses@2025-06-01", "create Contoso.Bus/topics@2025-06-01",
		"update Contoso.Bus location global",
	}
	if diff := cmp.Diff(want, lines(p)); diff != "" {
		t.Errorf("plan without prune (-want +got):\n%s", diff)
	}
	var schemaDiff []publish.FieldDiff
	for _, c := range p.Changes {
		if c.Kind == publish.KindAPIVersion && c.Action == publish.Update {
			schemaDiff = c.Diff
		}
	}
	if len(schemaDiff) != 1 || schemaDiff[0] != (publish.FieldDiff{Field: "size.enum", Old: "", New: "[S, M]"}) {
		t.Errorf("schema diff = %+v", schemaDiff)
	}

	p = planFor(t, reg, []api.Registration{v2}, true)
	// Locations are written after the deletes (a refused delete must leave
	// its type served).
	want = slices.Insert(want, 4, "delete Contoso.Bus/buses@2025-01-01")
	if diff := cmp.Diff(want, lines(p)); diff != "" {
		t.Errorf("plan with prune (-want +got):\n%s", diff)
	}
	before = reg.writes.Load()
	apply(t, reg, p)
	if got := reg.writes.Load() - before; got != int64(len(want)) {
		t.Errorf("writes = %d, want %d", got, len(want))
	}
	if p := planFor(t, reg, []api.Registration{v2}, true); p.Writes() != 0 {
		t.Errorf("after apply the registry should match: %v", lines(p))
	}

	// Prune a parent type: its children go with it, other namespaces stay.
	v3 := registration("Contoso.Bus", map[string][]api.APIVersion{"topics": {version("2025-06-01", obj)}}, "topics")
	p = planFor(t, reg, []api.Registration{v3}, true)
	apply(t, reg, p)
	sum, err := reg.ProviderSummary(context.Background(), "Contoso.Bus")
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.ResourceTypes) != 1 {
		t.Errorf("types after pruning: %v", sum.ResourceTypes)
	}
	if _, err := reg.ProviderSummary(context.Background(), "Other.Ns"); err != nil {
		t.Errorf("prune touched another namespace: %v", err)
	}
}

func TestPublishFailuresAreReported(t *testing.T) {
	for _, batches := range []bool{false, true} {
		reg := newRegistry(t)
		bad := registration("Contoso.Bad", map[string][]api.APIVersion{"things": {version("2025-01-01", `{"type":"object"}`)}}, "things")
		// A name the server rejects: the failure names the resource; others apply.
		bad.Types = append(bad.Types, api.RegisteredType{Type: api.ResourceType{Name: "bad_name!"}})
		// A schema the server rejects: its error has the server's details.
		bad.Types[0].APIVersions = append(bad.Types[0].APIVersions, version("2025-06-01", `["not an object"]`))
		p := planFor(t, reg, []api.Registration{bad}, false)
		opts := publish.ApplyOptions{}
		if batches {
			opts.Batch = true
		}
		res := publish.Apply(context.Background(), reg, p, opts)
		if len(res.Failed) != 2 || len(res.Applied) != p.Writes()-2 {
			t.Fatalf("batches=%v: failed=%+v applied=%d of %d", batches, res.Failed, len(res.Applied), p.Writes())
		}
		if f := res.Failed[0]; !strings.Contains(f.Change.Name(), "bad_name!") || !errors.Is(f.Err, client.ErrInvalidName) {
			t.Errorf("batches=%v: %s: %v", batches, f.Change.Name(), f.Err)
		}
		if f := res.Failed[1]; f.Change.Name() != "Contoso.Bad/things@2025-06-01" || client.StatusCode(f.Err) != 400 {
			t.Errorf("batches=%v: %s: %v", batches, f.Change.Name(), f.Err)
		}
	}
}

// TestPublishPartOfANamespace: publishing one file of a namespace without
// prune must not unregister the other types from its location; the plan
// names every type a location gains or loses; prune drops the rest.
func TestPublishPartOfANamespace(t *testing.T) {
	reg := newRegistry(t)
	both := registration("Contoso.Data", map[string][]api.APIVersion{
		"postgresDatabases": {version("2025-06-01", obj)},
		"redisCaches":       {version("2025-06-01", obj)},
	}, "postgresDatabases", "redisCaches")
	apply(t, reg, planFor(t, reg, []api.Registration{both}, false))

	served := func() []string {
		t.Helper()
		locs, err := reg.ListLocations(context.Background(), "Contoso.Data")
		if err != nil || len(locs) != 1 {
			t.Fatalf("locations: %v %v", locs, err)
		}
		var out []string
		for name, lt := range locs[0].Properties.ResourceTypes {
			for v := range lt.APIVersions {
				out = append(out, name+"@"+v)
			}
		}
		slices.Sort(out)
		return out
	}
	locationDiff := func(p *publish.Plan) []publish.FieldDiff {
		for _, c := range p.Changes {
			if c.Kind == publish.KindLocation {
				return c.Diff
			}
		}
		return nil
	}

	redis := registration("Contoso.Data", map[string][]api.APIVersion{"redisCaches": {version("2025-06-01", obj)}}, "redisCaches")
	p := planFor(t, reg, []api.Registration{redis}, false)
	if p.Writes() != 0 {
		t.Errorf("publishing a subset of what is registered writes: %v %+v", lines(p), locationDiff(p))
	}
	apply(t, reg, p)
	if diff := cmp.Diff([]string{"postgresDatabases@2025-06-01", "redisCaches@2025-06-01"}, served()); diff != "" {
		t.Errorf("location after publishing one type without prune (-want +got):\n%s", diff)
	}

	// A new type and a new version only add to the location, and the plan
	// says which.
	grow := registration("Contoso.Data", map[string][]api.APIVersion{
		"redisCaches":   {version("2025-06-01", obj), version("2025-09-01", obj)},
		"mongoClusters": {version("2025-06-01", obj)},
	}, "redisCaches", "mongoClusters")
	p = planFor(t, reg, []api.Registration{grow}, false)
	want := []publish.FieldDiff{
		{Field: "resourceTypes.mongoClusters", Old: "", New: "[2025-06-01]"},
		{Field: "resourceTypes.redisCaches", Old: "[2025-06-01]", New: "[2025-06-01, 2025-09-01]"},
	}
	if diff := cmp.Diff(want, locationDiff(p)); diff != "" {
		t.Errorf("location diff without prune (-want +got):\n%s", diff)
	}
	apply(t, reg, p)
	if diff := cmp.Diff([]string{"mongoClusters@2025-06-01", "postgresDatabases@2025-06-01", "redisCaches@2025-06-01", "redisCaches@2025-09-01"}, served()); diff != "" {
		t.Errorf("location after growing (-want +got):\n%s", diff)
	}

	// With prune the location lists exactly what is published.
	p = planFor(t, reg, []api.Registration{redis}, true)
	want = []publish.FieldDiff{
		{Field: "resourceTypes.mongoClusters", Old: "[2025-06-01]", New: ""},
		{Field: "resourceTypes.postgresDatabases", Old: "[2025-06-01]", New: ""},
		{Field: "resourceTypes.redisCaches", Old: "[2025-06-01, 2025-09-01]", New: "[2025-06-01]"},
	}
	if diff := cmp.Diff(want, locationDiff(p)); diff != "" {
		t.Errorf("location diff with prune (-want +got):\n%s", diff)
	}
	apply(t, reg, p)
	if diff := cmp.Diff([]string{"redisCaches@2025-06-01"}, served()); diff != "" {
		t.Errorf("location after prune (-want +got):\n%s", diff)
	}
}

// testSealer seals with a fixed key (tests only).
func testSealer(tb testing.TB) *secrets.Sealer {
	tb.Helper()
	s, err := secrets.New(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func TestSchemaDiffHasEveryValue(t *testing.T) {
	old := `{"type":"object","properties":{"size":{"type":"string","enum":["S","M","L"]},"a":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer","maximum":10}}}},` +
		`"gone":{"type":"string"},"tags":{"type":"object","additionalProperties":{"type":"string"}},"d":{"type":"string","description":"old text"}},"required":["size"]}`
	new := `{"type":"object","properties":{"size":{"type":"string","enum":["S","M"]},"a":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer","maximum":5}}}},` +
		`"added":{"type":"boolean","default":true},"tags":{"type":"object","additionalProperties":{"type":"integer"}},"d":{"type":"string","description":"new: text"},` +
		`"e":{"type":"string","default":"1.5"},"f":{"type":"string","x":"S","y":""}},"required":["size","added"]}`
	got := publish.SchemaDiffForTest([]byte(old), []byte(new))
	want := []publish.FieldDiff{
		{Field: "a[].n.maximum", Old: "10", New: "5"},
		{Field: "added", Old: "", New: "{default: true, type: boolean}"},
		{Field: "d.description", Old: `"old text"`, New: `"new: text"`},
		{Field: "e", Old: "", New: `{default: "1.5", type: string}`},
		{Field: "f", Old: "", New: `{type: string, x: S, y: ""}`},
		{Field: "gone", Old: "{type: string}", New: ""},
		{Field: "size.enum", Old: "[S, M, L]", New: "[S, M]"},
		{Field: "tags{}.type", Old: "string", New: "integer"},
		{Field: "required", Old: "[size]", New: "[size, added]"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("schema diff (-want +got):\n%s", diff)
	}
	if d := publish.SchemaDiffForTest([]byte(`{"type":"object"}`), []byte(`{ "type" : "object" }`)); len(d) != 0 {
		t.Errorf("spacing is a difference: %+v", d)
	}
	if d := publish.SchemaDiffForTest([]byte(`{"type":"object","required":["a"]}`), []byte(`{"required":["a"],"type":"object"}`)); len(d) != 0 {
		t.Errorf("key order is a difference: %+v", d)
	}
	if d := publish.SchemaDiffForTest([]byte(`{"maximum":1}`), []byte(`{"maximum":1.0}`)); len(d) != 1 {
		t.Errorf("1 and 1.0 = %+v, want one difference", d)
	}
}

// Apply sends each phase's writes in batches to a registry that takes
// them, and one by one, with the same outcome, to one that does not.
func TestApplyBatchesAndFallsBack(t *testing.T) {
	want := []api.Registration{
		registration("Contoso.Bus", map[string][]api.APIVersion{
			"buses":        {version("2025-01-01", obj), version("2025-06-01", obj)},
			"buses/queues": {version("2025-01-01", obj)},
		}, "buses", "buses/queues"),
		registration("Other.Ns", map[string][]api.APIVersion{"things": {version("2025-01-01", obj)}}, "things"),
	}
	for _, mode := range []string{"batches", "no batch endpoint", "batches too large"} {
		reg := newRegistry(t)
		reg.noBatch.Store(mode == "no batch endpoint")
		reg.tooBig.Store(mode == "batches too large")
		p := planFor(t, reg, want, false)
		apply(t, reg, p)
		if got := reg.writes.Load(); got != int64(p.Writes()) {
			t.Errorf("%s: %d writes reached the server, want %d", mode, got, p.Writes())
		}
		switch {
		case mode == "batches" && (reg.requests.Load() != 0 || reg.batches.Load() != 5):
			// providers, types, child types, API versions, locations
			t.Errorf("%s: %d requests, %d batches; want 0 and 5", mode, reg.requests.Load(), reg.batches.Load())
		case mode != "batches" && (reg.requests.Load() != int64(p.Writes()) || reg.batches.Load() != 1):
			t.Errorf("%s: %d requests, %d batches tried; want %d and 1", mode, reg.requests.Load(), reg.batches.Load(), p.Writes())
		}
		if p := planFor(t, reg, want, false); p.Writes() != 0 {
			t.Errorf("%s: the registry does not match after apply: %v", mode, lines(p))
		}
	}
}

// TestExpectedIsWhatTheRegistryHolds: after a plan is applied in full, the
// state Expected plans against, without reading the schemas back, is the
// state ReadState reads (else a publish could not replay its record), and
// a plan of it writes nothing.
func TestExpectedIsWhatTheRegistryHolds(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	spaced := "{ \"type\": \"object\",\n  \"properties\": {\"a<b>&c\": {\"type\": \"string\", \"description\": \"x \\u003c y\"}} }"
	full := registration("Contoso.Bus", map[string][]api.APIVersion{
		"buses":        {version("2025-01-01", obj), version("2025-06-01", spaced)},
		"buses/queues": {version("2025-01-01", obj)},
		"topics":       {version("2025-01-01", `{}`)},
	}, "buses", "buses/queues", "topics")
	full.Types[2].Type.Properties.Capabilities = []string{"SupportsRecipes"}
	other := registration("Other.Ns", map[string][]api.APIVersion{"things": {version("2025-01-01", `{}`)}}, "things")
	changed := registration("Contoso.Bus", map[string][]api.APIVersion{
		// Other casing than stored: the registry keeps the stored names.
		"Buses":              {version("2025-06-01", `{"type":"object"}`), version("2025-09-01", obj)},
		"Buses/Queues":       {version("2025-01-01", obj)},
		"Buses/Queues/Parts": {version("2025-01-01", obj)},
	}, "Buses", "Buses/Queues", "Buses/Queues/Parts")
	changed.Types[0].Type.Properties.Description = "a bus"
	part := registration("Contoso.Bus", map[string][]api.APIVersion{"lines": {version("2025-01-01", obj)}}, "lines")
	steps := []struct {
		name  string
		want  []api.Registration
		prune bool
	}{
		{"create", []api.Registration{full, other}, false},
		{"update", []api.Registration{changed}, false},
		{"part of a namespace", []api.Registration{part}, false},
		{"prune", []api.Registration{changed, other}, true},
		{"prune a parent type", []api.Registration{part}, true},
	}
	for _, s := range steps {
		opts := publish.Options{Prune: s.prune}
		p, err := publish.MakePlan(ctx, reg, s.want, opts)
		if err != nil {
			t.Fatal(err)
		}
		if p.Writes() == 0 {
			t.Fatalf("%s: nothing to write", s.name)
		}
		apply(t, reg, p)
		after, err := publish.Expected(ctx, reg, p)
		if err != nil {
			t.Fatal(err)
		}
		if after.Writes() != 0 {
			t.Errorf("%s: expected plan writes: %v", s.name, lines(after))
		}
		state, err := publish.ReadState(ctx, reg, publish.Namespaces(s.want))
		if err != nil {
			t.Fatal(err)
		}
		if after.State != state {
			read, _ := publish.MakePlan(ctx, reg, s.want, opts)
			t.Errorf("%s: Expected's state is not the registry's (read back: %d writes)", s.name, read.Writes())
		}
	}
}

// A null or absent schema is stored as {} (api.SchemaOrEmpty): a second
// publish of the same registration finds nothing to write, as for any
// other schema.
func TestNullSchemaSettles(t *testing.T) {
	reg := newRegistry(t)
	for _, schema := range []string{"null", ""} {
		ns := "Null.Schema" + map[string]string{"null": "A", "": "B"}[schema]
		want := []api.Registration{registration(ns, map[string][]api.APIVersion{"things": {version("2025-01-01", schema)}}, "things")}
		apply(t, reg, planFor(t, reg, want, false))
		if p := planFor(t, reg, want, false); p.Writes() != 0 {
			t.Errorf("schema %q: the second publish plans %v; want nothing", schema, lines(p))
		}
	}
}
