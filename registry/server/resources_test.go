package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/server"
)

const (
	groups   = "/planes/radius/local/resourceGroups"
	rg       = groups + "/rg"
	rgBuses  = rg + "/providers/Contoso.Platform/contosoBuses"
	bus1     = rgBuses + "/bus1"
	queues   = provider + "/resourceTypes/contosoBuses_queues"
	typeVer  = "?api-version=2024-08-01"
	busesAll = "/planes/radius/local/providers/Contoso.Platform/contosoBuses"
)

// seedResources registers Contoso.Platform (seed) plus the child type
// contosoBuses/queues in location global, and creates group rg.
func (f *fixture) seedResources() {
	f.t.Helper()
	f.seed()
	f.must(201, "PUT", queues, `{}`)
	f.must(201, "PUT", queues+"/apiVersions/2024-08-01", `{"properties":{"schema":{"type":"object","properties":{"maxSize":{"type":"integer"}}}}}`)
	f.must(200, "PUT", location, `{"properties":{"resourceTypes":{"contosoBuses":{"apiVersions":{"2024-08-01":{}}},"contosoBuses/queues":{"apiVersions":{"2024-08-01":{}}}}}}`)
	f.must(201, "PUT", rg, `{"location":"global"}`)
}

func TestResourceGroups(t *testing.T) {
	f := newFixture(t, server.Options{})
	r := f.must(201, "PUT", groups+"/My-Group", `{"location":"global","tags":{"team":"a"}}`)
	want := map[string]any{
		"id":         "/planes/radius/local/resourceGroups/My-Group",
		"name":       "My-Group",
		"type":       "System.Resources/resourceGroups",
		"location":   "global",
		"tags":       map[string]any{"team": "a"},
		"properties": map[string]any{"provisioningState": "Succeeded"},
		"systemData": map[string]any{"createdAt": "2026-03-04T05:06:07Z", "lastModifiedAt": "2026-03-04T05:06:07Z"},
	}
	if diff := cmp.Diff(want, r.json(t)); diff != "" {
		t.Errorf("PUT body (-want +got):\n%s", diff)
	}
	etag := r.header.Get("ETag")
	if got := f.must(200, "GET", "/PLANES/radius/local/RESOURCEGROUPS/my-group", "").header.Get("ETag"); got != etag {
		t.Errorf("GET ETag = %s, want %s", got, etag)
	}
	f.must(412, "PUT", groups+"/my-group", `{}`, "If-None-Match: *")
	f.must(412, "PUT", groups+"/my-group", `{}`, `If-Match: "stale"`)
	r = f.must(200, "PUT", groups+"/my-group", `{"properties":{"provisioningState":"Succeeded"}}`, "If-Match: "+etag)
	if m := r.json(t); m["name"] != "My-Group" || m["location"] != "global" {
		t.Errorf("update kept name %v, location %v", m["name"], m["location"])
	}
	f.must(400, "PUT", groups+"/bad%20name", `{}`)
	f.must(400, "PUT", groups+"/x", `{"properties":{"extra":1}}`)
	f.must(404, "PUT", "/planes/radius/nope/resourceGroups/x", `{}`)
	f.must(400, "PUT", "!"+groups+"/x", `{}`)
	for _, n := range []string{"b", "a", "c"} {
		f.must(201, "PUT", groups+"/"+n, `{}`)
	}
	var names []string
	next := groups + "?api-version=" + api.Version + "&$top=2"
	for next != "" {
		var page api.List[api.ResourceGroup]
		if err := json.Unmarshal(f.must(200, "GET", strings.TrimPrefix(next, f.url), "").body, &page); err != nil {
			t.Fatal(err)
		}
		for _, g := range page.Value {
			names = append(names, g.Name)
		}
		next = page.NextLink
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "My-Group"}, names); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
	f.must(200, "DELETE", groups+"/b", "")
	f.must(204, "DELETE", groups+"/b", "")
	if r := f.do("GET", groups+"/b", ""); r.status != 404 || r.errorCode(t) != api.CodeNotFound {
		t.Errorf("GET deleted group = %d %s", r.status, r.body)
	}
}

