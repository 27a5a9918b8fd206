package explain

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// pgSchema has an array of enum items and a map with constrained values.
const pgSchema = `{"type": "object", "required": ["environment"], "properties": {
	"environment": {"type": "string", "description": "The Radius environment ID."},
	"extensions": {"type": "array", "maxItems": 20, "uniqueItems": true, "description": "PostgreSQL extensions to enable.",
		"items": {"type": "string", "enum": ["postgis", "pgvector", "pg_trgm"]}},
	"labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 63}},
	"replicas": {"type": "array", "items": {"type": "object", "properties": {
		"region": {"type": "string", "description": "Where\tthe replica runs."}}}}}}`

func pgSummary() api.ProviderSummary {
	return api.ProviderSummary{
		Name:      "MyCompany.Data",
		Locations: map[string]api.LocationSummary{"global": {Address: "http://localhost:8081"}, "westeurope": {}},
		ResourceTypes: map[string]api.ResourceTypeSummary{"postgreSqlDatabases": {
			DefaultAPIVersion: "2025-01-01", Description: "A database.", Capabilities: []string{"SupportsRecipes"},
			APIVersions: map[string]api.APIVersionSummary{"2025-01-01": {Schema: []byte(pgSchema)}},
		}},
	}
}

func describe(t *testing.T, path ...string) Result {
	t.Helper()
	s := pgSummary()
	r, err := Describe(api.TypeRef{Namespace: s.Name, Type: "postgreSqlDatabases", Version: "2025-01-01", Path: path}, s.ResourceTypes["postgreSqlDatabases"])
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDescribeArrayItems(t *testing.T) {
	r := describe(t, "extensions")
	want := []string{"items at most 20", "unique items", `each item: enum: "postgis", "pgvector", "pg_trgm"`}
	if strings.Join(r.Field.Constraints, "|") != strings.Join(want, "|") {
		t.Errorf("extensions: constraints %q, want %q", r.Field.Constraints, want)
	}
	r = describe(t, "extensions", "items")
	if r.Path != "extensions.items" || r.Field.Kind != "string" || len(r.Field.Constraints) != 1 ||
		r.Field.Constraints[0] != `enum: "postgis", "pgvector", "pg_trgm"` {
		t.Errorf("extensions.items: %+v", r)
	}
	r = describe(t, "labels", "additionalProperties")
	if r.Field.Kind != "string" || strings.Join(r.Field.Constraints, "|") != "length at most 63" {
		t.Errorf("labels.additionalProperties: %+v", r)
	}
	if r := describe(t, "labels"); !strings.Contains(strings.Join(r.Field.Constraints, "|"), "each value: length at most 63") {
		t.Errorf("labels: %+v", r)
	}
	// items of an array of objects: its properties, as .replicas does.
	if r := describe(t, "replicas", "items"); len(r.Children) != 1 || r.Children[0].Name != "region" {
		t.Errorf("replicas.items: %+v", r)
	}
	s := pgSummary()
	_, err := Describe(api.TypeRef{Namespace: s.Name, Type: "postgreSqlDatabases", Version: "2025-01-01", Path: []string{"extensions", "items", "x"}},
		s.ResourceTypes["postgreSqlDatabases"])
	var pe *admission.PathError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `no property "x" at properties.extensions.items (it has no properties)`) {
		t.Errorf("extensions.items.x: %v", err)
	}
	var b strings.Builder
	if err := describe(t, "extensions").WriteText(&b); err != nil || !strings.Contains(b.String(), "CONSTRAINTS:\n  items at most 20\n  unique items\n  each item: enum: \"postgis\"") {
		t.Errorf("WriteText:\n%s", b.String())
	}
}

