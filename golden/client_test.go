// End-to-end tests of the generated clients: TestMain builds udtc from this
// repository, starts `udtc serve` on 127.0.0.1 with a temporary SQLite
// store, publishes fixtures and the tests drive the generated clients
// against it.
package golden_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	msg20250101 "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20250101"
	msg20250601preview "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20250601preview"
	scalars "github.com/udtc/udtc/golden/valid_scalars/go/contososcalars/v20250301"
	secrets "github.com/udtc/udtc/golden/valid_secrets/go/contososecurity/v20250101"
)

// serverURL is the base URL of the udtc serve the tests use; empty when
// skipReason says why there is none.
var serverURL, skipReason string

// published are the fixtures registered before the tests run.
var published = []string{"valid_child_types", "valid_scalars", "valid_secrets", "valid_references", "valid_required"}

func TestMain(m *testing.M) {
	stop, err := startServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "golden: starting udtc serve:", err)
		os.Exit(1)
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// startServer builds ../cmd/udtc, starts it and publishes the fixtures. When
// the repository is not next to this module it sets skipReason instead.
func startServer() (stop func(), err error) {
	stop = func() {}
	root, err := filepath.Abs("..")
	if err != nil {
		return stop, err
	}
	if b, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.HasPrefix(string(b), "module github.com/udtc/udtc\n") {
		skipReason = "the udtc repository is not at " + root + " (the client tests build its cmd/udtc)"
		return stop, nil
	}
	dir, err := os.MkdirTemp("", "udtc-golden-")
	if err != nil {
		return stop, err
	}
	stop = func() { os.RemoveAll(dir) }
	bin := filepath.Join(dir, "udtc")
	build := exec.Command("go", "build", "-o", bin, "./cmd/udtc")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return stop, fmt.Errorf("go build ./cmd/udtc: %v\n%s", err, out)
	}
	serve := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--store", "sqlite:"+filepath.Join(dir, "registry.db"), "--log-format", "text")
	var logs strings.Builder
	serve.Stderr = &logs
	stdout, err := serve.StdoutPipe()
	if err != nil {
		return stop, err
	}
	if err := serve.Start(); err != nil {
		return stop, err
	}
	stop = func() {
		serve.Process.Kill()
		serve.Wait()
		os.RemoveAll(dir)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
				addr <- strings.Fields(rest)[0]
			}
		}
		close(addr)
	}()
	select {
	case u, ok := <-addr:
		if !ok {
			return stop, fmt.Errorf("udtc serve exited before listening:\n%s", logs.String())
		}
		serverURL = u
	case <-time.After(2 * time.Minute):
		return stop, fmt.Errorf("udtc serve did not start:\n%s", logs.String())
	}
	args := []string{"publish", "--server", serverURL}
	for _, f := range published {
		d, err := withoutAddresses(filepath.Join(root, "fixtures", f), filepath.Join(dir, "fixtures", f))
		if err != nil {
			return stop, err
		}
		args = append(args, d)
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		return stop, fmt.Errorf("udtc publish: %v\n%s", err, out)
	}
	return stop, nil
}

// withoutAddresses copies the manifests of fixture dir src to dst without
// their top-level location block: the server would forward requests to a
// location's address (http://localhost:8080 in valid_child_types), and these
// tests are about the client and the registry's own store. publish then
// registers the default location, which has no address.
func withoutAddresses(src, dst string) (string, error) {
	return dst, filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var out []string
		skipping := false
		for _, line := range strings.Split(string(b), "\n") {
			top := line != "" && line[0] != ' ' && line[0] != '#'
			if top {
				skipping = strings.HasPrefix(line, "location:")
			}
			if !skipping {
				out = append(out, line)
			}
		}
		rel, _ := filepath.Rel(src, p)
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), []byte(strings.Join(out, "\n")), 0o644)
	})
}

// testServer returns the server's URL with a resource group created for
// the test, or skips the test when there is no server.
func testServer(t *testing.T) (url, scope string) {
	t.Helper()
	if serverURL == "" {
		t.Skip(skipReason)
	}
	group := strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())
	groups := must(msg20250101.NewResourceGroupsClient(msg20250101.ClientOptions{Endpoint: serverURL}))
	rg, err := groups.CreateOrUpdate(context.Background(), group, nil, nil)
	if err != nil {
		t.Fatalf("resource group %s: %v", group, err)
	}
	scope = *rg.ID
	return serverURL, scope
}

// responseError returns err as a *ResponseError of valid_child_types (each
// golden case has its own runtime, so its own ResponseError type), failing
// the test otherwise.
func responseError(t *testing.T, err error) *msg20250101.ResponseError {
	t.Helper()
	var re *msg20250101.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a *ResponseError", err, err)
	}
	return re
}

