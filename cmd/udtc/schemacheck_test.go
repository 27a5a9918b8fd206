package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

const schemaTestType = "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Schemas/resourceTypes/things"

// put sends a JSON PUT to the registry at base and returns the status and body.
func put(t *testing.T, base, path, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest("PUT", base+path+"?api-version="+api.Version, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// putTestType registers schemaTestType's provider and the type.
func putTestType(t *testing.T, base string) {
	t.Helper()
	if code, b := put(t, base, schemaTestType[:strings.LastIndex(schemaTestType, "/resourceTypes")], `{}`); code != 201 {
		t.Fatalf("PUT provider = %d %s", code, b)
	}
	if code, b := put(t, base, schemaTestType, `{}`); code != 201 {
		t.Fatalf("PUT type = %d %s", code, b)
	}
}

// TestServeSchemaJSONEscapes: schemas in request bodies are read as JSON,
// so escapes other encoders produce by default are accepted: a surrogate
// pair (Python's json.dumps) and an escaped slash (PHP's json_encode).
func TestServeSchemaJSONEscapes(t *testing.T) {
	base, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	putTestType(t, base)
	for i, schema := range []string{
		`{"type":"object","properties":{"size":{"type":"string","description":"\ud83d\ude00 big"}}}`,
		`{"type":"object","properties":{"url":{"type":"string","description":"see http:\/\/example.com\/a\/b"}}}`,
		`{"type":"object","properties":{"a\/b":{"type":"string"}}}`,
	} {
		v := fmt.Sprintf("/apiVersions/2025-01-0%d", i+1)
		if code, b := put(t, base, schemaTestType+v, `{"properties":{"schema":`+schema+`}}`); code != 201 {
			t.Errorf("PUT schema %s = %d %s", schema, code, b)
		}
	}
	// Invalid JSON inside a valid body cannot happen (the body is JSON), but
	// a schema the checker refuses still names its JSON path.
	code, b := put(t, base, schemaTestType+"/apiVersions/2025-02-01", `{"properties":{"schema":{"type":"object","properties":{"a\/b":{"type":"array"}}}}}`)
	if code != 400 || !strings.Contains(string(b), `"target":"/properties/a~1b"`) {
		t.Errorf("PUT invalid schema = %d %s, want 400 targeting /properties/a~1b", code, b)
	}
}

// hugeSchema is a ~3 MB schema with n undeclared required names.
func hugeSchema(n int) string {
	var b strings.Builder
	b.WriteString(`{"properties":{"schema":{"type":"object","properties":{"a":{"type":"string"}},"required":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"req%d"`, i)
	}
	b.WriteString("]}}}")
	return b.String()
}

// TestServeHugeSchemaErrorsAreBounded: eight concurrent PUTs of a ~3 MB
// schema with 300,000 undeclared required names each get a small 400 (at
// most 100 details and a count). Before, each answer was 36 MB with 300,000
// details and each request cost about 240 MB; the server's memory under
// this load is measured by `make bench`, not here.
func TestServeHugeSchemaErrorsAreBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 28 MB of schemas; skipped with -short")
	}
	const (
		requests = 8
		names    = 300_000
		maxBody  = 64 << 10
	)
	p := startServeProcess(t, "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	if code, b := put(t, p.url, schemaTestType[:strings.LastIndex(schemaTestType, "/resourceTypes")], `{}`); code != 201 {
		t.Fatalf("PUT provider = %d %s", code, b)
	}
	if code, b := put(t, p.url, schemaTestType, `{}`); code != 201 {
		t.Fatalf("PUT type = %d %s", code, b)
	}
	body := hugeSchema(names)
	if len(body) < 3<<20 || len(body) > 4<<20 {
		t.Fatalf("schema body is %d bytes", len(body))
	}
	var wg sync.WaitGroup
	for i := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, b := put(t, p.url, fmt.Sprintf("%s/apiVersions/2025-01-%02d", schemaTestType, i+1), body)
			if code != 400 {
				t.Errorf("PUT huge schema = %d %.300s", code, b)
				return
			}
			if len(b) > maxBody {
				t.Errorf("the 400 is %d bytes, want at most %d", len(b), maxBody)
			}
			var e api.ErrorResponse
			if err := json.Unmarshal(b, &e); err != nil {
				t.Errorf("not an ARM envelope: %v", err)
				return
			}
			if n := len(e.Error.Details); n > api.MaxErrorDetails+1 || n == 0 {
				t.Errorf("%d details, want 1 to %d", n, api.MaxErrorDetails+1)
			}
			all := string(b)
			if !strings.Contains(all, "TooManyDetails") || !strings.Contains(all, fmt.Sprintf("the schema has %d errors", names)) {
				t.Errorf("the answer does not say how many problems there were: %.500s", all)
			}
		}()
	}
	wg.Wait()
}

