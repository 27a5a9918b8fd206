package goclient

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/naming"
)

func TestPascal(t *testing.T) {
	for in, want := range map[string]string{
		"size":               "Size",
		"dnsName":            "DNSName",
		"apiURL":             "APIURL",
		"httpGet":            "HTTPGet",
		"HTTPServer":         "HTTPServer",
		"mySqlDatabases":     "MySQLDatabases",
		"foo_bar":            "FooBar",
		"foo-bar.baz":        "FooBarBaz",
		"neo4jDatabases":     "Neo4jDatabases",
		"ipv4Address":        "Ipv4Address",
		"id":                 "ID",
		"userId":             "UserID",
		"2fa":                "X2fa",
		"$":                  "X",
		"":                   "X",
		"rabbitMQ":           "RabbitMQ",
		"x-ms-client-name":   "XMsClientName",
		"tlsCertificateURIs": "TLSCertificateURIs",
	} {
		if got := naming.Pascal(in); got != want {
			t.Errorf("naming.Pascal(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSingularAndTypeName(t *testing.T) {
	for in, want := range map[string]string{
		"postgresDatabases":   "PostgresDatabase",
		"redisCaches":         "RedisCache",
		"contosoBuses/queues": "ContosoBusQueue",
		"policies":            "Policy",
		"addresses":           "Address",
		"boxes":               "Box",
		"statuses":            "Status",
		"batches":             "Batch",
		"meshes":              "Mesh",
		"search":              "Search",
		"redis":               "Redis",
		"rabbitMQ":            "RabbitMQ",
		"sqlServerDatabases":  "SQLServerDatabase",
		"a/bs/cs":             "ABC",
	} {
		if got := naming.GoTypeName(strings.Split(in, "/")); got != want {
			t.Errorf("naming.GoTypeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"DNSName": "dnsName", "ContosoBus": "contosoBus", "ID": "id", "SQLServer": "sqlServer", "X2": "x2"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestConstPart(t *testing.T) {
	for in, want := range map[string]string{"S": "S", "1.0": "10", "Standard_LRS": "StandardLRS", "": "Empty", "---": "Empty", "v-2": "V2"} {
		if got := constPart(in); got != want {
			t.Errorf("constPart(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNamerIsFirstComeFirstServed(t *testing.T) {
	n := naming.NewNamer("Validate")
	var got []string
	for _, w := range []string{"FooBar", "FooBar", "Validate", "FooBar2", "FooBar"} {
		name, _ := n.Claim(w)
		got = append(got, name)
	}
	if diff := cmp.Diff([]string{"FooBar", "FooBar2", "Validate2", "FooBar22", "FooBar3"}, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
}

func TestComment(t *testing.T) {
	got := comment("Lead.", "A heading-like line\n\n```bicep\nresource x 'a@b' = {\n  name: 'x'\n}\n```\n- item one\n- item two", strings.Repeat("word ", 30))
	want := strings.Join([]string{
		"// Lead.",
		"//",
		"// A heading-like line.",
		"//",
		"//\tresource x 'a@b' = {",
		"//\t  name: 'x'",
		"//\t}",
		"//",
		"// - item one",
		"// - item two",
		"//",
		"// " + strings.TrimSpace(strings.Repeat("word ", 15)),
		"// " + strings.TrimSpace(strings.Repeat("word ", 15)),
	}, "\n")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("comment (-want +got):\n%s", diff)
	}
}

// TestWarnings checks the rule ids, spans and paths of the renames in the
// hand-built catalog.
func TestWarnings(t *testing.T) {
	_, diags, err := Emit(testCatalog(t), Options{ImportPrefix: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	type warning struct{ Rule, Path string }
	var got []warning
	for _, d := range diags {
		if d.Severity != diag.Warning {
			t.Errorf("%s: severity %s, want warning", d.Rule, d.Severity)
		}
		if d.Span.IsZero() {
			t.Errorf("%s %s: no span", d.Rule, d.Path)
		}
		got = append(got, warning{d.Rule, d.Path})
	}
	want := []warning{
		{ruleFieldCollision, "/schema/properties/foo_bar"},
		{rulePatternUnsupported, "/schema/properties/labels/additionalProperties"},
	}
	slices.SortFunc(got, func(a, b warning) int { return strings.Compare(a.Path, b.Path) })
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestTypeNameCollision(t *testing.T) {
	obj := func() *model.Schema { return mustSchema(t, `{"type": "object"}`) }
	cat := &model.Catalog{Providers: []*model.Provider{{Namespace: "A.B", Types: []*model.ResourceType{
		rtype("A.B", "widget", map[string]*model.Schema{"2025-01-01": obj()}),
		rtype("A.B", "widgets", map[string]*model.Schema{"2025-01-01": obj()}),
		rtype("A.B", "commons", map[string]*model.Schema{"2025-01-01": obj()}),
	}}}}
	files, diags, err := Emit(cat, Options{ImportPrefix: "example.com/gen"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	// A type named like a shared file gets a suffix; no name has a
	// hyphen, and every name ends in _gen.go.
	wantFiles := []string{
		"go/ab/resourceids/resourceids_gen.go",
		"go/ab/v20250101/common2_gen.go",
		"go/ab/v20250101/common_gen.go",
		"go/ab/v20250101/widget2_gen.go",
		"go/ab/v20250101/widget_gen.go",
		"go/internal/udtc/udtc_gen.go",
	}
	if diff := cmp.Diff(wantFiles, paths); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(diags) == 0 || diags[0].Rule != ruleNameCollision || !strings.Contains(diags[0].Message, "Widget2") {
		t.Errorf("diagnostics = %v, want a %s warning naming Widget2", diags, ruleNameCollision)
	}
}

func TestImportPrefixRequired(t *testing.T) {
	if _, _, err := Emit(testCatalog(t), Options{}); !errors.Is(err, ErrNoImportPrefix) {
		t.Errorf("Emit without ImportPrefix: err = %v, want ErrNoImportPrefix", err)
	}
	files, _, err := Emit(&model.Catalog{}, Options{})
	if err != nil || len(files) != 0 {
		t.Errorf("empty catalog: %d files, %v", len(files), err)
	}
}
