package gitsync_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/udtc/udtc/internal/gitsync"
	"github.com/udtc/udtc/registry/api"
)

// The sync compiles a commit as `udtc check` run in the repository would:
// the udtc.yaml at the synced directory (or above it) gives the target,
// the lifecycle, the inputs and the rules; without one the target is
// radius; a project file that does not load refuses the commit.
func TestSyncReadsTheProjectFile(t *testing.T) {
	ctx := context.Background()
	const children = `namespace: Contoso.Data
types:
  databases:
    apiVersions:
      '2025-01-01':
        schema: {type: object, properties: {size: {type: string}}}
  databases/backups:
    apiVersions:
      '2025-01-01':
        schema: {type: object, properties: {at: {type: string}}}
`
	const draft = "namespace: Contoso.Draft\ntypes:\n  drafts:\n    apiVersions:\n      '2025-01-01':\n        schema: {type: object, properties: {a: {type: string}}}\n"
	f := newSyncFixture(t)
	applied := f.commit(map[string]string{"data.yaml": children, "draft.yaml": draft, "udtc.yaml": `target: udtc
inputs:
  exclude: [draft.yaml]
lifecycle:
  Contoso.Data/databases@2025-01-01:
    deprecated: 2026-06-01
    message: Use a newer version.
`})
	f.start(filepath.Join(t.TempDir(), "registry.db"), gitsync.Config{})
	f.once(ctx)
	if st := f.status(); st.State != "synced" || st.LastAppliedCommit != applied {
		t.Fatalf("a commit whose udtc.yaml says target: udtc: %+v", st)
	}
	if got := f.types("Contoso.Data"); !slices.Equal(got, []string{"databases", "databases/backups"}) {
		t.Errorf("types %v: the child type of target: udtc is missing", got)
	}
	if got := f.types("Contoso.Draft"); got != nil {
		t.Errorf("the excluded draft.yaml was registered: %v", got)
	}
	v, err := f.reg.GetAPIVersion(ctx, "Contoso.Data", "databases", "2025-01-01")
	if err != nil || v.Properties.Lifecycle == nil || v.Properties.Lifecycle.Message != "Use a newer version." {
		t.Errorf("the API version's lifecycle: %+v, %v", v.Properties.Lifecycle, err)
	}

	// A project file that does not load: refused, naming it.
	bad := f.commit(map[string]string{"data.yaml": children, "udtc.yaml": "target: radious\n"})
	f.once(ctx)
	st := f.status()
	if st.State != "refused" || st.Refused == nil || st.Refused.Commit != bad || len(st.Refused.Diagnostics) != 1 ||
		st.Refused.Diagnostics[0].Rule != "sync-project" || !strings.Contains(st.Refused.Diagnostics[0].Message, `manifests/udtc.yaml: target: "radious" is not radius or udtc`) {
		t.Errorf("a commit with a broken udtc.yaml: %+v", st)
	}

	// No project file: target radius, which refuses child types.
	none := f.commit(map[string]string{"data.yaml": children})
	f.once(ctx)
	st = f.status()
	if st.State != "refused" || st.Refused == nil || st.Refused.Commit != none || st.LastAppliedCommit != applied ||
		!slices.ContainsFunc(st.Refused.Diagnostics, func(d api.Diagnostic) bool { return d.Rule == "radius-unsupported" }) {
		t.Errorf("child types without udtc.yaml: %+v", st)
	}
}
