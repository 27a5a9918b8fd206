package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/server"
)

func TestBatch(t *testing.T) {
	ctx := context.Background()
	ts := httptest.NewServer(newServer(t, server.Options{}))
	defer ts.Close()
	c := newClient(t, ts.URL)

	b := c.NewBatch()
	b.PutProvider("Contoso.Platform", api.ResourceProvider{Location: "global"})
	b.PutProvider("Contoso.Other", api.ResourceProvider{})
	if errs, err := b.Send(ctx); err != nil || errs[0] != nil || errs[1] != nil {
		t.Fatalf("providers: %v %v", errs, err)
	}
	schema := json.RawMessage(`{"type":"object"}`)
	b = c.NewBatch()
	b.PutResourceType("Contoso.Platform", "contosoBuses", api.ResourceType{})
	b.PutResourceType("Contoso.Missing", "things", api.ResourceType{})
	b.PutResourceType("Contoso.Platform", "../x", api.ResourceType{})
	b.PutLocation("Contoso.Platform", "global", api.Location{})
	b.DeleteResourceType("Contoso.Other", "gone")
	b.DeleteLocation("Contoso.Other", "gone")
	if b.Len() != 6 || b.Size() == 0 {
		t.Errorf("Len %d Size %d", b.Len(), b.Size())
	}
	errs, err := b.Send(ctx)
	if err != nil || len(errs) != 6 {
		t.Fatalf("Send = %v, %v", errs, err)
	}
	if errs[0] != nil || errs[3] != nil || errs[4] != nil || errs[5] != nil {
		t.Errorf("errs = %v", errs)
	}
	if !client.IsNotFound(errs[1]) || !strings.Contains(errs[1].Error(), "registry: 404 NotFound: ") {
		t.Errorf("a missing parent: %v", errs[1])
	}
	if !errors.Is(errs[2], client.ErrInvalidName) {
		t.Errorf("an invalid name: %v", errs[2])
	}
	b = c.NewBatch()
	b.PutAPIVersion("Contoso.Platform", "contosoBuses", "2025-01-01", api.APIVersion{Properties: api.APIVersionProperties{Schema: schema}})
	b.DeleteAPIVersion("Contoso.Platform", "contosoBuses", "2020-01-01")
	if errs, err := b.Send(ctx); err != nil || errs[0] != nil || errs[1] != nil {
		t.Fatalf("versions: %v %v", errs, err)
	}
	if v, err := c.GetAPIVersion(ctx, "Contoso.Platform", "contosoBuses", "2025-01-01"); err != nil || string(v.Properties.Schema) != string(schema) {
		t.Errorf("GetAPIVersion = %s, %v", v.Properties.Schema, err)
	}
}

