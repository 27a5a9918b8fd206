package publish_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/publish"
)

// Published lists what a plan updates of API versions the registry
// already serves, with the registry's state of their namespaces; new
// versions and other namespaces are not in it.
func TestPublished(t *testing.T) {
	reg := newRegistry(t)
	first := []api.Registration{
		registration("Contoso.Data", map[string][]api.APIVersion{"dbs": {version("2025-01-01", obj)}}, "dbs"),
		registration("Contoso.Net", map[string][]api.APIVersion{"gws": {version("2025-01-01", obj)}}, "gws"),
	}
	apply(t, reg, planFor(t, reg, first, false))
	if p := planFor(t, reg, first, false).Published(); len(p.Registered) != 0 {
		t.Fatalf("an unchanged plan: %d namespaces registered", len(p.Registered))
	}
	changed := `{"type":"object","properties":{"size":{"type":"integer"}}}`
	second := []api.Registration{
		registration("Contoso.Data", map[string][]api.APIVersion{"dbs": {version("2025-01-01", changed), version("2025-06-01", obj)}}, "dbs"),
		first[1],
	}
	p := planFor(t, reg, second, false).Published()
	if len(p.Registered) != 1 || p.Registered[0].Name != "Contoso.Data" || len(p.Registered[0].ResourceTypes["dbs"].APIVersions) != 1 {
		t.Fatalf("Registered = %+v; want Contoso.Data as it was", p.Registered)
	}
	for _, tc := range []struct {
		ns, typ, version string
		want             bool
	}{
		{"Contoso.Data", "dbs", "2025-01-01", true},
		{"contoso.data", "DBS", "2025-01-01", true},
		{"Contoso.Data", "dbs", "2025-06-01", false}, // new, not published
		{"Contoso.Net", "gws", "2025-01-01", false},
		{"Contoso.Data", "dbs", "", false}, // the type's capabilities are the same
	} {
		if got := p.Updates(tc.ns, tc.typ, tc.version); got != tc.want {
			t.Errorf("Updates(%s/%s@%s) = %v, want %v", tc.ns, tc.typ, tc.version, got, tc.want)
		}
	}

	// A type whose capabilities change is in it (version ""); one whose
	// description changes is not.
	manual := first[1]
	manual.Types = append([]api.RegisteredType(nil), manual.Types...)
	manual.Types[0].Type.Properties.Capabilities = []string{api.CapabilityManualResourceProvisioning}
	described := first[0]
	described.Types = append([]api.RegisteredType(nil), described.Types...)
	described.Types[0].Type.Properties.Description = "another description"
	p = planFor(t, reg, []api.Registration{described, manual}, false).Published()
	if len(p.Registered) != 1 || p.Registered[0].Name != "Contoso.Net" || !p.Updates("contoso.net", "GWS", "") || p.Updates("Contoso.Data", "dbs", "") {
		t.Errorf("capabilities changed: Registered %+v, Updates(Contoso.Net/gws) %v, Updates(Contoso.Data/dbs) %v",
			p.Registered, p.Updates("Contoso.Net", "gws", ""), p.Updates("Contoso.Data", "dbs", ""))
	}
}

// A record saved for a plan of zero writes replays while the registry
// holds the state it recorded and the key is the same; a plan that writes
// is not recorded.
func TestRecordReplay(t *testing.T) {
	ctx := context.Background()
	reg := newRegistry(t)
	want := []api.Registration{registration("Contoso.Data", map[string][]api.APIVersion{"dbs": {version("2025-01-01", obj)}}, "dbs")}
	path := filepath.Join(t.TempDir(), "record")
	publish.SaveRecord(path, "k1", planFor(t, reg, want, false), "plan text", "")
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a plan with writes was recorded: %v", err)
	}
	apply(t, reg, planFor(t, reg, want, false))
	plan := planFor(t, reg, want, false)
	var text bytes.Buffer
	plan.WriteText(&text, "http://r", "local", false)
	publish.SaveRecord(path, "k1", plan, text.String(), "warning\n")
	rec, same, err := publish.Replay(ctx, reg, path, "k1")
	if err != nil || !same || rec.Plan != text.String() || rec.Diagnostics != "warning\n" || !strings.Contains(rec.Plan, "4 unchanged") {
		t.Fatalf("Replay = %+v, %v, %v; want the record", rec, same, err)
	}
	if _, same, _ := publish.Replay(ctx, reg, path, "k2"); same {
		t.Error("a record of other inputs replayed")
	}
	if _, err := reg.PutResourceType(ctx, "Contoso.Data", "caches", api.ResourceType{}); err != nil {
		t.Fatal(err)
	}
	if _, same, err := publish.Replay(ctx, reg, path, "k1"); same || err != nil {
		t.Errorf("Replay after a change behind publish's back = %v, %v; want no replay", same, err)
	}
}

