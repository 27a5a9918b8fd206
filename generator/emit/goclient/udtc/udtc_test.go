package udtc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestResponseError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Authorization") != "Bearer s3cret":
			http.Error(w, "no token", http.StatusUnauthorized)
		case r.URL.Query().Get("api-version") != "2025-01-01":
			http.Error(w, "bad version", http.StatusBadRequest)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error": {"code": "InvalidRequestContent", "message": "2 problems", "details": [
				{"code": "InvalidEnum", "target": "properties.sku", "message": "must be one of basic"},
				{"code": "UnknownProperty", "target": "properties.extra", "message": "not declared"}]}}`))
		}
	}))
	defer srv.Close()

	c := mustClient(t, ClientOptions{Endpoint: srv.URL + "/", Token: "s3cret"}, "2025-01-01")
	_, err := Put(context.Background(), c, "/x", &struct{}{}, &struct{}{}, nil)
	var re *ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a *ResponseError", err)
	}
	if re.StatusCode != 400 || re.Code != "InvalidRequestContent" || len(re.Details) != 2 {
		t.Errorf("ResponseError = %+v", re)
	}
	for _, want := range []string{"400 InvalidRequestContent", "properties.sku: InvalidEnum", "properties.extra: UnknownProperty"} {
		if !strings.Contains(re.Error(), want) {
			t.Errorf("Error() = %q, want it to contain %q", re.Error(), want)
		}
	}

	// A body that is not an ARM error keeps the status and the text.
	_, err = Get(context.Background(), mustClient(t, ClientOptions{Endpoint: srv.URL}, "2025-01-01"), "/x", &struct{}{})
	if !errors.As(err, &re) || re.StatusCode != 401 || re.Code != "Unauthorized" || re.Message != "no token" {
		t.Errorf("non-ARM error = %+v", re)
	}
}

func mustClient(t *testing.T, opts ClientOptions, apiVersion string) *Client {
	t.Helper()
	c, err := NewClient(opts, apiVersion)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestNewClientEndpoint: an endpoint that is not a base URL is refused by
// NewClient with words about ClientOptions.Endpoint, not by the first
// request with net/http's ("unsupported protocol scheme").
func TestNewClientEndpoint(t *testing.T) {
	for _, bad := range []string{"", "127.0.0.1:7443", "localhost:7443", "ftp://example.com", "http://", "/planes/radius", "http://h:1/?x=1", "http://h:1/#top"} {
		_, err := NewClient(ClientOptions{Endpoint: bad}, "v")
		if err == nil || !strings.Contains(err.Error(), "ClientOptions.Endpoint") || !strings.Contains(err.Error(), "http://127.0.0.1:7443") {
			t.Errorf("NewClient(Endpoint %q) = %v, want an error about ClientOptions.Endpoint with an example", bad, err)
		}
	}
	for _, good := range []string{"http://127.0.0.1:7443", "HTTPS://registry.example.com/", "http://h:1/prefix"} {
		if _, err := NewClient(ClientOptions{Endpoint: good}, "v"); err != nil {
			t.Errorf("NewClient(Endpoint %q): %v", good, err)
		}
	}
}

// TestConditions: options become If-Match and If-None-Match headers (none
// for nil options), and Get and Put return the answer's ETag in the
// resource's ETag field.
func TestConditions(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, fmt.Sprintf("%s %q %q", r.Method, r.Header.Values("If-Match"), r.Header.Values("If-None-Match")))
		w.Header().Set("ETag", `"e-`+r.Method+`"`)
		if r.Method != http.MethodDelete {
			w.Write([]byte(`{"name":"x"}`))
		}
	}))
	defer srv.Close()
	type resource struct {
		Name *string `json:"name"`
		ETag *string `json:"-"`
	}
	ctx := context.Background()
	c := mustClient(t, ClientOptions{Endpoint: srv.URL}, "v")
	r, err := Get(ctx, c, "/x", new(resource))
	if err != nil || r.ETag == nil || *r.ETag != `"e-GET"` {
		t.Fatalf("Get = %+v, %v; want ETag \"e-GET\"", r, err)
	}
	r, err = Put(ctx, c, "/x", r, new(resource), &WriteOptions{IfMatch: r.ETag})
	if err != nil || r.ETag == nil || *r.ETag != `"e-PUT"` {
		t.Fatalf("Put = %+v, %v; want ETag \"e-PUT\"", r, err)
	}
	star := "*"
	if _, err := Put(ctx, c, "/x", r, new(resource), &WriteOptions{IfNoneMatch: &star}); err != nil {
		t.Fatal(err)
	}
	if _, err := Put(ctx, c, "/x", r, new(resource), nil); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, "/x", &DeleteOptions{IfMatch: r.ETag}); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, "/x", nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`GET [] []`,
		`PUT ["\"e-GET\""] []`,
		`PUT [] ["*"]`,
		`PUT [] []`,
		`DELETE ["\"e-PUT\""] []`,
		`DELETE [] []`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests:\n got %q\nwant %q", got, want)
	}
}

// TestListStops: List stops after an item it cannot decode, yielding nil
// and the decoding error with the page's URL, and fetches no further page
// after the caller stops; Get returns nil with an error.
func TestListStops(t *testing.T) {
	var pages []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pages = append(pages, r.URL.Query().Get("page"))
		switch r.URL.Query().Get("page") {
		case "":
			w.Write([]byte(`{"value":[{"n":1},{"n":2}],"nextLink":"http://` + r.Host + `/l?page=2"}`))
		case "2":
			w.Write([]byte(`{"value":[{"n":3},{"n":"four"},{"n":5}],"nextLink":"http://` + r.Host + `/l?page=3"}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	type item struct{ N int }
	ctx := context.Background()
	c := mustClient(t, ClientOptions{Endpoint: srv.URL}, "v")
	var got []string
	for r, err := range List[*item](ctx, c, "/l") {
		got = append(got, fmt.Sprint(r != nil, err != nil && strings.Contains(err.Error(), "/l?page=2: decoding the answer")))
	}
	if want := []string{"true false", "true false", "true false", "false true"}; !slices.Equal(got, want) {
		t.Errorf("List yielded (item, decoding error) %q, want %q", got, want)
	}
	pages = nil
	for range List[*item](ctx, c, "/l") {
		break
	}
	if !slices.Equal(pages, []string{""}) {
		t.Errorf("after a break on the first item, List fetched pages %q, want only the first", pages)
	}
	if r, err := Get(ctx, c, "/l?page=9", new(item)); r != nil || err == nil {
		t.Errorf("Get of a 404 = %v, %v; want nil and an error", r, err)
	}
}

