package publish_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
)

// stored is a registration of Contoso.Bus whose location serves its types
// at no address: the registry stores their resources itself.
func stored(types ...string) api.Registration {
	vs := map[string][]api.APIVersion{}
	for _, typ := range types {
		vs[typ] = []api.APIVersion{version("2025-01-01", obj)}
	}
	r := registration("Contoso.Bus", vs, types...)
	r.Locations[0].Properties.Address = ""
	return r
}

// putResource creates resource name of type typ (API version 2025-01-01)
// in group rg.
func putResource(t *testing.T, c *client.Client, typ, name string) error {
	t.Helper()
	ctx := context.Background()
	if _, err := c.PutResourceGroup(ctx, "rg", api.ResourceGroup{Location: "global"}); err != nil {
		t.Fatal(err)
	}
	id, err := api.ParseResourceID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Bus/" + typ + "/" + name)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.PutInstance(ctx, id, "2025-01-01", api.Instance{Location: "global", Properties: []byte(`{}`)})
	return err
}

// TestPruneMeetsResources: a prune whose delete the registry would refuse
// (the type still has resources) says so in the plan, before any write;
// with DeleteResources the plan deletes them with the type, counted, and
// a second plan has nothing to do.
func TestPruneMeetsResources(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	apply(t, reg, planFor(t, reg, []api.Registration{stored("buses", "topics")}, false))
	for _, name := range []string{"t1", "t2"} {
		if err := putResource(t, reg.Client, "topics", name); err != nil {
			t.Fatal(err)
		}
	}

	before := reg.writes.Load()
	p := planFor(t, reg, []api.Registration{stored("buses")}, true)
	refused := p.Refused()
	if len(refused) != 1 || refused[0].Name() != "Contoso.Bus/topics" || refused[0].Resources != 2 ||
		refused[0].Refused != "it still has 2 resources" {
		t.Fatalf("refused = %+v; plan %v", refused, lines(p))
	}
	if got := reg.writes.Load() - before; got != 0 {
		t.Errorf("planning wrote %d times", got)
	}
	var text bytes.Buffer
	p.WriteText(&text, "server", "local", false)
	for _, want := range []string{
		"  - delete    resourceType     Contoso.Bus/topics\n      ! refused by the registry: it still has 2 resources\n",
		"1 to delete (1 refused)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("plan text lacks %q:\n%s", want, text.String())
		}
	}

	p, err := publish.MakePlan(ctx, reg, []api.Registration{stored("buses")}, publish.Options{Prune: true, DeleteResources: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Refused()) != 0 {
		t.Fatalf("refused with DeleteResources: %+v", p.Refused())
	}
	if n, unknown := p.ResourcesDeleted(); n != 2 || unknown {
		t.Errorf("ResourcesDeleted = %d, %v; want 2", n, unknown)
	}
	text.Reset()
	p.WriteText(&text, "server", "local", false)
	for _, want := range []string{"Contoso.Bus/topics and its 2 resources\n", "1 to delete (with 2 resources)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("plan text lacks %q:\n%s", want, text.String())
		}
	}
	apply(t, reg, p)
	if p := planFor(t, reg, []api.Registration{stored("buses")}, true); p.Writes() != 0 {
		t.Errorf("after apply: %v", lines(p))
	}
	id, _ := api.ParseResourceID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Bus/topics/t1")
	if _, err := reg.GetInstance(ctx, id, "2025-01-01"); !client.IsNotFound(err) {
		t.Errorf("resource after the forced delete: %v", err)
	}
}

