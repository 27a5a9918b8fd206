package e2e_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// TestLifecycleHeadersAndSunset follows a deprecated API version on each
// store: requests for its resources carry Deprecation, Sunset and Warning;
// after the sunset a new resource is refused with the replacement named,
// while reads, updates, lists and deletes of existing ones keep working.
func TestLifecycleHeadersAndSunset(t *testing.T) {
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			s := st.open(t)
			t.Cleanup(func() { s.Close() })
			var now atomic.Pointer[time.Time]
			set := func(v string) {
				tm, err := time.Parse(time.DateOnly, v)
				if err != nil {
					t.Fatal(err)
				}
				now.Store(&tm)
			}
			set("2026-03-01")
			srv, err := server.New(context.Background(), server.Options{Store: s, Secrets: testSealer(t), Now: func() time.Time { return *now.Load() }})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv)
			t.Cleanup(ts.Close)
			lifecycleScenario(t, httpc{t, ts.URL}, set)
		})
	}
}

func lifecycleScenario(t *testing.T, h httpc, setNow func(string)) {
	const (
		ns     = rpPath + "Contoso.Data"
		typ    = ns + "/resourceTypes/postgresDatabases"
		rg     = "/planes/radius/local/resourceGroups/rg"
		dbs    = rg + "/providers/Contoso.Data/postgresDatabases"
		old    = "?api-version=2025-01-01-preview"
		schema = `"schema":{"type":"object","properties":{"size":{"type":"string"}}}`
	)
	h.must(201, "PUT", ns+regVersion, `{}`)
	h.must(201, "PUT", typ+regVersion, `{}`)
	// A lifecycle that does not hold is refused, naming the field.
	for _, bad := range []string{
		`{"deprecated":"2026-06-01","sunset":"2026-05-01"}`,
		`{"deprecated":"2026-06-01","replacement":"2024-01-01"}`,
		`{"deprecated":"June"}`,
	} {
		r := h.must(400, "PUT", typ+"/apiVersions/2025-01-01-preview"+regVersion, `{"properties":{`+schema+`,"lifecycle":`+bad+`}}`)
		if !strings.Contains(string(r.body), "lifecycle") {
			t.Errorf("lifecycle %s refused with %s, which does not name it", bad, r.body)
		}
	}
	lc := `{"deprecated":"2026-01-01","sunset":"2026-06-01","replacement":"2025-09-01","message":"Use 2025-09-01, which adds \"high availability\"."}`
	r := h.must(201, "PUT", typ+"/apiVersions/2025-01-01-preview"+regVersion, `{"properties":{`+schema+`,"lifecycle":`+lc+`}}`)
	if !strings.Contains(string(r.body), `"lifecycle":`+lc) {
		t.Errorf("PUT of the API version answered %s, without its lifecycle", r.body)
	}
	if r := h.must(200, "GET", typ+"/apiVersions/2025-01-01-preview"+regVersion, ""); !strings.Contains(string(r.body), `"lifecycle":`+lc) {
		t.Errorf("GET of the API version = %s, without its lifecycle", r.body)
	}
	h.must(201, "PUT", typ+"/apiVersions/2025-09-01"+regVersion, `{"properties":{`+schema+`}}`)
	h.must(201, "PUT", ns+"/locations/global"+regVersion, `{"properties":{"resourceTypes":{"postgresDatabases":{"apiVersions":{"2025-01-01-preview":{},"2025-09-01":{}}}}}}`)
	h.must(201, "PUT", rg+regVersion, `{"location":"global"}`)

	wantHeaders := func(what string, r reply) {
		t.Helper()
		if got := r.header.Get("Deprecation"); got != "@1767225600" {
			t.Errorf("%s: Deprecation = %q, want @1767225600", what, got)
		}
		if got := r.header.Get("Sunset"); got != "Mon, 01 Jun 2026 00:00:00 GMT" {
			t.Errorf("%s: Sunset = %q", what, got)
		}
		msg, ok := api.ParseWarning(r.header.Get("Warning"))
		if !ok || !strings.Contains(msg, "Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated from 2026-01-01") ||
			!strings.Contains(msg, `adds "high availability"`) {
			t.Errorf("%s: Warning = %q (%q)", what, r.header.Get("Warning"), msg)
		}
	}
	wantHeaders("PUT", h.must(201, "PUT", dbs+"/db1"+old, `{"properties":{"size":"S"}}`))
	wantHeaders("GET", h.must(200, "GET", dbs+"/db1"+old, ""))
	wantHeaders("LIST", h.must(200, "GET", dbs+old, ""))
	if r := h.must(200, "GET", dbs+"/db1?api-version=2025-09-01", ""); r.header.Get("Deprecation") != "" || r.header.Get("Warning") != "" {
		t.Errorf("the replacement answers with Deprecation %q, Warning %q", r.header.Get("Deprecation"), r.header.Get("Warning"))
	}

	setNow("2026-06-01") // the sunset
	r = h.must(400, "PUT", dbs+"/db2"+old, `{"properties":{"size":"S"}}`)
	wantHeaders("refused PUT", r)
	if !strings.Contains(string(r.body), "api-version=2025-09-01") || !strings.Contains(string(r.body), "sunset on 2026-06-01") {
		t.Errorf("refused PUT answered %s, which does not name the sunset and the replacement", r.body)
	}
	h.must(404, "GET", dbs+"/db2"+old, "")
	h.must(200, "PUT", dbs+"/db1"+old, `{"properties":{"size":"M"}}`) // an update
	if p := properties(t, h.must(200, "GET", dbs+"/db1"+old, "").body); p["size"] != "M" {
		t.Errorf("db1 after the update: %v", p)
	}
	h.must(201, "PUT", dbs+"/db2?api-version=2025-09-01", `{"properties":{"size":"S"}}`)
	wantHeaders("DELETE", h.must(200, "DELETE", dbs+"/db1"+old, ""))
	h.must(404, "GET", dbs+"/db1"+old, "")
}
