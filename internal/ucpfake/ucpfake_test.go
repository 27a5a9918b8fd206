package ucpfake

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/ucpspec"
	"github.com/udtc/udtc/registry/api"
)

const rp = api.BasePath + "/planes/radius/local/providers/System.Resources/resourceproviders"

type answer struct {
	status int
	header http.Header
	body   map[string]any
}

// call sends a request to the fake and, for operations of the
// description, checks the exchange against it.
func call(t *testing.T, s *Server, spec *ucpspec.Spec, method, target, body string) answer {
	t.Helper()
	if !strings.Contains(target, "?") && !strings.HasPrefix(target, "http") {
		target += "?api-version=" + api.Version
	}
	if !strings.HasPrefix(target, "http") {
		target = s.URL + target
	}
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.Header.Get(api.VersionHeader) != "" {
		t.Errorf("the fake names itself udtc")
	}
	if spec != nil {
		if _, err := spec.Check(ucpspec.Exchange{Request: req, RequestBody: []byte(body), Status: resp.StatusCode, Header: resp.Header, Body: data}); err != nil {
			t.Error(err)
		}
	}
	a := answer{status: resp.StatusCode, header: resp.Header}
	_ = json.Unmarshal(data, &a.body)
	return a
}

// poll polls the operation of a write answer until it ends and returns
// its status.
func poll(t *testing.T, s *Server, a answer) map[string]any {
	t.Helper()
	for range 10 {
		st := call(t, s, nil, "GET", a.header.Get("Azure-AsyncOperation"), "")
		if st.status != 200 {
			t.Fatalf("operation status = %d %v", st.status, st.body)
		}
		if st.body["endTime"] != nil {
			return st.body
		}
	}
	t.Fatal("the operation does not end")
	return nil
}

// TestFakeAnswersAsUCP: the fake's answers follow the description, and its
// operations behave as UCP's backend.
func TestFakeAnswersAsUCP(t *testing.T) {
	spec := ucpspec.Load(t)
	s := Start(t)
	s.RetryAfter = 1
	if a := call(t, s, nil, "GET", api.BasePath, ""); a.status != 200 || a.body["kind"] != "APIResourceList" {
		t.Errorf("GET base = %d %v", a.status, a.body)
	}
	put := call(t, s, spec, "PUT", rp+"/Contoso.Data", `{"location":"global","properties":{}}`)
	if put.status != 201 || put.header.Get("Retry-After") != "1" || put.body["properties"].(map[string]any)["provisioningState"] != "Accepted" {
		t.Fatalf("PUT provider = %d %v %v", put.status, put.header, put.body)
	}
	if a := call(t, s, spec, "PUT", rp+"/Contoso.Data", `{"location":"global","properties":{}}`); a.status != 409 ||
		!api.InProgress(a.status, "Conflict", a.body["error"].(map[string]any)["message"].(string)) {
		t.Errorf("PUT while in progress = %d %v", a.status, a.body)
	}
	// A type written before its provider's operation ended fails.
	typ := call(t, s, spec, "PUT", rp+"/Contoso.Data/resourcetypes/buses", `{"properties":{"capabilities":[]}}`)
	if st := poll(t, s, put); st["status"] != "Succeeded" {
		t.Errorf("provider operation = %v", st)
	}
	if st := poll(t, s, typ); st["status"] != "Failed" {
		t.Errorf("type operation = %v, want Failed: its provider had not succeeded", st)
	}
	typ = call(t, s, spec, "PUT", rp+"/Contoso.Data/resourcetypes/buses", `{"properties":{"capabilities":[]}}`)
	if st := poll(t, s, typ); st["status"] != "Succeeded" {
		t.Errorf("type operation = %v", st)
	}
	if a := call(t, s, nil, "GET", typ.header.Get("Location"), ""); a.status != 204 {
		t.Errorf("operation result = %d", a.status)
	}
	call(t, s, spec, "GET", rp+"/Contoso.Data/resourcetypes/buses", "")
	call(t, s, spec, "GET", rp+"/Contoso.Data/resourcetypes", "")
	call(t, s, spec, "GET", api.BasePath+"/planes/radius/local/providers/Contoso.Data", "")
	// What UCP refuses.
	for target, want := range map[string]int{
		rp + "/Contoso.Data/resourcetypes/buses_queues":                                  400,
		rp + "/Contoso.Data/resourceTypes/buses":                                         404,
		"/planes/radius/local/providers/System.Resources/resourceproviders/Contoso.Data": 404,
	} {
		if a := call(t, s, nil, "PUT", target, `{"properties":{}}`); a.status != want {
			t.Errorf("PUT %s = %d %v, want %d", target, a.status, a.body, want)
		}
	}
	if a := call(t, s, spec, "PUT", rp+"/Contoso.Data/resourcetypes/caches", `{"properties":{"capabilities":["SupportsRecipes"]}}`); a.status != 400 {
		t.Errorf("unknown capability = %d", a.status)
	}
	if a := call(t, s, nil, "POST", api.BasePath+"/planes/radius/local/providers/System.Resources/batch", `{}`); a.status != 404 {
		t.Errorf("batch = %d", a.status)
	}
	del := call(t, s, spec, "DELETE", rp+"/Contoso.Data", "")
	if del.status != 202 || poll(t, s, del)["status"] != "Succeeded" {
		t.Fatalf("DELETE = %d", del.status)
	}
	if a := call(t, s, spec, "DELETE", rp+"/Contoso.Data", ""); a.status != 204 {
		t.Errorf("DELETE again = %d", a.status)
	}
	if s.State(rp[len(api.BasePath):]+"/Contoso.Data/resourcetypes/buses") != "" {
		t.Errorf("the provider's delete left its type")
	}
}
