package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// countingRecorder is a batchRecorder that counts the body bytes the
// handler writes, failures' and successes' alike.
type countingRecorder struct {
	batchRecorder
	written int
}

func (c *countingRecorder) Write(p []byte) (int, error) {
	c.written += len(p)
	return c.batchRecorder.Write(p)
}

// A successful write of a batch is answered with its status and ETag, so
// its handler encodes no body (the batch would drop it); the status and
// ETag are those of the write on its own, and a failure keeps its body.
func TestBatchWriteEncodesNoBodyOnSuccess(t *testing.T) {
	srv := newSQLiteServer(t)
	const rp = "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Data"
	serve := func(batch bool, method, path, body string) *countingRecorder {
		t.Helper()
		r := httptest.NewRequest(method, path+"?api-version="+api.Version, strings.NewReader(body))
		if batch {
			r = r.WithContext(context.WithValue(r.Context(), batchKey{}, true))
		}
		r.Header.Set("Content-Type", "application/json")
		rec := &countingRecorder{batchRecorder: batchRecorder{header: http.Header{}}}
		srv.handler.ServeHTTP(rec, r)
		return rec
	}
	writes := []struct{ path, body string }{
		{rp, `{"location":"global","properties":{}}`},
		{rp + "/resourceTypes/things", `{"properties":{"description":"Things."}}`},
		{rp + "/resourceTypes/things/apiVersions/2025-01-01", `{"properties":{"schema":{"type":"object","properties":{"a":{"type":"string"}}}}}`},
	}
	for _, w := range writes {
		rec := serve(true, "PUT", w.path, w.body)
		if rec.status != http.StatusCreated || rec.written != 0 || rec.header.Get("ETag") == "" {
			t.Errorf("PUT %s in a batch: status %d, %d body bytes, ETag %q; want 201, none, an ETag",
				w.path, rec.status, rec.written, rec.header.Get("ETag"))
		}
		get := serve(false, "GET", w.path, "")
		if get.header.Get("ETag") != rec.header.Get("ETag") {
			t.Errorf("GET %s: ETag %q, the batch's write said %q", w.path, get.header.Get("ETag"), rec.header.Get("ETag"))
		}
		alone := serve(false, "PUT", w.path, w.body)
		if alone.status != http.StatusOK || alone.written == 0 {
			t.Errorf("PUT %s on its own: status %d, %d body bytes; want 200 with a body", w.path, alone.status, alone.written)
		}
	}
	bad := serve(true, "PUT", rp+"/resourceTypes/things/apiVersions/2025-02-01", `{"properties":{"schema":{},"extra":1}}`)
	var env api.ErrorResponse
	if bad.status != http.StatusBadRequest || json.Unmarshal(bad.body.Bytes(), &env) != nil || env.Error.Code == "" {
		t.Errorf("a refused write in a batch: status %d, body %q; want 400 with its error", bad.status, bad.body.String())
	}
}
