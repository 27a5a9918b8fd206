package goclient

import (
	"fmt"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/model"
)

// commentWidth is where doc comment paragraphs are wrapped (after "// ").
const commentWidth = 77

// comment renders paragraphs as a Go comment ("// " lines, "//" between
// paragraphs), ready for jen.Comment. Paragraph text is wrapped at
// commentWidth; lines inside ``` fences become indented code blocks and
// indented or list lines are kept as written. Empty paragraphs are dropped.
func comment(paragraphs ...string) string {
	var c commentText
	for _, p := range paragraphs {
		c.blank = true
		c.wrap(p)
	}
	return c.b.String()
}

// commentText is a comment being written: its lines with "\n" between
// them, and a "//" line where a blank line was asked for between two lines
// (none at either end).
type commentText struct {
	b     strings.Builder
	blank bool // a "//" line goes before the next line
}

// line starts a line: prefix ("// " or "//\t") and text.
func (c *commentText) line(prefix, text string) {
	if c.b.Len() > 0 {
		if c.blank {
			c.b.WriteString("\n//")
		}
		c.b.WriteByte('\n')
	}
	c.blank = false
	c.b.WriteString(prefix)
	c.b.WriteString(text)
}

// wrap writes one piece of text (possibly several lines and paragraphs) as
// comment lines.
func (c *commentText) wrap(text string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	fenced := false
	var para []string // the lines of the paragraph being filled
	flush := func() {
		if len(para) > 0 {
			if c.fill(para) == 1 && strings.IndexByte(".:;!?,)]}`'\"", c.last()) < 0 {
				// A one-line paragraph without final punctuation would be
				// a heading in a Go doc comment: make it a sentence.
				c.b.WriteByte('.')
			}
			para = para[:0]
		}
	}
	for raw := range strings.SplitSeq(text, "\n") {
		line := strings.TrimRight(sanitize(raw), " \t")
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") {
			flush()
			fenced = !fenced
			c.blank = true // code blocks are separate paragraphs
			continue
		}
		switch {
		case fenced:
			if trimmed == "" {
				c.blank = true
				continue
			}
			c.line("//\t", line)
			continue
		case trimmed == "":
			flush()
			c.blank = true
		case line != trimmed || isListItem(trimmed):
			flush()
			c.line("// ", line)
		default:
			para = append(para, trimmed)
		}
	}
	flush()
}

// last is the last byte written.
func (c *commentText) last() byte {
	s := c.b.String()
	return s[len(s)-1]
}

// sanitize drops control characters a comment must not contain.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || r >= ' ' && r != 0x7f {
			return r
		}
		return -1
	}, s)
}

func isListItem(s string) bool {
	if strings.HasPrefix(s, "- ") || strings.HasPrefix(s, "* ") || strings.HasPrefix(s, "+ ") {
		return true
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' '
}

// fill writes the words of a paragraph's lines as comment lines of at most
// commentWidth characters after "// ", never breaking a word, and returns
// how many lines it wrote.
func (c *commentText) fill(para []string) int {
	lines, n := 0, 0 // n: the length of the current line
	for _, text := range para {
		for w := range strings.FieldsSeq(text) {
			if n > 0 && n+1+len(w) <= commentWidth {
				c.b.WriteByte(' ')
				c.b.WriteString(w)
				n += 1 + len(w)
				continue
			}
			c.line("// ", w)
			lines++
			n = len(w)
		}
	}
	return lines
}

// constraints describes a schema node's constraints, default and example
// in words (model.Constraints, values as JSON), leaving out a format the Go
// type already states (time.Time, int32, int64) and the keywords of a udtc
// tag (tagged; nil for a declaration, which has none).
func constraints(s *model.Schema, tagged []string) []string {
	var out []string
	for _, c := range model.Constraints(s, nil) {
		typeStates := c.Keywords[0] == "format" && (s.Format == "date-time" || s.Format == "int32" || s.Format == "int64")
		if !typeStates && !slices.ContainsFunc(c.Keywords, func(k string) bool { return slices.Contains(tagged, k) }) {
			out = append(out, c.Text)
		}
	}
	return out
}

// flags are the read-only, write-only, sensitive and deprecation notes.
func flags(s *model.Schema) []string {
	var out []string
	if s.ReadOnly {
		out = append(out, "Read-only: set by the server and ignored in requests.")
	}
	if s.WriteOnly {
		out = append(out, "Write-only: never returned by the server.")
	}
	if s.Sensitive {
		out = append(out, "Sensitive: the server encrypts this value at rest and redacts it on reads.")
	}
	return out
}

func deprecated(s *model.Schema) string {
	if s.Deprecated {
		return "Deprecated: the schema marks this property as deprecated."
	}
	return ""
}

// schemaDoc is the comment for a declaration describing s: lead sentence,
// description, constraints, flags, deprecation.
// A node that is a property's schema has its description and constraints
// on the field already (own is false): its declaration gets the lead only.
func schemaDoc(lead string, s *model.Schema, own bool) string {
	if !own {
		return comment(lead)
	}
	words := strings.Join(append(constraints(s, nil), flags(s)...), " ")
	return comment(lead, describe(s, words), deprecated(s))
}

// describe is s's title and description followed by words (constraints in
// words), in the description's last paragraph when it is a single line of
// text, else in a paragraph of their own.
func describe(s *model.Schema, words string) string {
	var text []string
	if s.Title != "" {
		text = append(text, s.Title+".")
	}
	if s.Description != "" {
		text = append(text, strings.TrimSpace(s.Description))
	}
	desc := strings.Join(text, "\n\n")
	switch {
	case words == "":
		return desc
	case desc == "":
		return words
	case !strings.Contains(desc, "\n") && !strings.Contains(desc, "```"):
		if !strings.ContainsAny(desc[len(desc)-1:], ".!?") {
			desc += "."
		}
		return desc + " " + words
	}
	return desc + "\n\n" + words
}

// fieldDoc is a struct field's comment: the description, then the
// constraints its udtc tag does not state (tagged: the tag's keywords,
// "required" included), patterns Validate cannot check (unchecked), flags
// and deprecation; nothing for a field without any of them. A renamed field
// names its JSON property first.
func fieldDoc(fp *fieldPlan, tagged, unchecked []string) string {
	s := fp.prop.Schema
	var words []string
	if fp.renamed {
		words = append(words, fmt.Sprintf("The %q property.", fp.prop.Name))
	}
	if fp.prop.Required && !slices.Contains(tagged, "required") {
		words = append(words, "Required.")
	}
	words = append(words, constraints(s, tagged)...)
	for _, re := range unchecked {
		words = append(words, fmt.Sprintf("Validate does not check the pattern %q: it needs a backtracking engine, which Go's regexp package does not have.", re))
	}
	words = append(words, flags(s)...)
	return comment(describe(s, strings.Join(words, " ")), deprecated(s))
}
