package service

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/secrets"
	"github.com/udtc/udtc/registry/store/sqlite"
)

// newSQLiteService returns a Service over a new SQLite store in a
// temporary directory, with a zero secrets key; the store closes with the
// test.
func newSQLiteService(t *testing.T) *Service {
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
	svc, err := New(ctx, Options{Store: st, Secrets: sealer})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// putRegistration writes body to id and fails the test unless it is
// created or updated as want says.
func putRegistration(t *testing.T, svc *Service, id registry.ID, body string, wantCreated bool) {
	t.Helper()
	env, err := DecodeEnvelope([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if _, created, err := svc.PutRegistration(context.Background(), RegistrationWrite{ID: id, Body: env}); err != nil || created != wantCreated {
		t.Fatalf("PutRegistration(%s) = created %v, %v; want created %v", id, created, err, wantCreated)
	}
}

// TestSchemaCompiledOncePerRegistrationChange counts compiles: PUTs of
// resources reuse the compiled schema until the API version is written.
func TestSchemaCompiledOncePerRegistrationChange(t *testing.T) {
	ctx := context.Background()
	svc := newSQLiteService(t)
	var compiles atomic.Int64
	svc.schemas.compile = func(s json.RawMessage) (*admission.Schema, error) {
		compiles.Add(1)
		return admission.Compile(s)
	}
	const ns, typ, ver = "Contoso.Apps", "apps", "2024-08-01"
	versionID := registry.APIVersionID(api.DefaultPlane, ns, typ, ver)
	putRegistration(t, svc, registry.ProviderID(api.DefaultPlane, ns), `{}`, true)
	putRegistration(t, svc, registry.TypeID(api.DefaultPlane, ns, typ), `{}`, true)
	putRegistration(t, svc, versionID, `{"properties":{"schema":{"type":"object","properties":{"n":{"type":"integer"}}}}}`, true)
	putRegistration(t, svc, registry.LocationID(api.DefaultPlane, ns, "global"), `{"properties":{"resourceTypes":{"apps":{"apiVersions":{"2024-08-01":{}}}}}}`, true)
	if _, _, err := svc.PutGroup(ctx, GroupWrite{ID: registry.GroupID{Plane: api.DefaultPlane, Name: "rg"}}); err != nil {
		t.Fatal(err)
	}
	id, err := api.ParseResourceID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Apps/apps/a")
	if err != nil {
		t.Fatal(err)
	}
	put := func(props string, want registry.Code, wantCreated bool) {
		t.Helper()
		typ, err := svc.Resolve(ctx, svc.Generation(ctx), TypeRef{Plane: id.Plane, Namespace: id.Namespace, Type: id.TypeName(), APIVersion: ver})
		if err != nil {
			t.Fatal(err)
		}
		res, err := svc.PutResource(ctx, typ, ResourceWrite{ID: id, Body: Envelope{Properties: json.RawMessage(props)}})
		switch {
		case err != nil && registry.CodeOf(err) != want:
			t.Fatalf("PutResource(%s) = %v (code %d), want code %d", props, err, registry.CodeOf(err), want)
		case err == nil && (want != 0 || res.Created != wantCreated):
			t.Fatalf("PutResource(%s) created %v, want code %d, created %v", props, res.Created, want, wantCreated)
		}
	}
	put(`{"n":1}`, 0, true)
	put(`{"n":2}`, 0, false)
	put(`{"n":"x"}`, registry.CodeInvalid, false)
	if n := compiles.Load(); n != 1 {
		t.Errorf("%d compiles for 3 PUTs of one registration, want 1", n)
	}
	// A new schema is used at once.
	putRegistration(t, svc, versionID, `{"properties":{"schema":{"type":"object","properties":{"n":{"type":"string"}}}}}`, false)
	put(`{"n":"x"}`, 0, false)
	put(`{"n":"y"}`, 0, false)
	if n := compiles.Load(); n != 2 {
		t.Errorf("%d compiles after the schema changed, want 2", n)
	}
}

// countingGens is a registry.Generations whose generation is the number of
// reads started so far; each read takes a moment, so callers overlap.
type countingGens struct{ started atomic.Int64 }

func (g *countingGens) Generation(ctx context.Context) (string, error) {
	n := g.started.Add(1)
	time.Sleep(200 * time.Microsecond)
	return strconv.FormatInt(n, 10), nil
}

// TestGenerationReadAfterCall: concurrent callers share generation reads,
// but each gets a value from a read that started after it called (else a
// write acknowledged just before its request could be missed).
func TestGenerationReadAfterCall(t *testing.T) {
	g := &countingGens{}
	c := &generations{gens: g}
	const callers, calls = 16, 200
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				before := g.started.Load()
				gen, ok := c.read(context.Background())
				if !ok {
					t.Error("generation: not ok")
					return
				}
				if n, _ := strconv.ParseInt(gen, 10, 64); n <= before {
					t.Errorf("got the generation of read %d, started before the call (%d reads had started)", n, before)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := g.started.Load(); n >= callers*calls {
		t.Errorf("%d reads for %d calls: none shared", n, callers*calls)
	}
}

// The stored properties of an API version are written around the
// compacted schema (validSchema); they must be the bytes that encoding the
// value gives (Marshal), whatever the schema holds.
func TestStoredSchemaMatchesMarshal(t *testing.T) {
	s := &Service{checkSlots: make(chan struct{}, 1)}
	for _, raw := range []string{
		`{}`,
		` { "type" : "object",
		    "properties": { "a": {"type": "string", "pattern": "^<a&b>$"} } } `,
		`{"description":"line\u2028sep \u00e9 é \"q\" \\ /","enum":["<",">","&"],"x":[1,2.5e3,-0,true,null]}`,
		`{"properties":{"n":{"type":"object","properties":{"m":{"type":"array","items":{"type":"integer","minimum":-1}}}}}}`,
	} {
		props, err := s.validSchema(context.Background(), json.RawMessage(raw))
		if err != nil {
			t.Fatalf("validSchema(%s): %v", raw, err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(raw)); err != nil {
			t.Fatal(err)
		}
		want, err := Marshal(registry.APIVersionProperties{Schema: compact.Bytes()})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(props, want) {
			t.Errorf("stored properties of %s:\n got %s\nwant %s", raw, props, want)
		}
		if got, _ := registry.StoredSchema(props); !bytes.Equal(got, compact.Bytes()) {
			t.Errorf("StoredSchema = %s, want %s", got, compact.Bytes())
		}
	}
}

// TestAcceptedSchemaCheckedOnce counts schema checks: a schema accepted
// once is not checked again, whatever the spacing of its JSON or the API
// version it is PUT to; a refused one is checked every time.
func TestAcceptedSchemaCheckedOnce(t *testing.T) {
	svc := newSQLiteService(t)
	var checks atomic.Int64
	svc.checkSchema = func(s json.RawMessage) []api.Diagnostic {
		checks.Add(1)
		if bytes.Contains(s, []byte(`"bad"`)) {
			return []api.Diagnostic{{Severity: "error", Rule: "bad", Message: "bad schema"}}
		}
		return nil
	}
	const ns, typ = "Contoso.Apps", "apps"
	putRegistration(t, svc, registry.ProviderID(api.DefaultPlane, ns), `{}`, true)
	putRegistration(t, svc, registry.TypeID(api.DefaultPlane, ns, typ), `{}`, true)
	v1, v2 := registry.APIVersionID(api.DefaultPlane, ns, typ, "2024-08-01"), registry.APIVersionID(api.DefaultPlane, ns, typ, "2025-01-01")
	putRegistration(t, svc, v1, `{"properties":{"schema":{"type":"object"}}}`, true)
	putRegistration(t, svc, v1, `{"properties":{"schema":{ "type": "object" }}}`, false)
	putRegistration(t, svc, v2, `{"properties":{"schema":{"type":"object"}}}`, true)
	if n := checks.Load(); n != 1 {
		t.Errorf("%d checks for 3 PUTs of one schema, want 1", n)
	}
	for range 2 {
		env, err := DecodeEnvelope([]byte(`{"properties":{"schema":{"type":"object","description":"bad"}}}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.PutRegistration(context.Background(), RegistrationWrite{ID: v1, Body: env}); registry.CodeOf(err) != registry.CodeInvalid {
			t.Fatalf("PUT of a refused schema = %v, want CodeInvalid", err)
		}
	}
	if n := checks.Load(); n != 3 {
		t.Errorf("%d checks after 2 PUTs of a refused schema, want 3", n)
	}
}
