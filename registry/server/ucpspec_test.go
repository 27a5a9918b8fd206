package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/ucpspec"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

// The registry's answers checked against Radius's description of UCP's
// API (internal/ucpspec): every operation it serves, the description's
// own examples, and its extensions, which must not break a client that
// knows only the description.

// unserved are the operations of the description under /planes (aws and
// azure planes aside) that udtc serve does not serve, each with why; the
// coverage test fails when the description gains one that is neither
// exercised nor listed here. docs/radius.md lists them too.
var unserved = map[ucpspec.Op]string{
	{Method: "GET", Path: "/planes"}:                                                                 "the list of every plane of every kind: udtc serves radius planes only",
	{Method: "PATCH", Path: "/planes/radius/{planeName}"}:                                            "a plane holds nothing a patch could change",
	{Method: "DELETE", Path: "/planes/radius/{planeName}"}:                                           "planes are not deleted (local always exists)",
	{Method: "PATCH", Path: "/planes/radius/{planeName}/resourcegroups/{resourceGroupName}"}:         "groups are replaced with PUT",
	{Method: "GET", Path: "/planes/radius/{planeName}/resourcegroups/{resourceGroupName}/resources"}: "resources are listed per type (resources.md)",
}

const (
	specRP   = "/planes/radius/local/providers/System.Resources/resourceproviders"
	specNS   = specRP + "/Applications.Test"
	specType = specNS + "/resourcetypes/testResources"
	// testIcon is a small icon of the kind rad resource-type create --icon sends.
	testIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><circle cx="12" cy="12" r="10" fill="url(#g)"/></svg>`
)

// specFixture sends requests to a registry under api.BasePath and checks
// every exchange against the description.
type specFixture struct {
	*fixture
	spec *ucpspec.Spec
}

func newSpecFixture(t *testing.T) *specFixture {
	spec := ucpspec.Load(t)
	// A stand-in for serve's checker (cmd/udtc tests use the real one):
	// every node states a type, as udtc check requires.
	check := func(schema json.RawMessage) []api.Diagnostic {
		if !bytes.HasPrefix(schema, []byte(`{"type":`)) && string(schema) != "{}" {
			return []api.Diagnostic{{Severity: "error", Rule: "type-missing", Path: "", Message: "the schema has no type"}}
		}
		return nil
	}
	return &specFixture{fixture: newFixture(t, server.Options{CheckSchema: check}), spec: spec}
}

// call sends a request under api.BasePath (path gets ?api-version unless
// it has a query), checks the exchange and returns the answer; invalid
// marks a request that breaks the description on purpose.
func (f *specFixture) call(method, path, body string, invalid bool, headers ...string) response {
	f.t.Helper()
	if !strings.Contains(path, "?") {
		path += "?api-version=" + api.Version
	}
	req, err := http.NewRequest(method, f.url+api.BasePath+path, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		f.t.Fatal(err)
	}
	if resp.Header.Get(api.VersionHeader) == "" {
		f.t.Errorf("%s %s: no %s header", method, path, api.VersionHeader)
	}
	if _, err := f.spec.Check(ucpspec.Exchange{Request: req, RequestBody: []byte(body), Status: resp.StatusCode,
		Header: resp.Header, Body: b, InvalidRequest: invalid}); err != nil {
		f.t.Error(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: b}
}

func (f *specFixture) want(status int, method, path, body string, headers ...string) response {
	f.t.Helper()
	r := f.call(method, path, body, false, headers...)
	if r.status != status {
		f.t.Fatalf("%s %s = %d %s, want %d", method, path, r.status, r.body, status)
	}
	return r
}

// TestSpecConformance exercises every operation the registry serves
// under api.BasePath with the description's lower-case segments, its
// successes and its errors, and checks every answer against the
// description; the operations exercised and those listed as unserved
// must be every operation of radius planes in the description.
func TestSpecConformance(t *testing.T) {
	f := newSpecFixture(t)

	f.want(200, "GET", "/planes/radius", "")
	plane := f.want(200, "GET", "/planes/radius/local", "").json(t)
	if plane["location"] != "global" {
		t.Errorf("plane location = %v", plane["location"])
	}
	f.want(200, "PUT", "/planes/radius/local", `{"location":"global","properties":{"resourceProviders":{}}}`)

	f.want(201, "PUT", specNS, `{"location":"global","properties":{}}`)
	f.want(200, "PUT", specNS, `{"location":"global","properties":{}}`)
	f.want(200, "GET", specNS, "")
	f.want(200, "GET", specRP, "")

	f.want(201, "PUT", specType, `{"properties":{"capabilities":[],"defaultApiVersion":"2025-01-01","description":"A test resource."}}`)
	iconBody, _ := json.Marshal(map[string]any{"properties": map[string]any{"capabilities": []string{"ManualResourceProvisioning"}, "icon": testIcon}})
	typed := f.want(201, "PUT", specNS+"/resourcetypes/iconic", string(iconBody)).json(t)
	hash, _ := typed["properties"].(map[string]any)["iconHash"].(string)
	if hash != api.IconHash(testIcon) {
		t.Errorf("iconHash = %q, want %q", hash, api.IconHash(testIcon))
	}
	f.want(200, "GET", specType, "")
	f.want(200, "GET", specNS+"/resourcetypes", "")
	icon := f.want(200, "GET", specNS+"/resourcetypes/iconic/icons/"+hash, "", "Accept: image/svg+xml")
	if string(icon.body) != testIcon || icon.header.Get("Content-Type") != api.IconMediaType {
		t.Errorf("icon = %s %q, want the bytes sent as %s", icon.header.Get("Content-Type"), icon.body, api.IconMediaType)
	}
	f.want(404, "GET", specNS+"/resourcetypes/iconic/icons/"+strings.Repeat("0", 64), "")
	f.want(404, "GET", specType+"/icons/"+hash, "")

	f.want(201, "PUT", specType+"/apiversions/2025-01-01", `{"properties":{"schema":{"type":"object","properties":{"size":{"type":"string"}}}}}`)
	f.want(200, "GET", specType+"/apiversions/2025-01-01", "")
	f.want(200, "GET", specType+"/apiversions", "")

	loc := f.want(201, "PUT", specNS+"/locations/east", `{"properties":{"resourceTypes":{}}}`).json(t)
	if _, ok := loc["properties"].(map[string]any)["resourceTypes"].(map[string]any); !ok {
		t.Errorf("location answer without resourceTypes: %v", loc)
	}
	f.want(201, "PUT", specNS+"/locations/global", `{"properties":{"resourceTypes":{"testResources":{"apiVersions":{"2025-01-01":{}}}}}}`)
	f.want(201, "PUT", specNS+"/locations/west", `{"properties":{"address":"http://rp.example","resourceTypes":{}}}`)
	f.want(200, "GET", specNS+"/locations/east", "")
	f.want(200, "GET", specNS+"/locations", "")

	f.want(200, "GET", "/planes/radius/local/providers", "")
	f.want(200, "GET", "/planes/radius/local/providers/Applications.Test", "")
	f.want(200, "GET", "/planes/radius/local/providers/Applications.Test?api-version="+api.Version+"&includeIcons=true", "")

	f.want(200, "GET", "/planes/radius/local/resourcegroups", "")
	f.want(201, "PUT", "/planes/radius/local/resourcegroups/rg", `{"location":"global"}`)
	f.want(200, "GET", "/planes/radius/local/resourcegroups/rg", "")

	// Errors: each with the ARM envelope, within the declared answers.
	f.want(400, "PUT", specType, `{"properties":{"icon":"<html/>"}}`)
	f.want(400, "PUT", specType+"/apiversions/2025-02-01", `{"properties":{"schema":{"properties":{"a":{}},"items":1,"type":"strin"}}}`)
	if r := f.call("PUT", specNS+"/resourcetypes/9bad", `{"properties":{}}`, true); r.status != 400 {
		t.Errorf("PUT of an invalid name = %d", r.status)
	}
	f.want(400, "GET", specNS+"?api-version=2020-01-01", "")
	f.want(404, "GET", specNS+"/resourcetypes/missing", "")
	f.want(412, "PUT", specType, `{"properties":{}}`, `If-Match: "stale"`)
	// A type with resources is not deleted without ?force=true.
	f.must(201, "PUT", "/planes/radius/local/resourceGroups/rg/providers/Applications.Test/testResources/r1?api-version=2025-01-01", `{"properties":{"size":"s"}}`)
	f.want(409, "DELETE", specType, "")
	f.must(200, "DELETE", "/planes/radius/local/resourceGroups/rg/providers/Applications.Test/testResources/r1?api-version=2025-01-01", "")

	for _, p := range []string{specType + "/apiversions/2025-01-01", specNS + "/locations/east", specNS + "/resourcetypes/iconic", "/planes/radius/local/resourcegroups/rg"} {
		f.want(200, "DELETE", p, "")
		f.want(204, "DELETE", p, "")
	}
	f.want(200, "DELETE", specNS, "")
	f.want(204, "DELETE", specNS, "")

	covered := f.spec.Covered()
	ops := append(f.spec.Operations("/planes/radius/"), f.spec.Operations("/planes/radius")...)
	ops = append(ops, ucpspec.Op{Method: "GET", Path: "/planes"})
	for _, op := range slices.Compact(ops) {
		if strings.HasPrefix(op.Path, "/planes/radius") || op.Path == "/planes" {
			_, skip := unserved[op]
			switch {
			case covered[op] && skip:
				t.Errorf("%s is exercised but listed as unserved", op)
			case !covered[op] && !skip:
				t.Errorf("%s is neither exercised nor listed as unserved", op)
			}
		}
	}
	for op := range unserved {
		if !slices.Contains(ops, op) {
			t.Errorf("unserved %s is not an operation of the description", op)
		}
	}
}

// TestSpecExamples sends each of the description's examples to the
// registry, in dependency order, and checks the answers: against the
// description, with a status the example shows, and with every field of
// the example's answer present and of the same JSON kind.
func TestSpecExamples(t *testing.T) {
	f := newSpecFixture(t)
	order := func(ex ucpspec.Example) int {
		kinds := []string{"ResourceProviders", "ResourceTypes", "ApiVersions", "Locations"}
		i := slices.IndexFunc(kinds, func(k string) bool { return strings.HasPrefix(ex.File, k+"_") })
		switch {
		case ex.Op.Method == "PUT":
			return i
		case ex.Op.Method == "DELETE" && strings.HasPrefix(ex.File, "ResourceProviders"):
			return 30
		case ex.Op.Method == "DELETE":
			return 20 - i
		}
		return 10
	}
	exs := f.spec.Examples(t)
	slices.SortStableFunc(exs, func(a, b ucpspec.Example) int { return order(a) - order(b) })
	for _, ex := range exs {
		req, body, err := ex.Request(f.url + api.BasePath)
		if err != nil {
			t.Fatal(err)
		}
		r := f.call(req.Method, strings.TrimPrefix(req.URL.RequestURI(), api.BasePath), string(body), false)
		want, ok := ex.Responses[r.status]
		if !ok {
			t.Errorf("%s: status %d %s; the example shows %v", ex.File, r.status, r.body, ex.Statuses())
			continue
		}
		if len(want.Body) > 0 {
			var w, got any
			if err := json.Unmarshal(want.Body, &w); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(r.body, &got); err != nil {
				t.Fatalf("%s: %v: %s", ex.File, err, r.body)
			}
			if p := sameShape(w, got, ""); p != "" {
				t.Errorf("%s: %s\n got %s", ex.File, p, r.body)
			}
		}
	}
}

// sameShape returns where got lacks a field of want, or has it with
// another JSON kind; "" when got has all of want's fields. systemData is
// the server's to fill.
func sameShape(want, got any, at string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %T, want an object", at, got)
		}
		for k, wv := range w {
			if k == "systemData" {
				continue
			}
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s.%s is missing", at, k)
			}
			if p := sameShape(wv, gv, at+"."+k); p != "" {
				return p
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(w) {
			return fmt.Sprintf("%s: got %v, want a list of at least %d", at, got, len(w))
		}
		for i := range w {
			if p := sameShape(w[i], g[i], fmt.Sprintf("%s[%d]", at, i)); p != "" {
				return p
			}
		}
	default:
		if fmt.Sprintf("%T", want) != fmt.Sprintf("%T", got) {
			return fmt.Sprintf("%s: got %T, want %T", at, got, want)
		}
	}
	return ""
}

// TestSpecExtensions: the registry's extensions (child types, per-type
// addresses, resources of registered types, batches) leave every answer
// a client of the description reads valid.
func TestSpecExtensions(t *testing.T) {
	f := newSpecFixture(t)
	f.want(201, "PUT", specNS, `{"location":"global","properties":{}}`)
	f.want(201, "PUT", specType, `{"properties":{"defaultApiVersion":"2025-01-01"}}`)
	f.want(201, "PUT", specType+"/apiversions/2025-01-01", `{"properties":{"schema":{}}}`)
	// Outside the description: a child type, a per-type address, a batch,
	// a resource group and a resource.
	f.must(201, "PUT", rp+"/Applications.Test/resourceTypes/testResources_children", `{"properties":{}}`)
	f.must(201, "PUT", rp+"/Applications.Test/resourceTypes/testResources_children/apiVersions/2025-01-01", `{"properties":{"schema":{}}}`)
	f.must(200, "POST", "/planes/radius/local/providers/System.Resources/batch",
		`{"requests":[{"method":"PUT","path":"`+api.BasePath+`/planes/radius/local/providers/System.Resources/resourceproviders/Applications.Test/locations/east","body":{"properties":{"resourceTypes":{"testResources":{"address":"http://typed.example","apiVersions":{"2025-01-01":{}}},"testResources/children":{"apiVersions":{"2025-01-01":{}}}}}}}]}`)
	f.want(201, "PUT", specNS+"/locations/global", `{"properties":{"resourceTypes":{"testResources":{"apiVersions":{"2025-01-01":{}}}}}}`)
	f.must(201, "PUT", "/planes/radius/local/resourceGroups/rg?api-version="+api.Version, `{}`)
	f.must(201, "PUT", "/planes/radius/local/resourceGroups/rg/providers/Applications.Test/testResources/r1?api-version=2025-01-01", `{"properties":{}}`)

	f.want(200, "GET", specNS+"/resourcetypes", "")
	f.want(200, "GET", specNS+"/locations/east", "")
	f.want(200, "GET", specNS+"/locations", "")
	f.want(200, "GET", "/planes/radius/local/providers", "")
	sum := f.want(200, "GET", "/planes/radius/local/providers/Applications.Test", "").json(t)
	if _, ok := sum["resourceTypes"].(map[string]any)["testResources/children"]; !ok {
		t.Errorf("the summary lacks the child type: %v", sum)
	}
	f.want(200, "GET", "/planes/radius/local/resourcegroups", "")
}

// TestSpecSpellings: a registration read with the description's
// lower-case segments or the registry's camelCase ones, with or without
// api.BasePath, is the same answer; a list's nextLink keeps the path it
// was asked with.
func TestSpecSpellings(t *testing.T) {
	f := newSpecFixture(t)
	f.want(201, "PUT", specNS, `{"location":"global","properties":{}}`)
	for _, typ := range []string{"alpha", "beta", "gamma"} {
		f.want(201, "PUT", specNS+"/resourcetypes/"+typ, `{"properties":{}}`)
	}
	var first []byte
	for _, p := range []string{
		api.BasePath + specNS + "/resourcetypes/beta",
		api.BasePath + rp + "/Applications.Test/resourceTypes/beta",
		specNS + "/resourcetypes/beta",
		rp + "/Applications.Test/resourceTypes/beta",
	} {
		r := f.must(200, "GET", p, "")
		if first == nil {
			first = r.body
		} else if !bytes.Equal(r.body, first) {
			t.Errorf("GET %s = %s\nwant %s", p, r.body, first)
		}
	}
	list := f.want(200, "GET", specNS+"/resourcetypes?api-version="+api.Version+"&$top=2", "")
	var page api.List[api.ResourceType]
	if err := json.Unmarshal(list.body, &page); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(page.NextLink, f.url+api.BasePath+specNS+"/resourcetypes?") {
		t.Fatalf("nextLink = %q, want it under %s", page.NextLink, api.BasePath+specNS+"/resourcetypes")
	}
	next := f.want(200, "GET", strings.TrimPrefix(page.NextLink, f.url+api.BasePath), "")
	if !strings.Contains(string(next.body), `"name":"gamma"`) {
		t.Errorf("second page = %s", next.body)
	}
}