func TestResourceCRUD(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedResources()
	r := f.must(201, "PUT", bus1+typeVer, `{"tags":{"env":"dev"},"properties":{"size":"S"}}`, "Content-Type: application/json")
	want := map[string]any{
		"id":         "/planes/radius/local/resourceGroups/rg/providers/Contoso.Platform/contosoBuses/bus1",
		"name":       "bus1",
		"type":       "Contoso.Platform/contosoBuses",
		"location":   "global",
		"tags":       map[string]any{"env": "dev"},
		"properties": map[string]any{"size": "S", "provisioningState": "Succeeded"},
		"systemData": map[string]any{"createdAt": "2026-03-04T05:06:07Z", "lastModifiedAt": "2026-03-04T05:06:07Z"},
	}
	if diff := cmp.Diff(want, r.json(t)); diff != "" {
		t.Errorf("PUT body (-want +got):\n%s", diff)
	}
	etag := r.header.Get("ETag")
	// Names and fixed segments in any case; the ID keeps the registered
	// spelling of the namespace and type and the created one of the names.
	got := f.must(200, "GET", "/planes/radius/local/resourcegroups/RG/Providers/contoso.platform/CONTOSOBUSES/BUS1"+typeVer, "")
	if diff := cmp.Diff(want, got.json(t)); diff != "" || got.header.Get("ETag") != etag {
		t.Errorf("GET body (-want +got):\n%s\nETag %s, want %s", diff, got.header.Get("ETag"), etag)
	}
	// A GET body can be PUT back: read-only fields are ignored.
	r = f.must(200, "PUT", bus1+typeVer, string(got.body), "If-Match: "+etag)
	if r.header.Get("ETag") == etag {
		t.Error("ETag did not change on update")
	}
	f.must(412, "PUT", bus1+typeVer, `{"properties":{}}`, "If-Match: "+etag)
	f.must(412, "PUT", bus1+typeVer, `{"properties":{}}`, "If-None-Match: *")
	f.must(412, "DELETE", bus1+typeVer, "", "If-Match: "+etag)
	f.must(400, "PUT", bus1+typeVer, `{"properties":[]}`)
	f.must(400, "PUT", bus1+typeVer, `{"properties":{},"unknown":1}`)
	f.must(415, "PUT", bus1+typeVer, `{}`, "Content-Type: text/plain")
	f.must(400, "PUT", rgBuses+"/bad%20name"+typeVer, `{}`)
	f.must(400, "PUT", rgBuses+"/"+strings.Repeat("x", 64)+typeVer, `{}`)
	f.must(400, "GET", rgBuses+"/a%2Fb"+typeVer, "") // paths are never cleaned: an encoded '/' is refused
	f.must(200, "DELETE", bus1+typeVer, "", "If-Match: "+r.header.Get("ETag"))
	f.must(204, "DELETE", bus1+typeVer, "")
	f.must(404, "GET", bus1+typeVer, "")
}

func TestResourceRegistrationChecks(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedResources()
	f.must(201, "PUT", "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Other", `{}`)
	cases := []struct {
		method, path, body string
		status             int
		code, mentions     string
	}{
		{"PUT", rg + "/providers/Contoso.Nope/contosoBuses/b" + typeVer, `{}`, 404, api.CodeNamespaceNotFound, "Contoso.Other"},
		{"GET", rg + "/providers/Contoso.Nope/contosoBuses/b" + typeVer, ``, 404, api.CodeNamespaceNotFound, "Contoso.Platform"},
		{"PUT", rg + "/providers/Contoso.Platform/nopes/b" + typeVer, `{}`, 404, api.CodeResourceTypeNotFound, "contosoBuses, contosoBuses/queues"},
		{"PUT", bus1 + "?api-version=2020-01-01", `{}`, 400, api.CodeAPIVersionNotFound, "registered: 2024-08-01"},
		{"GET", busesAll + "?api-version=2020-01-01", ``, 400, api.CodeAPIVersionNotFound, "2024-08-01"},
		{"PUT", bus1 + "?api-version=yesterday", `{}`, 400, api.CodeInvalidAPIVersion, "YYYY-MM-DD"},
		{"PUT", bus1, `{}`, 400, api.CodeInvalidAPIVersion, "api-version is required"},
		{"PUT", bus1 + typeVer, `{"location":"east"}`, 400, api.CodeLocationNotRegistered, "registered: global"},
		{"PUT", "/planes/radius/nope/resourceGroups/rg/providers/Contoso.Platform/contosoBuses/b" + typeVer, `{}`, 404, api.CodeNotFound, "nope"},
	}
	for _, c := range cases {
		r := f.do(c.method, "!"+c.path, c.body)
		if r.status != c.status || r.errorCode(t) != c.code || !strings.Contains(string(r.body), c.mentions) {
			t.Errorf("%s %s = %d %s, want %d %s mentioning %q", c.method, c.path, r.status, r.body, c.status, c.code, c.mentions)
		}
	}
	// A location that does not serve the type's version is refused too.
	f.must(201, "PUT", provider+"/locations/east", `{"properties":{"resourceTypes":{"contosoBuses":{"apiVersions":{"2099-01-01":{}}}}}}`)
	if r := f.do("PUT", "!"+bus1+typeVer, `{"location":"EAST"}`); r.status != 400 || r.errorCode(t) != api.CodeLocationNotRegistered {
		t.Errorf("location without the version = %d %s", r.status, r.body)
	}
	// The location is stored with its registered spelling.
	if m := f.must(201, "PUT", bus1+typeVer, `{"location":"GLOBAL"}`).json(t); m["location"] != "global" {
		t.Errorf("location = %v", m["location"])
	}
}