// TestServeSchemaPatternDefaults: an API version whose defaults run into an
// exponential pattern is refused, not accepted after a timeout: a pattern
// RE2 runs refuses the default as a mismatch, and defaults the
// backtracking engine cannot match within the schema's budget are refused
// naming the property and the budget.
func TestServeSchemaPatternDefaults(t *testing.T) {
	base, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	putTestType(t, base)
	evil := strings.Repeat("a", 40) + "!"
	for v, pattern := range map[string]string{"2025-01-01": `^(a+)+$`, "2025-02-01": `^(?=a)(a+)+$`} {
		props := map[string]any{}
		for i := range 20 {
			props[fmt.Sprintf("p%02d", i)] = map[string]any{"type": "string", "pattern": pattern, "default": evil}
		}
		body, _ := json.Marshal(map[string]any{"properties": map[string]any{"schema": map[string]any{"type": "object", "properties": props}}})
		code, b := put(t, base, schemaTestType+"/apiVersions/"+v, string(body))
		if code != 400 || !strings.Contains(string(b), `"target":"/properties/p00/default"`) {
			t.Errorf("PUT %s with 20 defaults against %s = %d %s, want 400", v, pattern, code, b)
		}
		if v == "2025-02-01" && !strings.Contains(string(b), "time backstop of 1s") {
			t.Errorf("PUT %s: the refusal does not name the budget: %s", v, b)
		}
	}
}

// TestServeResourcePatternSteps: a resource PUT whose value's match costs
// more than the request's budget of steps is refused with 400, naming the
// property, the pattern and the budget, without matching (a 3 MiB value
// against a{0,999}b took about 40 s of CPU); a value refused for its
// maxLength is not matched at all.
func TestServeResourcePatternSteps(t *testing.T) {
	base, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	putTestType(t, base)
	schema := `{"properties":{"schema":{"type":"object","properties":{` +
		`"name":{"type":"string","pattern":"a{0,999}b"},"short":{"type":"string","pattern":"a{0,999}b","maxLength":64}}}}}`
	if code, b := put(t, base, schemaTestType+"/apiVersions/2025-01-01", schema); code/100 != 2 {
		t.Fatalf("PUT API version = %d %s", code, b)
	}
	provider := schemaTestType[:strings.LastIndex(schemaTestType, "/resourceTypes")]
	if code, b := put(t, base, provider+"/locations/global", `{"properties":{"resourceTypes":{"things":{"apiVersions":{"2025-01-01":{}}}}}}`); code/100 != 2 {
		t.Fatalf("PUT location = %d %s", code, b)
	}
	putResource := func(body string) (int, string) {
		t.Helper()
		for _, c := range []struct{ path, body string }{
			{"/planes/radius/local/resourceGroups/rg?api-version=2023-10-01-preview", `{}`},
			{"/planes/radius/local/resourceGroups/rg/providers/Contoso.Schemas/things/x?api-version=2025-01-01", body},
		} {
			req, _ := http.NewRequest("PUT", base+c.path, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if c.body == body {
				return resp.StatusCode, string(b)
			}
		}
		return 0, ""
	}
	code, b := putResource(`{"properties":{"name":"` + strings.Repeat("a", 3<<20) + `"}}`)
	if code != 400 || !strings.Contains(b, `"target":"properties.name"`) ||
		!strings.Contains(b, "could not be matched against the pattern a{0,999}b: matching it costs 6,294,603,729 steps, over the budget of 100,000,000 steps per request") {
		t.Errorf("PUT of a 3 MiB name = %d %.600s", code, b)
	}
	code, b = putResource(`{"properties":{"short":"` + strings.Repeat("a", 100_000) + `"}}`)
	if code != 400 || !strings.Contains(b, "InvalidLength") || strings.Contains(b, "PatternMismatch") {
		t.Errorf("PUT of a 100,000-character short = %d %.600s, want only InvalidLength", code, b)
	}
	if code, b = putResource(`{"properties":{"name":"aab","short":"ab"}}`); code/100 != 2 {
		t.Errorf("PUT of matching values = %d %.600s", code, b)
	}
}
