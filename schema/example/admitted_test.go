package example_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/goldentest"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/catalog"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
	"github.com/udtc/udtc/registry/store/sqlite"
	"github.com/udtc/udtc/schema/example"
)

// TestCatalogExamplesAreAdmitted publishes each catalog to a real registry
// (in process, SQLite, 127.0.0.1) and creates the example of every type
// and API version exactly as its catalog page shows it (the JSON snippet
// at its request's URL), in dependency order: parents and the examples it
// refers to first. Every PUT must succeed. The catalogs: every fixture
// that compiles, examples/, the Radius corpus (../shared/corpus) and
// synthetic catalogs of both profiles.
func TestCatalogExamplesAreAdmitted(t *testing.T) {
	root := goldentest.Root(t)
	for _, name := range goldentest.ValidCases(t) {
		t.Run(name, func(t *testing.T) { checkExamples(t, goldentest.Compile(t, name)) })
	}
	// The cases of udtc breaking: an old and a new catalog each.
	pairs, _ := filepath.Glob(filepath.Join(root, "fixtures", goldentest.PairPrefix+"*"))
	for _, dir := range pairs {
		for _, side := range []string{"old", "new"} {
			t.Run(filepath.Base(dir)+"/"+side, func(t *testing.T) {
				checkExamples(t, goldentest.CompilePaths(t, filepath.Join(dir, side)))
			})
		}
	}
	t.Run("examples", func(t *testing.T) { // the catalog of make run
		checkExamples(t, goldentest.CompilePaths(t, filepath.Join(root, "examples")))
	})
	t.Run("corpus", func(t *testing.T) {
		checkExamples(t, goldentest.CompilePaths(t, goldentest.Corpus(t)))
	})
	for _, profile := range synth.Profiles {
		t.Run("synth-"+profile, func(t *testing.T) {
			checkExamples(t, goldentest.Synthetic(t, synth.Options{Types: 50, Versions: 2, Namespaces: 3, Seed: 1, Profile: profile}))
		})
	}
}

// page is the example of one type's API version as its catalog page shows
// it.
type page struct {
	name     string   // "Contoso.Data/postgresDatabases@2025-01-01"
	id       string   // the example's resource ID
	request  string   // the page's request: "PUT URL"
	body     string   // its JSON snippet
	requires []string // IDs that must exist first: the parent's, the references'
}

func checkExamples(t *testing.T, cat *model.Catalog) {
	ctx := context.Background()
	regs := registration.Registrations(cat, registration.Options{})
	// The registry forwards the resources of a type served at an address;
	// here it stores them all, so that it admits every example itself.
	for i := range regs {
		for j := range regs[i].Locations {
			regs[i].Locations[j].Properties.Address = ""
		}
	}
	url := startRegistry(t)
	reg, err := client.New(url)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := publish.MakePlan(ctx, reg, regs, publish.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range publish.Apply(ctx, reg, plan, publish.ApplyOptions{Batch: true}).Failed {
		t.Fatalf("publish: %s %s: %v", f.Change.Action, f.Change.Name(), f.Err)
	}

	// The examples' resource group, as the catalog page says to create it.
	if status, body := do(t, "PUT", url+example.Group+"?api-version="+api.Version, `{"location":"global"}`); status != http.StatusOK && status != http.StatusCreated {
		t.Fatalf("PUT %s = %d %s", example.Group, status, body)
	}
	pages := examplePages(t, regs)
	if len(pages) == 0 {
		t.Fatal("no examples to create")
	}
	created := map[string]bool{}
	for len(pages) > 0 {
		var later []page
		for _, p := range pages {
			if !allCreated(p.requires, created) {
				later = append(later, p)
				continue
			}
			method, target, _ := strings.Cut(p.request, " ")
			if status, body := do(t, method, url+target, p.body); status != http.StatusOK && status != http.StatusCreated {
				t.Errorf("%s: %s = %d %s\nbody:\n%s", p.name, p.request, status, body, p.body)
			}
			created[strings.ToLower(p.id)] = true
		}
		if len(later) == len(pages) {
			for _, p := range later {
				t.Errorf("%s: its examples' dependencies %q are never created (a cycle?)", p.name, p.requires)
			}
			return
		}
		pages = later
	}
}

// examplePages returns the example of every type's API version as the
// catalog renders it from the registrations.
func examplePages(t *testing.T, regs []api.Registration) []page {
	c := catalog.New(catalog.FromRegistrations(regs))
	var out []page
	for _, reg := range regs {
		for _, rt := range reg.Types {
			typ := c.Lookup(reg.Namespace, rt.Type.Name)
			for _, v := range rt.APIVersions {
				tp, ok := c.TypePage(typ, v.Name, catalog.Options{})
				if !ok {
					t.Fatalf("no catalog page of %s@%s", typ.FullName, v.Name)
				}
				if len(tp.Snippets.Needs) > 0 {
					t.Errorf("%s@%s: the example needs input: %q", typ.FullName, v.Name, tp.Snippets.Needs)
					continue
				}
				p := page{name: typ.FullName + "@" + v.Name, id: example.ID(reg.Namespace, rt.Type.Name),
					request: tp.Snippets.Request, body: tp.Snippets.JSON, requires: tp.Snippets.Requires}
				if i := strings.LastIndexByte(rt.Type.Name, '/'); i > 0 {
					p.requires = append(p.requires, example.ID(reg.Namespace, rt.Type.Name[:i]))
				}
				out = append(out, p)
			}
		}
	}
	// The registry checks that a reference's target exists only for the
	// types it stores: references to others need no example first.
	stored := map[string]bool{}
	for _, p := range out {
		stored[strings.ToLower(p.id)] = true
	}
	for i, p := range out {
		var requires []string
		for _, id := range p.requires {
			if stored[strings.ToLower(id)] {
				requires = append(requires, id)
			}
		}
		out[i].requires = requires
	}
	return out
}

// allCreated reports whether every ID in ids was created.
func allCreated(ids []string, created map[string]bool) bool {
	for _, id := range ids {
		if !created[strings.ToLower(id)] {
			return false
		}
	}
	return true
}

// startRegistry serves a new registry over SQLite on 127.0.0.1.
func startRegistry(t *testing.T) string {
	t.Helper()
	store, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "registry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	sealer, err := secrets.New(bytes.Repeat([]byte{7}, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	srv, err := server.New(context.Background(), server.Options{Store: store, Secrets: sealer,
		Forward: server.ForwardOptions{Listen: []netip.AddrPort{netip.MustParseAddrPort(ts.Listener.Addr().String())}}})
	if err != nil {
		ts.Close()
		t.Fatal(err)
	}
	ts.Config.Handler = srv
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL
}

func do(t *testing.T, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
