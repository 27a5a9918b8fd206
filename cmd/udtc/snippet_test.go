package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/catalog"
)

// TestCatalogGoSnippetRuns: the Go snippet of a catalog page, as written,
// builds against the client `udtc gen --target go` writes, with its typed
// structs and enums, and creates the example's resource group and the
// example in a registry (the snippet's endpoint swapped for the test's).
func TestCatalogGoSnippetRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a Go program: skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	t.Chdir("../..")
	url, stop := startServe(t, "--store", "sqlite:"+filepath.Join(t.TempDir(), "r.db"))
	defer stop()
	fixture := filepath.Join("fixtures", "valid_scalars")
	if code, _, stderr := runCLI(t, "publish", "--server", url, fixture); code != 0 {
		t.Fatalf("publish = %d: %s", code, stderr)
	}
	page := url + catalog.TypePath("Contoso.Scalars", "widgets", "2025-03-01")
	var twin catalog.TypePage
	getJSON(t, page, &twin)
	// The typed structs and enums, not JSON; the snippet creates the
	// resource group itself.
	for _, want := range []string{"NewResourceGroupsClient(opts)", "groups.CreateOrUpdate(ctx, \"default\"", "NewWidgetID(*rg.ID, \"example\")",
		"&v20250301.WidgetProperties{", "Tier:        v20250301.Ptr(v20250301.WidgetTierFree)", "Environment: v20250301.Ptr("} {
		if !strings.Contains(twin.Snippets.Go, want) {
			t.Errorf("the Go snippet has no %q:\n%s", want, twin.Snippets.Go)
		}
	}
	if strings.Contains(twin.Snippets.Go, "json.Unmarshal") {
		t.Errorf("the Go snippet decodes JSON:\n%s", twin.Snippets.Go)
	}

	// A module whose gen/ is the generated client, and a program that runs
	// the snippet: its import line, then its statements.
	const module = "example.com/snippet"
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+module+"\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "gen", "--target", "go", "--go-import-prefix", module+"/gen", "--out", filepath.Join(dir, "gen"), fixture); code != 0 {
		t.Fatalf("gen = %d: %s", code, stderr)
	}
	snippet := strings.ReplaceAll(twin.Snippets.Go, "example.com/yourmodule/gen", module+"/gen")
	snippet = strings.ReplaceAll(snippet, "http://127.0.0.1:7443", url)
	imp, code, ok := strings.Cut(snippet, ")\n\n")
	if !ok || !strings.HasPrefix(imp, "import (\n") {
		t.Fatalf("the snippet does not start with its imports:\n%s", snippet)
	}
	program := fmt.Sprintf(`package main

import (
	"context"
	"fmt"
	"os"

%s
)

func run(ctx context.Context) error {
%s	if err != nil {
		return err
	}
	fmt.Println(*stored.ID)
	return nil
}

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`, strings.TrimPrefix(imp, "import (\n"), code)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	// The go command's own build cache, not the empty one TestMain's
	// XDG_CACHE_HOME would give it (udtc's state stays there).
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "XDG_CACHE_HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GOFLAGS=-mod=mod", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run of the snippet: %v\n%s\nprogram:\n%s", err, out, program)
	}
	if want := "/providers/Contoso.Scalars/widgets/example"; !strings.Contains(string(out), want) {
		t.Errorf("the snippet printed %q, want the ID of %s", out, want)
	}
}
