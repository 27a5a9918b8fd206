package explain

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

// maxDepth is how deep WriteSummary's schema tables go below the root.
const maxDepth = 16

// WriteSummary writes a namespace as `udtc registry show` does: its
// locations, and each type with its description, capabilities, default
// and API versions; with schemas, each version's properties as a table
// (PROPERTY, KIND, REQUIRED, CONSTRAINTS, DESCRIPTION; nested properties
// indented below their parent). Columns are aligned and no line ends in
// blanks.
func WriteSummary(w io.Writer, s api.ProviderSummary, schemas bool) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	row(tw, "", "NAMESPACE", s.Name)
	if len(s.Locations) > 0 {
		row(tw, "", "LOCATIONS")
		for _, name := range slices.Sorted(maps.Keys(s.Locations)) {
			row(tw, "  ", name, s.Locations[name].Address)
		}
	}
	row(tw, "", "TYPES")
	for _, name := range slices.Sorted(maps.Keys(s.ResourceTypes)) {
		t := s.ResourceTypes[name]
		row(tw, "  ", s.Name+"/"+name)
		if t.Description != "" {
			row(tw, "    ", "description:", firstLine(t.Description))
		}
		if len(t.Capabilities) > 0 {
			row(tw, "    ", "capabilities:", strings.Join(t.Capabilities, ", "))
		}
		row(tw, "    ", "default:", defaultOf(t))
		for _, v := range t.Versions() {
			row(tw, "    ", v)
			if schemas {
				schemaTable(tw, t.APIVersions[v].Schema, "      ")
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeTrimmed(w, b.Bytes())
}

// WriteList writes the types of the namespaces sums as `udtc registry
// list` does: a table of TYPE, NAMESPACE, API VERSIONS and DEFAULT, sorted
// by namespace and type.
func WriteList(w io.Writer, sums []api.ProviderSummary) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	row(tw, "", "TYPE", "NAMESPACE", "API VERSIONS", "DEFAULT")
	sorted := slices.SortedFunc(slices.Values(sums), func(a, b api.ProviderSummary) int { return strings.Compare(a.Name, b.Name) })
	for _, s := range sorted {
		for _, name := range slices.Sorted(maps.Keys(s.ResourceTypes)) {
			t := s.ResourceTypes[name]
			row(tw, "", s.Name+"/"+name, s.Name, strings.Join(t.Versions(), ", "), defaultOf(t))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return writeTrimmed(w, b.Bytes())
}

// row writes one line of cells, the first after indent. A line of several
// cells ends every cell in a tab, so that a column stays one tabwriter
// block across lines whose last cells are empty (the padding this leaves
// at the ends of lines is trimmed by writeTrimmed); a line of one cell (a
// heading) has none, so it ends the blocks above it. Tabs and line breaks
// inside a cell become spaces.
func row(w io.Writer, indent string, cells ...string) {
	var b strings.Builder
	b.WriteString(indent)
	for _, c := range cells {
		b.WriteString(strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return ' '
			}
			return r
		}, c))
		if len(cells) > 1 {
			b.WriteByte('\t')
		}
	}
	b.WriteByte('\n')
	io.WriteString(w, b.String())
}

// writeTrimmed writes text with the blanks at the end of each line removed.
func writeTrimmed(w io.Writer, text []byte) error {
	lines := bytes.SplitAfter(text, []byte("\n"))
	var out bytes.Buffer
	for _, l := range lines {
		body := bytes.TrimRight(l, " \t\n")
		out.Write(body)
		if bytes.HasSuffix(l, []byte("\n")) {
			out.WriteByte('\n')
		}
	}
	_, err := w.Write(out.Bytes())
	return err
}

// schemaTable writes an API version's schema as rows of a table, each
// property with its kind, whether it is required, its constraints and the
// first line of its description, children indented below their parent; a
// schema that does not compile is written as its JSON.
func schemaTable(w io.Writer, raw json.RawMessage, indent string) {
	schema, err := admission.Compile(raw)
	if err != nil {
		row(w, indent, "schema: "+string(raw))
		return
	}
	if _, top, _ := schema.Explain(nil); len(top) == 0 {
		row(w, indent, "(no properties declared)")
		return
	}
	row(w, indent, "PROPERTY", "KIND", "REQUIRED", "CONSTRAINTS", "DESCRIPTION")
	var walk func(path []string, depth int)
	walk = func(path []string, depth int) {
		_, fields, _ := schema.Explain(path)
		for _, f := range fields {
			row(w, indent, strings.Repeat("  ", depth)+f.Name, f.Kind, mark(f.Required, "yes"),
				strings.Join(f.Constraints, "; "), firstLine(f.Description))
			if depth < maxDepth {
				walk(append(path[:len(path):len(path)], f.Name), depth+1)
			}
		}
	}
	walk(nil, 0)
}

// firstLine is the first line of s, trimmed.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// defaultOf is a type's default API version as shown: the declared one, or
// the one derived from its versions, marked so.
func defaultOf(t api.ResourceTypeSummary) string {
	if t.DefaultAPIVersion != "" || len(t.APIVersions) == 0 {
		return t.DefaultAPIVersion
	}
	return t.Default() + " (derived)"
}