// TestResourceGroupsClient: the groups client sends the requests of the
// resource groups API (the group's ID in the client's plane, its API
// version, the conditions of the options) and decodes the answers.
func TestResourceGroupsClient(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got = append(got, fmt.Sprintf("%s %s %s %q %q %s", r.Method, r.URL.Path, r.URL.Query().Get("api-version"),
			r.Header.Values("If-Match"), r.Header.Values("If-None-Match"), body))
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/resourceGroups") && r.URL.Query().Get("$skipToken") == "":
			w.Write([]byte(`{"value":[{"name":"a"}],"nextLink":"` + "http://" + r.Host + r.URL.Path + `?api-version=` + ResourceGroupsAPIVersion + `&$skipToken=1"}`))
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/resourceGroups"):
			w.Write([]byte(`{"value":[{"name":"b"}]}`))
		case r.Method == http.MethodDelete:
		default:
			w.Header().Set("ETag", `"e1"`)
			w.Write([]byte(`{"id":"/planes/radius/p/resourceGroups/rg","name":"rg","location":"global","properties":{"provisioningState":"Succeeded"}}`))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	groups, err := NewResourceGroupsClient(ClientOptions{Endpoint: srv.URL, Plane: "p"})
	if err != nil {
		t.Fatal(err)
	}
	rg, err := groups.CreateOrUpdate(ctx, "rg", nil, nil)
	if err != nil || *rg.ID != "/planes/radius/p/resourceGroups/rg" || *rg.ETag != `"e1"` || *rg.Properties.ProvisioningState != "Succeeded" {
		t.Fatalf("CreateOrUpdate = %+v, %v", rg, err)
	}
	star := "*"
	if _, err := groups.CreateOrUpdate(ctx, "rg", &ResourceGroup{Location: &star, Tags: map[string]string{"team": "a"}},
		&ResourceGroupsClientCreateOrUpdateOptions{IfNoneMatch: &star}); err != nil {
		t.Fatal(err)
	}
	if rg, err = groups.Get(ctx, "rg", nil); err != nil || *rg.Name != "rg" {
		t.Fatalf("Get = %+v, %v", rg, err)
	}
	var names []string
	for g, err := range groups.List(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, *g.Name)
	}
	if !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("List = %q, want [a b]", names)
	}
	if err := groups.Delete(ctx, "rg", &ResourceGroupsClientDeleteOptions{IfMatch: rg.ETag}); err != nil {
		t.Fatal(err)
	}
	if err := groups.Delete(ctx, "", nil); err == nil || !strings.Contains(err.Error(), "name is empty") {
		t.Errorf("Delete(\"\") = %v, want the empty name refused before any request", err)
	}
	const p = "/planes/radius/p/resourceGroups"
	want := []string{
		`PUT ` + p + `/rg 2023-10-01-preview [] [] {}`,
		`PUT ` + p + `/rg 2023-10-01-preview [] ["*"] {"location":"*","tags":{"team":"a"}}`,
		`GET ` + p + `/rg 2023-10-01-preview [] [] `,
		`GET ` + p + ` 2023-10-01-preview [] [] `,
		`GET ` + p + ` 2023-10-01-preview [] [] `,
		`DELETE ` + p + `/rg 2023-10-01-preview ["\"e1\""] [] `,
	}
	if !slices.Equal(got, want) {
		t.Errorf("requests:\n got %q\nwant %q", got, want)
	}
}

