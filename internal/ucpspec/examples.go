package ucpspec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Example is one of the description's example files: an operation's
// parameters (the body among them) and the answers it may give.
type Example struct {
	File      string
	Op        Op
	Params    map[string]json.RawMessage
	Responses map[int]ExampleResponse
}

// ExampleResponse is one answer of an example.
type ExampleResponse struct {
	Body    json.RawMessage   `json:"body"`
	Headers map[string]string `json:"headers"`
}

// Examples reads every example file of the description, sorted by name;
// each names its operation by operationId.
func (s *Spec) Examples(t testing.TB) []Example {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(s.dir, "examples", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples in %s: %v", s.dir, err)
	}
	ops := map[string]Op{}
	for path, item := range s.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			ops[op.OperationID] = Op{method, path}
		}
	}
	var out []Example
	for _, f := range files {
		var doc struct {
			OperationID string                     `json:"operationId"`
			Parameters  map[string]json.RawMessage `json:"parameters"`
			Responses   map[string]ExampleResponse `json:"responses"`
		}
		b, err := os.ReadFile(f)
		if err == nil {
			err = json.Unmarshal(b, &doc)
		}
		if err != nil {
			t.Fatalf("reading %s: %v", f, err)
		}
		op, ok := ops[doc.OperationID]
		if !ok {
			t.Fatalf("%s: operation %q is not in the description", f, doc.OperationID)
		}
		ex := Example{File: filepath.Base(f), Op: op, Params: doc.Parameters, Responses: map[int]ExampleResponse{}}
		for code, r := range doc.Responses {
			n, err := strconv.Atoi(code)
			if err != nil {
				t.Fatalf("%s: response %q is not a status", f, code)
			}
			ex.Responses[n] = r
		}
		out = append(out, ex)
	}
	slices.SortFunc(out, func(a, b Example) int { return strings.Compare(a.File, b.File) })
	return out
}

// Statuses returns the statuses of the example's answers, in order.
func (ex Example) Statuses() []int {
	var out []int
	for code := range ex.Responses {
		out = append(out, code)
	}
	slices.Sort(out)
	return out
}

// Request returns the example's request to the server at base (a URL
// with or without api.BasePath): the path from the operation's template
// and the path parameters, api-version in the query, and the body
// parameter (any parameter that is neither) as the body.
func (ex Example) Request(base string) (*http.Request, []byte, error) {
	path := ex.Op.Path
	var body []byte
	for name, raw := range ex.Params {
		switch {
		case name == "api-version":
		case strings.Contains(path, "{"+name+"}"):
			var v string
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, nil, fmt.Errorf("%s: parameter %s: %v", ex.File, name, err)
			}
			path = strings.ReplaceAll(path, "{"+name+"}", url.PathEscape(v))
		default:
			body = raw
		}
	}
	var version string
	_ = json.Unmarshal(ex.Params["api-version"], &version)
	req, err := http.NewRequest(ex.Op.Method, base+path+"?api-version="+url.QueryEscape(version), bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, body, nil
}

// Exchange returns the example's request with its answer of status, as
// the description's examples show it, for Check: it proves the checks
// accept what the description itself shows.
func (ex Example) Exchange(status int) (Exchange, error) {
	req, body, err := ex.Request("http://ucp.test")
	if err != nil {
		return Exchange{}, err
	}
	r := ex.Responses[status]
	h := http.Header{}
	for k, v := range r.Headers {
		h.Set(k, v)
	}
	var out []byte
	if len(r.Body) > 0 {
		h.Set("Content-Type", "application/json")
		out = r.Body
	}
	return Exchange{Request: req, RequestBody: body, Status: status, Header: h, Body: out}, nil
}
