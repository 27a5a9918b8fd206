package publish

import (
	"fmt"
	"io"
)

// actionMarks start each line of a plan's text.
var actionMarks = map[Action]string{Create: "+", Update: "~", Unchanged: "=", Delete: "-"}

// WriteText writes the plan for the registry at server, plane plane, as
// `udtc publish` prints it: every write with the old and new value of
// every field it changes, unchanged registrations only when verbose, then
// a count of each action.
func (p *Plan) WriteText(w io.Writer, server, plane string, verbose bool) {
	fmt.Fprintf(w, "Plan for %s (plane %s):\n", server, plane)
	for _, c := range p.Changes {
		if c.Action == Unchanged && !verbose {
			continue
		}
		fmt.Fprintf(w, "  %s %-9s %-16s %s\n", actionMarks[c.Action], c.Action, c.Kind.Ident(), c.Name())
		for _, d := range c.Diff {
			fmt.Fprintf(w, "      %s: %s → %s\n", d.Field, shown(d.Old), shown(d.New))
		}
	}
	hidden := ""
	if n := p.Count(Unchanged); n > 0 && !verbose {
		hidden = " (not listed; -v lists them)"
	}
	fmt.Fprintf(w, "Plan: %d to create, %d to update, %d to delete, %d unchanged%s.\n",
		p.Count(Create), p.Count(Update), p.Count(Delete), p.Count(Unchanged), hidden)
}

// shown is a FieldDiff value in a plan line: "(none)" where it is absent.
func shown(v string) string {
	if v == "" {
		return "(none)"
	}
	return v
}
