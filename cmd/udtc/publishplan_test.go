package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
	"github.com/udtc/udtc/registry/publish"
)

// TestPublishReview: the text plan shows old → new values and hides what is
// unchanged, --detailed-exitcode tells a dry run's outcome, and a breaking
// change to a published API version is refused unless --allow-breaking.
func TestPublishReview(t *testing.T) {
	t.Chdir("../..")
	dir := copyDir(t, "examples")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	publishText := func(args ...string) (int, string, string) {
		return runCLI(t, append([]string{"publish", dir, "--server", url}, args...)...)
	}
	if code, _, _ := publishText("--dry-run", "--detailed-exitcode"); code != 2 {
		t.Errorf("dry run with changes pending: exit %d, want 2", code)
	}
	if code, _, stderr := publishText(); code != 0 {
		t.Fatalf("first publish: exit %d\n%s", code, stderr)
	}
	code, stdout, _ := publishText("--dry-run", "--detailed-exitcode")
	if code != 0 || strings.Contains(stdout, "= unchanged") || !strings.Contains(stdout, "13 unchanged (not listed; -v lists them).") {
		t.Errorf("dry run with nothing to do: exit %d, want 0\n%s", code, stdout)
	}
	if _, stdout, _ := publishText("--dry-run", "-v"); !strings.Contains(stdout, "  = unchanged resourceProvider Contoso.Data\n") {
		t.Errorf("-v does not list unchanged registrations:\n%s", stdout)
	}

	// A compatible change: every changed field with both values.
	data := filepath.Join(dir, "data.yaml")
	edit(t, data, "A PostgreSQL database provisioned by the platform's recipe.", "A PostgreSQL database.")
	edit(t, data, "enum: [256, 1024, 4096]", "enum: [256, 1024, 4096, 16384]")
	code, stdout, stderr := publishText("--dry-run", "--detailed-exitcode")
	for _, want := range []string{
		"  ~ update    resourceType     Contoso.Data/postgresDatabases\n      description: ",
		"      description: lines changed (-old +new):\n        @@ -1,2 +1,2 @@\n        -A PostgreSQL database provisioned by the platform's recipe.\n" +
			"        +A PostgreSQL database.\n         Applications connect through the read-only `binding` it publishes.\n  ~ update",
		"  ~ update    apiVersion       Contoso.Data/redisCaches@2025-06-01\n      capacityMiB.enum: [256, 1024, 4096] → [256, 1024, 4096, 16384]\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, stdout)
		}
	}
	if code != 2 || strings.Contains(stdout, " changed\n") || strings.Contains(stdout, "more changes") || strings.Contains(stdout, "unchanged   ") {
		t.Errorf("dry run: exit %d, want 2\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := publishText(); code != 0 {
		t.Fatalf("compatible publish: exit %d\n%s", code, stderr)
	}

	// A breaking change to the published 2025-06-01: refused with the
	// finding, dry run or not, unless --allow-breaking.
	edit(t, data, "enum: [256, 1024, 4096, 16384]", "enum: [256, 1024]")
	for _, args := range [][]string{{"--dry-run"}, nil} {
		code, stdout, stderr := publishText(args...)
		if code != 1 || !strings.Contains(stderr, "error[enum-value-removed]") || !strings.Contains(stderr, "refusing 1 breaking change to published API versions") ||
			!strings.Contains(stdout, "capacityMiB.enum: [256, 1024, 4096, 16384] → [256, 1024]") || strings.Contains(stdout, "Applied") {
			t.Errorf("breaking publish %v: exit %d\n%s%s", args, code, stdout, stderr)
		}
	}
	code, stdout, stderr = publishText("--allow-breaking")
	if code != 0 || !strings.Contains(stderr, "warning[enum-value-removed]") || !strings.Contains(stdout, "Applied 1 of 1 write.") {
		t.Errorf("--allow-breaking: exit %d\n%s%s", code, stdout, stderr)
	}
	if b, _ := os.ReadFile(data); !strings.Contains(string(b), "enum: [256, 1024]") {
		t.Fatal("edit lost")
	}
}

