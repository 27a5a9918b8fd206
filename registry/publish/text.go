package publish

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/udtc/udtc/internal/linediff"
	"github.com/udtc/udtc/internal/naming"
)

// actionMarks start each line of a plan's text.
var actionMarks = map[Action]string{Create: "+", Update: "~", Unchanged: "=", Delete: "-"}

// WriteText writes the plan for the registry at server, plane plane, as
// `udtc publish` prints it: every write with the old and new value of
// every field it changes (a text of several lines as the hunks of a
// unified diff, see writeFieldDiff), unchanged registrations only when
// verbose, then a count of each action.
func (p *Plan) WriteText(w io.Writer, server, plane string, verbose bool) {
	fmt.Fprintf(w, "Plan for %s (plane %s):\n", server, plane)
	for _, c := range p.Changes {
		if c.Action == Unchanged && !verbose {
			continue
		}
		fmt.Fprintf(w, "  %s %-9s %-16s %s%s\n", actionMarks[c.Action], c.Action, c.Kind.Ident(), c.Name(), withResources(c))
		for _, d := range c.Diff {
			writeFieldDiff(w, d)
		}
		if c.Refused != "" {
			fmt.Fprintf(w, "      ! refused by the registry: %s\n", c.Refused)
		}
	}
	hidden := ""
	if n := p.Count(Unchanged); n > 0 && !verbose {
		hidden = " (not listed; -v lists them)"
	}
	deletes := fmt.Sprintf("%d to delete", p.Count(Delete))
	if n := len(p.Refused()); n > 0 {
		deletes += fmt.Sprintf(" (%d refused)", n)
	} else if n, unknown := p.ResourcesDeleted(); n > 0 || unknown {
		deletes += " (with " + resourceCount(n, unknown) + ")"
	}
	fmt.Fprintf(w, "Plan: %d to create, %d to update, %s, %d unchanged%s.\n",
		p.Count(Create), p.Count(Update), deletes, p.Count(Unchanged), hidden)
}

// withResources is what a delete that deletes resources says after its
// name: " and its 3 resources".
func withResources(c Change) string {
	if !c.force {
		return ""
	}
	if c.ResourcesUnknown {
		return " and its resources (how many, the registry could not tell)"
	}
	return " and its " + naming.Count(c.Resources, "resource")
}

// resourceCount is "3 resources", with "or more" when some count is unknown.
func resourceCount(n int, unknown bool) string {
	s := naming.Count(n, "resource")
	if unknown {
		s += " or more"
	}
	return s
}

// shown is a FieldDiff value in a plan line: "(none)" where it is absent.
func shown(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}

// writeFieldDiff writes one changed field: "size: S → M", or, when both
// values are strings and either is a text of several lines (a description
// written as a Markdown page), only the lines that differ, as the hunks of
// a unified diff with their context, so that a changed line or a trailing
// newline does not print the whole text twice.
func writeFieldDiff(w io.Writer, d FieldDiff) {
	before, ok1 := quoted(d.Old)
	after, ok2 := quoted(d.New)
	lines := func(s string) bool { return strings.Contains(strings.TrimSuffix(s, "\n"), "\n") }
	if !ok1 || !ok2 || !lines(before) && !lines(after) {
		fmt.Fprintf(w, "      %s: %s → %s\n", d.Field, shown(d.Old), shown(d.New))
		return
	}
	if !strings.HasSuffix(before, "\n") && !strings.HasSuffix(after, "\n") {
		before, after = before+"\n", after+"\n" // no "\ No newline" lines when neither has one
	}
	diff := linediff.Unified(d.Field, []byte(before), []byte(after))
	_, hunks, _ := strings.Cut(diff, "\n+++ "+d.Field+"\n") // without the file header
	fmt.Fprintf(w, "      %s: lines changed (-old +new):\n", d.Field)
	for _, line := range strings.SplitAfter(strings.TrimSuffix(hunks, "\n"), "\n") {
		fmt.Fprintf(w, "        %s", line)
	}
	fmt.Fprintln(w)
}

// quoted is the string v renders when Value quoted it (a string that does
// not read as itself; one of several lines always is); false otherwise.
func quoted(v string) (string, bool) {
	var s string
	if !strings.HasPrefix(v, `"`) || json.Unmarshal([]byte(v), &s) != nil {
		return "", false
	}
	return s, true
}
