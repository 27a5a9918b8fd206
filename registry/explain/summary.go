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

// Widths of a shortened description: a property's in a schema table, a
// type's in WriteList.
const (
	propertyWidth = 80
	listWidth     = 60
)

// WriteSummary writes a namespace as `udtc registry show` does: its
// locations, and each type with its description (whole: a description of
// several lines below "description:", indented, its own indentation kept),
// capabilities, default and API versions; with schemas, each version's properties as a table
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
		if d := strings.TrimSpace(t.Description); d != "" && !strings.Contains(d, "\n") {
			row(tw, "    ", "description:", d)
		} else if d != "" {
			row(tw, "    ", "description:")
			for _, line := range strings.Split(strings.Trim(t.Description, "\n"), "\n") {
				row(tw, "      ", line)
			}
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
// list` does: a table of TYPE, NAMESPACE, API VERSIONS, DEFAULT and
// DESCRIPTION (shortened, see shorten), sorted by namespace and type.
func WriteList(w io.Writer, sums []api.ProviderSummary) error {
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	row(tw, "", "TYPE", "NAMESPACE", "API VERSIONS", "DEFAULT", "DESCRIPTION")
	sorted := slices.SortedFunc(slices.Values(sums), func(a, b api.ProviderSummary) int { return strings.Compare(a.Name, b.Name) })
	for _, s := range sorted {
		for _, name := range slices.Sorted(maps.Keys(s.ResourceTypes)) {
			t := s.ResourceTypes[name]
			row(tw, "", s.Name+"/"+name, s.Name, strings.Join(t.Versions(), ", "), defaultOf(t), shorten(t.Description, listWidth))
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
// heading, a line of a description) has none, so it ends the blocks above
// it. Tabs and line breaks inside a cell become spaces.
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
// property with its kind, whether it is required, its constraints and its
// description shortened (shorten), children indented below their parent; a
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
				strings.Join(f.Constraints, "; "), shorten(f.Description, propertyWidth))
			if depth < maxDepth {
				walk(append(path[:len(path):len(path)], f.Name), depth+1)
			}
		}
	}
	walk(nil, 0)
}

// shorten is the start of a description for a table cell: its first
// paragraph (up to a blank line or a code fence), its lines joined, cut to
// at most width characters after its last whole sentence that fits (when
// it fills half the width), else after its last whole word, else inside the word. A description cut
// anywhere, or with more after the first paragraph, ends in "…".
func shorten(text string, width int) string {
	var para []string
	rest := false // the text goes on after the first paragraph
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			rest = true // text is trimmed: something follows
			break
		}
		para = append(para, line)
	}
	if len(para) == 0 { // it starts with a code block
		para, rest = []string{text}, false
	}
	words := strings.Fields(strings.Join(para, " "))
	s := strings.Join(words, " ")
	if len([]rune(s)) <= width {
		if rest {
			return s + " …"
		}
		return s
	}
	// The longest run of whole words that fits with the mark, and the
	// longest of those that ends a sentence.
	fit, sentence := "", ""
	for i := range words {
		cand := strings.Join(words[:i+1], " ")
		if strings.HasSuffix(cand, ".") || strings.HasSuffix(cand, "!") || strings.HasSuffix(cand, "?") {
			if len([]rune(cand))+2 <= width { // " …"
				sentence = cand
			}
		}
		cand = strings.TrimRight(cand, ",;:")
		if len([]rune(cand))+1 > width { // "…"
			break
		}
		fit = cand
	}
	switch {
	case sentence != "" && 2*len([]rune(sentence)) >= width: // not "Yes. …"
		return sentence + " …"
	case fit != "":
		return fit + "…"
	default:
		return string([]rune(s)[:width-1]) + "…"
	}
}

// defaultOf is a type's default API version as shown: the declared one, or
// the one derived from its versions, marked so.
func defaultOf(t api.ResourceTypeSummary) string {
	if t.DefaultAPIVersion != "" || len(t.APIVersions) == 0 {
		return t.DefaultAPIVersion
	}
	return t.Default() + " (derived)"
}
