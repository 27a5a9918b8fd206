package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/bench/harness"
)

// fakeRadius writes a module that declares Radius's path and has the two
// packages the harness builds: a validator that refuses a manifest with a
// "/" in it when reading it and one with "status:" in it after, and a manifest-to-bicep that refuses "type: number" and
// otherwise writes types.json. Only the standard library, so it builds
// without the module proxy.
func fakeRadius(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module github.com/radius-project/radius\n\ngo 1.22\n",
		"pkg/cli/manifest/manifest.go": `package manifest

import (
	"context"
	"errors"
	"os"
	"strings"
)

type ResourceProvider struct{}

func ValidateManifest(ctx context.Context, path string) (*ResourceProvider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.Contains(string(data), "/") {
		return nil, errors.New("failed to read manifest: a child type")
	}
	if strings.Contains(string(data), "status:") {
		return nil, errors.New("property 'status' is reserved\nand more")
	}
	return &ResourceProvider{}, nil
}
`,
		"bicep-tools/cmd/manifest-to-bicep/main.go": `package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	args := os.Args[2:]
	for _, f := range args[:len(args)-1] {
		data, _ := os.ReadFile(f)
		if strings.Contains(string(data), "type: number") {
			fmt.Fprintln(os.Stderr, "Error: invalid schema type 'number'")
			os.Exit(1)
		}
	}
	out := args[len(args)-1]
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "types.json"), []byte("[]"), 0o644)
}
`,
	}
	writeTree(t, dir, files)
	return dir
}

// writeTree writes files (slash-separated paths to contents) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The harness builds Radius's tools from a source tree without writing to
// it, runs them over a catalog, and reads what they accepted and refused.
func TestRadiusTools(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two programs; skipped with -short")
	}
	src := fakeRadius(t)
	tools := buildRadius(context.Background(), src, t.TempDir())
	if tools.why != "" {
		t.Fatal(tools.why)
	}
	if _, err := os.Stat(filepath.Join(src, radiusValidatePkg)); err == nil {
		t.Error("the validator program was written into the Radius tree")
	}
	cat := t.TempDir()
	writeTree(t, cat, map[string]string{
		"A.B/one/one.yaml":     "namespace: A.B\n",
		"A.B/bad/bad.yaml":     "namespace: A.B\ntypes: {a/b: {}}\n",
		"A.B/two/two.yaml":     "namespace: A.B\nstatus: {}\n",
		"C.D/three/three.yaml": "namespace: C.D\ntype: number\n",
		"C.D/notes.txt":        "not a manifest",
	})
	out := t.TempDir()
	r, err := tools.run(context.Background(), harness.Meter{}, time.Minute, cat, out)
	if err != nil {
		t.Fatal(err)
	}
	if r.accepted != 2 || r.refused != 2 || r.refusedRead != 1 || r.first != filepath.Join("A.B", "bad", "bad.yaml")+": failed to read manifest: a child type" {
		t.Errorf("validator: accepted %d, refused %d (%d when read), first %q; want 2, 2 (1) and bad.yaml's error", r.accepted, r.refused, r.refusedRead, r.first)
	}
	if r.namespaces != 2 || r.refusedNS != 1 || !strings.HasPrefix(r.firstNS, "C.D: Error: invalid schema type") {
		t.Errorf("manifest-to-bicep: %d namespaces, %d refused, first %q; want 2, 1 and C.D's error", r.namespaces, r.refusedNS, r.firstNS)
	}
	if _, err := os.Stat(filepath.Join(out, "A.B", "types.json")); err != nil {
		t.Errorf("manifest-to-bicep wrote no extension for A.B: %v", err)
	}
	if r.wall() != r.validate.Wall+r.toBicep.Wall || r.toBicep.Wall <= 0 {
		t.Errorf("wall %v = validate %v + manifest-to-bicep %v", r.wall(), r.validate.Wall, r.toBicep.Wall)
	}

	v := versus{check: []harness.Sample{{Wall: 2 * r.validate.Wall}}, bicep: []harness.Sample{{Wall: r.wall() / 2}}, tools: tools, radius: []radiusRun{r}}
	if c, b := v.ratios(); c < 1.99 || c > 2.01 || b < 0.49 || b > 0.51 {
		t.Errorf("ratios %v, %v; want 2 and 0.5", c, b)
	}
	tb := &harness.Table{}
	v.radiusRows(tb, "flat")
	if len(tb.Rows) != 2 || !strings.Contains(tb.Rows[0][8], "accepted 2 of 4 manifests; of the 2 it refused, 1 when read") || !strings.Contains(tb.Rows[1][8], "refused 1 of them") {
		t.Errorf("rows %q", tb.Rows)
	}
}

// A tree that is not Radius's, or none, is named with the reason, and the
// ratios fall back to the recorded times.
func TestRadiusSource(t *testing.T) {
	root := filepath.Join(t.TempDir(), "udtc")
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ flag, want string }{
		{"", "no Radius source tree"},
		{other, `declares "example.com/other"`},
		{filepath.Join(other, "absent"), "-radius " + filepath.Join(other, "absent")},
	} {
		b := &bench{cfg: &config{radius: c.flag}, root: root}
		if src, why := b.radiusSource(); src != "" || !strings.Contains(why, c.want) {
			t.Errorf("-radius %q: %q, %q; want the reason %q", c.flag, src, why, c.want)
		}
	}
	b := &bench{cfg: &config{radius: fakeRadius(t)}, root: root}
	if src, why := b.radiusSource(); src == "" || why != "" {
		t.Errorf("a Radius tree was refused: %q", why)
	}
	v := versus{check: []harness.Sample{{Wall: time.Duration(radiusCheck * float64(time.Second) / 4)}}, bicep: []harness.Sample{{Wall: time.Duration(radiusCheckBicep * float64(time.Second) / 2)}}, tools: radiusTools{why: "none"}}
	if c, b := v.ratios(); c < 0.249 || c > 0.251 || b < 0.499 || b > 0.501 {
		t.Errorf("ratios without Radius %v, %v; want 0.25 and 0.5 of the recorded times", c, b)
	}
	tb := &harness.Table{}
	v.radiusRows(tb, "deep")
	if !strings.Contains(v.note("Radius's validator", radiusCheck), "recorded 6.8 s") || len(tb.Rows) != 1 || tb.Rows[0][8] != "none" {
		t.Errorf("note %q, rows %q; want the recorded time, and the reason in the row of Radius's tools", v.note("Radius's validator", radiusCheck), tb.Rows)
	}
}
