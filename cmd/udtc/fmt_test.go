package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const unformatted = `# header
types:
  buses:
    apiVersions:
      "2025-06-01":
        schema: {properties: {tier: {enum: [a, b], type: string}}, type: object}
namespace: Contoso.Messaging
`

const formatted = `# header
namespace: Contoso.Messaging
types:
  buses:
    apiVersions:
      '2025-06-01':
        schema:
          type: object
          properties:
            tier: {type: string, enum: [a, b]}
`

// fmtDir writes a directory of manifests: one unformatted, one formatted,
// a JSON manifest, a non-manifest and a generated output directory.
func fmtDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"a.yaml":                  unformatted,
		"b.yaml":                  formatted,
		"c.json":                  `{"types": {"x": {"apiVersions": {"2025-06-01": {"schema": {}}}}}, "namespace": "A.B"}`,
		"other.yaml":              "z: 1\na: 2\n",
		"out/.udtc-generated":     "",
		"out/types.yaml":          unformatted,
		".hidden/manifest.yaml":   unformatted,
		"node_modules/pkg/x.yaml": unformatted,
	}
	for p, data := range files {
		p = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o640); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// untouched checks that fmt wrote nothing but a.yaml (when rewrote).
func untouched(t *testing.T, dir string, rewrote bool) {
	t.Helper()
	want := map[string]string{"a.yaml": unformatted, "b.yaml": formatted, "other.yaml": "z: 1\na: 2\n",
		"out/types.yaml": unformatted, ".hidden/manifest.yaml": unformatted, "node_modules/pkg/x.yaml": unformatted}
	if rewrote {
		want["a.yaml"] = formatted
	}
	for p, w := range want {
		if got := readString(t, filepath.Join(dir, p)); got != w {
			t.Errorf("%s = %q, want %q", p, got, w)
		}
	}
}

func TestFmtCheck(t *testing.T) {
	dir := fmtDir(t)
	code, out, errs := runCLI(t, "fmt", "--check", dir)
	if code != 1 || out != filepath.Join(dir, "a.yaml")+"\n" {
		t.Errorf("fmt --check = %d, %q (stderr %q); want 1 and a.yaml alone", code, out, errs)
	}
	untouched(t, dir, false)
	code, out, errs = runCLI(t, "fmt", "--check", filepath.Join(dir, "b.yaml"), filepath.Join(dir, "c.json"))
	if code != 0 || out != "" {
		t.Errorf("fmt --check on formatted files = %d, %q (stderr %q); want 0 and no output", code, out, errs)
	}
}

func TestFmtDiff(t *testing.T) {
	dir := fmtDir(t)
	a := filepath.Join(dir, "a.yaml")
	code, out, errs := runCLI(t, "fmt", "--diff", dir)
	if code != 1 {
		t.Errorf("fmt --diff = %d (stderr %q), want 1", code, errs)
	}
	untouched(t, dir, false)
	want := "--- " + a + "\n+++ " + a + `
@@ -1,7 +1,10 @@
 # header
+namespace: Contoso.Messaging
 types:
   buses:
     apiVersions:
-      "2025-06-01":
-        schema: {properties: {tier: {enum: [a, b], type: string}}, type: object}
-namespace: Contoso.Messaging
+      '2025-06-01':
+        schema:
+          type: object
+          properties:
+            tier: {type: string, enum: [a, b]}
`
	if out != want {
		t.Errorf("fmt --diff printed:\n%s\nwant:\n%s", out, want)
	}
	// The diff is one patch(1) can apply.
	if patch, err := exec.LookPath("patch"); err == nil {
		p := filepath.Join(dir, "p.diff")
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := exec.Command(patch, a, p).CombinedOutput(); err != nil {
			t.Fatalf("patch: %v\n%s", err, b)
		}
		if got := readString(t, a); got != formatted {
			t.Errorf("patched file = %q, want the formatted one", got)
		}
	}
	if code, out, _ := runCLI(t, "fmt", "--diff", filepath.Join(dir, "b.yaml")); code != 0 || out != "" {
		t.Errorf("fmt --diff on a formatted file = %d, %q; want 0 and nothing", code, out)
	}
}

func TestFmtRewrites(t *testing.T) {
	dir := fmtDir(t)
	code, out, errs := runCLI(t, "fmt", dir)
	if code != 0 || out != "" || errs != "formatted "+filepath.Join(dir, "a.yaml")+"\n" {
		t.Errorf("fmt = %d, %q (stderr %q); want 0 and a.yaml named on stderr alone", code, out, errs)
	}
	untouched(t, dir, true)
	if code, out, errs := runCLI(t, "fmt", dir); code != 0 || out != "" || errs != "" {
		t.Errorf("fmt of formatted files = %d, %q (stderr %q); want 0 and no output", code, out, errs)
	}
	st, err := os.Stat(filepath.Join(dir, "a.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o640 {
		t.Errorf("mode after fmt = %v, want -rw-r-----", st.Mode().Perm())
	}
	if c := readString(t, filepath.Join(dir, "c.json")); !strings.HasPrefix(c, `{"types"`) {
		t.Errorf("the JSON manifest changed: %q", c)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".udtc-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
	// Idempotent: a second run changes nothing.
	if code, out, _ := runCLI(t, "fmt", "--check", dir); code != 0 || out != "" {
		t.Errorf("fmt --check after fmt = %d, %q; want 0", code, out)
	}
}

func TestFmtBadFile(t *testing.T) {
	dir := fmtDir(t)
	bad := filepath.Join(dir, "bad.yaml")
	const broken = "namespace: A.B\ntypes:\n  x: [1, 2\n"
	if err := os.WriteFile(bad, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, "fmt", dir)
	if code != 2 || !strings.Contains(errs, bad+":") || !strings.Contains(errs, "error[yaml-syntax]") {
		t.Errorf("fmt on a broken file = %d, stderr %q; want 2 and %s:LINE:COL: error[yaml-syntax]", code, errs, bad)
	}
	if got := readString(t, bad); got != broken {
		t.Errorf("the broken file changed: %q", got)
	}
	// The other files are still formatted.
	untouched(t, dir, true)
	if code, _, errs := runCLI(t, "fmt", filepath.Join(dir, "missing.yaml")); code != 2 || !strings.Contains(errs, "cannot read") {
		t.Errorf("fmt on a missing file = %d, %q; want 2", code, errs)
	}
}
