package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/server"
)

// fakeSync manages Contoso.Git; requests with "X-Test-Sync: yes" are its own.
type fakeSync struct{ status api.SyncStatus }

func (fakeSync) Repository() string                { return "https://git.example/types.git" }
func (fakeSync) Manages(ns string) bool            { return strings.EqualFold(ns, "Contoso.Git") }
func (fakeSync) IsSyncWriter(r *http.Request) bool { return r.Header.Get("X-Test-Sync") == "yes" }
func (s *fakeSync) Status() api.SyncStatus         { return s.status }

func TestSyncHooks(t *testing.T) {
	sync := &fakeSync{status: api.SyncStatus{Repository: "https://git.example/types.git", State: "synced", Namespaces: []string{"Contoso.Git"}}}
	f := newFixture(t, server.Options{Sync: sync})
	f.srv.SetReady(true)

	// Other writers get 409 naming the repository, in any case of the namespace.
	for _, p := range []string{rp + "/Contoso.Git", rp + "/contoso.git/resourceTypes/things", rp + "/Contoso.Git/locations/global"} {
		r := f.must(409, "PUT", p, `{"properties":{}}`, "Content-Type: application/json")
		if !strings.Contains(string(r.body), "https://git.example/types.git") || !strings.Contains(string(r.body), `"code":"Conflict"`) {
			t.Errorf("PUT %s: %s", p, r.body)
		}
		f.must(409, "DELETE", p, "")
	}
	// The sync itself, and other namespaces, may write.
	f.must(201, "PUT", rp+"/Contoso.Git", `{"properties":{}}`, "Content-Type: application/json", "X-Test-Sync: yes")
	f.must(201, "PUT", rp+"/Contoso.Other", `{"properties":{}}`, "Content-Type: application/json")
	// Reads are not guarded.
	f.must(200, "GET", rp+"/Contoso.Git", "")

	var st api.SyncStatus
	if err := json.Unmarshal(f.must(200, "GET", "!/sync/status", "").body, &st); err != nil || st.State != "synced" || st.Repository != sync.Repository() {
		t.Errorf("/sync/status: %+v %v", st, err)
	}
	if r := f.must(200, "GET", "!/readyz", ""); !strings.Contains(string(r.body), `"sync":"synced"`) {
		t.Errorf("/readyz: %s", r.body)
	}
	sync.status.State = "refused"
	sync.status.LastAppliedCommit = "1111111111111111111111111111111111111111"
	sync.status.Refused = &api.SyncRefusal{Commit: "2222222222222222222222222222222222222222", Diagnostics: []api.Diagnostic{{Rule: "type-invalid"}}}
	r := f.must(200, "GET", "!/readyz", "")
	if !strings.Contains(string(r.body), "refused commit 222222222222 of https://git.example/types.git (1 diagnostics, see /sync/status); serving 111111111111") {
		t.Errorf("/readyz with a refused commit: %s", r.body)
	}

	// Without a sync there is no status and nothing is guarded.
	plain := newFixture(t, server.Options{})
	plain.must(404, "GET", "!/sync/status", "")
	plain.must(201, "PUT", rp+"/Contoso.Git", `{"properties":{}}`, "Content-Type: application/json")
}

