package publish

import (
	"fmt"
	"io"

	"github.com/udtc/udtc/internal/naming"
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
		fmt.Fprintf(w, "  %s %-9s %-16s %s%s\n", actionMarks[c.Action], c.Action, c.Kind.Ident(), c.Name(), withResources(c))
		for _, d := range c.Diff {
			fmt.Fprintf(w, "      %s: %s → %s\n", d.Field, shown(d.Old), shown(d.New))
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
