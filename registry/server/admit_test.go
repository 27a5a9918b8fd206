package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// TestSchemaCompiledOncePerRegistrationChange counts compiles: PUTs of
// resources reuse the compiled schema until the API version is written.
func TestSchemaCompiledOncePerRegistrationChange(t *testing.T) {
	srv := newSQLiteServer(t)
	var compiles atomic.Int64
	srv.schemas.compile = func(s json.RawMessage) (*admission.Schema, error) {
		compiles.Add(1)
		return admission.Compile(s)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	do := func(want int, method, path, body string) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("%s %s = %d, want %d", method, path, resp.StatusCode, want)
		}
	}
	const (
		p   = "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps"
		v   = "?api-version=" + api.Version
		res = "/planes/radius/local/resourceGroups/rg/providers/Contoso.Apps/apps/a?api-version=2024-08-01"
	)
	do(201, "PUT", p+v, `{}`)
	do(201, "PUT", p+"/resourceTypes/apps"+v, `{}`)
	do(201, "PUT", p+"/resourceTypes/apps/apiVersions/2024-08-01"+v, `{"properties":{"schema":{"type":"object","properties":{"n":{"type":"integer"}}}}}`)
	do(201, "PUT", p+"/locations/global"+v, `{"properties":{"resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}}}}}`)
	do(201, "PUT", "/planes/radius/local/resourceGroups/rg"+v, `{}`)
	do(201, "PUT", res, `{"properties":{"n":1}}`)
	do(200, "PUT", res, `{"properties":{"n":2}}`)
	do(400, "PUT", res, `{"properties":{"n":"x"}}`)
	if n := compiles.Load(); n != 1 {
		t.Errorf("%d compiles for 3 PUTs of one registration, want 1", n)
	}
	// A new schema is used at once.
	do(200, "PUT", p+"/resourceTypes/apps/apiVersions/2024-08-01"+v, `{"properties":{"schema":{"type":"object","properties":{"n":{"type":"string"}}}}}`)
	do(200, "PUT", res, `{"properties":{"n":"x"}}`)
	do(200, "PUT", res, `{"properties":{"n":"y"}}`)
	if n := compiles.Load(); n != 2 {
		t.Errorf("%d compiles after the schema changed, want 2", n)
	}
}

// newSQLiteServer returns a Server over a new SQLite store in a temporary
// directory, with a zero secrets key; the store closes with the test.
func newSQLiteServer(t *testing.T) *Server {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "registry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := secrets.New(make([]byte, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(ctx, Options{Store: st, Secrets: sealer})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}
