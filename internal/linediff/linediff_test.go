package linediff

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnifiedDiffPatches checks diffs with several hunks, insertions at both
// ends and a missing final newline by applying them with patch(1).
func TestUnifiedDiffPatches(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("patch(1) is not installed")
	}
	var lines []string
	for i := range 40 {
		lines = append(lines, strings.Repeat("x", i%7)+string(rune('a'+i%26)))
	}
	old := strings.Join(lines, "\n") + "\n"
	edits := []func([]string) []string{
		func(l []string) []string { l[1] = "changed"; return l },
		func(l []string) []string { return append(l[:15:15], l[16:]...) },
		func(l []string) []string { return append([]string{"first"}, l...) },
		func(l []string) []string { return append(l, "last") },
		func(l []string) []string { l[30] = "changed"; l[33] = "again"; return l },
	}
	for n := range 1 << len(edits) {
		l := append([]string(nil), lines...)
		for i, e := range edits {
			if n&(1<<i) != 0 {
				l = e(l)
			}
		}
		want := strings.Join(l, "\n")
		if n%2 == 0 {
			want += "\n"
		}
		dir := t.TempDir()
		f := filepath.Join(dir, "f.yaml")
		if err := os.WriteFile(f, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		d := Unified(f, []byte(old), []byte(want))
		if (d == "") != (old == want) {
			t.Fatalf("case %d: diff empty = %v", n, d == "")
		}
		if d == "" {
			continue
		}
		p := filepath.Join(dir, "p.diff")
		if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
		if b, err := exec.Command(patch, f, p).CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v\n%s\ndiff:\n%s", n, err, b, d)
		}
		if got, err := os.ReadFile(f); err != nil || string(got) != want {
			t.Errorf("case %d: patched file differs:\n%q\nwant\n%q\ndiff:\n%s", n, got, want, d)
		}
	}
}
