package publish_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/publish"
)

// TestWaitingPrinter: a waiting write is shown once past WaitingFirst,
// then every WaitingEvery, each write on its own.
func TestWaitingPrinter(t *testing.T) {
	var stderr bytes.Buffer
	w := publish.WaitingPrinter(&stderr)
	a := publish.Change{Kind: publish.KindProvider, Namespace: "Contoso.Data"}
	b := publish.Change{Kind: publish.KindLocation, Namespace: "Contoso.Data", Location: "global"}
	for _, s := range []struct {
		c       publish.Change
		state   string
		elapsed time.Duration
	}{
		{a, "Accepted", publish.WaitingFirst / 2},
		{a, "Updating", publish.WaitingFirst},
		{a, "Updating", publish.WaitingFirst + publish.WaitingEvery/2},
		{b, "waiting for another write", publish.WaitingFirst + time.Second},
		{a, "Updating", publish.WaitingFirst + publish.WaitingEvery},
	} {
		w(s.c, s.state, s.elapsed)
	}
	want := "  waiting: Contoso.Data Updating (2s)\n" +
		"  waiting: Contoso.Data location global waiting for another write (3s)\n" +
		"  waiting: Contoso.Data Updating (12s)\n"
	if stderr.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", stderr.String(), want)
	}
}

// TestWriteTextLongText: a description of many lines that differs in one
// line and a trailing newline prints as the hunks of a diff, not twice.
func TestWriteTextLongText(t *testing.T) {
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf("Line %d of a long description.", i))
	}
	old := strings.Join(lines, "\n") + "\n"
	lines[100] = "Line 100, edited."
	edited := strings.Join(lines, "\n")
	p := &publish.Plan{Changes: []publish.Change{{Action: publish.Update, Kind: publish.KindType, Namespace: "Contoso.Data", Type: "caches",
		Diff: []publish.FieldDiff{{Field: "description", Old: publish.Value(old), New: publish.Value(edited)}, {Field: "defaultApiVersion", Old: "2025-01-01", New: "2025-06-01"}}}}}
	var b strings.Builder
	p.WriteText(&b, "server", "local", false)
	out := b.String()
	want := "      description: lines changed (-old +new):\n" +
		"        @@ -98,7 +98,7 @@\n" +
		"         Line 97 of a long description.\n" +
		"         Line 98 of a long description.\n" +
		"         Line 99 of a long description.\n" +
		"        -Line 100 of a long description.\n" +
		"        +Line 100, edited.\n" +
		"         Line 101 of a long description.\n" +
		"         Line 102 of a long description.\n" +
		"         Line 103 of a long description.\n" +
		"        @@ -197,4 +197,4 @@\n" +
		"         Line 196 of a long description.\n" +
		"         Line 197 of a long description.\n" +
		"         Line 198 of a long description.\n" +
		"        -Line 199 of a long description.\n" +
		"        +Line 199 of a long description.\n" +
		"        \\ No newline at end of file\n" +
		"      defaultApiVersion: 2025-01-01 → 2025-06-01\n"
	if !strings.Contains(out, want) {
		t.Errorf("plan:\n%s\nwant it to hold:\n%s", out, want)
	}
	if len(out) > 2000 {
		t.Errorf("the plan is %d bytes long", len(out))
	}
}