func TestResourceOwners(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedResources()
	// The message names the missing owner once, says "not found" once and
	// how to create a group.
	r := f.do("PUT", "!"+groups+"/nope/providers/Contoso.Platform/contosoBuses/b"+typeVer, `{}`)
	if want := "resource group " + groups + "/nope: not found; create the group first (PUT it with api-version=2023-10-01-preview)"; r.status != 404 || r.errorCode(t) != api.CodeResourceGroupNotFound || r.errorMessage(t) != want {
		t.Errorf("resource without group = %d %s, want the message %q", r.status, r.body, want)
	}
	r = f.do("PUT", "!"+bus1+"/queues/q1"+typeVer, `{}`)
	if msg := r.errorMessage(t); r.status != 404 || r.errorCode(t) != api.CodeParentNotFound ||
		strings.Count(msg, "not found") != 1 || !strings.Contains(msg, bus1) {
		t.Errorf("child without parent = %d %s, want a message naming the parent and saying not found once", r.status, r.body)
	}
	f.must(201, "PUT", bus1+typeVer, `{}`)
	r = f.must(201, "PUT", bus1+"/queues/q1"+typeVer, `{"properties":{"maxSize":5}}`)
	if m := r.json(t); m["type"] != "Contoso.Platform/contosoBuses/queues" || m["id"] != bus1+"/queues/q1" || m["name"] != "q1" {
		t.Errorf("child body = %v", m)
	}
	f.must(201, "PUT", bus1+"/queues/q2"+typeVer, `{}`)
	f.must(201, "PUT", rgBuses+"/bus2"+typeVer, `{}`)
	f.must(201, "PUT", rgBuses+"/bus2/queues/q1"+typeVer, `{}`)
	// Deleting a parent deletes its children, and only them.
	f.must(200, "DELETE", bus1+typeVer, "")
	f.must(404, "GET", bus1+"/queues/q1"+typeVer, "")
	f.must(404, "GET", bus1+"/queues/q2"+typeVer, "")
	f.must(200, "GET", rgBuses+"/bus2/queues/q1"+typeVer, "")
	// Deleting the group deletes everything in it.
	f.must(201, "PUT", groups+"/other", `{}`)
	f.must(201, "PUT", groups+"/other/providers/Contoso.Platform/contosoBuses/bus9"+typeVer, `{}`)
	f.must(200, "DELETE", rg, "")
	f.must(201, "PUT", rg, `{}`)
	f.must(404, "GET", rgBuses+"/bus2"+typeVer, "")
	f.must(404, "GET", rgBuses+"/bus2/queues/q1"+typeVer, "")
	f.must(200, "GET", groups+"/other/providers/Contoso.Platform/contosoBuses/bus9"+typeVer, "")
}

func listNames(t *testing.T, f *fixture, path string) []string {
	t.Helper()
	var names []string
	for path != "" {
		var page api.List[api.Instance]
		if err := json.Unmarshal(f.must(200, "GET", "!"+path, "").body, &page); err != nil {
			t.Fatal(err)
		}
		for _, in := range page.Value {
			names = append(names, strings.TrimPrefix(in.ID, groups+"/"))
		}
		if page.NextLink != "" {
			u, err := url.Parse(page.NextLink)
			if err != nil || u.Query().Get("api-version") != "2024-08-01" {
				t.Fatalf("nextLink %q does not keep the type's api-version", page.NextLink)
			}
			path = u.RequestURI()
		} else {
			path = ""
		}
	}
	return names
}

