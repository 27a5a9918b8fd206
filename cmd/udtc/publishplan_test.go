package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		`→ "A PostgreSQL database.\nApplications`,
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
