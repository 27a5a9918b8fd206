package bridge

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/registry/catalog"
)

// TestCompareCompiledUsesTheModel: the site of a compiled catalog compares
// its versions' models as compiled, with the findings a check of their
// registered JSON gives, and leaves schemas it did not compile to the
// registry's comparison.
func TestCompareCompiledUsesTheModel(t *testing.T) {
	manifest := `namespace: Contoso.Things
types:
  things:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string, readOnly: true}
            color: {type: string, enum: [red, blue]}
      '2025-06-01':
        schema:
          type: object
          properties:
            color: {type: string, enum: [red]}
            weight: {type: integer, minimum: 1}
          required: [weight]
`
	p := filepath.Join(t.TempDir(), "things.yaml")
	if err := os.WriteFile(p, []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	cat, diags, err := generator.Compile(context.Background(), []string{p}, generator.Options{})
	if err != nil || cat == nil {
		t.Fatalf("compile: %v %v", err, diags)
	}
	regs := registration.Registrations(cat, registration.Options{})
	vs := regs[0].Types[0].APIVersions
	older, newer := vs[0].Properties.Schema, vs[1].Properties.Schema
	var fallback [][2]string
	compare := compareCompiled(cat, regs, func(o, n json.RawMessage) ([]catalog.Change, error) {
		fallback = append(fallback, [2]string{string(o), string(n)})
		return nil, nil
	})
	got, err := compare(older, newer)
	want, werr := CompareSchemas(NewPatterns())(older, newer)
	if err != nil || werr != nil || len(want) < 3 || !reflect.DeepEqual(got, want) {
		t.Errorf("compiled: %v, %v\nchecked again: %v, %v", got, err, want, werr)
	}
	if len(fallback) != 0 {
		t.Errorf("compiled schemas were handed to the registry's comparison: %v", fallback)
	}
	other := json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`)
	if _, err := compare(older, other); err != nil || len(fallback) != 1 || fallback[0][1] != string(other) {
		t.Errorf("a schema not compiled: fallback calls %v, %v", fallback, err)
	}
}

// TestChangesReuseCheckedDefaults: the changes page (CompareSchemas)
// checks the schemas the registration PUT checked (CheckSchema) with the
// same Patterns, and takes the answers of their costly default matches
// from there instead of matching again, view after view.
func TestChangesReuseCheckedDefaults(t *testing.T) {
	patterns := NewPatterns()
	schema := func(extra string) json.RawMessage {
		return json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","pattern":"a{0,999}b","default":"` +
			strings.Repeat("a", 40_000) + `b"}` + extra + `}}`)
	}
	older, newer := schema(""), schema(`,"c":{"type":"string"}`)
	for _, s := range []json.RawMessage{older, newer} {
		for _, d := range CheckSchema(patterns)(s) {
			if d.Severity == "error" {
				t.Fatalf("PUT check: %+v", d)
			}
		}
	}
	hits := patterns.Answers().Hits()
	compare := CompareSchemas(patterns)
	for view := range 3 {
		if _, err := compare(older, newer); err != nil {
			t.Fatalf("view %d: %v", view, err)
		}
		if got, want := patterns.Answers().Hits()-hits, int64(2*(view+1)); got != want {
			t.Fatalf("view %d: %d defaults answered from the cache, want %d (both schemas' default, each view)", view, got, want)
		}
	}
}
