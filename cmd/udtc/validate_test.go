package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestValidateDefaultVersionAndOrder: without @VERSION validate admits
// against the default API version, as explain describes it, and reports
// the violations in the order of the file, not of their paths.
func TestValidateDefaultVersionAndOrder(t *testing.T) {
	t.Chdir("../..")
	dir := t.TempDir()
	doc := filepath.Join(dir, "db.yaml")
	// Line order size, storageGiB, colour; path order colour, size, storageGiB.
	if err := os.WriteFile(doc, []byte(badDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	explained := runOut(t, "explain", "Contoso.Data/postgresDatabases", "-m", "examples")
	if !strings.Contains(explained, "TYPE:     Contoso.Data/postgresDatabases@2025-06-01\n") {
		t.Fatalf("explain's default version is not 2025-06-01:\n%s", explained)
	}
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"properties": {"environment": "e", "version": "17"}}`), 0o644)
	code, _, stderr := runCLI(t, "validate", "Contoso.Data/postgresDatabases", good, "-m", "examples")
	if code != 0 || !strings.Contains(stderr, "ok: 1 document admitted as Contoso.Data/postgresDatabases@2025-06-01") {
		t.Errorf("validate without @VERSION: exit %d\n%s", code, stderr)
	}
	// "15" is allowed in 2025-01-01-preview only: the default version decides.
	old := filepath.Join(dir, "old.json")
	os.WriteFile(old, []byte(`{"properties": {"environment": "e", "version": "15"}}`), 0o644)
	if code, _, stderr := runCLI(t, "validate", "Contoso.Data/postgresDatabases", old, "-m", "examples"); code != 1 || !strings.Contains(stderr, "properties.version: must be one of \"16\", \"17\"") {
		t.Errorf("validate without @VERSION of a 2025-01-01-preview document: exit %d\n%s", code, stderr)
	}

	code, stdout, _ := runCLI(t, "validate", "Contoso.Data/postgresDatabases@2025-01-01-preview", doc, "-m", "examples", "--output", "json")
	var rep struct {
		Diagnostics []struct {
			Line int
			Path string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); code != 1 || err != nil {
		t.Fatalf("validate: exit %d %v\n%s", code, err, stdout)
	}
	var paths []string
	var lines []int
	for _, d := range rep.Diagnostics {
		paths, lines = append(paths, d.Path), append(lines, d.Line)
	}
	want := []string{"properties.size", "properties.storageGiB", "properties.colour"}
	if !slices.Equal(paths, want) || !slices.IsSorted(lines) {
		t.Errorf("validate reports %q at lines %v, want %q in the order of the file", paths, lines, want)
	}
}