// Writes answered with a retryable status are sent again, alone; the
// others are not.
func TestBatchRetriesRetryableWrites(t *testing.T) {
	ctx := context.Background()
	srv := newServer(t, server.Options{})
	var calls atomic.Int64
	var mu sync.Mutex
	var sizes []int
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/batch") {
			srv.ServeHTTP(w, r)
			return
		}
		var req api.BatchRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Error(err)
		}
		mu.Lock()
		sizes = append(sizes, len(req.Requests))
		mu.Unlock()
		out := api.BatchResponse{}
		for _, bw := range req.Requests {
			res := api.BatchResult{Status: 201}
			switch {
			case strings.HasSuffix(bw.Path, "/Contoso.Busy") && calls.Load() < 2:
				res = api.BatchResult{Status: 409, Error: &api.ErrorDetail{Code: api.CodeAnotherOperation, Message: "busy"}}
			case strings.HasSuffix(bw.Path, "/Contoso.Bad"):
				res = api.BatchResult{Status: 400, Error: &api.ErrorDetail{Code: api.CodeInvalidRequestContent, Message: "bad", Details: []api.ErrorDetail{{Code: "r", Message: "m", Target: "/p"}}}}
			}
			out.Responses = append(out.Responses, res)
		}
		calls.Add(1)
		json.NewEncoder(w).Encode(out)
	}))
	defer ts.Close()
	b := newClient(t, ts.URL).NewBatch()
	b.PutProvider("Contoso.Busy", api.ResourceProvider{})
	b.PutProvider("Contoso.Bad", api.ResourceProvider{})
	b.PutProvider("Contoso.Fine", api.ResourceProvider{})
	errs, err := b.Send(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if errs[0] != nil || errs[2] != nil {
		t.Errorf("errs = %v", errs)
	}
	if want := "registry: 400 InvalidRequestContent: bad\n  r: m (at /p)"; errs[1] == nil || errs[1].Error() != want || client.StatusCode(errs[1]) != 400 {
		t.Errorf("errs[1] = %v, want %s", errs[1], want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(sizes) != 3 || sizes[0] != 3 || sizes[1] != 1 || sizes[2] != 1 {
		t.Errorf("batch sizes sent: %v", sizes)
	}
}

// A server without the batch endpoint says so with ErrBatchUnsupported; a
// refused batch is the batch's error.
func TestBatchUnsupported(t *testing.T) {
	ctx := context.Background()
	for _, status := range []int{404, 405} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
		}))
		b := newClient(t, ts.URL).NewBatch()
		b.PutProvider("Contoso.Platform", api.ResourceProvider{})
		if _, err := b.Send(ctx); !errors.Is(err, client.ErrBatchUnsupported) {
			t.Errorf("%d: err = %v", status, err)
		}
		ts.Close()
	}
	small := httptest.NewServer(newServer(t, server.Options{MaxBodyBytes: 100}))
	defer small.Close()
	b := newClient(t, small.URL).NewBatch()
	b.PutProvider("Contoso.Platform", api.ResourceProvider{Location: "global"})
	b.PutProvider("Contoso.Other", api.ResourceProvider{Location: "global"})
	if _, err := b.Send(ctx); !errors.Is(err, client.ErrBatchTooLarge) {
		t.Errorf("over the body limit: %v", err)
	}
	ts := httptest.NewServer(newServer(t, server.Options{Tokens: []server.Token{{Value: "s3cret"}}}))
	defer ts.Close()
	b = newClient(t, ts.URL).NewBatch()
	b.PutProvider("Contoso.Platform", api.ResourceProvider{})
	if _, err := b.Send(ctx); client.StatusCode(err) != 401 || errors.Is(err, client.ErrBatchUnsupported) {
		t.Errorf("without the token: %v", err)
	}
}

// When a retry's request fails whole, the writes an earlier request
// applied are not reported failed: only the writes still pending get the
// retry's error, and Send has no batch error.
func TestBatchRetryFailureKeepsEarlierResults(t *testing.T) {
	ctx := context.Background()
	for name, retry := range map[string]http.HandlerFunc{
		"refused": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(api.ErrorResponse{Error: api.ErrorDetail{Code: "Forbidden", Message: "no"}})
		},
		"too few results": func(w http.ResponseWriter, r *http.Request) {
			json.NewEncoder(w).Encode(api.BatchResponse{})
		},
	} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int64
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if calls.Add(1) > 1 {
					retry(w, r)
					return
				}
				var req api.BatchRequest
				if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
					t.Error(err)
				}
				out := api.BatchResponse{}
				for _, bw := range req.Requests {
					res := api.BatchResult{Status: 201}
					if strings.HasSuffix(bw.Path, "/Contoso.Busy") {
						res = api.BatchResult{Status: 409, Error: &api.ErrorDetail{Code: api.CodeAnotherOperation, Message: "busy"}}
					}
					out.Responses = append(out.Responses, res)
				}
				json.NewEncoder(w).Encode(out)
			}))
			defer ts.Close()
			b := newClient(t, ts.URL).NewBatch()
			b.PutProvider("Contoso.Fine", api.ResourceProvider{})
			b.PutProvider("Contoso.Busy", api.ResourceProvider{})
			b.PutProvider("Contoso.Other", api.ResourceProvider{})
			errs, err := b.Send(ctx)
			if err != nil {
				t.Fatalf("Send: %v", err)
			}
			if len(errs) != 3 || errs[0] != nil || errs[2] != nil || errs[1] == nil {
				t.Errorf("errs = %v; want only the retried write failed", errs)
			}
			if n := calls.Load(); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
		})
	}
}
