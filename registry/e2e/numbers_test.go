package e2e_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// TestIntegersStoredPlain: integers written 1e2 or 1.0 are stored, and
// returned by GET and LIST, in plain integer form, which a Go client
// decodes into int32 and int64 fields; numbers that are not whole, outside
// int32, or past a bound by less than float64 can tell are refused; on each
// store.
func TestIntegersStoredPlain(t *testing.T) {
	onEachStore(t, func(t *testing.T, _ integrityStore, h httpc) { integerScenario(t, h) })
}

// serveStore serves a registry on s, on 127.0.0.1, until the test ends.
func serveStore(t *testing.T, s registry.Store) httpc {
	t.Helper()
	srv, err := server.New(context.Background(), server.Options{Store: s, Secrets: testSealer(t)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return httpc{t, ts.URL}
}

func integerScenario(t *testing.T, h httpc) {
	h.must(201, "PUT", rpPath+"Contoso.Numbers"+regVersion, `{}`)
	h.must(201, "PUT", rpPath+"Contoso.Numbers/resourceTypes/meters"+regVersion, `{}`)
	h.must(201, "PUT", rpPath+"Contoso.Numbers/resourceTypes/meters/apiVersions/2025-01-01"+regVersion,
		`{"properties":{"schema":{"type":"object","properties":{
			"count":{"type":"integer","format":"int32","maximum":100},
			"total":{"type":"integer"},
			"level":{"type":"number","minimum":0},
			"step":{"type":"integer","format":"int32","default":1e1}}}}}`)
	h.must(201, "PUT", rpPath+"Contoso.Numbers/locations/global"+regVersion, `{"properties":{"resourceTypes":{"meters":{"apiVersions":{"2025-01-01":{}}}}}}`)
	const (
		rg     = "/planes/radius/local/resourceGroups/rg"
		meters = rg + "/providers/Contoso.Numbers/meters"
		v      = "?api-version=2025-01-01"
	)
	h.must(201, "PUT", rg+regVersion, `{"location":"global"}`)

	put := h.must(201, "PUT", meters+"/m1"+v, `{"properties":{"count":1e2,"total":1.0,"level":2.50}}`)
	get := h.must(200, "GET", meters+"/m1"+v, "")
	list := h.must(200, "GET", meters+v, "")
	for what, body := range map[string][]byte{"PUT": put.body, "GET": get.body, "LIST": list.body} {
		if !strings.Contains(string(body), `"count":100,`) || !strings.Contains(string(body), `"total":1`) ||
			!strings.Contains(string(body), `"step":10`) || !strings.Contains(string(body), `"level":2.50`) {
			t.Errorf("%s body %s: integers not in plain form, or the number not as written", what, body)
		}
	}
	// What a generated Go client decodes into.
	type meter struct {
		Count int32   `json:"count"`
		Total int64   `json:"total"`
		Level float64 `json:"level"`
		Step  int32   `json:"step"`
	}
	var page api.List[struct {
		Properties meter `json:"properties"`
	}]
	if err := json.Unmarshal(list.body, &page); err != nil {
		t.Fatalf("LIST page does not decode: %v", err)
	}
	if want := []meter{{Count: 100, Total: 1, Level: 2.5, Step: 10}}; len(page.Value) != 1 || !cmp.Equal(want[0], page.Value[0].Properties) {
		t.Errorf("LIST = %+v, want %+v", page.Value, want)
	}

	for doc, want := range map[string]string{
		`{"count":2147483647.0000000001}`: "properties.count InvalidType",
		`{"count":2147483648}`:            "properties.count InvalidFormat",
		`{"count":100.00000000000000001}`: "properties.count InvalidType",
		`{"count":101}`:                   "properties.count OutOfRange",
		`{"level":-1e-400}`:               "properties.level OutOfRange",
		`{"total":9223372036854775808}`:   "properties.total OutOfRange",
	} {
		r := h.must(400, "PUT", meters+"/m2"+v, `{"properties":`+doc+`}`)
		if diff := cmp.Diff([]string{want}, details(t, r.body)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", doc, diff)
		}
	}
	h.must(404, "GET", meters+"/m2"+v, "")
}