func TestResourceListsAndRouting(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedResources()
	f.must(201, "PUT", groups+"/rg2", `{}`)
	for _, p := range []string{rgBuses + "/b3", rgBuses + "/b1", rgBuses + "/b2", rgBuses + "/b1/queues/q2", rgBuses + "/b1/queues/q1", groups + "/rg2/providers/Contoso.Platform/contosoBuses/b0"} {
		f.must(201, "PUT", p+typeVer, `{}`)
	}
	top := "&$top=2"
	if diff := cmp.Diff([]string{"rg/providers/Contoso.Platform/contosoBuses/b1", "rg/providers/Contoso.Platform/contosoBuses/b2", "rg/providers/Contoso.Platform/contosoBuses/b3"},
		listNames(t, f, rgBuses+typeVer+top)); diff != "" {
		t.Errorf("group list (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"rg/providers/Contoso.Platform/contosoBuses/b1/queues/q1", "rg/providers/Contoso.Platform/contosoBuses/b1/queues/q2"},
		listNames(t, f, rgBuses+"/b1/queues"+typeVer+top)); diff != "" {
		t.Errorf("parent list (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"rg/providers/Contoso.Platform/contosoBuses/b1", "rg/providers/Contoso.Platform/contosoBuses/b2", "rg/providers/Contoso.Platform/contosoBuses/b3", "rg2/providers/Contoso.Platform/contosoBuses/b0"},
		listNames(t, f, busesAll+typeVer+top)); diff != "" {
		t.Errorf("plane-wide list (-want +got):\n%s", diff)
	}
	if got := listNames(t, f, "/planes/radius/local/providers/contoso.platform/contosoBuses/QUEUES"+typeVer); len(got) != 2 {
		t.Errorf("plane-wide child list = %v", got)
	}
	// The plane-wide list has one segment more than the provider summary;
	// both keep working, and neither swallows registration paths.
	var sum api.ProviderSummary
	if err := json.Unmarshal(f.must(200, "GET", "!/planes/radius/local/providers/Contoso.Platform", "").body, &sum); err != nil || sum.Name != "Contoso.Platform" {
		t.Errorf("summary = %+v, %v", sum, err)
	}
	f.must(404, "GET", "!/planes/radius/local/providers/Contoso.Platform/", "")
	f.must(404, "GET", "!/planes/radius/local/providers/System.Resources/resourceThings/x", "")
	f.must(404, "GET", "!/planes/radius/local/providers/system.resources/resourceProviders/Contoso.Platform/resourceTypes/contosoBuses/queues", "")
	if r := f.do("PUT", "!"+busesAll+typeVer, `{}`); r.status != 405 || r.header.Get("Allow") != "GET" {
		t.Errorf("PUT plane-wide list = %d Allow %q", r.status, r.header.Get("Allow"))
	}
	if r := f.do("PUT", "!"+rgBuses+typeVer, `{}`); r.status != 405 || r.header.Get("Allow") != "GET" {
		t.Errorf("PUT group list = %d Allow %q", r.status, r.header.Get("Allow"))
	}
	if r := f.do("POST", "!"+bus1+typeVer, `{}`); r.status != 405 || r.header.Get("Allow") != "GET, PUT, DELETE" {
		t.Errorf("POST resource = %d Allow %q", r.status, r.header.Get("Allow"))
	}
	if r := f.do("GET", "!"+groups+"/nope/providers/Contoso.Platform/contosoBuses"+typeVer, ""); r.status != 404 || r.errorCode(t) != api.CodeResourceGroupNotFound {
		t.Errorf("list in a missing group = %d %s", r.status, r.body)
	}
	if r := f.do("GET", "!"+rgBuses+"/nope/queues"+typeVer, ""); r.status != 404 || r.errorCode(t) != api.CodeParentNotFound {
		t.Errorf("list under a missing parent = %d %s", r.status, r.body)
	}
}

func TestUnregisterWithResources(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.seedResources()
	f.must(201, "PUT", bus1+typeVer, `{}`)
	f.must(201, "PUT", bus1+"/queues/q1"+typeVer, `{}`)
	for _, c := range []struct{ path, mentions string }{
		{version, "still has 1 resource "},
		{queues + "/apiVersions/2024-08-01", "still has 1 resource "},
		{buses, "still has 2 resources"},
		{provider, "still has 2 resources"},
	} {
		r := f.do("DELETE", c.path, "")
		if r.status != 409 || r.errorCode(t) != api.CodeConflict || !strings.Contains(string(r.body), c.mentions) || !strings.Contains(string(r.body), "force=true") {
			t.Errorf("DELETE %s = %d %s, want 409 mentioning %q", c.path, r.status, r.body, c.mentions)
		}
	}
	f.must(200, "GET", bus1+"/queues/q1"+typeVer, "")
	// The counts those refusals come from, asked before any delete (the
	// segment in any case, as every fixed segment).
	r := f.must(200, "GET", provider+"/resourcecounts", "")
	want := `{"value":[{"resourceType":"contosoBuses","apiVersion":"2024-08-01","count":1},{"resourceType":"contosoBuses/queues","apiVersion":"2024-08-01","count":1}]}`
	if got := strings.TrimSpace(string(r.body)); got != want {
		t.Errorf("resourceCounts = %s\nwant %s", got, want)
	}
	if r := f.do("GET", "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.None/resourceCounts", ""); r.status != 404 {
		t.Errorf("resourceCounts of an unregistered namespace = %d %s, want 404", r.status, r.body)
	}
	f.must(400, "DELETE", buses+"?api-version="+api.Version+"&force=maybe", "")
	f.must(200, "DELETE", queues+"?api-version="+api.Version+"&force=true", "")
	f.must(200, "GET", bus1+typeVer, "")
	f.must(200, "DELETE", provider+"?api-version="+api.Version+"&force=true", "")
	if r := f.do("GET", "!"+bus1+typeVer, ""); r.status != 404 || r.errorCode(t) != api.CodeNamespaceNotFound {
		t.Errorf("GET after forced unregister = %d %s", r.status, r.body)
	}
	f.must(200, "GET", rg, "")
}

// registerTypes registers provider Contoso.Apps with the given types (API
// version 2024-08-01, schemas as given) served in location global, and
// creates group rg.
func (f *fixture) registerTypes(schemas map[string]string, headers ...string) {
	f.t.Helper()
	p := "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps"
	f.must(201, "PUT", p, `{}`, headers...)
	var served []string
	for typ, schema := range schemas {
		t := p + "/resourceTypes/" + strings.ReplaceAll(typ, "/", "_")
		if f.do("GET", t, "", headers...).status == 404 {
			f.must(201, "PUT", t, `{}`, headers...)
		}
		f.must(201, "PUT", t+"/apiVersions/2024-08-01", `{"properties":{"schema":`+schema+`}}`, headers...)
		served = append(served, `"`+typ+`":{"apiVersions":{"2024-08-01":{}}}`)
	}
	f.must(201, "PUT", p+"/locations/global", `{"properties":{"resourceTypes":{`+strings.Join(served, ",")+`}}}`, headers...)
	f.must(201, "PUT", rg, `{}`, headers...)
}

const appsSchema = `{
	"type": "object",
	"properties": {
		"image": {"type": "string", "minLength": 3},
		"replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
		"ports": {"type": "object", "additionalProperties": {"type": "object", "properties": {
			"containerPort": {"type": "integer"},
			"protocol": {"type": "string", "enum": ["TCP", "UDP"], "default": "TCP"}}}},
		"steps": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}},
		"status": {"type": "string", "readOnly": true},
		"password": {"type": "string", "x-radius-sensitive": true},
		"database": {"type": "string", "x-resource-type": "Contoso.Apps/databases"},
		"environment": {"type": "string", "x-resource-type": "Applications.Core/environments"},
		"labels": {"type": "object", "additionalProperties": {"type": "integer"}}
	},
	"required": ["image"]
}`

const appsPath = rg + "/providers/Contoso.Apps/apps"

func TestResourceAdmission(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.registerTypes(map[string]string{"apps": appsSchema, "databases": `{"type":"object","properties":{}}`})

	// Every violation, each with its own target, in one 400; nothing stored.
	r := f.do("PUT", "!"+appsPath+"/a1"+typeVer, `{"properties":{"image":"x","replicas":0,"extra":true,
		"ports":{"web":{"containerPort":"80","protocol":"SCTP"}},"steps":[{}]}}`)
	var e api.ErrorResponse
	if err := json.Unmarshal(r.body, &e); err != nil || r.status != 400 || e.Error.Code != api.CodeInvalidRequestContent {
		t.Fatalf("invalid PUT = %d %s", r.status, r.body)
	}
	var got []string
	for _, d := range e.Error.Details {
		got = append(got, d.Target+" "+d.Code)
	}
	want := []string{
		"properties.extra UnknownProperty",
		"properties.image InvalidLength",
		"properties.ports.web.containerPort InvalidType",
		"properties.ports.web.protocol InvalidEnum",
		"properties.replicas OutOfRange",
		"properties.steps[0].name MissingProperty",
	}
	if diff := cmp.Diff(want, got, cmpSorted); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
	f.must(404, "GET", appsPath+"/a1"+typeVer, "")
	if r := f.do("PUT", "!"+appsPath+"/a1"+typeVer, `{"properties":{}}`); r.status != 400 || !strings.Contains(string(r.body), `"target":"properties.image"`) {
		t.Errorf("missing required = %d %s", r.status, r.body)
	}

	// Defaults are applied at every depth and stored; read-only values sent
	// are dropped; sensitive values are null in what is returned.
	r = f.must(201, "PUT", appsPath+"/a1"+typeVer, `{"properties":{"image":"nginx","status":"hacked","password":"hunter2hunter2",
		"ports":{"web":{"containerPort":80}}}}`)
	wantProps := map[string]any{
		"image": "nginx", "replicas": float64(1), "password": nil,
		"ports":             map[string]any{"web": map[string]any{"containerPort": float64(80), "protocol": "TCP"}},
		"provisioningState": "Succeeded",
	}
	for _, body := range [][]byte{r.body, f.must(200, "GET", appsPath+"/a1"+typeVer, "").body} {
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantProps, m["properties"]); diff != "" {
			t.Errorf("stored properties (-want +got):\n%s", diff)
		}
	}
	if strings.Contains(string(f.must(200, "GET", appsPath+typeVer, "").body), "hunter2") {
		t.Error("LIST returns a sensitive value")
	}

	// More than 100 violations: 100 details and a count of the rest.
	var labels []string
	for i := range 150 {
		labels = append(labels, fmt.Sprintf(`"l%d":"x"`, i))
	}
	r = f.do("PUT", "!"+appsPath+"/a2"+typeVer, `{"properties":{"image":"nginx","labels":{`+strings.Join(labels, ",")+`}}}`)
	e = api.ErrorResponse{}
	if err := json.Unmarshal(r.body, &e); err != nil || r.status != 400 || len(e.Error.Details) != api.MaxErrorDetails+1 ||
		!strings.Contains(e.Error.Details[api.MaxErrorDetails].Message, "50 more") || !strings.Contains(e.Error.Message, "150 problems") {
		t.Errorf("150 violations = %d, %d details, message %q", r.status, len(e.Error.Details), e.Error.Message)
	}
}

var cmpSorted = cmpopts.SortSlices(func(a, b string) bool { return a < b })

func TestResourceReferences(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.registerTypes(map[string]string{"apps": appsSchema, "databases": `{"type":"object","properties":{}}`})
	db := rg + "/providers/Contoso.Apps/databases/db1"
	body := `{"properties":{"image":"nginx","database":"` + db + `"}}`
	r := f.do("PUT", "!"+appsPath+"/a1"+typeVer, body)
	if r.status != 400 || !strings.Contains(string(r.body), `"code":"ReferenceNotFound"`) ||
		!strings.Contains(string(r.body), `"target":"properties.database"`) || !strings.Contains(string(r.body), db) {
		t.Errorf("reference to a missing resource = %d %s", r.status, r.body)
	}
	// The schema matched: the error says so, and what is missing.
	if msg := string(r.body); strings.Contains(msg, "do not match the schema") ||
		!strings.Contains(msg, "match the schema of Contoso.Apps/apps API version") || !strings.Contains(msg, "refer to resources that do not exist: 1 reference") {
		t.Errorf("reference to a missing resource is worded as a schema mismatch: %s", r.body)
	}
	f.must(201, "PUT", db+typeVer, `{}`)
	f.must(201, "PUT", appsPath+"/a1"+typeVer, body)
	// The wrong type, or not an ID: Admit's InvalidReference.
	if r := f.do("PUT", "!"+appsPath+"/a2"+typeVer, `{"properties":{"image":"nginx","database":"`+appsPath+`/a1"}}`); r.status != 400 || !strings.Contains(string(r.body), "InvalidReference") {
		t.Errorf("reference of the wrong type = %d %s", r.status, r.body)
	}
	// A type this registry does not serve: form and type only.
	f.must(201, "PUT", appsPath+"/a3"+typeVer, `{"properties":{"image":"nginx","environment":"/planes/radius/local/resourceGroups/rg/providers/Applications.Core/environments/prod"}}`)
	// A reference is not ownership: the target can be deleted.
	f.must(200, "DELETE", db+typeVer, "")
	f.must(200, "GET", appsPath+"/a1"+typeVer, "")
}

// TestSecretsStoredApart: the sensitive values go to the store's secret
// part, sealed, never into the public properties; GET shows null, and
// listSecrets gives them back. A PUT replaces them: one without them
// leaves none.
func TestSecretsStoredApart(t *testing.T) {
	st := newStore(t)
	f := newFixture(t, server.Options{Store: st})
	f.registerTypes(map[string]string{"apps": appsSchema})
	r := f.must(201, "PUT", appsPath+"/a1"+typeVer, `{"properties":{"image":"nginx","password":"hunter2hunter2"}}`)
	if p := r.json(t)["properties"].(map[string]any); p["password"] != nil || !hasKey(p, "password") {
		t.Errorf("PUT response properties = %v, want password null", p)
	}
	id, err := api.ParseResourceID(appsPath + "/a1")
	if err != nil {
		t.Fatal(err)
	}
	in, err := st.GetInstance(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(in.Properties), "hunter2") || strings.Contains(string(in.Secrets), "hunter2") || len(in.Secrets) == 0 {
		t.Errorf("stored properties %s, secrets %q", in.Properties, in.Secrets)
	}
	if p := f.must(200, "GET", appsPath+"/a1"+typeVer, "").json(t)["properties"].(map[string]any); p["password"] != nil || !hasKey(p, "password") {
		t.Errorf("GET properties = %v, want password null", p)
	}
	// Any casing of the ID opens them: the seal is bound to the ID's key.
	r = f.must(200, "POST", strings.ToUpper(appsPath+"/a1/LISTSECRETS")+typeVer, "")
	if diff := cmp.Diff(map[string]any{"password": "hunter2hunter2"}, r.json(t)); diff != "" || r.header.Get("Cache-Control") != "no-store" {
		t.Errorf("listSecrets (-want +got):\n%s\nCache-Control %q", diff, r.header.Get("Cache-Control"))
	}
	// A GET body PUT back has password null: refused, the value must be resent.
	get := f.must(200, "GET", appsPath+"/a1"+typeVer, "")
	if r := f.do("PUT", appsPath+"/a1"+typeVer, string(get.body)); r.status != 400 || !strings.Contains(string(r.body), "properties.password") {
		t.Errorf("PUT of a GET body = %d %s, want 400 naming properties.password", r.status, r.body)
	}
	f.must(200, "PUT", appsPath+"/a1"+typeVer, `{"properties":{"image":"nginx"}}`)
	if in, _ := st.GetInstance(context.Background(), id); in.Secrets != nil {
		t.Errorf("secrets after a PUT without them = %q", in.Secrets)
	}
	if diff := cmp.Diff(map[string]any{}, f.must(200, "POST", appsPath+"/a1/listSecrets"+typeVer, "").json(t)); diff != "" {
		t.Errorf("listSecrets without secrets (-want +got):\n%s", diff)
	}
	f.must(404, "POST", appsPath+"/nope/listSecrets"+typeVer, "")
	if r := f.do("POST", "!"+appsPath+"/a1/listSecrets", ""); r.status != 400 || r.errorCode(t) != api.CodeInvalidAPIVersion {
		t.Errorf("listSecrets without api-version = %d %s", r.status, r.body)
	}
	if r := f.do("POST", "!"+appsPath+"/a1/listKeys"+typeVer, ""); r.status != 405 || r.header.Get("Allow") != "GET" {
		t.Errorf("POST of another action = %d Allow %q", r.status, r.header.Get("Allow"))
	}
}

func hasKey(m map[string]any, k string) bool { _, ok := m[k]; return ok }

// TestErrorsHideWhatGetHides: GET shows a sensitive map as null, so a
// refused PUT names none of its keys (the target has "*" in their place)
// and a sensitive reference to a missing resource does not repeat it.
func TestErrorsHideWhatGetHides(t *testing.T) {
	f := newFixture(t, server.Options{})
	f.registerTypes(map[string]string{"vaults": `{"type":"object","properties":{
		"keys":{"type":"object","x-radius-sensitive":true,"additionalProperties":{"type":"string"}},
		"peer":{"type":"string","x-radius-sensitive":true,"x-resource-type":"Contoso.Apps/vaults"},
		"labels":{"type":"object","additionalProperties":{"type":"string"}}}}`})
	vault := rg + "/providers/Contoso.Apps/vaults"
	r := f.do("PUT", vault+"/v1"+typeVer, `{"properties":{"keys":{"prod-db-password":5},"labels":{"team-label":1}}}`)
	if r.status != 400 || strings.Contains(string(r.body), "prod-db-password") ||
		!strings.Contains(string(r.body), `"target":"properties.keys.*"`) || !strings.Contains(string(r.body), `"target":"properties.labels.team-label"`) {
		t.Errorf("PUT with a bad value in a sensitive map = %d %s, want 400 with target properties.keys.* and the labels' key named", r.status, r.body)
	}
	f.must(201, "PUT", vault+"/v1"+typeVer, `{"properties":{"keys":{"prod-db-password":"x"}}}`)
	if p := f.must(200, "GET", vault+"/v1"+typeVer, "").json(t)["properties"].(map[string]any); p["keys"] != nil {
		t.Errorf("GET shows keys = %v, want null", p["keys"])
	}
	missing := vault + "/secret-peer-name"
	r = f.do("PUT", vault+"/v2"+typeVer, `{"properties":{"peer":"`+missing+`"}}`)
	if r.status != 400 || strings.Contains(string(r.body), "secret-peer-name") || !strings.Contains(string(r.body), api.CodeReferenceNotFound) {
		t.Errorf("PUT with a sensitive reference to a missing resource = %d %s, want 400 ReferenceNotFound without the ID", r.status, r.body)
	}
}

// TestSecretKeyMismatch: a server whose key does not open the stored
// secrets refuses to start; one that started before they were written
// answers listSecrets with a 500 that says why.
func TestSecretKeyMismatch(t *testing.T) {
	st := newStore(t)
	other, err := secrets.New(bytes.Repeat([]byte{9}, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	early := newFixture(t, server.Options{Store: st, Secrets: other})
	f := newFixture(t, server.Options{Store: st})
	f.registerTypes(map[string]string{"apps": appsSchema})
	f.must(201, "PUT", appsPath+"/a1"+typeVer, `{"properties":{"image":"nginx","password":"hunter2hunter2"}}`)
	r := early.do("POST", appsPath+"/a1/listSecrets"+typeVer, "")
	if r.status != 500 || !strings.Contains(string(r.body), "another key") || strings.Contains(string(r.body), "hunter2") {
		t.Errorf("listSecrets with the wrong key = %d %s", r.status, r.body)
	}
	_, err = server.New(context.Background(), server.Options{Store: st, Secrets: other})
	if !errors.Is(err, secrets.ErrWrongKey) {
		t.Errorf("New with the wrong key = %v, want ErrWrongKey", err)
	}
	if _, err := server.New(context.Background(), server.Options{Store: st}); err == nil {
		t.Error("New without Secrets succeeded")
	}
}

// TestResourceRoutesNeedTheToken: the resource routes are behind the same
// auth as the registrations.
func TestResourceRoutesNeedTheToken(t *testing.T) {
	f := newFixture(t, server.Options{Tokens: []server.Token{{Name: "ci", Value: "s3cret"}}})
	auth := "Authorization: Bearer s3cret"
	f.must(401, "PUT", rg, `{}`)
	f.must(201, "PUT", provider, `{}`, auth)
	f.must(201, "PUT", buses, `{}`, auth)
	f.must(201, "PUT", version, `{"properties":{"schema":{}}}`, auth)
	f.must(201, "PUT", location, `{"properties":{"resourceTypes":{"contosoBuses":{"apiVersions":{"2024-08-01":{}}}}}}`, auth)
	f.must(201, "PUT", rg, `{}`, auth)
	f.must(401, "PUT", bus1+typeVer, `{}`)
	r := f.must(201, "PUT", bus1+typeVer, `{}`, auth)
	if sd := r.json(t)["systemData"].(map[string]any); sd["createdBy"] != "ci" {
		t.Errorf("systemData = %v", sd)
	}
	f.must(200, "GET", bus1+typeVer, "")                 // reads are open without --auth-reads
	f.must(401, "POST", bus1+"/listSecrets"+typeVer, "") // but secrets are not
	f.must(200, "POST", bus1+"/listSecrets"+typeVer, "", auth)
	f.must(401, "DELETE", bus1+typeVer, "")
	f.must(401, "DELETE", rg, "")
}