func TestWriteSummaryAligned(t *testing.T) {
	var b strings.Builder
	if err := WriteSummary(&b, pgSummary(), true); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, line := range strings.Split(out, "\n") {
		if strings.TrimRight(line, " \t") != line || strings.Contains(line, "\t") {
			t.Errorf("line %d has a tab or ends in blanks: %q", i+1, line)
		}
	}
	for _, want := range []string{
		"NAMESPACE  MyCompany.Data\n",
		"LOCATIONS\n  global      http://localhost:8081\n  westeurope\n",
		"    description:   A database.\n    capabilities:  SupportsRecipes\n    default:       2025-01-01\n",
		`each item: enum: "postgis", "pgvector", "pg_trgm"`,
		"Where the replica runs.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	// Every row of the table starts its KIND, REQUIRED and CONSTRAINTS
	// cells in the header's columns.
	lines := strings.Split(out, "\n")
	head := slicesIndex(lines, "PROPERTY")
	if head < 0 {
		t.Fatalf("no table:\n%s", out)
	}
	kindCol := strings.Index(lines[head], "KIND")
	consCol := strings.Index(lines[head], "CONSTRAINTS")
	cell := regexp.MustCompile(`^ +(\S+) +(\S+)`)
	rows := 0
	for _, l := range lines[head+1:] {
		m := cell.FindStringSubmatchIndex(l)
		if m == nil {
			break
		}
		rows++
		if m[4] != kindCol {
			t.Errorf("KIND of %q at column %d, want %d:\n%s", l, m[4], kindCol, out)
		}
		if strings.Contains(l, "each item:") && strings.Index(l, "items at most") != consCol {
			t.Errorf("CONSTRAINTS of %q not at column %d", l, consCol)
		}
	}
	if rows != 5 { // environment, extensions, labels, replicas, region
		t.Errorf("%d rows, want 5:\n%s", rows, out)
	}
}

func slicesIndex(lines []string, word string) int {
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), word) {
			return i
		}
	}
	return -1
}

func TestWriteList(t *testing.T) {
	other := api.ProviderSummary{Name: "Acme.Net", ResourceTypes: map[string]api.ResourceTypeSummary{"vnets": {
		DefaultAPIVersion: "2025-02-01", APIVersions: map[string]api.APIVersionSummary{"2025-02-01": {}, "2024-01-01": {}}}}}
	var b strings.Builder
	if err := WriteList(&b, []api.ProviderSummary{pgSummary(), other}); err != nil {
		t.Fatal(err)
	}
	want := "TYPE                                NAMESPACE       API VERSIONS            DEFAULT     DESCRIPTION\n" +
		"Acme.Net/vnets                      Acme.Net        2024-01-01, 2025-02-01  2025-02-01\n" +
		"MyCompany.Data/postgreSqlDatabases  MyCompany.Data  2025-01-01              2025-01-01  A database.\n"
	if b.String() != want {
		t.Errorf("WriteList:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestShorten(t *testing.T) {
	redis := "The Radius.Data/redisCaches Resource Type deploys a Redis cache. To deploy a\nRedis cache, add a redisCaches resource to the application definition Bicep\nfile.\n```bicep\nresource cache 'Radius.Data/redisCaches@2025-08-01-preview' = {}\n```\n"
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"A database.", 60, "A database."},
		{"  A database\n  of rows.  ", 60, "A database of rows."},
		// A cut at a sentence, marked.
		{redis, 80, "The Radius.Data/redisCaches Resource Type deploys a Redis cache. …"},
		// The first paragraph fits: more follows, marked.
		{"Deploys a cache.\n\nMore.", 60, "Deploys a cache. …"},
		{"Deploys a cache:\n```bicep\nx\n```", 60, "Deploys a cache: …"},
		// No sentence fits: a cut at a word, marked.
		{"(Optional) The size of the Redis cache, which the recipe maps onto a concrete cloud SKU", 40, "(Optional) The size of the Redis cache…"},
		{"Supercalifragilisticexpialidocious", 10, "Supercali…"},
		{"```\ncode only\n```", 60, "``` code only ```"},
	} {
		if got := shorten(c.in, c.width); got != c.want {
			t.Errorf("shorten(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
		if got := shorten(c.in, c.width); len([]rune(got)) > c.width {
			t.Errorf("shorten(%q, %d) = %q is %d wide", c.in, c.width, got, len([]rune(got)))
		}
	}
}

// TestWriteSummaryWholeDescription: show prints a description of several
// lines whole, below its label, with the indentation of its code block.
func TestWriteSummaryWholeDescription(t *testing.T) {
	s := pgSummary()
	ty := s.ResourceTypes["postgreSqlDatabases"]
	ty.Description = "Deploys a database. To deploy one, add it to\nthe application.\n```bicep\nresource db 'MyCompany.Data/postgreSqlDatabases@2025-01-01' = {\n  name: 'db'\n}\n```\n"
	s.ResourceTypes["postgreSqlDatabases"] = ty
	var b strings.Builder
	if err := WriteSummary(&b, s, false); err != nil {
		t.Fatal(err)
	}
	want := "    description:\n" +
		"      Deploys a database. To deploy one, add it to\n" +
		"      the application.\n" +
		"      ```bicep\n" +
		"      resource db 'MyCompany.Data/postgreSqlDatabases@2025-01-01' = {\n" +
		"        name: 'db'\n" +
		"      }\n" +
		"      ```\n" +
		"    capabilities:  SupportsRecipes\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("show:\n%s\nwant it to hold:\n%s", b.String(), want)
	}
}
