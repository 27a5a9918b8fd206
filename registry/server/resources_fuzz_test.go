package server_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// FuzzResourcePut sends arbitrary bodies to the resource PUT path (the
// envelope, admission against appsSchema, references, the store): the
// answer is a success or a 4xx, never a 5xx or a panic.
func FuzzResourcePut(f *testing.F) {
	for _, body := range []string{
		`{"properties":{"image":"nginx"}}`,
		`{"location":"east","properties":{"image":"nginx"}}`,
		`{"properties":{"image":"x","replicas":0,"ports":{"web":{"containerPort":"80"}},"steps":[{}]}}`,
		`{"properties":{"image":"nginx","database":"/planes/radius/local/resourceGroups/rg/providers/Contoso.Apps/databases/d"}}`,
		`{"properties":{"image":"nginx","labels":{"a":1,"b":"2"},"password":null}}`,
		`{"properties":[]}`, `[]`, `null`, `{"tags":{"a":1}}`, `{"properties":{"provisioningState":"x","image":"abc"}}`,
	} {
		f.Add(body)
	}
	srv := newServer(f)
	put := func(t *testing.T, path, body string, want int) int {
		req := httptest.NewRequest("PUT", path, strings.NewReader(body))
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if want != 0 && rec.Code != want {
			t.Fatalf("PUT %s = %d %s", path, rec.Code, rec.Body)
		}
		return rec.Code
	}
	const (
		p = "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Apps"
		v = "?api-version=" + api.Version
	)
	f.Fuzz(func(t *testing.T, body string) {
		if put(t, p+v, `{}`, 0) == 201 { // the first run registers the types
			put(t, p+"/resourceTypes/apps"+v, `{}`, 201)
			put(t, p+"/resourceTypes/apps/apiVersions/2024-08-01"+v, `{"properties":{"schema":`+appsSchema+`}}`, 201)
			put(t, p+"/resourceTypes/databases"+v, `{}`, 201)
			put(t, p+"/resourceTypes/databases/apiVersions/2024-08-01"+v, `{"properties":{"schema":{}}}`, 201)
			put(t, p+"/locations/global"+v, `{"properties":{"resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}},"databases":{"apiVersions":{"2024-08-01":{}}}}}}`, 201)
			put(t, rg+v, `{}`, 201)
		}
		code := put(t, appsPath+"/a"+typeVer, body, 0)
		if code >= 500 || (code >= 300 && code < 400) {
			t.Fatalf("PUT with body %q = %d", body, code)
		}
	})
}
