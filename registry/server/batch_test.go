package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/server"
)

const batchPath = "/planes/radius/local/providers/System.Resources/batch"

func batchBody(t *testing.T, writes ...api.BatchWrite) string {
	t.Helper()
	b, err := json.Marshal(api.BatchRequest{Requests: writes})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (f *fixture) batch(body string, headers ...string) api.BatchResponse {
	f.t.Helper()
	r := f.must(200, "POST", batchPath, body, append([]string{"Content-Type: application/json"}, headers...)...)
	var out api.BatchResponse
	if err := json.Unmarshal(r.body, &out); err != nil {
		f.t.Fatalf("batch response %s: %v", r.body, err)
	}
	return out
}

// A batch's writes are applied as separate requests would be: each with
// its own status and error, the failures not undoing the others.
func TestBatchAppliesEachWriteAsItsRequest(t *testing.T) {
	f := newFixture(t, server.Options{CheckSchema: rejectPatternSchemas})
	f.must(201, "PUT", provider, `{"location":"global","properties":{}}`, "Content-Type: application/json")
	f.must(201, "PUT", buses, `{"properties":{}}`, "Content-Type: application/json")
	f.must(201, "PUT", version, `{"properties":{"schema":{}}}`, "Content-Type: application/json")

	res := f.batch(batchBody(t,
		api.BatchWrite{Method: "PUT", Path: buses + "/apiVersions/2025-01-01", Body: json.RawMessage(`{"properties":{"schema":{ "type" : "object" }}}`)},
		api.BatchWrite{Method: "PUT", Path: buses, Body: json.RawMessage(`{"properties":{"description":"Buses."}}`)},
		api.BatchWrite{Method: "PUT", Path: buses + "/apiVersions/2025-02-01", Body: json.RawMessage(`{"properties":{"schema":{"pattern":"x"}}}`)},
		api.BatchWrite{Method: "PUT", Path: rp + "/Contoso.Missing/resourceTypes/things", Body: json.RawMessage(`{"properties":{}}`)},
		api.BatchWrite{Method: "PUT", Path: buses + "/apiVersions/2025-03-01", Body: json.RawMessage(`{"properties":{"schema":{},"extra":1}}`)},
		api.BatchWrite{Method: "DELETE", Path: version},
		api.BatchWrite{Method: "DELETE", Path: buses + "/apiVersions/2020-01-01"},
		api.BatchWrite{Method: "PUT", Path: buses + "/apiVersions/not-a-date", Body: json.RawMessage(`{"properties":{}}`)},
	))
	if len(res.Responses) != 8 {
		t.Fatalf("responses = %+v", res.Responses)
	}
	statuses := make([]int, len(res.Responses))
	for i, r := range res.Responses {
		statuses[i] = r.Status
	}
	if diff := cmp.Diff([]int{201, 200, 400, 404, 400, 200, 204, 400}, statuses); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	// Each failure is the error its separate request gets.
	for _, i := range []int{2, 3, 4, 7} {
		w := []string{
			2: buses + "/apiVersions/2025-02-01", 3: rp + "/Contoso.Missing/resourceTypes/things",
			4: buses + "/apiVersions/2025-03-01", 7: buses + "/apiVersions/not-a-date",
		}[i]
		body := map[int]string{2: `{"properties":{"schema":{"pattern":"x"}}}`, 4: `{"properties":{"schema":{},"extra":1}}`}[i]
		if body == "" {
			body = `{"properties":{}}`
		}
		alone := f.do("PUT", w, body, "Content-Type: application/json")
		var want api.ErrorResponse
		if err := json.Unmarshal(alone.body, &want); err != nil {
			t.Fatal(err)
		}
		if res.Responses[i].Status != alone.status || res.Responses[i].Error == nil {
			t.Errorf("write %d: %+v, its request: %d %s", i, res.Responses[i], alone.status, alone.body)
			continue
		}
		if diff := cmp.Diff(want.Error, *res.Responses[i].Error); diff != "" {
			t.Errorf("write %d error (-request +batch):\n%s", i, diff)
		}
	}
	// The successes are stored, with the ETag the batch reported.
	got := f.must(200, "GET", buses+"/apiVersions/2025-01-01", "")
	if etag := strings.Trim(got.header.Get("ETag"), `"`); etag == "" || etag != res.Responses[0].ETag {
		t.Errorf("ETag %q, batch said %q", etag, res.Responses[0].ETag)
	}
	if !strings.Contains(string(got.body), `"schema":{"type":"object"}`) {
		t.Errorf("stored API version: %s", got.body)
	}
	if r := f.must(200, "GET", buses, ""); !strings.Contains(string(r.body), `"description":"Buses."`) {
		t.Errorf("type after the batch: %s", r.body)
	}
	f.must(404, "GET", version, "")
}

// rejectPatternSchemas is a schema checker that refuses "pattern".
func rejectPatternSchemas(schema json.RawMessage) []api.Diagnostic {
	if strings.Contains(string(schema), `"pattern"`) {
		return []api.Diagnostic{{Severity: "error", Rule: "no-pattern", Path: "/pattern", Message: "pattern is not supported"}}
	}
	return nil
}

func TestBatchRefusals(t *testing.T) {
	f := newFixture(t, server.Options{})
	// A document that is not a batch is refused whole.
	for _, body := range []string{`[]`, `{"requests":[{"method":"PUT"}],"more":1}`, `{"requests":`, `{"requests":[` + strings.Repeat(`{"method":"DELETE","path":"/x"},`, api.MaxBatchWrites) + `{"method":"DELETE","path":"/x"}]}`} {
		if r := f.do("POST", batchPath, body, "Content-Type: application/json"); r.status != 400 || r.errorCode(t) != api.CodeInvalidRequestContent {
			t.Errorf("POST %.60s = %d %s", body, r.status, r.body)
		}
	}
	f.must(415, "POST", batchPath, `{"requests":[]}`, "Content-Type: text/plain")
	f.must(400, "POST", "!"+batchPath, `{"requests":[]}`, "Content-Type: application/json") // no api-version
	if res := f.batch(`{"requests":[]}`); len(res.Responses) != 0 {
		t.Errorf("empty batch: %+v", res)
	}
	// A write that is not a registration write of the plane gets its own 400.
	bad := []api.BatchWrite{
		{Method: "GET", Path: provider},
		{Method: "POST", Path: provider, Body: json.RawMessage(`{}`)},
		{Method: "PUT", Path: provider},
		{Method: "DELETE", Path: provider, Body: json.RawMessage(`{}`)},
		{Method: "PUT", Path: "/planes/radius/local", Body: json.RawMessage(`{}`)},
		{Method: "PUT", Path: "/planes/radius/other/providers/System.Resources/resourceProviders/Contoso.X", Body: json.RawMessage(`{}`)},
		{Method: "PUT", Path: provider + "?api-version=" + api.Version, Body: json.RawMessage(`{}`)},
		{Method: "PUT", Path: "/planes/radius/local/resourceGroups/g/providers/Contoso.X/things/a", Body: json.RawMessage(`{}`)},
		{Method: "PUT", Path: batchPath, Body: json.RawMessage(`{}`)},
		{Method: "PUT", Path: rp + "/", Body: json.RawMessage(`{}`)},
	}
	res := f.batch(batchBody(t, append(bad, api.BatchWrite{Method: "PUT", Path: rp + "/Contoso.Ok", Body: json.RawMessage(`{}`)})...))
	for i, r := range res.Responses[:len(bad)] {
		if r.Status != 400 || r.Error == nil || r.Error.Target != fmt.Sprintf("requests[%d]", i) {
			t.Errorf("write %d (%s %s): %+v", i, bad[i].Method, bad[i].Path, r)
		}
	}
	if r := res.Responses[len(bad)]; r.Status != 201 {
		t.Errorf("the good write: %+v", r)
	}
	// Paths the routes refuse are refused as their requests are.
	res = f.batch(batchBody(t,
		api.BatchWrite{Method: "PUT", Path: rp + "/Contoso.Ok/resourceTypes/..", Body: json.RawMessage(`{}`)},
		api.BatchWrite{Method: "PUT", Path: rp + "/Contoso.Ok/widgets/x", Body: json.RawMessage(`{}`)},
	))
	if res.Responses[0].Status != 400 || res.Responses[1].Status/100 != 4 {
		t.Errorf("unclean and unknown paths: %+v", res.Responses)
	}
}

// A batch is a write: with tokens it needs one, and its writes are the
// caller's; the sync guard applies to each write.
func TestBatchAuthAndSync(t *testing.T) {
	f := newFixture(t, server.Options{Tokens: []server.Token{{Name: "ci", Value: "s3cret"}}})
	recordSync(t, f.srv, api.SyncStatus{State: "synced"}, "Contoso.Git")
	body := batchBody(t,
		api.BatchWrite{Method: "PUT", Path: rp + "/Contoso.Ok", Body: json.RawMessage(`{}`)},
		api.BatchWrite{Method: "PUT", Path: rp + "/Contoso.Git", Body: json.RawMessage(`{}`)},
	)
	f.must(401, "POST", batchPath, body, "Content-Type: application/json")
	res := f.batch(body, "Authorization: Bearer s3cret")
	if res.Responses[0].Status != 201 || res.Responses[1].Status != 409 || res.Responses[1].Error.Code != api.CodeConflict {
		t.Errorf("responses: %+v", res.Responses)
	}
	if r := f.must(200, "GET", rp+"/Contoso.Ok", ""); !strings.Contains(string(r.body), `"createdBy":"ci"`) {
		t.Errorf("provider written by the batch: %s", r.body)
	}
}

// FuzzBatch sends arbitrary batch documents: the batch is 200 or a 4xx,
// never a 5xx or a panic, and so is each of its writes.
func FuzzBatch(f *testing.F) {
	for _, body := range []string{
		`{"requests":[{"method":"PUT","path":"` + rp + `/Contoso.F","body":{}}]}`,
		`{"requests":[{"method":"PUT","path":"` + rp + `/Contoso.F/resourceTypes/t","body":{"properties":{}}},{"method":"DELETE","path":"` + rp + `/Contoso.F/locations/x"}]}`,
		`{"requests":[{"method":"PUT","path":"` + rp + `/Contoso.F/resourceTypes/t/apiVersions/2025-01-01","body":{"properties":{"schema":{"type":"object"}}}}]}`,
		`{"requests":[{"method":"PUT","path":"` + rp + `/%zz","body":{}},{"method":"PUT","path":"` + rp + `/a/../b","body":{}}]}`,
		`{"requests":[null]}`, `{"requests":{}}`, `[]`, `null`,
	} {
		f.Add(body)
	}
	srv := newServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest("POST", batchPath+"?api-version="+api.Version, strings.NewReader(body))
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 || (rec.Code >= 300 && rec.Code < 400) {
			t.Fatalf("POST %q = %d %s", body, rec.Code, rec.Body)
		}
		if rec.Code != 200 {
			return
		}
		var out api.BatchResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("POST %q: %v", body, err)
		}
		for i, r := range out.Responses {
			if r.Status >= 500 || r.Status < 200 || (r.Status >= 300 && r.Status < 400) {
				t.Fatalf("POST %q: write %d = %+v", body, i, r)
			}
		}
	})
}

