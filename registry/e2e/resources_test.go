package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/postgres"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// integrityStore is a store whose database can be checked for orphans.
type integrityStore interface {
	registry.Store
	OrphanCount(context.Context) (int, error)
	InstanceOrphanCount(context.Context) (int, error)
}

// stores opens a fresh store of each kind: SQLite, and PostgreSQL (skipped
// when there is none).
var stores = []struct {
	name string
	open func(t *testing.T) integrityStore
}{
	{"sqlite", func(t *testing.T) integrityStore {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "registry.db"))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
	{"postgres", func(t *testing.T) integrityStore {
		s, err := postgres.Open(context.Background(), pg.NewDatabase(t))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}},
}

// onEachStore runs scenario on a fresh store of each kind, served on
// 127.0.0.1 (serveStore), as a subtest named after the store.
func onEachStore(t *testing.T, scenario func(t *testing.T, s integrityStore, h httpc)) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			t.Cleanup(func() { s.Close() }) // after the server's own cleanup
			scenario(t, s, serveStore(t, s))
		})
	}
}

// httpc is a plain HTTP client for a registry under test.
type httpc struct {
	t    *testing.T
	base string
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

func (h httpc) do(method, path, body string, headers ...string) reply {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.base+path, rd)
	if err != nil {
		h.t.Errorf("%s %s: %v", method, path, err)
		return reply{}
	}
	req.Header.Set("Content-Type", "application/json")
	for _, hd := range headers {
		k, v, _ := strings.Cut(hd, ": ")
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Errorf("%s %s: %v", method, path, err) // may run in a goroutine: no Fatal
		return reply{}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Errorf("%s %s: reading the body: %v", method, path, err)
		return reply{}
	}
	return reply{resp.StatusCode, resp.Header, b}
}

func (h httpc) must(status int, method, path, body string, headers ...string) reply {
	h.t.Helper()
	r := h.do(method, path, body, headers...)
	if r.status != status {
		h.t.Fatalf("%s %s = %d %s, want %d", method, path, r.status, r.body, status)
	}
	return r
}

