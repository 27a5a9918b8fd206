package ucpspec

import (
	"net/http"
	"strings"
	"testing"
)

// TestExamplesValidate proves the checks: every answer of every example
// of the description passes them, with its request.
func TestExamplesValidate(t *testing.T) {
	s := Load(t)
	exs := s.Examples(t)
	if len(exs) < 18 {
		t.Fatalf("read %d examples; the description has 18", len(exs))
	}
	for _, ex := range exs {
		for _, status := range ex.Statuses() {
			x, err := ex.Exchange(status)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Check(x); err != nil {
				t.Errorf("%s, %d: %v", ex.File, status, err)
			}
		}
	}
}

// TestChecksFail: the checks refuse answers the description does not
// allow, so a passing server test means something.
func TestChecksFail(t *testing.T) {
	s := Load(t)
	const rp = "/planes/radius/local/providers/System.Resources/resourceproviders/Applications.Test"
	get := func(method, path, body string) Exchange {
		req, err := http.NewRequest(method, "http://127.0.0.1:1"+path+"?api-version=2023-10-01-preview", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return Exchange{Request: req, RequestBody: []byte(body), Header: http.Header{"Content-Type": {"application/json"}}}
	}
	for _, tc := range []struct {
		name   string
		ex     Exchange
		status int
		body   string
		want   string
	}{
		{"undeclared status", get("PUT", rp, `{"location":"global"}`), 202,
			`{"name":"Applications.Test","properties":{}}`, "status 202 is not declared"},
		{"plane without location", get("GET", "/planes/radius/local", ""), 200,
			`{"name":"local","properties":{"resourceProviders":{}}}`, "location"},
		{"bad date-time", get("GET", rp, ""), 200,
			`{"name":"x","location":"global","properties":{},"systemData":{"createdAt":"yesterday"}}`, "createdAt"},
		{"relative nextLink", get("GET", "/planes/radius/local/providers/System.Resources/resourceproviders", ""), 200,
			`{"value":[],"nextLink":"/next"}`, "nextLink"},
		{"error without envelope", get("GET", rp, ""), 404, `not found`, "envelope"},
		{"error as text", Exchange{Request: get("GET", rp, "").Request, Header: http.Header{"Content-Type": {"text/plain"}}}, 404,
			`{"error":{"code":"NotFound","message":"no"}}`, "content type"},
		{"wrong kind", get("GET", rp+"/locations/east", ""), 200,
			`{"name":"east","properties":{"resourceTypes":[]}}`, "resourceTypes"},
		{"camelCase segment", get("GET", "/planes/radius/local/providers/System.Resources/resourceProviders", ""), 200,
			`{"value":[]}`, "no operation"},
		{"invalid request", get("PUT", rp+"/resourcetypes/a_b", `{"properties":{}}`), 200,
			`{"name":"a/b","properties":{}}`, "resourceTypeName"},
	} {
		tc.ex.Status, tc.ex.Body = tc.status, []byte(tc.body)
		_, err := s.Check(tc.ex)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Check = %v; want an error mentioning %q", tc.name, err, tc.want)
		}
	}
}