// A batch of too many writes is refused before its writes are decoded:
// the refusal costs about the body's size, not memory per element, for
// the usual document and for one that only decodeStrict decodes (an
// unknown key, the key in another case or escaped).
func TestBatchTooManyWritesCostsLittle(t *testing.T) {
	srv := newServer(t)
	n := api.MaxBatchWrites * 50
	elems := strings.Repeat(`{},`, n-1) + `{}`
	for _, body := range []string{
		`{"requests":[` + elems + `]}`,
		`{"requests":[` + elems + `],"more":1}`,
		`{"Requests":[` + elems + `]}`,
		`{"requ\u0065sts":[` + elems + `]}`,
	} {
		req := httptest.NewRequest("POST", batchPath+"?api-version="+api.Version, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		srv.ServeHTTP(rec, req)
		runtime.ReadMemStats(&after)
		want := fmt.Sprintf("the batch has %d writes; at most %d are allowed", n, api.MaxBatchWrites)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("POST %.40s... = %d %s", body, rec.Code, rec.Body)
		}
		// Reading the body costs up to about 3 times its size (the buffer
		// grows from 64 KiB), more under -race; decoding its elements
		// cost over 100 times.
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(10*len(body)); got > limit {
			t.Errorf("POST %.40s... allocated %d bytes for a %d-byte body; want at most %d", body, got, len(body), limit)
		}
	}
}