// properties returns the properties object of a resource body.
func properties(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var in api.Instance
	if err := json.Unmarshal(body, &in); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var m map[string]any
	if err := json.Unmarshal(in.Properties, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// details returns "target code" of each detail of an error body.
func details(t *testing.T, body []byte) []string {
	t.Helper()
	var e api.ErrorResponse
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	var out []string
	for _, d := range e.Error.Details {
		out = append(out, d.Target+" "+d.Code)
	}
	slices.Sort(out)
	return out
}

const rpPath = "/planes/radius/local/providers/System.Resources/resourceProviders/"
const regVersion = "?api-version=" + api.Version

// registerGolden registers a fixture's provider through the registration
// API from its golden registration documents (what udtc publish sends),
// without the locations' addresses: the registry stores the resources
// itself (valid_child_types declares http://localhost:8080).
func registerGolden(h httpc, fixture string) { registerGoldenAt(h, fixture, "") }

// registerGoldenAt is registerGolden with every location's address
// replaced by address ("" drops it).
func registerGoldenAt(h httpc, fixture, address string) {
	h.t.Helper()
	root := filepath.Join("..", "..", "golden", fixture, "registration")
	nss, err := os.ReadDir(root)
	if err != nil {
		h.t.Fatalf("golden registration of %s: %v", fixture, err)
	}
	for _, ns := range nss {
		dir := filepath.Join(root, ns.Name())
		put := func(path, file string) {
			b, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				h.t.Fatal(err)
			}
			h.must(201, "PUT", rpPath+ns.Name()+path+regVersion, string(b))
		}
		put("", "provider.json")
		// types/<type>.json, and beside it types/<type>@<version>.json per
		// API version (docs/publish.md, "The documents on disk").
		types, _ := filepath.Glob(filepath.Join(dir, "types", "*.json"))
		types = slices.DeleteFunc(types, func(f string) bool { return strings.Contains(filepath.Base(f), "@") })
		// Parents first: contosoBuses before contosoBuses_queues.
		slices.SortFunc(types, func(a, b string) int { return strings.Count(a, "_") - strings.Count(b, "_") })
		for _, f := range types {
			name := strings.TrimSuffix(filepath.Base(f), ".json")
			put("/resourceTypes/"+name, filepath.Join("types", name+".json"))
			versions, _ := filepath.Glob(filepath.Join(dir, "types", name+"@*.json"))
			if len(versions) == 0 {
				h.t.Fatalf("golden registration of %s: no API version of %s/%s", fixture, ns.Name(), name)
			}
			for _, v := range versions {
				_, ver, _ := strings.Cut(strings.TrimSuffix(filepath.Base(v), ".json"), "@")
				put("/resourceTypes/"+name+"/apiVersions/"+ver, filepath.Join("types", name+"@"+ver+".json"))
			}
		}
		locs, _ := filepath.Glob(filepath.Join(dir, "locations", "*.json"))
		for _, l := range locs {
			name := strings.TrimSuffix(filepath.Base(l), ".json")
			b, err := os.ReadFile(l)
			if err != nil {
				h.t.Fatal(err)
			}
			var doc struct {
				Properties map[string]any `json:"properties"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				h.t.Fatal(err)
			}
			delete(doc.Properties, "address")
			if address != "" {
				doc.Properties["address"] = address
			}
			b, _ = json.Marshal(doc)
			h.must(201, "PUT", rpPath+ns.Name()+"/locations/"+name+regVersion, string(b))
		}
	}
}

// TestResourcesEndToEnd registers fixtures' types through the registration
// API and drives resources of them through the real handler, on each store.
func TestResourcesEndToEnd(t *testing.T) {
	onEachStore(t, func(t *testing.T, s integrityStore, h httpc) {
		resourceScenario(t, h)
		for name, count := range map[string]func(context.Context) (int, error){"registration": s.OrphanCount, "resource": s.InstanceOrphanCount} {
			if n, err := count(context.Background()); err != nil || n != 0 {
				t.Errorf("%s orphans = %d, %v", name, n, err)
			}
		}
	})
}

func resourceScenario(t *testing.T, h httpc) {
	for _, f := range []string{"valid_child_types", "valid_scalars", "valid_basic"} {
		registerGolden(h, f)
	}
	const (
		rg      = "/planes/radius/local/resourceGroups/rg"
		buses   = rg + "/providers/Contoso.Messaging/contosoBuses"
		bus1    = buses + "/bus1"
		v       = "?api-version=2025-01-01"
		widgets = rg + "/providers/Contoso.Scalars/widgets"
		wv      = "?api-version=2025-03-01"
	)
	h.must(404, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"basic"}}`) // no group yet
	h.must(201, "PUT", rg+regVersion, `{"location":"global"}`)

	// Valid resources, a child under its parent, in another registered location.
	r := h.must(201, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"basic"}}`)
	if got := properties(t, r.body); got["sku"] != "basic" || got["provisioningState"] != "Succeeded" {
		t.Errorf("bus1 properties = %v", got)
	}
	h.must(201, "PUT", bus1+"/queues/q1"+v, `{"properties":{"environment":"e","maxSizeInMegabytes":1024}}`)
	h.must(201, "PUT", buses+"/bus-east"+v, `{"location":"east","properties":{"environment":"e","sku":"standard"}}`)
	h.must(201, "PUT", buses+"/old"+"?api-version=2024-06-01-preview", `{"properties":{"environment":"e","sku":"anything"}}`)

	// Violations: every one, nothing stored.
	r = h.must(400, "PUT", buses+"/bus2"+v, `{"properties":{"environment":"e","sku":"gold","extra":1}}`)
	if diff := cmp.Diff([]string{"properties.extra UnknownProperty", "properties.sku InvalidEnum"}, details(t, r.body)); diff != "" {
		t.Errorf("bus2 details (-want +got):\n%s", diff)
	}
	h.must(404, "GET", buses+"/bus2"+v, "")
	r = h.must(400, "PUT", bus1+"/queues/q2"+v, `{"properties":{"environment":"e","maxSizeInMegabytes":0}}`)
	if diff := cmp.Diff([]string{"properties.maxSizeInMegabytes OutOfRange"}, details(t, r.body)); diff != "" {
		t.Errorf("q2 details (-want +got):\n%s", diff)
	}
	r = h.must(400, "PUT", widgets+"/w0"+wv, `{"properties":{"environment":"e","name":"W","tier":"gold","port":1024,"ratio":0.33,"email":"nope","id":"x"}}`)
	// A name already too short is not matched against its pattern.
	if diff := cmp.Diff([]string{
		"properties.email InvalidFormat", "properties.id InvalidFormat", "properties.name InvalidLength",
		"properties.port OutOfRange", "properties.ratio NotMultipleOf", "properties.tier InvalidEnum",
	}, details(t, r.body)); diff != "" {
		t.Errorf("widget details (-want +got):\n%s", diff)
	}
	h.must(400, "PUT", buses+"/b"+"?api-version=2023-01-01", `{"properties":{"environment":"e","sku":"basic"}}`)
	h.must(400, "PUT", rg+"/providers/Contoso.Messaging/contosoBuses/bus1/topics/t1?api-version=2025-06-01-preview", `{"location":"west"}`)

	// Defaults are stored; read-only values are dropped.
	h.must(201, "PUT", widgets+"/w1"+wv, `{"properties":{"environment":"e","name":"web-1","tier":"free","createdAt":"2020-01-01T00:00:00Z"}}`)
	got := properties(t, h.must(200, "GET", widgets+"/w1"+wv, "").body)
	want := map[string]any{"environment": "e", "name": "web-1", "tier": "free", "replicas": float64(2), "ratio": 0.5, "enabled": true, "nickname": nil, "provisioningState": "Succeeded"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored widget (-want +got):\n%s", diff)
	}
	h.must(201, "PUT", rg+"/providers/MyCompany.Resources/postgresDatabases/db?api-version=2025-01-01-preview",
		`{"properties":{"environment":"e","size":"M","status":{"binding":{"hostname":"h"}}}}`)
	if got := properties(t, h.must(200, "GET", rg+"/providers/MyCompany.Resources/postgresDatabases/db?api-version=2025-01-01-preview", "").body); got["status"] != nil {
		t.Errorf("read-only status stored: %v", got)
	}

	// References: a registered target type must exist.
	h.must(201, "PUT", rpPath+"Contoso.Refs"+regVersion, `{}`)
	h.must(201, "PUT", rpPath+"Contoso.Refs/resourceTypes/apps"+regVersion, `{}`)
	h.must(201, "PUT", rpPath+"Contoso.Refs/resourceTypes/apps/apiVersions/2025-01-01"+regVersion,
		`{"properties":{"schema":{"type":"object","properties":{"bus":{"type":"string","x-resource-type":"Contoso.Messaging/contosoBuses"}}}}}`)
	h.must(201, "PUT", rpPath+"Contoso.Refs/locations/global"+regVersion, `{"properties":{"resourceTypes":{"apps":{"apiVersions":{"2025-01-01":{}}}}}}`)
	apps := rg + "/providers/Contoso.Refs/apps"
	r = h.must(400, "PUT", apps+"/a1"+v, `{"properties":{"bus":"`+buses+`/nope"}}`)
	if diff := cmp.Diff([]string{"properties.bus ReferenceNotFound"}, details(t, r.body)); diff != "" || !strings.Contains(string(r.body), buses+"/nope") {
		t.Errorf("missing reference (-want +got):\n%s\n%s", diff, r.body)
	}
	h.must(201, "PUT", apps+"/a1"+v, `{"properties":{"bus":"`+buses+`/bus-east"}}`)
	h.must(200, "DELETE", buses+"/bus-east"+v, "") // not ownership
	h.must(200, "GET", apps+"/a1"+v, "")

	// Preconditions.
	etag := h.must(200, "GET", bus1+v, "").header.Get("ETag")
	h.must(412, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"standard"}}`, "If-None-Match: *")
	h.must(412, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"standard"}}`, `If-Match: "stale"`)
	h.must(200, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"standard"}}`, "If-Match: "+etag)
	h.must(412, "DELETE", bus1+v, "", "If-Match: "+etag)

	// Paging under a parent, following nextLink.
	for i := 2; i <= 5; i++ {
		h.must(201, "PUT", fmt.Sprintf("%s/queues/q%d%s", bus1, i, v), `{"properties":{"environment":"e"}}`)
	}
	var names []string
	next := bus1 + "/queues" + v + "&$top=2"
	pages := 0
	for next != "" && pages < 10 {
		var page api.List[api.Instance]
		if err := json.Unmarshal(h.must(200, "GET", next, "").body, &page); err != nil {
			t.Fatal(err)
		}
		pages++
		for _, in := range page.Value {
			names = append(names, in.Name)
		}
		next = ""
		if page.NextLink != "" {
			u, err := url.Parse(page.NextLink)
			if err != nil {
				t.Fatal(err)
			}
			next = u.RequestURI()
		}
	}
	if diff := cmp.Diff([]string{"q1", "q2", "q3", "q4", "q5"}, names); diff != "" || pages != 3 {
		t.Errorf("paged queues in %d pages (-want +got):\n%s", pages, diff)
	}

	// Cascades: a parent takes its children, a group everything in it.
	h.must(200, "DELETE", bus1+v, "")
	h.must(404, "GET", bus1+"/queues/q1"+v, "")
	h.must(201, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"basic"}}`)
	h.must(201, "PUT", bus1+"/queues/q1"+v, `{"properties":{"environment":"e"}}`)
	h.must(200, "DELETE", rg+regVersion, "")
	h.must(201, "PUT", rg+regVersion, `{}`)
	for _, p := range []string{bus1 + v, bus1 + "/queues/q1" + v, widgets + "/w1" + wv, apps + "/a1" + v} {
		h.must(404, "GET", p, "")
	}

	// Unregistering with resources: 409 naming how many, unless forced.
	h.must(201, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"basic"}}`)
	h.must(201, "PUT", bus1+"/queues/q1"+v, `{"properties":{"environment":"e"}}`)
	r = h.must(409, "DELETE", rpPath+"Contoso.Messaging/resourceTypes/contosoBuses/apiVersions/2025-01-01"+regVersion, "")
	if !strings.Contains(string(r.body), "1 resource") {
		t.Errorf("409 body %s does not name the count", r.body)
	}
	r = h.must(409, "DELETE", rpPath+"Contoso.Messaging"+regVersion, "")
	if !strings.Contains(string(r.body), "2 resources") {
		t.Errorf("409 body %s does not name the count", r.body)
	}
	h.must(200, "GET", bus1+"/queues/q1"+v, "")
	h.must(200, "DELETE", rpPath+"Contoso.Messaging"+regVersion+"&force=true", "")
	registerGolden(h, "valid_child_types")
	h.must(404, "GET", bus1+v, "")
	h.must(404, "GET", bus1+"/queues/q1"+v, "")
}

