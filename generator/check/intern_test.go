package check

import (
	"testing"
	"unsafe"

	"github.com/udtc/udtc/generator/manifest"
)

// TestModelHoldsRepeatedTextsOnce: a file's API versions repeat their
// descriptions, titles and property names; the model keeps one copy of
// each (reporter.intern), equal to what was written.
func TestModelHoldsRepeatedTextsOnce(t *testing.T) {
	version := `
        schema:
          type: object
          title: A thing
          description: What a thing is.
          properties:
            size: {type: string, description: How large it is.}
`
	src := "namespace: Contoso.Things\ntypes:\n  things:\n    apiVersions:\n      '2025-01-01':" + version + "      '2025-06-01':" + version
	doc, diags := manifest.Load("things.yaml", []byte(src))
	if doc == nil || diags.HasErrors() {
		t.Fatalf("load: %v", diags)
	}
	cat, more := Merge([]*FileResult{CheckFile(doc, nil, Options{})})
	if cat == nil {
		t.Fatalf("check: %v", more)
	}
	vs := cat.Providers[0].Types[0].APIVersions
	if len(vs) != 2 {
		t.Fatalf("%d API versions, want 2", len(vs))
	}
	a, b := vs[0].Schema, vs[1].Schema
	same := func(what, x, y, want string) {
		t.Helper()
		if x != want || y != want {
			t.Errorf("%s: %q and %q, want %q", what, x, y, want)
		} else if unsafe.StringData(x) != unsafe.StringData(y) {
			t.Errorf("%s: held twice", what)
		}
	}
	same("description", a.Description, b.Description, "What a thing is.")
	same("title", a.Title, b.Title, "A thing")
	same("property name", a.Properties[0].Name, b.Properties[0].Name, "size")
	same("property description", a.Properties[0].Schema.Description, b.Properties[0].Schema.Description, "How large it is.")
}