// A write that panics past recoverPanics (http.ErrAbortHandler, which it
// re-panics) is that write's 500 with the ARM envelope: the batch answers
// for its other writes and the server goes on serving.
func TestBatchWritePanicIsItsOwn500(t *testing.T) {
	f := newFixture(t, server.Options{CheckSchema: func(schema json.RawMessage) []api.Diagnostic {
		if strings.Contains(string(schema), `"panic"`) {
			panic(http.ErrAbortHandler)
		}
		return nil
	}})
	f.must(201, "PUT", provider, `{"location":"global","properties":{}}`, "Content-Type: application/json")
	f.must(201, "PUT", buses, `{"properties":{}}`, "Content-Type: application/json")
	res := f.batch(batchBody(t,
		api.BatchWrite{Method: "PUT", Path: buses + "/apiVersions/2025-01-01", Body: json.RawMessage(`{"properties":{"schema":{"panic":true}}}`)},
		api.BatchWrite{Method: "PUT", Path: buses + "/apiVersions/2025-02-01", Body: json.RawMessage(`{"properties":{"schema":{}}}`)},
	))
	if len(res.Responses) != 2 {
		t.Fatalf("responses = %+v", res.Responses)
	}
	if r := res.Responses[0]; r.Status != 500 || r.Error == nil || r.Error.Code != api.CodeInternal {
		t.Errorf("the panicking write: %+v", r)
	}
	if r := res.Responses[1]; r.Status != 201 {
		t.Errorf("the other write: %+v", r)
	}
	f.must(200, "GET", buses+"/apiVersions/2025-02-01", "")
}