// TestResourceRaceLeavesNoOrphans races parent and group deletes on one
// server against child creates on another, both on one database (a SQLite
// file opened twice, as two processes would; one PostgreSQL database),
// then counts orphans in the database.
func TestResourceRaceLeavesNoOrphans(t *testing.T) {
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			var open func() (integrityStore, error)
			if kind == "sqlite" {
				path := filepath.Join(t.TempDir(), "registry.db")
				open = func() (integrityStore, error) { return sqlite.Open(context.Background(), path) }
			} else {
				dsn := pg.NewDatabase(t)
				open = func() (integrityStore, error) { return postgres.Open(context.Background(), dsn) }
			}
			var hs [2]httpc
			var sts [2]integrityStore
			for i := range hs {
				s, err := open()
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				srv, err := server.New(context.Background(), server.Options{Store: s, Secrets: testSealer(t)})
				if err != nil {
					t.Fatal(err)
				}
				ts := httptest.NewServer(srv)
				defer ts.Close()
				hs[i], sts[i] = httpc{t, ts.URL}, s
			}
			raceResources(t, hs[0], hs[1])
			for i, s := range sts {
				if n, err := s.InstanceOrphanCount(context.Background()); err != nil || n != 0 {
					t.Errorf("store %d: %d orphaned resources, %v", i, n, err)
				}
			}
		})
	}
}

