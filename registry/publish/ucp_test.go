package publish_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/internal/ucpfake"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
)

const ucpRP = "/planes/radius/local/providers/System.Resources/resourceproviders"

// ucpRegistry returns a fake UCP (with another provider's location
// "global" in its plane) and a detected client of it.
func ucpRegistry(t *testing.T) (*ucpfake.Server, *client.Client) {
	t.Helper()
	fake := ucpfake.Start(t)
	fake.Seed("local", "Other.Provider", "global", "http://other.example")
	c, err := client.New(fake.URL, client.WithOperations(client.Operations{Poll: 2 * time.Millisecond, MaxPoll: 10 * time.Millisecond, Busy: 10 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	if tgt, err := c.Detect(context.Background()); err != nil || tgt.Flavor != client.FlavorUCP {
		t.Fatalf("Detect = %+v, %v", tgt, err)
	}
	return fake, c
}

// ucpPlan plans want against the fake.
func ucpPlan(t *testing.T, c *client.Client, want []api.Registration, prune bool) *publish.Plan {
	t.Helper()
	p, err := publish.MakePlan(context.Background(), c, want, publish.Options{Prune: prune})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPublishToUCP: every write waits for its operation, so children are
// written only after their parent succeeded; a second publish writes
// nothing; another provider's location in UCP's plane-wide list is not
// taken for the namespace's; prune's deletes wait too.
func TestPublishToUCP(t *testing.T) {
	ctx := context.Background()
	fake, c := ucpRegistry(t)
	want := registration("Contoso.Data", map[string][]api.APIVersion{
		"caches": {version("2025-01-01", obj), version("2025-06-01", obj)},
		"queues": {version("2025-01-01", obj)},
	}, "caches", "queues")
	p := ucpPlan(t, c, []api.Registration{want}, false)
	if got := lines(p); len(got) != 7 || got[6] != "create Contoso.Data location global" {
		t.Fatalf("plan = %v; another provider's location leaked into it", got)
	}
	res := publish.Apply(ctx, c, p, publish.ApplyOptions{})
	if len(res.Failed) != 0 || len(res.Applied) != 7 {
		t.Fatalf("applied %d, failed %+v", len(res.Applied), res.Failed)
	}
	// Each write was sent after the operation of the one it needs
	// succeeded: the fake fails a child written earlier, as UCP does.
	for _, r := range fake.Requests() {
		if r.Status == http.StatusNotFound && r.Method != http.MethodGet {
			t.Errorf("%s %s = 404", r.Method, r.Path)
		}
	}
	for _, id := range []string{"/Contoso.Data", "/Contoso.Data/resourcetypes/caches/apiversions/2025-06-01", "/Contoso.Data/locations/global"} {
		if s := fake.State(ucpRP + id); s != "Succeeded" {
			t.Errorf("%s is %q", id, s)
		}
	}
	if p := ucpPlan(t, c, []api.Registration{want}, false); p.Writes() != 0 {
		t.Errorf("second plan: %v", lines(p))
	}
	less := registration("Contoso.Data", map[string][]api.APIVersion{"caches": {version("2025-06-01", obj)}}, "caches")
	p = ucpPlan(t, c, []api.Registration{less}, true)
	if res := publish.Apply(ctx, c, p, publish.ApplyOptions{}); len(res.Failed) != 0 {
		t.Fatalf("prune: %+v", res.Failed)
	}
	if s := fake.State(ucpRP + "/Contoso.Data/resourcetypes/queues"); s != "" {
		t.Errorf("pruned type is %q", s)
	}
	if p := ucpPlan(t, c, []api.Registration{less}, true); p.Writes() != 0 {
		t.Errorf("plan after prune: %v", lines(p))
	}
}

// TestPublishStopsAfterAFailedParent: a type whose operation fails (or is
// canceled) is reported failed with the operation's error, its API
// versions and the location serving it are not written, and other
// namespaces are applied.
func TestPublishStopsAfterAFailedParent(t *testing.T) {
	for _, state := range []string{"Failed", "Canceled"} {
		ctx := context.Background()
		fake, c := ucpRegistry(t)
		fake.Fail(ucpRP+"/Contoso.Data/resourcetypes/caches", state)
		bad := registration("Contoso.Data", map[string][]api.APIVersion{"caches": {version("2025-01-01", obj)}}, "caches")
		good := registration("Contoso.Other", map[string][]api.APIVersion{"things": {version("2025-01-01", obj)}}, "things")
		p := ucpPlan(t, c, []api.Registration{bad, good}, false)
		var waits atomic.Int32 // Waiting is called from the writes' goroutines
		res := publish.Apply(ctx, c, p, publish.ApplyOptions{Waiting: func(publish.Change, string, time.Duration) { waits.Add(1) }})
		var failed []string
		for _, f := range res.Failed {
			failed = append(failed, f.Change.Name())
			var oe *client.OperationError
			switch {
			case f.Change.Name() == "Contoso.Data/caches" && (!errors.As(f.Err, &oe) || oe.State != state):
				t.Errorf("%s: %s: %v, want its operation's %s", state, f.Change.Name(), f.Err, state)
			case f.Change.Name() != "Contoso.Data/caches" && !errors.Is(f.Err, publish.ErrDependencyFailed):
				t.Errorf("%s: %s: %v, want it not written", state, f.Change.Name(), f.Err)
			}
		}
		if got := strings.Join(failed, ", "); got != "Contoso.Data/caches, Contoso.Data/caches@2025-01-01, Contoso.Data location global" {
			t.Errorf("%s: failed %s", state, got)
		}
		if len(res.Applied) != 5 {
			t.Errorf("%s: applied %d, want Contoso.Data and all of Contoso.Other", state, len(res.Applied))
		}
		for _, r := range fake.Requests() {
			if r.Method == http.MethodPut && (strings.Contains(r.Path, "/caches/apiversions/") || strings.Contains(r.Path, "Contoso.Data/locations/")) {
				t.Errorf("%s: %s was written after its type failed", state, r.Path)
			}
		}
		if waits.Load() == 0 {
			t.Errorf("%s: no write reported waiting", state)
		}
	}
}

// TestForUCP: a namespace UCP cannot hold is refused whole, one line per
// problem; the others are kept.
func TestForUCP(t *testing.T) {
	child := registration("Contoso.Bus", map[string][]api.APIVersion{"buses": {version("2025-01-01", obj)}, "buses/queues": {version("2025-01-01", obj)}}, "buses", "buses/queues")
	child.Types[0].Type.Properties.Capabilities = []string{"SupportsRecipes"}
	ok := registration("Contoso.Data", map[string][]api.APIVersion{"caches": {version("2025-01-01", obj)}}, "caches")
	kept, refused := publish.ForUCP([]api.Registration{child, ok})
	if len(kept) != 1 || kept[0].Namespace != "Contoso.Data" {
		t.Errorf("kept %+v", kept)
	}
	want := []string{
		"Contoso.Bus: not published to Radius: capability SupportsRecipes of buses (UCP knows only ManualResourceProvisioning)",
		"Contoso.Bus: not published to Radius: child resource type buses/queues (UCP has no child types)",
	}
	if strings.Join(refused, "\n") != strings.Join(want, "\n") {
		t.Errorf("refused:\n%s\nwant:\n%s", strings.Join(refused, "\n"), strings.Join(want, "\n"))
	}
}

// TestPruneToUCPMeetsResources: UCP deletes a type whatever resources it
// has and leaves them behind, unusable; the plan counts them (listed
// plane-wide) and refuses the delete up front, with no write; with
// DeleteResources each resource is deleted before the type, and a second
// plan has nothing to do.
func TestPruneToUCPMeetsResources(t *testing.T) {
	ctx := context.Background()
	fake, c := ucpRegistry(t)
	both := registration("Contoso.Data", map[string][]api.APIVersion{
		"caches": {version("2025-01-01", obj)}, "queues": {version("2025-01-01", obj)}}, "caches", "queues")
	if res := publish.Apply(ctx, c, ucpPlan(t, c, []api.Registration{both}, false), publish.ApplyOptions{}); len(res.Failed) != 0 {
		t.Fatalf("publish: %+v", res.Failed)
	}
	fake.SeedResource("local", "rg1", "Contoso.Data", "queues", "q1")
	fake.SeedResource("local", "rg2", "Contoso.Data", "queues", "q2")
	fake.SeedResource("local", "rg1", "Contoso.Data", "caches", "c1")

	less := registration("Contoso.Data", map[string][]api.APIVersion{"caches": {version("2025-01-01", obj)}}, "caches")
	writes := func() int {
		n := 0
		for _, r := range fake.Requests() {
			if r.Method != http.MethodGet {
				n++
			}
		}
		return n
	}
	before := writes()
	p := ucpPlan(t, c, []api.Registration{less}, true)
	if r := p.Refused(); len(r) != 1 || r[0].Name() != "Contoso.Data/queues" || r[0].Resources != 2 {
		t.Fatalf("refused = %+v", r)
	}
	if n := writes() - before; n != 0 {
		t.Errorf("planning wrote %d times", n)
	}

	p, err := publish.MakePlan(ctx, c, []api.Registration{less}, publish.Options{Prune: true, DeleteResources: true})
	if err != nil {
		t.Fatal(err)
	}
	if n, unknown := p.ResourcesDeleted(); len(p.Refused()) != 0 || n != 2 || unknown {
		t.Fatalf("with DeleteResources: refused %+v, deletes %d resources (unknown %v)", p.Refused(), n, unknown)
	}
	if res := publish.Apply(ctx, c, p, publish.ApplyOptions{}); len(res.Failed) != 0 {
		t.Fatalf("prune: %+v", res.Failed)
	}
	if got := fake.Resources(); len(got) != 1 || !strings.HasSuffix(got[0], "/caches/c1") {
		t.Errorf("resources left: %v, want only caches/c1", got)
	}
	if s := fake.State(ucpRP + "/Contoso.Data/resourcetypes/queues"); s != "" {
		t.Errorf("pruned type is %q", s)
	}
	if p := ucpPlan(t, c, []api.Registration{less}, true); p.Writes() != 0 || len(p.Refused()) != 0 {
		t.Errorf("plan after prune: %v", lines(p))
	}
}
