package bicep_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestCompat runs .ci/bicep-compat/run.sh, the check against the reference
// library @azure/bicep-types, over the golden files and over the emitter's
// output for the corpus. Locally it skips without node or without
// .ci/bicep-compat/node_modules (run `npm ci` there); with CI=true it
// always runs and installs the pinned library itself.
func TestCompat(t *testing.T) {
	ci := os.Getenv("CI") == "true"
	script, err := filepath.Abs(filepath.Join(goldentest.Root(t), ".ci", "bicep-compat", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil && !ci {
		t.Skip("node is not on PATH; the Bicep compatibility check needs it (CI runs it)")
	}
	env := os.Environ()
	if !ci {
		if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "@azure", "bicep-types")); err != nil {
			t.Skip("run `npm ci` in .ci/bicep-compat to enable the Bicep compatibility check (CI runs it)")
		}
		env = append(env, "BICEP_COMPAT_SKIP_INSTALL=1")
	}

	dirs, err := filepath.Glob(filepath.Join(goldentest.Root(t), "golden", "*", "bicep"))
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) == 0 {
		t.Fatal("no golden/*/bicep directories: run make golden")
	}
	corpus := filepath.Join(goldentest.Root(t), "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err == nil {
		for _, sub := range []string{"resource-types-contrib", "radius-built-in"} {
			files, _, err := bicep.Emit(goldentest.CompilePaths(t, filepath.Join(corpus, sub)), bicep.Options{})
			if err != nil {
				t.Fatal(err)
			}
			dirs = append(dirs, writeTemp(t, files))
		}
		// All namespaces in one extension.
		files, _, err := bicep.Emit(goldentest.CompilePaths(t, filepath.Join(corpus, "resource-types-contrib")), bicep.Options{ExtensionName: "contrib", ExtensionVersion: "1.2.3"})
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, writeTemp(t, files))
	}
	for i, d := range dirs {
		if dirs[i], err = filepath.Abs(d); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(script, dirs...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	t.Logf("%s", strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	if !strings.Contains(string(out), " 0 failed") {
		t.Fatalf("unexpected summary: %s", out)
	}
}

// writeTemp writes files below a new temporary directory and returns its
// bicep subdirectory.
func writeTemp(t *testing.T, files []emit.File) string {
	t.Helper()
	dir := t.TempDir()
	goldentest.WriteDir(t, dir, "bicep", files)
	return filepath.Join(dir, "bicep")
}