func TestConfirmPrune(t *testing.T) {
	deletes := &publish.Plan{Changes: []publish.Change{
		{Action: publish.Delete, Kind: publish.KindType, Namespace: "Contoso.Data", Type: "old"},
		{Action: publish.Delete, Kind: publish.KindAPIVersion, Namespace: "Contoso.Data", Type: "x", Version: "2025-01-01"},
		{Action: publish.Create, Kind: publish.KindType, Namespace: "Contoso.Data", Type: "new"},
	}}
	for _, tc := range []struct {
		name             string
		yes, term, stdin bool
		answer           string
		wantErr, asked   bool
	}{
		{"terminal, yes typed", false, true, true, "yes\n", false, true},
		{"terminal, YES typed", false, true, true, " YES \n", false, true},
		{"terminal, no typed", false, true, true, "n\n", true, true},
		{"terminal, end of input", false, true, true, "", true, true},
		{"terminal, --yes", true, true, true, "", false, false},
		{"stdout not a terminal (CI)", false, false, true, "", false, false},
		{"stdin not a terminal (a pipe)", false, true, false, "", false, false},
	} {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(tc.answer), stdout: &out, stderr: &out, isTerminal: tc.term, stdinTerminal: tc.stdin}
		f := &planFlags{yes: tc.yes}
		err := f.confirmPrune(e, deletes)
		if (err != nil) != tc.wantErr || strings.Contains(out.String(), "Delete 2 registrations listed above") != tc.asked {
			t.Errorf("%s: err %v, output %q", tc.name, err, out.String())
		}
		if err != nil && !strings.Contains(err.Error(), "nothing written (--yes skips the question)") {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if err := (&planFlags{}).confirmPrune(&env{isTerminal: true, stdinTerminal: true, stdin: strings.NewReader("")}, &publish.Plan{}); err != nil {
		t.Errorf("a plan without deletes asked: %v", err)
	}
}

// TestPublishPruneWithResources: against udtc serve, a prune whose delete
// the registry would refuse (the type still has a resource) is shown in
// the plan, dry run or not, and nothing is written; --delete-resources
// deletes the type with its resource, counted in the plan; a rerun has
// nothing to do.
func TestPublishPruneWithResources(t *testing.T) {
	t.Chdir("../..")
	dir := copyDir(t, "examples")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	publishText := func(args ...string) (int, string, string) {
		return runCLI(t, append([]string{"publish", dir, "--server", url}, args...)...)
	}
	if code, _, stderr := publishText(); code != 0 {
		t.Fatalf("first publish: exit %d\n%s", code, stderr)
	}
	ctx := context.Background()
	reg, err := client.New(url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reg.PutResourceGroup(ctx, "rg", api.ResourceGroup{Location: "global"}); err != nil {
		t.Fatal(err)
	}
	bus := must(api.ParseResourceID("/planes/radius/local/resourceGroups/rg/providers/Contoso.Messaging/buses/b1"))
	queue := must(api.ParseResourceID(bus.String() + "/queues/q1"))
	if _, err := reg.PutInstance(ctx, bus, "2025-06-01", api.Instance{Properties: []byte(`{"environment":"e","tier":"basic"}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.PutInstance(ctx, queue, "2025-06-01", api.Instance{Properties: []byte(`{"environment":"e"}`)}); err != nil {
		t.Fatal(err)
	}
	// The manifests no longer declare buses/queues.
	messaging := filepath.Join(dir, "messaging.yaml")
	b := must(os.ReadFile(messaging))
	cut := bytes.Index(b, []byte("  buses/queues:"))
	if cut < 0 {
		t.Fatal("examples/messaging.yaml has no buses/queues")
	}
	if err := os.WriteFile(messaging, b[:cut], 0o644); err != nil {
		t.Fatal(err)
	}

	for _, args := range [][]string{{"--prune", "--dry-run"}, {"--prune"}, {"--prune", "--yes"}} {
		code, stdout, stderr := publishText(args...)
		if code != 1 || strings.Contains(stdout, "Applied") ||
			!strings.Contains(stdout, "  - delete    resourceType     Contoso.Messaging/buses/queues\n      ! refused by the registry: it still has 1 resource\n") ||
			!strings.Contains(stdout, "1 to delete (1 refused)") ||
			!strings.Contains(stderr, "the registry would refuse 1 delete (Contoso.Messaging/buses/queues: it still has 1 resource); nothing written: pass --delete-resources") {
			t.Errorf("publish %v: exit %d, want 1 with the refusal\n%s%s", args, code, stdout, stderr)
		}
	}
	_, stdout, _ := publishText("--prune", "--dry-run", "--output", "json")
	if !strings.Contains(stdout, `"refused": "it still has 1 resource"`) || !strings.Contains(stdout, `"resources": 1,`) {
		t.Errorf("json plan lacks the refusal:\n%s", stdout)
	}
	loc, err := reg.GetLocation(ctx, "Contoso.Messaging", "global")
	if _, served := loc.Properties.ResourceTypes["buses/queues"]; err != nil || !served {
		t.Errorf("a refused plan changed the location: %+v, %v", loc.Properties.ResourceTypes, err)
	}
	if _, err := reg.GetInstance(ctx, queue, "2025-06-01"); err != nil {
		t.Errorf("a refused plan deleted the resource: %v", err)
	}

	if code, _, stderr := publishText("--delete-resources"); code != 2 || !strings.Contains(stderr, "pass --prune too") {
		t.Errorf("--delete-resources without --prune: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := publishText("--prune", "--delete-resources")
	if code != 0 || !strings.Contains(stdout, "  - delete    resourceType     Contoso.Messaging/buses/queues and its 1 resource\n") ||
		!strings.Contains(stdout, "1 to delete (with 1 resource)") || !strings.Contains(stdout, "Applied 2 of 2 writes.") {
		t.Errorf("--delete-resources: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := reg.GetInstance(ctx, queue, "2025-06-01"); !client.IsNotFound(err) {
		t.Errorf("the queue after --delete-resources: %v", err)
	}
	if _, err := reg.GetInstance(ctx, bus, "2025-06-01"); err != nil {
		t.Errorf("the bus after --delete-resources: %v", err)
	}
	if code, stdout, _ := publishText("--prune"); code != 0 || !strings.Contains(stdout, "0 writes") {
		t.Errorf("rerun: exit %d\n%s", code, stdout)
	}

	// The provider's delete: the same plan, refusal and flag.
	code, stdout, stderr = runCLI(t, "registry", "delete", "Contoso.Messaging", "--server", url)
	if code != 1 || !strings.Contains(stdout, "      ! refused by the registry: it still has 1 resource\n") || !strings.Contains(stderr, "nothing written") {
		t.Errorf("registry delete: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "registry", "delete", "Contoso.Messaging", "--server", url, "--delete-resources", "--output", "json")
	if code != 0 || !strings.Contains(stdout, `"resources": 1`) || !strings.Contains(stdout, `"applied": [`) {
		t.Errorf("registry delete --delete-resources: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := reg.GetInstance(ctx, bus, "2025-06-01"); !client.IsNotFound(err) {
		t.Errorf("the bus after the provider's delete: %v", err)
	}
	if _, err := reg.ProviderSummary(ctx, "Contoso.Data"); err != nil {
		t.Errorf("another namespace after the provider's delete: %v", err)
	}
}

// TestPublishBreakingPolicy: publish judges changes in place with the
// policy of `udtc breaking`: a preview version may break (a warning)
// unless udtc.yaml makes previews strict, removing x-radius-sensitive is
// refused even there, --allow-breaking=TYPE@VERSION applies one version's
// breaking changes, and turning ManualResourceProvisioning on is reported.
func TestPublishBreakingPolicy(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	dir := t.TempDir()
	t.Chdir(dir)
	m := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(m, []byte(`namespace: Radius.Data
types:
  mySqlDatabases:
    apiVersions:
      '2025-01-01':
        schema:
          type: object
          properties:
            size: {type: string, enum: [S, M, L]}
      '2025-08-01-preview':
        schema:
          type: object
          properties:
            size: {type: string, enum: [S, M, L]}
            password: {type: string, x-radius-sensitive: true}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	publish := func(args ...string) (int, string, string) {
		return runCLI(t, append([]string{"publish", m, "--server", url}, args...)...)
	}
	if code, _, stderr := publish(); code != 0 {
		t.Fatalf("first publish: exit %d\n%s", code, stderr)
	}

	// The preview breaks in place: allowed, with a warning.
	edit(t, m, "            size: {type: string, enum: [S, M, L]}\n            password", "            size: {type: string, enum: [S, M]}\n            password")
	code, stdout, stderr := publish()
	if code != 0 || !strings.Contains(stderr, `warning[enum-value-removed]: Radius.Data/mySqlDatabases@2025-08-01-preview: property size no longer accepts "L"; no resource of this API version is stored (breaking change in preview version 2025-08-01-preview, allowed by breaking.previews: allow)`) ||
		!strings.Contains(stdout, "Applied 1 of 1 write.") {
		t.Errorf("a preview breaking in place: exit %d\n%s%s", code, stdout, stderr)
	}

	// Previews made strict in udtc.yaml: refused.
	if err := os.WriteFile(filepath.Join(dir, "udtc.yaml"), []byte("breaking: {previews: strict}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	edit(t, m, "            size: {type: string, enum: [S, M]}\n            password", "            size: {type: string, enum: [S]}\n            password")
	code, stdout, stderr = publish()
	if code != 1 || !strings.Contains(stderr, `error[enum-value-removed]: Radius.Data/mySqlDatabases@2025-08-01-preview`) || strings.Contains(stdout, "Applied") ||
		!strings.Contains(stderr, "refusing 1 breaking change to published API versions (nothing written); 1 of them no stored resource violates, which --allow-breaking-unviolated applies: publish them as a new API version, or allow them with --allow-breaking=NAMESPACE/TYPE@VERSION") {
		t.Errorf("previews: strict: exit %d\n%s%s", code, stdout, stderr)
	}
	if err := os.Remove(filepath.Join(dir, "udtc.yaml")); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := publish(); code != 0 {
		t.Fatalf("previews allowed again: exit %d\n%s", code, stderr)
	}

	// x-radius-sensitive removed from the preview: refused, unless allowed
	// for that version.
	edit(t, m, "password: {type: string, x-radius-sensitive: true}", "password: {type: string}")
	code, stdout, stderr = publish()
	if code != 1 || !strings.Contains(stderr, "error[sensitive-removed]: Radius.Data/mySqlDatabases@2025-08-01-preview: property password is no longer x-radius-sensitive") || strings.Contains(stdout, "Applied") {
		t.Errorf("sensitive removed: exit %d\n%s%s", code, stdout, stderr)
	}
	if code, stdout, stderr := publish("--allow-breaking=radius.data/mysqldatabases@2025-08-01-preview"); code != 0 || !strings.Contains(stdout, "Applied 1 of 1 write.") ||
		!strings.Contains(stderr, "(allowed by --allow-breaking=radius.data/mysqldatabases@2025-08-01-preview)") {
		t.Errorf("sensitive removed, version allowed: exit %d\n%s%s", code, stdout, stderr)
	}

	// The stable version breaks: another version's allowance does not
	// apply, its own does; the flag may come before the paths.
	edit(t, m, "            size: {type: string, enum: [S, M, L]}\n      '2025-08", "            size: {type: string, enum: [S, M]}\n      '2025-08")
	if code, stdout, stderr := publish("--allow-breaking=Radius.Data/mySqlDatabases@2025-08-01-preview", "--dry-run"); code != 1 || !strings.Contains(stderr, "error[enum-value-removed]: Radius.Data/mySqlDatabases@2025-01-01") {
		t.Errorf("stable version, another allowed: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "publish", "--allow-breaking=Radius.Data/mySqlDatabases@2025-01-01", m, "--server", url)
	if code != 0 || !strings.Contains(stdout, "Applied 1 of 1 write.") || !strings.Contains(stderr, "warning[enum-value-removed]: Radius.Data/mySqlDatabases@2025-01-01") {
		t.Errorf("stable version allowed: exit %d\n%s%s", code, stdout, stderr)
	}

	// ManualResourceProvisioning turned on: published, with a warning.
	edit(t, m, "  mySqlDatabases:\n", "  mySqlDatabases:\n    capabilities: [ManualResourceProvisioning]\n")
	code, stdout, stderr = publish()
	if code != 0 || !strings.Contains(stdout, "capabilities: (none) → [ManualResourceProvisioning]") ||
		!strings.Contains(stderr, "warning[manual-provisioning-changed]: Radius.Data/mySqlDatabases: capability ManualResourceProvisioning added: Radius stops running recipes") {
		t.Errorf("capability added: exit %d\n%s%s", code, stdout, stderr)
	}

	// A value without "=" is taken for a path: a usage error says so.
	if code, _, stderr := publish("--allow-breaking", "Radius.Data/mySqlDatabases@2025-01-01"); code != 2 || !strings.Contains(stderr, "write --allow-breaking=Radius.Data/mySqlDatabases@2025-01-01") {
		t.Errorf("--allow-breaking VALUE: exit %d\n%s", code, stderr)
	}
}

// TestPublishOneType: --type publishes one type of a multi-type file, as
// rad resource-type create does, and leaves the rest of the namespace as
// registered; a type no manifest declares is a usage error naming those
// that are.
func TestPublishOneType(t *testing.T) {
	t.Chdir("../..")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	if code, _, stderr := runCLI(t, "publish", "examples", "--server", url, "--type", "Contoso.Data/postgresDatabases"); code != 0 {
		t.Fatalf("publish --type: exit %d\n%s", code, stderr)
	}
	list := runOut(t, "registry", "list", "--server", url)
	if !strings.Contains(list, "Contoso.Data/postgresDatabases") || strings.Contains(list, "redisCaches") || strings.Contains(list, "Contoso.Messaging") {
		t.Errorf("after publishing one type:\n%s", list)
	}
	if code, _, stderr := runCLI(t, "publish", "examples", "--server", url, "--type", "contoso.data/rediscaches"); code != 0 {
		t.Fatalf("publish --type of another: exit %d\n%s", code, stderr)
	}
	list = runOut(t, "registry", "list", "--server", url)
	if !strings.Contains(list, "Contoso.Data/postgresDatabases") || !strings.Contains(list, "Contoso.Data/redisCaches") {
		t.Errorf("the second type did not join the first:\n%s", list)
	}
	code, _, stderr := runCLI(t, "publish", "examples", "--server", url, "--type", "Contoso.Data/nope")
	if code != 2 || !strings.Contains(stderr, "--type Contoso.Data/nope: no manifest declares it (types: ") {
		t.Errorf("an unknown --type: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "publish", "examples", "--server", url, "--type", "Contoso.Data/redisCaches", "--prune"); code != 2 || !strings.Contains(stderr, "give one of them") {
		t.Errorf("--type with --prune: exit %d\n%s", code, stderr)
	}
	// --git commits every manifest: a --type would be silently ignored.
	if code, _, stderr := runCLI(t, "publish", "examples", "--git", t.TempDir(), "--type", "Contoso.Data/redisCaches"); code != 2 || !strings.Contains(stderr, "--type and --delete-resources are for a registry") {
		t.Errorf("--type with --git: exit %d\n%s", code, stderr)
	}
}

// TestPublishIcons: udtc.yaml's icons are checked when the project is read,
// registered by publish and served by their hash; the plan shows an icon
// that changed, a second publish writes nothing, and a type without a
// declared icon keeps the one it has.
func TestPublishIcons(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	t.Chdir(dir)
	writeTestFile(t, "m.yaml", "namespace: Contoso.Data\ntypes:\n  redisCaches:\n    apiVersions:\n      '2025-01-01': {schema: {type: object, properties: {size: {type: string}}}}\n  mongoDatabases:\n    apiVersions:\n      '2025-01-01': {schema: {}}\n")
	icon := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><rect width="8" height="8" fill="#c00"/></svg>`
	writeTestFile(t, "icons/redis.svg", icon)
	writeTestFile(t, "udtc.yaml", "icons:\n  Contoso.Data/redisCaches: icons/redis.svg\n")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	if code, _, stderr := runCLI(t, "publish", "m.yaml", "--server", url); code != 0 {
		t.Fatalf("publish: exit %d\n%s", code, stderr)
	}
	reg, err := client.New(url)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := reg.ProviderSummary(context.Background(), "Contoso.Data")
	if err != nil {
		t.Fatal(err)
	}
	if got := sum.ResourceTypes["redisCaches"].IconHash; got != api.IconHash(icon) {
		t.Errorf("redisCaches' iconHash = %s, want the file's %s", got, api.IconHash(icon))
	}
	if got := sum.ResourceTypes["mongoDatabases"].IconHash; got != api.DefaultIconHash {
		t.Errorf("mongoDatabases' iconHash = %s, want the default icon's", got)
	}
	if code, stdout, _ := runCLI(t, "publish", "m.yaml", "--server", url); code != 0 || !strings.Contains(stdout, "0 writes") {
		t.Errorf("the second publish: exit %d\n%s", code, stdout)
	}
	changed := strings.Replace(icon, "#c00", "#0c0", 1)
	writeTestFile(t, "icons/redis.svg", changed)
	code, stdout, stderr := runCLI(t, "publish", "m.yaml", "--server", url)
	if code != 0 || !strings.Contains(stdout, "icon: sha256:"+api.IconHash(icon)[:12]+" → sha256:"+api.IconHash(changed)[:12]) {
		t.Errorf("a changed icon: exit %d\n%s%s", code, stdout, stderr)
	}
	writeTestFile(t, "icons/redis.svg", `<svg><script>alert(1)</script></svg>`)
	if code, _, stderr := runCLI(t, "publish", "m.yaml", "--server", url); code != 2 || !strings.Contains(stderr, "icons.Contoso.Data/redisCaches: icons/redis.svg:") {
		t.Errorf("a bad icon: exit %d\n%s", code, stderr)
	}
	writeTestFile(t, "udtc.yaml", "icons:\n  Contoso.Data/nope: icons/redis.svg\n")
	writeTestFile(t, "icons/redis.svg", icon)
	if code, _, stderr := runCLI(t, "check", "m.yaml"); code != 2 || !strings.Contains(stderr, "icons: no manifest declares Contoso.Data/nope") {
		t.Errorf("an icon of no type: exit %d\n%s", code, stderr)
	}
}