// logLines returns the "request" lines of a JSON log, in order.
func logLines(t *testing.T, log *bytes.Buffer) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(log.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["msg"] == "request" {
			out = append(out, m)
		}
	}
	return out
}

// Each write of a batch is logged as its request would be: its method,
// its path with the route's segments folded, its status, the caller; a
// success encodes no body (bytes 0: the batch's result carries its ETag,
// the one its request would answer), a failure the body its request
// would answer.
func TestBatchWritesAreLoggedAsTheirRequests(t *testing.T) {
	var log bytes.Buffer
	f := newFixture(t, server.Options{Tokens: []server.Token{{Name: "ci", Value: "s3cret"}},
		Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	auth := "Authorization: Bearer s3cret"
	f.must(201, "PUT", provider, `{"location":"global","properties":{}}`, "Content-Type: application/json", auth)
	bad := `{"properties":{"schema":{},"extra":1}}`
	res := f.batch(batchBody(t,
		api.BatchWrite{Method: "PUT", Path: strings.Replace(buses, "resourceTypes", "RESOURCETYPES", 1), Body: json.RawMessage(`{"properties":{"description":"Buses."}}`)},
		api.BatchWrite{Method: "PUT", Path: buses + "/apiVersions/2025-02-01", Body: json.RawMessage(bad)},
	), auth)
	if len(res.Responses) != 2 || res.Responses[0].Status != 201 || res.Responses[1].Status != 400 {
		t.Fatalf("responses: %+v", res.Responses)
	}
	get := f.must(200, "GET", buses, "", auth)
	if etag := strings.Trim(get.header.Get("ETag"), `"`); etag != res.Responses[0].ETag {
		t.Errorf("the batch's ETag %q, GET's %q", res.Responses[0].ETag, etag)
	}
	alone := f.do("PUT", buses+"/apiVersions/2025-02-01", bad, "Content-Type: application/json", auth)
	lines := logLines(t, &log)
	byPath := map[string]map[string]any{}
	for _, l := range lines {
		if l["method"] == "PUT" {
			byPath[l["path"].(string)] = l // the request alone comes last
		}
	}
	ok := byPath[buses]
	if ok == nil || ok["status"] != float64(201) || ok["bytes"] != float64(0) || ok["caller"] != "ci" {
		t.Errorf("the successful write's line: %v (lines: %v)", ok, lines)
	}
	var failed []map[string]any
	for _, l := range lines {
		if l["path"] == buses+"/apiVersions/2025-02-01" {
			failed = append(failed, l)
		}
	}
	if len(failed) != 2 {
		t.Fatalf("lines of the refused write, in the batch and alone: %v", failed)
	}
	if failed[0]["status"] != float64(400) || failed[0]["bytes"] != float64(len(alone.body)) || failed[0]["caller"] != "ci" {
		t.Errorf("the refused write's line %v; its request alone answered %d bytes", failed[0], len(alone.body))
	}
	// A refusal's line has its error code, a success's none.
	for _, l := range failed {
		if l["code"] != api.CodeInvalidRequestContent {
			t.Errorf("the refused write's line has code %v, want %s: %v", l["code"], api.CodeInvalidRequestContent, l)
		}
	}
	if _, has := ok["code"]; has {
		t.Errorf("the successful write's line has a code: %v", ok)
	}
}

// TestRequestLogErrorCode: the log line of a request answered with an
// error, by a handler or by the middleware, has the error's code.
func TestRequestLogErrorCode(t *testing.T) {
	var log bytes.Buffer
	f := newFixture(t, server.Options{Logger: slog.New(slog.NewJSONHandler(&log, nil))})
	f.do("GET", "/planes/radius/local/providers/System.Resources/resourceproviders/Contoso.Nope?api-version="+api.Version, "")
	f.do("GET", "/planes/radius/local/providers/System.Resources/resourceproviders/%2e%2e?api-version="+api.Version, "")
	f.do("GET", "/planes/radius/local/providers/System.Resources/resourceproviders/Contoso.Nope?api-version=1999-01-01", "")
	lines := logLines(t, &log)
	want := []struct {
		status float64
		code   string
	}{{404, api.CodeNotFound}, {400, api.CodeInvalidRequestContent}, {400, api.CodeInvalidAPIVersion}}
	if len(lines) != len(want) {
		t.Fatalf("%d request lines, want %d: %v", len(lines), len(want), lines)
	}
	for i, w := range want {
		if lines[i]["status"] != w.status || lines[i]["code"] != w.code {
			t.Errorf("line %d: %v, want status %v code %s", i, lines[i], w.status, w.code)
		}
	}
}