// fakeRepo is a git repository that keeps the commits it is asked for.
type fakeRepo struct {
	commits []publish.GitCommit
	same    bool
}

func (r *fakeRepo) Root() string { return "/repo" }

func (r *fakeRepo) Commit(c publish.GitCommit) (string, bool, error) {
	r.commits = append(r.commits, c)
	if r.same {
		return "0123456789abcdef", false, nil
	}
	return "fedcba9876543210", true, nil
}

func TestPublishGit(t *testing.T) {
	files := []publish.GitFile{{Path: "manifests/b.yaml"}, {Path: "bicep/a.tgz"}}
	repo := &fakeRepo{}
	opts := publish.GitOptions{Branch: "udtc/publish", Dir: "udtc", DryRun: true}
	rep, err := publish.PublishGit(repo, []string{"Contoso.Data", "Contoso.Net"}, files, opts)
	var text bytes.Buffer
	rep.WriteText(&text)
	if err != nil || len(repo.commits) != 0 || rep.Changed || text.String() != "Dry run: would commit on branch udtc/publish of /repo:\n  udtc/bicep/a.tgz\n  udtc/manifests/b.yaml\n" {
		t.Fatalf("dry run: %+v, %v, %d commits\n%s", rep, err, len(repo.commits), text.String())
	}
	opts.DryRun = false
	rep, err = publish.PublishGit(repo, []string{"Contoso.Data", "Contoso.Net"}, files, opts)
	if err != nil || len(repo.commits) != 1 || !rep.Changed || rep.Commit != "fedcba9876543210" {
		t.Fatalf("publish: %+v, %v", rep, err)
	}
	if c := repo.commits[0]; c.Dir != "udtc" || c.Branch != "udtc/publish" || !strings.HasPrefix(c.Message, "udtc publish: Contoso.Data, Contoso.Net\n\n") {
		t.Errorf("commit %+v", c)
	}
	text.Reset()
	rep.WriteText(&text)
	if text.String() != "Committed fedcba987654 on branch udtc/publish of /repo: 2 files under udtc/.\n" {
		t.Errorf("text %q", text.String())
	}
	repo.same = true
	rep, _ = publish.PublishGit(repo, nil, files, opts)
	text.Reset()
	rep.WriteText(&text)
	if rep.Changed || text.String() != "Branch udtc/publish of /repo already holds these 2 files: nothing committed.\n" {
		t.Errorf("unchanged: %+v %q", rep, text.String())
	}
}

// ManifestFiles names files by their path below the working directory, or
// their base name outside it; a file given twice is read once, two files
// of one name are an error.
func TestManifestFiles(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	t.Chdir(dir)
	for p, data := range map[string]string{filepath.Join(dir, "m", "a.yaml"): "a", filepath.Join(outside, "b.yaml"): "b", filepath.Join(outside, "a.yaml"): "c"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := publish.ManifestFiles([]string{"m/a.yaml", filepath.Join(outside, "b.yaml"), filepath.Join(dir, "m", "a.yaml")})
	if err != nil || len(files) != 2 || files[0].Path != "manifests/m/a.yaml" || string(files[0].Data) != "a" || files[1].Path != "manifests/b.yaml" {
		t.Fatalf("ManifestFiles = %+v, %v", files, err)
	}
	other := filepath.Join(t.TempDir(), "a.yaml")
	if err := os.WriteFile(other, []byte("d"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = publish.ManifestFiles([]string{filepath.Join(outside, "a.yaml"), other})
	if err == nil || !strings.Contains(err.Error(), "would both be committed as manifests/a.yaml") {
		t.Fatalf("two files named a.yaml outside: %v", err)
	}
}