func raceResources(t *testing.T, deleter, creator httpc) {
	deleter.must(201, "PUT", rpPath+"Race.Test"+regVersion, `{}`)
	deleter.must(201, "PUT", rpPath+"Race.Test/resourceTypes/parents"+regVersion, `{}`)
	deleter.must(201, "PUT", rpPath+"Race.Test/resourceTypes/parents/apiVersions/2025-01-01"+regVersion, `{"properties":{"schema":{}}}`)
	deleter.must(201, "PUT", rpPath+"Race.Test/resourceTypes/parents_children"+regVersion, `{}`)
	deleter.must(201, "PUT", rpPath+"Race.Test/resourceTypes/parents_children/apiVersions/2025-01-01"+regVersion, `{"properties":{"schema":{}}}`)
	deleter.must(201, "PUT", rpPath+"Race.Test/locations/global"+regVersion,
		`{"properties":{"resourceTypes":{"parents":{"apiVersions":{"2025-01-01":{}}},"parents/children":{"apiVersions":{"2025-01-01":{}}}}}}`)
	const v = "?api-version=2025-01-01"
	const rounds, workers, children = 12, 4, 4
	var created, refused atomicCounter
	for round := range rounds {
		group := fmt.Sprintf("/planes/radius/local/resourceGroups/g%d", round)
		deleter.must(201, "PUT", group+regVersion, `{}`)
		parents := group + "/providers/Race.Test/parents/"
		for p := range 3 {
			deleter.must(201, "PUT", fmt.Sprintf("%sp%d%s", parents, p, v), `{}`)
		}
		done := make(chan struct{})
		// The deletes of the first round start once a child exists, so the
		// race is exercised however the machine schedules the two sides.
		firstChild := make(chan struct{})
		var once sync.Once
		if round > 0 {
			once.Do(func() { close(firstChild) })
		}
		go func() {
			defer close(done)
			select {
			case <-firstChild:
			case <-time.After(10 * time.Second):
			}
			del := func(path string) {
				if r := deleter.do("DELETE", path, ""); r.status != 200 {
					t.Errorf("DELETE %s = %d %s", path, r.status, r.body)
				}
			}
			for p := range 3 {
				del(fmt.Sprintf("%sp%d%s", parents, p, v))
			}
			if round%2 == 0 {
				del(group + regVersion)
			}
		}()
		finished := make(chan struct{}, workers)
		for w := range workers {
			go func() {
				defer func() { finished <- struct{}{} }()
				for c := range children {
					path := fmt.Sprintf("%sp%d/children/w%dc%d%s", parents, (w+c)%3, w, c, v)
					switch r := creator.do("PUT", path, `{}`); r.status {
					case 201:
						created.add()
						once.Do(func() { close(firstChild) })
					case 404, 409:
						refused.add()
					default:
						t.Errorf("PUT %s = %d %s", path, r.status, r.body)
					}
				}
			}()
		}
		for range workers {
			<-finished
		}
		<-done
	}
	t.Logf("child creates: %d succeeded, %d refused", created.load(), refused.load())
	if created.load() == 0 {
		t.Error("no child create succeeded: the race was not exercised")
	}
}

