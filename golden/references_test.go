package golden_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	refids "github.com/udtc/udtc/golden/valid_references/go/contosorefs/resourceids"
	refs "github.com/udtc/udtc/golden/valid_references/go/contosorefs/v20250101"
)

// TestReferenceJSON: a known reference (x-resource-type naming one type of
// the same run) is that type's ID, marshalled as the ID string and parsed
// with the type check; other references are ResourceIDs of any type.
func TestReferenceJSON(t *testing.T) {
	const g = "/planes/radius/local/resourceGroups/rg"
	doc := `{"database": "` + g + `/providers/Contoso.Data/postgresDatabases/db",
	  "dependsOn": ["` + g + `/providers/Any.Thing/widgets/w/parts/p"],
	  "bus": "` + g + `/providers/contoso.refs/BUSES/b1",
	  "queues": {"main": "` + g + `/providers/Contoso.Refs/buses/b1/queues/q1"}}`
	var p refs.AppProperties
	if err := json.Unmarshal([]byte(doc), &p); err != nil {
		t.Fatal(err)
	}
	var bus refids.BusID = *p.Bus // the target's kind is known at compile time
	if bus.Name != "b1" || bus.Scope != g {
		t.Errorf("Bus = %+v", bus)
	}
	if q := p.Queues["main"]; q.Owner().Name != "b1" || q.Name != "q1" {
		t.Errorf("Queues[main] = %+v", q)
	}
	if p.Database.Namespace() != "Contoso.Data" || !slices.Equal(p.Database.Types(), []string{"postgresDatabases"}) || !slices.Equal(p.Database.Names(), []string{"db"}) {
		t.Errorf("Database = %v %v %v", p.Database.Namespace(), p.Database.Types(), p.Database.Names())
	}
	if got := p.DependsOn[0].Types(); !slices.Equal(got, []string{"widgets", "parts"}) {
		t.Errorf("DependsOn[0].Types() = %v", got)
	}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"bus":"` + g + `/providers/Contoso.Refs/buses/b1"`, `"main":"` + g + `/providers/Contoso.Refs/buses/b1/queues/q1"`,
		`"database":"` + g + `/providers/Contoso.Data/postgresDatabases/db"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("Marshal = %s, want %s", out, want)
		}
	}

	// The ID of another type, or no ID at all, does not unmarshal.
	for _, bad := range []string{
		`{"bus": "` + g + `/providers/Contoso.Refs/buses/b1/queues/q1"}`,
		`{"queues": {"x": "` + g + `/providers/Contoso.Refs/buses/b1"}}`,
		`{"bus": "b1"}`,
		`{"database": "not an id"}`,
	} {
		var p refs.AppProperties
		if err := json.Unmarshal([]byte(bad), &p); err == nil {
			t.Errorf("Unmarshal(%s) = %+v, want an error", bad, p)
		}
	}
}

// TestClientReferences: typed references go to the server as ID strings;
// one to a missing resource is refused with ReferenceNotFound.
func TestClientReferences(t *testing.T) {
	url, scope := testServer(t)
	ctx := context.Background()
	opts := refs.ClientOptions{Endpoint: url}
	busID, qID := refs.NewBusID(scope, "b1"), refs.NewBusQueueID(scope, "b1", "q1")
	if _, err := must(refs.NewBusClient(opts)).CreateOrUpdate(ctx, busID, &refs.Bus{Properties: &refs.BusProperties{Environment: refs.Ptr("env")}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := must(refs.NewBusQueueClient(opts)).CreateOrUpdate(ctx, qID, &refs.BusQueue{Properties: &refs.BusQueueProperties{Environment: refs.Ptr("env")}}, nil); err != nil {
		t.Fatal(err)
	}
	db, err := refs.ParseResourceID(scope + "/providers/Contoso.Data/postgresDatabases/db")
	if err != nil {
		t.Fatal(err)
	}
	// The author's environment is a reference: it keeps its type, and is
	// required as Radius's base property.
	env, err := refs.ParseResourceID(scope + "/providers/Applications.Core/environments/e")
	if err != nil {
		t.Fatal(err)
	}
	apps := must(refs.NewAppClient(opts))
	app := &refs.App{Properties: &refs.AppProperties{Environment: &env, Database: &db, Bus: &busID, Queues: map[string]refs.BusQueueID{"main": qID}}}
	got, err := apps.CreateOrUpdate(ctx, refs.NewAppID(scope, "a1"), app, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *got.Properties.Bus != busID || got.Properties.Queues["main"] != qID || got.Properties.Database.String() != db.String() {
		t.Errorf("stored references = %+v", got.Properties)
	}

	app.Properties.Queues["gone"] = refs.NewBusQueueID(scope, "b1", "nope")
	_, err = apps.CreateOrUpdate(ctx, refs.NewAppID(scope, "a2"), app, nil)
	var re *refs.ResponseError
	if !errors.As(err, &re) || re.StatusCode != http.StatusBadRequest {
		t.Fatalf("reference to a missing queue: %v, want a 400 *ResponseError", err)
	}
	if !slices.ContainsFunc(re.Details, func(d refs.ErrorDetail) bool {
		return d.Code == "ReferenceNotFound" && strings.Contains(d.Target, "gone")
	}) {
		t.Errorf("details = %+v, want ReferenceNotFound at properties.queues.gone", re.Details)
	}
}
