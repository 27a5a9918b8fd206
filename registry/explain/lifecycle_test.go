package explain

import (
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// A deprecated API version is explained with its notice, on every path.
func TestDescribeDeprecated(t *testing.T) {
	s := pgSummary()
	ts := s.ResourceTypes["postgreSqlDatabases"]
	ts.APIVersions["2025-01-01"] = api.APIVersionSummary{Schema: []byte(pgSchema),
		Lifecycle: &api.Lifecycle{Deprecated: "2026-06-01", Sunset: "2027-01-01", Replacement: "2025-09-01", Message: "Adds HA."}}
	for _, path := range [][]string{nil, {"extensions"}} {
		r, err := Describe(api.TypeRef{Namespace: s.Name, Type: "postgreSqlDatabases", Version: "2025-01-01", Path: path}, ts)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		want := "VERSIONS: 2025-01-01 (default 2025-01-01)\nDEPRECATED: MyCompany.Data/postgreSqlDatabases@2025-01-01 is deprecated from 2026-06-01 and sunset on 2027-01-01 (no new resources from then); use 2025-09-01. Adds HA.\n"
		if !strings.Contains(b.String(), want) || r.Lifecycle == nil {
			t.Errorf("%v:\n%s\nwant it to contain\n%s", path, b.String(), want)
		}
	}
	if r := describe(t); r.Deprecated != "" {
		t.Errorf("a version without a lifecycle is explained as deprecated: %q", r.Deprecated)
	}
}