// TestPruneRefusedAtApplyKeepsTypeUsable: a resource created after the
// plan was made makes the registry refuse the type's delete halfway; the
// location still serves the type, so it stays usable, and the next plan
// names the refusal up front.
func TestPruneRefusedAtApplyKeepsTypeUsable(t *testing.T) {
	ctx := context.Background()
	for _, batch := range []bool{false, true} {
		reg := newRegistry(t)
		apply(t, reg, planFor(t, reg, []api.Registration{stored("buses", "topics")}, false))
		p := planFor(t, reg, []api.Registration{stored("buses")}, true)
		if len(p.Refused()) != 0 {
			t.Fatalf("refused: %+v", p.Refused())
		}
		if err := putResource(t, reg.Client, "topics", "late"); err != nil {
			t.Fatal(err)
		}
		res := publish.Apply(ctx, reg, p, publish.ApplyOptions{Batch: batch})
		if len(res.Failed) != 1 || res.Failed[0].Change.Name() != "Contoso.Bus/topics" || client.StatusCode(res.Failed[0].Err) != 409 {
			t.Fatalf("batch=%v: failed = %+v", batch, res.Failed)
		}
		loc, err := reg.GetLocation(ctx, "Contoso.Bus", "global")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := loc.Properties.ResourceTypes["topics"]; !ok {
			t.Errorf("batch=%v: the location no longer serves topics: %+v", batch, loc.Properties.ResourceTypes)
		}
		if err := putResource(t, reg.Client, "topics", "another"); err != nil {
			t.Errorf("batch=%v: a PUT of the type whose delete was refused: %v", batch, err)
		}
		if p := planFor(t, reg, []api.Registration{stored("buses")}, true); len(p.Refused()) != 1 || p.Refused()[0].Resources != 2 {
			t.Errorf("batch=%v: the next plan's refusals: %+v", batch, p.Refused())
		}
	}
}

// TestPruneCountsChildTypesOnce: a parent type's delete meets its child
// types' resources too; when both are deleted, the plan counts each
// resource once.
func TestPruneCountsChildTypesOnce(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	apply(t, reg, planFor(t, reg, []api.Registration{stored("buses", "buses/queues", "topics")}, false))
	if err := putResource(t, reg.Client, "buses", "b1"); err != nil {
		t.Fatal(err)
	}
	if err := putResource(t, reg.Client, "buses/b1/queues", "q1"); err != nil {
		t.Fatal(err)
	}
	p := planFor(t, reg, []api.Registration{stored("topics")}, true)
	got := map[string]int{}
	for _, c := range p.Refused() {
		got[c.Name()] = c.Resources
	}
	if len(got) != 2 || got["Contoso.Bus/buses"] != 2 || got["Contoso.Bus/buses/queues"] != 1 {
		t.Errorf("refused: %v, want buses with 2 resources and buses/queues with 1", got)
	}
	p, err := publish.MakePlan(ctx, reg, []api.Registration{stored("topics")}, publish.Options{Prune: true, DeleteResources: true})
	if err != nil {
		t.Fatal(err)
	}
	if n, unknown := p.ResourcesDeleted(); n != 2 || unknown {
		t.Errorf("ResourcesDeleted = %d, %v; want 2", n, unknown)
	}
	apply(t, reg, p)
	if p := planFor(t, reg, []api.Registration{stored("topics")}, true); p.Writes() != 0 {
		t.Errorf("after apply: %v", lines(p))
	}
}

// TestPruneKeepsLocationOfRefusedType: a location the manifests no longer
// declare is not deleted while a type it serves stays registered because
// its delete was refused.
func TestPruneKeepsLocationOfRefusedType(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	two := stored("buses", "topics")
	east := two.Locations[0]
	east.Name = "east"
	two.Locations = append(two.Locations, east)
	apply(t, reg, planFor(t, reg, []api.Registration{two}, false))
	p := planFor(t, reg, []api.Registration{stored("buses")}, true)
	if err := putResource(t, reg.Client, "topics", "late"); err != nil {
		t.Fatal(err)
	}
	res := publish.Apply(ctx, reg, p, publish.ApplyOptions{})
	var failed []string
	for _, f := range res.Failed {
		failed = append(failed, f.Change.Name())
	}
	if strings.Join(failed, ", ") != "Contoso.Bus/topics, Contoso.Bus location east" {
		t.Errorf("failed: %v", failed)
	}
	if _, err := reg.GetLocation(ctx, "Contoso.Bus", "east"); err != nil {
		t.Errorf("location east: %v", err)
	}
}