func TestParseResourceID(t *testing.T) {
	s := "/planes/radius/local/resourceGroups/rg/providers/Contoso.Bus/buses/b1/queues/q1"
	id, err := ParseResourceID(s)
	if err != nil {
		t.Fatal(err)
	}
	if id.Namespace() != "Contoso.Bus" || !slices.Equal(id.Types(), []string{"buses", "queues"}) ||
		!slices.Equal(id.Names(), []string{"b1", "q1"}) || id.Scope() != "/planes/radius/local/resourceGroups/rg" || id.String() != s {
		t.Errorf("ParseResourceID = %#v", id)
	}
	for _, bad := range []string{"", "planes/x/providers/A.B/t/n", "/rg/providers/A.B/t", "/rg/providers/A.B/t/", "/rg/providers//t/n", "/rg/resources/A.B/t/n"} {
		if _, err := ParseResourceID(bad); err == nil {
			t.Errorf("ParseResourceID(%q): want an error", bad)
		}
	}
	var back ResourceID
	if err := back.UnmarshalText([]byte(s)); err != nil || back.String() != s {
		t.Errorf("UnmarshalText = %v, %v", back, err)
	}
}

func TestScope(t *testing.T) {
	c := mustClient(t, ClientOptions{Endpoint: "http://127.0.0.1:1", Plane: "p"}, "v")
	for in, want := range map[string]string{"": "/planes/radius/p", "rg": "/planes/radius/p/resourceGroups/rg", "/x/y": "/x/y"} {
		if got := c.Scope(in); got != want {
			t.Errorf("Scope(%q) = %q, want %q", in, got, want)
		}
	}
	if got := mustClient(t, ClientOptions{Endpoint: "http://127.0.0.1:1"}, "v").Scope(""); got != "/planes/radius/local" {
		t.Errorf("default plane: %q", got)
	}
}