type atomicCounter struct{ n atomic.Int64 }

func (c *atomicCounter) add()        { c.n.Add(1) }
func (c *atomicCounter) load() int64 { return c.n.Load() }

// TestForwardingEndToEnd: on each store, the types of a location with an
// address (valid_child_types, its address pointed at a loopback provider)
// are served by the provider: it receives exactly the admitted requests,
// and the registry stores none of their resources.
func TestForwardingEndToEnd(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			defer s.Close()
			type seen struct{ method, path, body, auth string }
			got := make(chan seen, 16)
			prov := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				got <- seen{r.Method, r.URL.Path, string(b), r.Header.Get("Authorization")}
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"served":"by the provider"}`)
			}))
			defer prov.Close()
			srv, err := server.New(context.Background(), server.Options{Store: s, Secrets: testSealer(t)})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			h := httpc{t, ts.URL}
			auth := "Authorization: Bearer not-for-the-provider"
			registerGoldenAt(h, "valid_child_types", prov.URL)
			const (
				rg   = "/planes/radius/local/resourceGroups/rg"
				bus1 = rg + "/providers/Contoso.Messaging/contosoBuses/bus1"
				v    = "?api-version=2025-01-01"
			)
			h.must(201, "PUT", rg+regVersion, `{}`, auth)
			h.must(400, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"gold"}}`, auth)
			h.must(400, "PUT", bus1+"/queues/q1"+v, `{"properties":{"environment":"e","maxSizeInMegabytes":0}}`, auth)
			r := h.must(200, "PUT", bus1+v, `{"properties":{"environment":"e","sku":"basic"}}`, auth)
			if string(r.body) != `{"served":"by the provider"}` {
				t.Errorf("PUT answered %s", r.body)
			}
			h.must(200, "GET", bus1+v, "")
			h.must(200, "DELETE", bus1+v, "", auth)
			close(got)
			var all []seen
			for s := range got {
				all = append(all, s)
			}
			want := []seen{
				{"PUT", bus1, `{"location":"global","properties":{"environment":"e","sku":"basic"}}`, ""},
				{"GET", bus1, "", ""},
				{"DELETE", bus1, "", ""},
			}
			if diff := cmp.Diff(want, all, cmp.AllowUnexported(seen{})); diff != "" {
				t.Errorf("the provider saw (-want +got):\n%s", diff)
			}
			id, _ := api.ParseResourceID(bus1)
			if _, err := s.GetInstance(context.Background(), id); !errors.Is(err, registry.ErrNotFound) {
				t.Errorf("the registry stored a forwarded resource: %v", err)
			}
		})
	}
}