func TestClientLifecycle(t *testing.T) {
	url, scope := testServer(t)
	ctx := context.Background()
	opts := msg20250101.ClientOptions{Endpoint: url}
	buses := must(msg20250101.NewContosoBusClient(opts))
	queues := must(msg20250101.NewContosoBusQueueClient(opts))
	topics := must(msg20250601preview.NewContosoBusTopicClient(msg20250601preview.ClientOptions{Endpoint: url}))

	busID := msg20250101.NewContosoBusID(scope, "bus1")
	bus, err := buses.CreateOrUpdate(ctx, busID, &msg20250101.ContosoBus{Properties: &msg20250101.ContosoBusProperties{Environment: msg20250101.Ptr("env"),
		Sku: msg20250101.Ptr(msg20250101.ContosoBusSkuBasic)}}, nil)

	if err != nil {
		t.Fatal(err)
	}
	if bus.ID == nil || *bus.ID != busID.String() || bus.Properties == nil || *bus.Properties.Sku != "basic" {
		t.Fatalf("CreateOrUpdate returned %+v", bus)
	}
	if id, err := bus.ResourceID(); err != nil || id != busID {
		t.Errorf("ResourceID() = %v, %v", id, err)
	}

	// A child type takes the child's ID; a child whose type has no API
	// version in common with its parent's works the same.
	qID := msg20250101.NewContosoBusQueueID(scope, "bus1", "q1")
	if _, err := queues.CreateOrUpdate(ctx, qID, &msg20250101.ContosoBusQueue{Properties: &msg20250101.ContosoBusQueueProperties{Environment: msg20250101.Ptr("env"),
		MaxSizeInMegabytes: msg20250101.Ptr(int64(1024))}}, nil); err != nil {
		t.Fatal(err)
	}
	tID := msg20250601preview.NewContosoBusTopicID(scope, "bus1", "t1")
	if _, err := topics.CreateOrUpdate(ctx, tID, &msg20250601preview.ContosoBusTopic{Properties: &msg20250601preview.ContosoBusTopicProperties{Environment: msg20250601preview.Ptr("env"),
		Partitions: msg20250601preview.Ptr(int64(0))}}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := queues.Get(ctx, qID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if *got.Name != "q1" || *got.Properties.MaxSizeInMegabytes != 1024 || *got.Type != msg20250101.ContosoBusQueueResourceType {
		t.Errorf("Get = %+v", got)
	}
	topic, err := topics.Get(ctx, tID, nil)
	if err != nil || topic.Properties.Partitions == nil || *topic.Properties.Partitions != 0 {
		t.Errorf("Get topic = %+v, %v; a required-or-not zero is kept", topic, err)
	}
	var names []string
	for q, err := range queues.List(ctx, busID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, *q.Name)
	}
	if strings.Join(names, ",") != "q1" {
		t.Errorf("List(bus1) = %v, want [q1]", names)
	}

	// Deleting the parent deletes its children.
	if err := buses.Delete(ctx, busID, nil); err != nil {
		t.Fatal(err)
	}
	for _, get := range []func() error{
		func() error { _, err := buses.Get(ctx, busID, nil); return err },
		func() error { _, err := queues.Get(ctx, qID, nil); return err },
		func() error { _, err := topics.Get(ctx, tID, nil); return err },
	} {
		if re := responseError(t, get()); re.StatusCode != http.StatusNotFound {
			t.Errorf("Get after deleting the parent: %v, want 404", re)
		}
	}
	if err := buses.Delete(ctx, busID, nil); err != nil {
		t.Errorf("Delete of an absent resource: %v, want nil", err)
	}
	// A child of a missing parent is refused.
	_, err = queues.CreateOrUpdate(ctx, qID, &msg20250101.ContosoBusQueue{Properties: &msg20250101.ContosoBusQueueProperties{Environment: msg20250101.Ptr("env")}}, nil)
	if re := responseError(t, err); re.StatusCode != http.StatusNotFound || re.Code != "ParentResourceNotFound" {
		t.Errorf("queue without its bus: %v", re)
	}
}

// pager adds $top=2 to list requests and counts them.
type pager struct{ lists atomic.Int32 }

func (p *pager) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet && !strings.Contains(r.URL.RawQuery, "top") && strings.HasSuffix(r.URL.Path, "/contosoBuses") {
		r = r.Clone(r.Context())
		q := r.URL.Query()
		q.Set("$top", "2")
		r.URL.RawQuery = q.Encode()
	}
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/contosoBuses") {
		p.lists.Add(1)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func TestClientListPages(t *testing.T) {
	url, scope := testServer(t)
	ctx := context.Background()
	p := &pager{}
	buses := must(msg20250101.NewContosoBusClient(msg20250101.ClientOptions{Endpoint: url, HTTPClient: &http.Client{Transport: p}}))
	want := map[string]bool{}
	for i := range 5 {
		name := fmt.Sprintf("bus%d", i)
		want[name] = true
		if _, err := buses.CreateOrUpdate(ctx, msg20250101.NewContosoBusID(scope, name), &msg20250101.ContosoBus{
			Properties: &msg20250101.ContosoBusProperties{Environment: msg20250101.Ptr("env"), Sku: msg20250101.Ptr(msg20250101.ContosoBusSkuStandard)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	p.lists.Store(0)
	got := map[string]bool{}
	for b, err := range buses.List(ctx, scope, nil) {
		if err != nil {
			t.Fatal(err)
		}
		got[*b.Name] = true
	}
	if len(got) != 5 || !got["bus0"] || !got["bus4"] {
		t.Errorf("List = %v, want %v", got, want)
	}
	if n := p.lists.Load(); n != 3 {
		t.Errorf("List sent %d requests, want 3 pages of at most 2", n)
	}
	// A resource group name is a scope of ClientOptions.Plane; stopping
	// early sends no more requests.
	p.lists.Store(0)
	group := scope[strings.LastIndex(scope, "/")+1:]
	for range buses.List(ctx, group, nil) {
		break
	}
	if n := p.lists.Load(); n != 1 {
		t.Errorf("List stopped after one item sent %d requests, want 1", n)
	}
	// "" is the whole plane: at least this group's buses.
	n := 0
	for _, err := range buses.List(ctx, "", nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n < 5 {
		t.Errorf("plane-wide List = %d buses, want at least 5", n)
	}
}

func TestClientRefusedWrite(t *testing.T) {
	url, scope := testServer(t)
	ctx := context.Background()
	widgets := must(scalars.NewWidgetClient(scalars.ClientOptions{Endpoint: url}))
	id := scalars.NewWidgetID(scope, "w1")
	bad := &scalars.Widget{Properties: &scalars.WidgetProperties{Environment: scalars.Ptr("env"), Name: scalars.Ptr("9"), Replicas: scalars.Ptr(int32(0))}}
	if bad.Validate() == nil {
		t.Fatal("Validate accepted an invalid widget")
	}
	_, err := widgets.CreateOrUpdate(ctx, id, bad, nil) // the client does not validate first
	var re *scalars.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("CreateOrUpdate: %v, want a *ResponseError", err)
	}
	if re.StatusCode != http.StatusBadRequest || re.Code != "InvalidRequestContent" {
		t.Errorf("refusal = %d %s", re.StatusCode, re.Code)
	}
	targets := map[string]string{}
	for _, d := range re.Details {
		targets[d.Target] = d.Code
	}
	for target, code := range map[string]string{"properties.name": "", "properties.tier": "MissingProperty", "properties.replicas": "OutOfRange"} {
		got, ok := targets[target]
		if !ok || code != "" && got != code {
			t.Errorf("details %v: want %s with code %q", targets, target, code)
		}
		if !strings.Contains(re.Error(), target) {
			t.Errorf("Error() = %q does not name %s", re.Error(), target)
		}
	}
	if _, err := widgets.Get(ctx, id, nil); !errors.As(err, &re) || re.StatusCode != http.StatusNotFound {
		t.Errorf("a refused write stored something: %v", err)
	}
	ok := &scalars.Widget{Properties: &scalars.WidgetProperties{Environment: scalars.Ptr("env"), Name: scalars.Ptr("web-01"), Tier: scalars.Ptr(scalars.WidgetTierFree)}}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	got, err := widgets.CreateOrUpdate(ctx, id, ok, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The server applied the schema's defaults.
	if got.Properties.Replicas == nil || *got.Properties.Replicas != 2 {
		t.Errorf("replicas = %v, want the default 2", got.Properties.Replicas)
	}
}

func TestClientSecrets(t *testing.T) {
	url, scope := testServer(t)
	ctx := context.Background()
	vaults := must(secrets.NewVaultClient(secrets.ClientOptions{Endpoint: url}))
	id := secrets.NewVaultID(scope, "v1")
	if _, err := vaults.CreateOrUpdate(ctx, id, &secrets.Vault{Properties: &secrets.VaultProperties{Environment: secrets.Ptr("env"),
		AdminPassword: secrets.Ptr("correct horse battery"), Keys: map[string]string{"a": "b"}, Owner: secrets.Ptr("me")}}, nil); err != nil {
		t.Fatal(err)
	}
	got, err := vaults.Get(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Properties.AdminPassword != nil || got.Properties.Keys != nil || *got.Properties.Owner != "me" {
		t.Errorf("Get returned sensitive values: %+v", got.Properties)
	}
	s, err := vaults.ListSecrets(ctx, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.AdminPassword == nil || *s.AdminPassword != "correct horse battery" || s.Keys["a"] != "b" {
		t.Errorf("ListSecrets = %+v", s)
	}
}

// must returns c, a client built from valid options, and panics on err.
func must[C any](c C, err error) C {
	if err != nil {
		panic(err)
	}
	return c
}

// TestClientConditions: the ETag from Get and CreateOrUpdate makes an
// If-Match write; once the resource has changed, the old ETag is refused
// with 412 and nothing is written, and the fresh one succeeds.
// IfNoneMatch "*" creates only, and Delete takes If-Match too.
func TestClientConditions(t *testing.T) {
	url, scope := testServer(t)
	ctx := context.Background()
	buses := must(msg20250101.NewContosoBusClient(msg20250101.ClientOptions{Endpoint: url}))
	id := msg20250101.NewContosoBusID(scope, "bus1")
	bus := func(sku msg20250101.ContosoBusSku) *msg20250101.ContosoBus {
		return &msg20250101.ContosoBus{Properties: &msg20250101.ContosoBusProperties{Environment: msg20250101.Ptr("env"), Sku: msg20250101.Ptr(sku)}}
	}
	created, err := buses.CreateOrUpdate(ctx, id, bus(msg20250101.ContosoBusSkuBasic), &msg20250101.ContosoBusClientCreateOrUpdateOptions{IfNoneMatch: msg20250101.Ptr("*")})
	if err != nil {
		t.Fatal(err)
	}
	if created.ETag == nil || *created.ETag == "" {
		t.Fatalf("CreateOrUpdate returned no ETag: %+v", created)
	}
	got, err := buses.Get(ctx, id, nil)
	if err != nil || got.ETag == nil || *got.ETag != *created.ETag {
		t.Fatalf("Get = %+v, %v; want the ETag %s", got, err, *created.ETag)
	}
	stale := got.ETag
	updated, err := buses.CreateOrUpdate(ctx, id, bus(msg20250101.ContosoBusSkuStandard), &msg20250101.ContosoBusClientCreateOrUpdateOptions{IfMatch: stale})
	if err != nil {
		t.Fatalf("If-Match with the current ETag: %v", err)
	}
	if *updated.ETag == *stale {
		t.Fatalf("the ETag did not change on update: %s", *stale)
	}

	// The stale ETag is refused, and nothing is written.
	_, err = buses.CreateOrUpdate(ctx, id, bus(msg20250101.ContosoBusSkuBasic), &msg20250101.ContosoBusClientCreateOrUpdateOptions{IfMatch: stale})
	if re := responseError(t, err); re.StatusCode != http.StatusPreconditionFailed || re.Code != "PreconditionFailed" {
		t.Errorf("If-Match with a stale ETag: %v, want 412 PreconditionFailed", re)
	}
	_, err = buses.CreateOrUpdate(ctx, id, bus(msg20250101.ContosoBusSkuBasic), &msg20250101.ContosoBusClientCreateOrUpdateOptions{IfNoneMatch: msg20250101.Ptr("*")})
	if re := responseError(t, err); re.StatusCode != http.StatusPreconditionFailed {
		t.Errorf("If-None-Match * on an existing resource: %v, want 412", re)
	}
	if got, err := buses.Get(ctx, id, nil); err != nil || *got.Properties.Sku != msg20250101.ContosoBusSkuStandard || *got.ETag != *updated.ETag {
		t.Fatalf("after the refused writes: %+v, %v; want sku standard, unchanged", got, err)
	}

	// Delete with the stale ETag is refused; with the fresh one it deletes.
	err = buses.Delete(ctx, id, &msg20250101.ContosoBusClientDeleteOptions{IfMatch: stale})
	if re := responseError(t, err); re.StatusCode != http.StatusPreconditionFailed {
		t.Errorf("Delete with a stale ETag: %v, want 412", re)
	}
	if err := buses.Delete(ctx, id, &msg20250101.ContosoBusClientDeleteOptions{IfMatch: updated.ETag}); err != nil {
		t.Fatal(err)
	}
	if _, err := buses.Get(ctx, id, nil); responseError(t, err).StatusCode != http.StatusNotFound {
		t.Errorf("Get after Delete: %v, want 404", err)
	}
}

// TestClientEndpoint: the constructor refuses an endpoint without a scheme
// with words about ClientOptions.Endpoint.
func TestClientEndpoint(t *testing.T) {
	for _, endpoint := range []string{"", "127.0.0.1:7443"} {
		c, err := msg20250101.NewContosoBusClient(msg20250101.ClientOptions{Endpoint: endpoint})
		if c != nil || err == nil || !strings.Contains(err.Error(), "ClientOptions.Endpoint") {
			t.Errorf("NewContosoBusClient(Endpoint %q) = %v, %v; want an error about ClientOptions.Endpoint", endpoint, c, err)
		}
	}
}

// TestClientResourceGroups: the groups client every version package
// exports creates the group a resource needs, gets and lists it, refuses a
// second create with IfNoneMatch "*", and deletes it with its resources.
// A resource in a missing group is refused with a message that says so once.
func TestClientResourceGroups(t *testing.T) {
	url, _ := testServer(t)
	ctx := context.Background()
	opts := msg20250101.ClientOptions{Endpoint: url}
	groups := must(msg20250101.NewResourceGroupsClient(opts))
	buses := must(msg20250101.NewContosoBusClient(opts))
	bus := &msg20250101.ContosoBus{Properties: &msg20250101.ContosoBusProperties{Environment: msg20250101.Ptr("env"),
		Sku: msg20250101.Ptr(msg20250101.ContosoBusSkuBasic)}}

	const name = "groups-client"
	missing := msg20250101.NewContosoBusID("/planes/radius/local/resourceGroups/"+name, "bus1")
	_, err := buses.CreateOrUpdate(ctx, missing, bus, nil)
	if re := responseError(t, err); re.StatusCode != http.StatusNotFound || re.Code != "ResourceGroupNotFound" ||
		strings.Count(re.Message, "not found") != 1 || strings.Count(re.Message, "resource group") != 1 {
		t.Errorf("a resource in a missing group: %v; want 404 ResourceGroupNotFound saying so once", re)
	}

	rg, err := groups.CreateOrUpdate(ctx, name, &msg20250101.ResourceGroup{Tags: map[string]string{"team": "a"}},
		&msg20250101.ResourceGroupsClientCreateOrUpdateOptions{IfNoneMatch: msg20250101.Ptr("*")})
	if err != nil {
		t.Fatal(err)
	}
	if rg.ID == nil || *rg.ID != "/planes/radius/local/resourceGroups/"+name || *rg.Location != "global" ||
		rg.Tags["team"] != "a" || rg.ETag == nil || *rg.Properties.ProvisioningState != "Succeeded" {
		t.Fatalf("CreateOrUpdate = %+v", rg)
	}
	_, err = groups.CreateOrUpdate(ctx, name, nil, &msg20250101.ResourceGroupsClientCreateOrUpdateOptions{IfNoneMatch: msg20250101.Ptr("*")})
	if re := responseError(t, err); re.StatusCode != http.StatusPreconditionFailed {
		t.Errorf("IfNoneMatch * on an existing group: %v, want 412", re)
	}
	if got, err := groups.Get(ctx, name, nil); err != nil || *got.Name != name || *got.ETag != *rg.ETag {
		t.Errorf("Get = %+v, %v", got, err)
	}
	found := false
	for g, err := range groups.List(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || *g.Name == name
	}
	if !found {
		t.Errorf("List does not yield %s", name)
	}

	// The group's ID is the scope of the resources in it.
	id := msg20250101.NewContosoBusID(*rg.ID, "bus1")
	if id != missing {
		t.Fatalf("ID in the group = %v, want %v", id, missing)
	}
	if _, err := buses.CreateOrUpdate(ctx, id, bus, nil); err != nil {
		t.Fatal(err)
	}
	if err := groups.Delete(ctx, name, &msg20250101.ResourceGroupsClientDeleteOptions{IfMatch: rg.ETag}); err != nil {
		t.Fatal(err)
	}
	if _, err := groups.Get(ctx, name, nil); responseError(t, err).StatusCode != http.StatusNotFound {
		t.Errorf("Get of the deleted group: %v, want 404", err)
	}
	if _, err := buses.Get(ctx, id, nil); responseError(t, err).StatusCode != http.StatusNotFound {
		t.Errorf("Get of a resource of the deleted group: %v, want 404", err)
	}
	if err := groups.Delete(ctx, name, nil); err != nil {
		t.Errorf("Delete of an absent group: %v, want nil", err)
	}
}