// Hand-written structs with udtc tags, as the emitter writes them.
type (
	props struct {
		Name    *string           `json:"name,omitempty" udtc:"required,minLength=3,maxLength=5,pattern=^[a-z]{1,3}[0-9,]*$"`
		Tier    *tier             `json:"tier,omitempty" udtc:"required,enum=[\"free\",\"<pro>\"]"`
		Odd     *string           `json:"odd,omitempty" udtc:"enum=[\"a,b\",\"c]d\"],maxLength=3"`
		Port    *int64            `json:"port,omitempty" udtc:"exclusiveMinimum=1024,maximum=65535"`
		Big     *int64            `json:"big,omitempty" udtc:"minimum=1.5"`
		Ratio   *float64          `json:"ratio,omitempty" udtc:"minimum=0,exclusiveMaximum=1,multipleOf=0.05"`
		Even    *int32            `json:"even,omitempty" udtc:"multipleOf=2"`
		Shards  *int64            `json:"shards,omitempty" udtc:"enum=[1,2,4]"`
		On      *bool             `json:"on,omitempty" udtc:"enum=[true]"`
		Labels  map[string]string `json:"labels,omitzero" udtc:"required,maxProperties=2,values,maxLength=2"`
		Grid    [][]int64         `json:"grid,omitzero" udtc:"minItems=1,items,uniqueItems,items,minimum=0"`
		Tags    []string          `json:"tags,omitzero" udtc:"uniqueItems"`
		Nested  *nested           `json:"nested,omitempty" udtc:"required"`
		Items   []nested          `json:"items,omitzero"`
		ByName  map[string]nested `json:"byName,omitzero"`
		When    *time.Time        `json:"when,omitempty"`
		Ref     *ResourceID       `json:"ref,omitempty"`
		Any     any               `json:"any,omitempty" udtc:"required"`
		Ignored *string           `json:"-" udtc:"required"`
		Extra   map[string]any    `json:"extra,omitzero"`
	}
	nested struct {
		Count *int64 `json:"count,omitempty" udtc:"required,maximum=3"`
	}
	tier     string
	envelope struct {
		Type       *string `json:"type,omitempty"`
		Properties *props  `json:"properties,omitempty" udtc:"required"`
	}
)

func ptr[T any](v T) *T { return &v }
func violations(err error) []string {
	var out []string
	if err == nil {
		return nil
	}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ve *ValidationError
		if !errors.As(e, &ve) {
			panic(e)
		}
		out = append(out, ve.Error())
	}
	return out
}

func TestValidateResource(t *testing.T) {
	valid := props{
		Name: ptr("ab1,"), Tier: ptr(tier("free")), Odd: ptr("c]d"), Port: ptr(int64(1025)), Big: ptr(int64(2)), Ratio: ptr(0.95), Even: ptr(int32(4)),
		Shards: ptr(int64(4)), On: ptr(true), Labels: map[string]string{"a": "xy"}, Grid: [][]int64{{0, 1}, {}},
		Tags: []string{"a", "b"}, Nested: &nested{Count: ptr(int64(3))}, Items: []nested{{Count: ptr(int64(0))}},
		Any: 1, Extra: map[string]any{"x": []any{1, 1}}, When: ptr(time.Now()), Ref: &ResourceID{},
	}
	if err := ValidateResource(&envelope{Type: ptr("contoso.test/WIDGETS"), Properties: &valid}, ptr("contoso.test/WIDGETS"), "Contoso.Test/widgets"); err != nil {
		t.Errorf("valid: %v", err)
	}

	bad := props{
		Name: ptr("abcd9x"), Tier: ptr(tier("gold")), Odd: ptr("a,bc"), Port: ptr(int64(1024)), Big: ptr(int64(1)), Ratio: ptr(1.0), Even: ptr(int32(3)),
		Shards: ptr(int64(3)), On: ptr(false), Labels: map[string]string{"b": "xyz", "a": "ok", "c": "toolong"},
		Grid: [][]int64{}, Tags: []string{"a", "a"}, Items: []nested{{Count: ptr(int64(4))}, {}},
		ByName: map[string]nested{"z": {}, "y": {Count: ptr(int64(9))}},
	}
	got := violations(ValidateResource(&envelope{Type: ptr("Other/things"), Properties: &bad}, ptr("Other/things"), "Contoso.Test/widgets"))
	want := []string{
		`type: must be "Contoso.Test/widgets"`,
		"properties.name: must be at most 5 characters long",
		"properties.name: must match the pattern ^[a-z]{1,3}[0-9,]*$",
		`properties.tier: must be one of "free", "<pro>"`,
		`properties.odd: must be one of "a,b", "c]d"`,
		"properties.odd: must be at most 3 characters long",
		"properties.port: must be > 1024",
		"properties.big: must be >= 1.5",
		"properties.ratio: must be < 1",
		"properties.even: must be a multiple of 2",
		"properties.shards: must be one of 1, 2, 4",
		"properties.on: must be one of true",
		"properties.labels: must have at most 2 entries",
		`properties.labels["b"]: must be at most 2 characters long`,
		`properties.labels["c"]: must be at most 2 characters long`,
		"properties.grid: must have at least 1 items",
		"properties.tags: must not contain duplicate items",
		"properties.nested: is required",
		"properties.items[0].count: must be <= 3",
		"properties.items[1].count: is required",
		`properties.byName["y"].count: must be <= 3`,
		`properties.byName["z"].count: is required`,
		"properties.any: is required",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n got %q\nwant %q", got, want)
	}

	// Nested items and their own keywords; a missing properties object.
	grid := props{Name: ptr("abc"), Tier: ptr(tier("free")), Labels: map[string]string{}, Nested: &nested{Count: ptr(int64(1))}, Any: "x",
		Grid: [][]int64{{1, 1}, {-1}}}
	got = violations(ValidateResource(&envelope{Properties: &grid}, nil, "Contoso.Test/widgets"))
	want = []string{"properties.grid[0]: must not contain duplicate items", "properties.grid[1][0]: must be >= 0"}
	if !slices.Equal(got, want) {
		t.Errorf("grid violations:\n got %q\nwant %q", got, want)
	}
	if got := violations(ValidateResource(&envelope{}, nil, "Contoso.Test/widgets")); !slices.Equal(got, []string{"properties: is required"}) {
		t.Errorf("no properties: %q", got)
	}
}