func TestApplyRegistrations(t *testing.T) {
	ctx := context.Background()
	checkSchema := func(schema json.RawMessage) []api.Diagnostic {
		if strings.Contains(string(schema), `"string"`) {
			return []api.Diagnostic{{Severity: "error", Rule: "schema-type-object", Path: "/type", Message: "the top-level schema must be an object"}}
		}
		return nil
	}
	f := newFixture(t, server.Options{CheckSchema: checkSchema})
	typeID := registry.TypeID("local", "Contoso.Tx", "things")
	ok := []server.RegistrationWrite{
		{ID: registry.ProviderID("local", "Contoso.Tx"), Body: api.ResourceProvider{}},
		{ID: typeID, Body: api.ResourceType{Properties: api.ResourceTypeProperties{Description: "first"}}},
		{ID: registry.APIVersionID("local", "Contoso.Tx", "things", "2025-01-01"), Body: api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"type":"object"}`)}}},
		{ID: registry.LocationID("local", "Contoso.Tx", "global"), Body: api.Location{Properties: api.LocationProperties{Address: "http://127.0.0.1:1"}}},
	}
	if err := f.srv.ApplyRegistrations(ctx, "git-sync test", ok); err != nil {
		t.Fatalf("ApplyRegistrations: %v", err)
	}
	thing := f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things", "").json(t)
	if thing["properties"].(map[string]any)["description"] != "first" || thing["systemData"].(map[string]any)["lastModifiedBy"] != "git-sync test" {
		t.Errorf("things after the batch: %v", thing)
	}
	f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things/apiVersions/2025-01-01", "")
	f.must(200, "GET", rp+"/Contoso.Tx/locations/global", "")
	before := f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things", "").body

	changeThing := server.RegistrationWrite{ID: typeID, Body: api.ResourceType{Properties: api.ResourceTypeProperties{Description: "second"}}}
	for _, tc := range []struct {
		name string
		last server.RegistrationWrite
		want string
	}{
		// Refused by the server's checks, before the store is asked.
		{"invalid schema", server.RegistrationWrite{ID: registry.APIVersionID("local", "Contoso.Tx", "things", "2025-02-01"),
			Body: api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"type":"string"}`)}}}, "/type: the top-level schema must be an object"},
		// Refused by the store, after the other writes of the batch.
		{"parent missing", server.RegistrationWrite{ID: registry.APIVersionID("local", "Contoso.Tx", "absent", "2025-02-01"),
			Body: api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{}`)}}}, "parent not found"},
	} {
		err := f.srv.ApplyRegistrations(ctx, "git-sync test", []server.RegistrationWrite{
			changeThing,
			{ID: registry.LocationID("local", "Contoso.Tx", "global")},
			{ID: registry.TypeID("local", "Contoso.Tx", "others"), Body: api.ResourceType{}},
			tc.last,
		})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ApplyRegistrations = %v, want an error containing %q", tc.name, err, tc.want)
		}
		if got := f.must(200, "GET", rp+"/Contoso.Tx/resourceTypes/things", "").body; string(got) != string(before) {
			t.Errorf("%s: things changed by a failed batch:\n%s\nwas\n%s", tc.name, got, before)
		}
		f.must(200, "GET", rp+"/Contoso.Tx/locations/global", "")
		f.must(404, "GET", rp+"/Contoso.Tx/resourceTypes/others", "")
	}
}

// The git sync reads through the service, in process: what it reads is
// what its requests would get (the summary and the location list of a
// provider), and a missing provider is client.IsNotFound, as its 404 is.
func TestServiceReadsAreTheRequests(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seed()
	ctx := context.Background()
	svc := f.srv.Service()
	sum, err := svc.ProviderSummary(ctx, api.DefaultPlane, "contoso.platform")
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	if want := f.must(200, "GET", "/planes/radius/local/providers/contoso.platform", "").body; !bytes.Equal(append(got, '\n'), want) {
		t.Errorf("service summary\n%s\nGET\n%s", got, want)
	}
	locs, err := svc.Locations(ctx, api.DefaultPlane, "Contoso.Platform")
	if err != nil {
		t.Fatal(err)
	}
	var list api.List[api.Location]
	if err := json.Unmarshal(f.must(200, "GET", provider+"/locations", "").body, &list); err != nil {
		t.Fatal(err)
	}
	for i := range locs {
		locs[i].ETag = "" // the body carries none
	}
	if diff := cmp.Diff(list.Value, locs); diff != "" {
		t.Errorf("service locations (-GET +service):\n%s", diff)
	}
	f.must(404, "GET", "/planes/radius/local/providers/Contoso.Missing", "")
	if _, err := svc.ProviderSummary(ctx, api.DefaultPlane, "Contoso.Missing"); !client.IsNotFound(err) {
		t.Errorf("summary of a missing provider: %v, want client.IsNotFound", err)
	}
	f.must(404, "GET", rp+"/Contoso.Missing/locations", "")
	if _, err := svc.Locations(ctx, api.DefaultPlane, "Contoso.Missing"); !client.IsNotFound(err) {
		t.Errorf("locations of a missing provider: %v, want client.IsNotFound", err)
	}
}
