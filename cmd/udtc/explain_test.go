package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// extensionsManifest declares an array whose items have allowed values.
const extensionsManifest = `namespace: MyCompany.Data
types:
  postgreSqlDatabases:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            extensions:
              type: array
              maxItems: 20
              uniqueItems: true
              items:
                type: string
                enum: [postgis, pgvector]
`

// TestExplainArrayItems: explain shows the allowed values of array items,
// and .items explains the item schema.
func TestExplainArrayItems(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pg.yaml"), []byte(extensionsManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := runOut(t, "explain", "MyCompany.Data/postgreSqlDatabases.extensions", "-m", dir)
	if !strings.Contains(out, "CONSTRAINTS:\n  items at most 20\n  unique items\n  each item: enum: \"postgis\", \"pgvector\"\n") {
		t.Errorf("explain .extensions does not show the items' values:\n%s", out)
	}
	out = runOut(t, "explain", "MyCompany.Data/postgreSqlDatabases.extensions.items", "-m", dir)
	if !strings.Contains(out, "FIELD:    extensions.items <string>\n") || !strings.Contains(out, "CONSTRAINTS:\n  enum: \"postgis\", \"pgvector\"\n") {
		t.Errorf("explain .extensions.items:\n%s", out)
	}
	out = runOut(t, "explain", "MyCompany.Data/postgreSqlDatabases", "-m", dir)
	if !strings.Contains(out, "  extensions <[]string>\n    (items at most 20; unique items; each item: enum: \"postgis\", \"pgvector\")\n") {
		t.Errorf("explain of the type does not show the items' values:\n%s", out)
	}
}