// BenchmarkValidateEnums validates a resource whose string fields each
// have an enum, as the generated Validate methods do.
func BenchmarkValidateEnums(b *testing.B) {
	type enums struct {
		A *string `json:"a,omitempty" udtc:"enum=[\"debug\",\"info\",\"warn\",\"error\"]"`
		B *string `json:"b,omitempty" udtc:"enum=[\"Free\",\"Developer\",\"Standard\",\"Enterprise\",\"Isolated\"]"`
		C *string `json:"c,omitempty" udtc:"enum=[\"S\",\"M\",\"L\",\"XL\"]"`
	}
	type res struct {
		Properties *enums `json:"properties,omitempty" udtc:"required"`
	}
	r := &res{Properties: &enums{A: ptr("error"), B: ptr("Isolated"), C: ptr("XL")}}
	for b.Loop() {
		if err := ValidateResource(r, nil, "Contoso.Test/widgets"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestParseRulesUnknownKeyword(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `unknown keyword "minimun"`) {
			t.Errorf("recover() = %v, want the unknown keyword named", r)
		}
	}()
	parseRules("required,minimun=1")
}

// A deprecated API version's headers reach ClientOptions.OnDeprecation on
// every answer, errors included; without a hook they are logged once.
func TestDeprecationHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Deprecation", "@1780272000")
		w.Header().Set("Sunset", "Fri, 01 Jan 2027 00:00:00 GMT")
		w.Header().Set("Warning", `299 - "Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated; use 2025-09-01. Adds \"HA\"."`)
		if r.Method == http.MethodPut {
			http.Error(w, `{"error":{"code":"InvalidApiVersionParameter","message":"sunset"}}`, http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, `{}`)
	}))
	defer srv.Close()
	var got []Deprecation
	c, err := NewClient(ClientOptions{Endpoint: srv.URL, OnDeprecation: func(d Deprecation) { got = append(got, d) }}, "2025-01-01-preview")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := Get(ctx, c, "/x", &struct{}{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Put(ctx, c, "/x", &struct{}{}, &struct{}{}, nil); err == nil {
		t.Fatal("PUT answered 400 without an error")
	}
	want := Deprecation{APIVersion: "2025-01-01-preview", Deprecated: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC),
		Sunset: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), Message: `Contoso.Data/postgresDatabases@2025-01-01-preview is deprecated; use 2025-09-01. Adds "HA".`}
	if len(got) != 2 || got[0] != want || got[1] != want {
		t.Errorf("OnDeprecation got %+v, want twice %+v", got, want)
	}

	var logged strings.Builder
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	c, err = NewClient(ClientOptions{Endpoint: srv.URL}, "2025-01-01-preview")
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := Get(ctx, c, "/x", &struct{}{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(logged.String(), "is deprecated: Contoso.Data/postgresDatabases@2025-01-01-preview"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, logged.String())
	}
}
