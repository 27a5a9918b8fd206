package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/ucpfake"
)

// storedManifest is a stable API version with an enum; sizes are the
// values it accepts.
func storedManifest(sizes string) string {
	return `namespace: Contoso.Data
types:
  postgresDatabases:
    description: A PostgreSQL database.
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size:
              type: string
              enum: [` + sizes + `]
`
}

// TestBreakingJudgedAgainstStoredResources follows docs/lifecycle.md's
// "Breaking changes and the resources that exist": publish's plan and
// `udtc breaking --server` ask the registry which stored resources a
// breaking change would refuse, say how many of how many, and name them;
// a change that no stored resource violates is applied with
// --allow-breaking-unviolated, one that some do only when forced, with
// the plan saying they will be refused at their next write.
func TestBreakingJudgedAgainstStoredResources(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write := func(sizes string) {
		t.Helper()
		if err := os.WriteFile("postgres.yaml", []byte(storedManifest(sizes)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("S, M, L, XL, XXL")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	runOut(t, "publish", "--server", url, "postgres.yaml")
	put := func(path, body string) { t.Helper(); mustPut(t, url+path, body) }
	put("/planes/radius/local/resourceGroups/rg?api-version=2023-10-01-preview", `{"location":"global"}`)
	const env = `"environment":"/planes/radius/local/resourceGroups/rg/providers/Applications.Core/environments/dev"`
	for name, size := range map[string]string{"db1": "S", "db2": "XL", "db3": "M"} {
		put("/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/postgresDatabases/"+name+"?api-version=2025-01-01",
			fmt.Sprintf(`{"properties":{%s,"size":%q}}`, env, size))
	}
	const db2 = "/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/postgresDatabases/db2"

	// XXL is used by no stored resource: refused by default, saying so,
	// applied with --allow-breaking-unviolated.
	write("S, M, L, XL")
	code, out, stderr := runCLI(t, "publish", "--server", url, "--dry-run", "postgres.yaml")
	if code != exitFail || !strings.Contains(stderr, `no longer accepts "XXL"; 0 of 3 stored resources affected`) ||
		!strings.Contains(stderr, "refusing 1 breaking change to published API versions (nothing written); 1 of them no stored resource violates, which --allow-breaking-unviolated applies: publish them as a new API version") {
		t.Errorf("plan of an unviolated break = %d\n%s\n%s", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "publish", "--server", url, "--allow-breaking-unviolated", "postgres.yaml")
	if code != 0 || !strings.Contains(stderr, "warning[enum-value-removed]") || !strings.Contains(stderr, "no stored resource violates it: allowed by --allow-breaking-unviolated") {
		t.Errorf("publish --allow-breaking-unviolated = %d\n%s\n%s", code, out, stderr)
	}

	// XL is what db2 holds: refused even with --allow-breaking-unviolated,
	// naming db2 and why.
	write("S, M, L")
	code, out, stderr = runCLI(t, "publish", "--server", url, "--allow-breaking-unviolated", "postgres.yaml")
	if code != exitFail || !strings.Contains(stderr, `no longer accepts "XL"; 1 of 3 stored resources would be refused at their next write`) ||
		!strings.Contains(stderr, "refused: "+db2+" (properties.size must be one of") ||
		!strings.Contains(stderr, "refusing 1 breaking change to published API versions (nothing written); they would refuse 1 stored resource at their next write: publish") {
		t.Errorf("publish of a violated break = %d\n%s\n%s", code, out, stderr)
	}
	// The JSON plan lists every refused resource.
	code, out, _ = runCLI(t, "publish", "--server", url, "--dry-run", "--output", "json", "postgres.yaml")
	var report struct {
		Breaking []struct {
			Rule   string
			Stored struct {
				Known   bool
				Checked int
				Refused []struct{ ID string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != exitFail || len(report.Breaking) != 1 {
		t.Fatalf("publish --output json = %d (%v)\n%s", code, err, out)
	}
	if b := report.Breaking[0]; b.Rule != "enum-value-removed" || !b.Stored.Known || b.Stored.Checked != 3 || len(b.Stored.Refused) != 1 || b.Stored.Refused[0].ID != db2 {
		t.Errorf("publish --output json breaking = %+v", b)
	}
	// udtc breaking --server judges alike.
	code, out, _ = runCLI(t, "breaking", "--server", url, "postgres.yaml")
	if code != exitFail || !strings.Contains(out, "1 of 3 stored resources would be refused at their next write") || !strings.Contains(out, "compared with "+url) {
		t.Errorf("breaking --server = %d\n%s", code, out)
	}
	// Forced, in JSON: the report still lists what the change strands.
	code, out, _ = runCLI(t, "publish", "--server", url, "--allow-breaking", "--dry-run", "--output", "json", "postgres.yaml")
	report.Breaking = nil
	if err := json.Unmarshal([]byte(out), &report); err != nil || code != 0 || len(report.Breaking) != 1 || len(report.Breaking[0].Stored.Refused) != 1 {
		t.Errorf("publish --allow-breaking --output json = %d (%v)\n%s", code, err, out)
	}
	// Forced: applied, and the plan says db2 will be refused.
	code, out, stderr = runCLI(t, "publish", "--server", url, "--allow-breaking=Contoso.Data/postgresDatabases@2025-01-01", "postgres.yaml")
	if code != 0 || !strings.Contains(stderr, "1 of 3 stored resources would be refused at their next write") || !strings.Contains(stderr, "warning[enum-value-removed]") {
		t.Errorf("forced publish = %d\n%s\n%s", code, out, stderr)
	}
	code, out, _ = runCLI(t, "breaking", "--server", url, "postgres.yaml")
	if code != 0 || !strings.Contains(out, "no API changes against "+url) {
		t.Errorf("breaking --server after the publish = %d\n%s", code, out)
	}
	// Radius's UCP cannot tell: the finding says so, the policy is as
	// without a registry.
	fake := ucpfake.Start(t)
	write("S, M, L, XL")
	runOut(t, "publish", "--server", fake.URL, "postgres.yaml")
	write("S, M, L")
	code, out, stderr = runCLI(t, "publish", "--server", fake.URL, "--allow-breaking-unviolated", "postgres.yaml")
	if code != exitFail || !strings.Contains(stderr, `no longer accepts "XL" (stored resources not checked: Radius UCP at `+fake.URL) || !strings.Contains(stderr, "cannot tell which would be refused)") {
		t.Errorf("publish to UCP = %d\n%s\n%s", code, out, stderr)
	}
	if code, _, stderr := runCLI(t, "breaking", "--allow-breaking-unviolated", "--against", "HEAD", "postgres.yaml"); code != exitUsage || !strings.Contains(stderr, "--allow-breaking-unviolated needs --server") {
		t.Errorf("breaking --allow-breaking-unviolated --against = %d\n%s", code, stderr)
	}
}
