package manifest

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
)

// printer writes the YAML node tree Format has put in order. yaml.v3's
// encoder moves the comment of a flow list to the next key and cannot
// write a literal block whose lines end in spaces, so the layout is
// written here: every comment where yaml.v3 reads it back onto the same
// node, and every block scalar (| or >) copied line for line from the
// source, so its text, trailing spaces and folded line breaks stay as the
// author wrote them. Single scalars and flow collections are still
// rendered by yaml.v3, which knows YAML's quoting rules.
type printer struct {
	file string
	src  []string // the source's lines, without their line breaks
	out  bytes.Buffer
	// blankEnd is the length of out after the blank line that follows the
	// foot comment of a block mapping or sequence's key or item.
	blankEnd int
	// lastBlank is the length of out after the last blank line written.
	lastBlank int
	// keepEnd is the length of out after the last block scalar with keep
	// chomping (|+).
	keepEnd int
	diags   diag.List
	err     error
}

// print writes the document doc (a DocumentNode).
func (p *printer) print(doc *yaml.Node) ([]byte, error) {
	if doc.HeadComment != "" {
		p.comment(doc.HeadComment, 0)
		p.blank()
	}
	for _, root := range doc.Content {
		sinkFeet(root)
		if endsInBlankLines(root) {
			// yaml.v3 reads the comments after the blank lines that end the
			// file as the document's: they are written as such.
			doc.FootComment = joinComments(takeFeet(endHolders(root)), doc.FootComment)
		}
		switch {
		case root.Kind == yaml.MappingNode && !inline(root):
			p.head(root, 0)
			p.mapping(root, 0, false)
			p.foot(root.FootComment, 0, nil)
		case root.Kind == yaml.SequenceNode && !inline(root):
			p.head(root, 0)
			p.sequence(root, 0)
			p.foot(root.FootComment, 0, nil)
		default:
			p.head(root, 0)
			p.out.WriteString(strings.TrimPrefix(p.inlineValue(root, 0), " "))
			p.foot(root.FootComment, 0, nil)
		}
	}
	if doc.FootComment != "" {
		p.blank()
		p.comment(doc.FootComment, 0)
	}
	out := p.out.Bytes()
	if len(out) == p.lastBlank && p.lastBlank != p.blankEnd {
		// A blank line the layout wrote is not kept at the end of the file
		// (but one after the foot of a nested block keeps it that block's,
		// and the lines of a block scalar are the author's).
		out = out[:len(out)-1]
	}
	return out, p.err
}

// sinkFeet moves the foot comments of the nested keys and items that end
// the file (the last key, its value's last key, and so on) to the
// innermost of them. yaml.v3 reads comments after a blank line at the end
// of a file as the document's, and a comment under the end of a nested
// block without one as the foot of the block's innermost last key: those
// feet cannot be told apart in YAML, so they are written together, in
// order, under the innermost one. The top-level key keeps its foot. The
// same holds at the end of any block that ends with a block scalar (| or
// >): yaml.v3 reads the comments after its lines as its key's foot.
func sinkFeet(root *yaml.Node) {
	// Below the top-level key (and its value) or item, which keeps its own.
	if holders := endHolders(root); root.Kind == yaml.MappingNode && len(holders) > 2 {
		sink(holders[2:])
	} else if root.Kind == yaml.SequenceNode && len(holders) > 1 {
		sink(holders[1:])
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for _, c := range n.Content {
			walk(c)
		}
		// A key or item with a foot whose block value ends with feet too:
		// those are written under the innermost without a blank line, then
		// the key's own, for yaml.v3 reads a foot that follows another
		// foot and a blank line as the next key's head.
		for i, c := range n.Content {
			holder := c
			if n.Kind == yaml.MappingNode {
				if i%2 == 0 {
					continue
				}
				holder = n.Content[i-1]
			}
			if block(c) && (holder.FootComment != "" || c.FootComment != "") {
				if inner := endHolders(c); hasFoot(inner) {
					sink(inner)
				}
			}
		}
		if holders := endHolders(n); len(holders) > 0 {
			last := holders[len(holders)-1]
			if last.Kind == yaml.ScalarNode && last.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
				sink(holders)
			}
		}
	}
	walk(root)
}

// endHolders returns the nodes that hold the feet at the end of block n:
// per level, its last key and that key's value, or its last item.
func endHolders(n *yaml.Node) []*yaml.Node {
	var holders []*yaml.Node
	for block(n) {
		last := n.Content[len(n.Content)-1]
		if n.Kind == yaml.MappingNode {
			holders = append(holders, n.Content[len(n.Content)-2])
		}
		holders = append(holders, last)
		n = last
	}
	return holders
}

func hasFoot(nodes []*yaml.Node) bool {
	for _, n := range nodes {
		if n.FootComment != "" {
			return true
		}
	}
	return false
}

// sink moves the foot comments of holders (endHolders) to the innermost
// key or item, the innermost's first.
func sink(holders []*yaml.Node) {
	if len(holders) < 2 {
		return
	}
	inner := holders[len(holders)-1]
	if inner.Kind != yaml.MappingNode && inner.Kind != yaml.SequenceNode &&
		holders[len(holders)-2].Kind == yaml.ScalarNode {
		// A mapping's last key and its value: the key holds the feet.
		inner = holders[len(holders)-2]
	}
	inner.FootComment = takeFeet(holders)
}

// takeFeet removes the foot comments of holders (endHolders) and returns
// them in the order they are written, the innermost's first, without
// blank lines.
func takeFeet(holders []*yaml.Node) string {
	var feet []string
	for i := len(holders) - 1; i >= 0; i-- {
		if c := withoutBlankLines(holders[i].FootComment); c != "" {
			feet = append(feet, c)
		}
		holders[i].FootComment = ""
	}
	return strings.Join(feet, "\n")
}

// head writes n's head comment at indent. Right after a block scalar with
// keep chomping (|+), where a blank line would be part of the scalar, the
// comment's own blank lines are left out too: yaml.v3 reads a comment
// there as the head of the key below only when no blank line comes
// between them.
func (p *printer) head(n *yaml.Node, indent int) {
	c := n.HeadComment
	if p.out.Len() == p.keepEnd {
		c = withoutBlankLines(c)
	}
	p.comment(c, indent)
}

// endsInBlankLines reports whether v is, or its block ends with, a block
// scalar whose lines end with an empty one (|+): yaml.v3 reads a comment
// after those lines as the head comment of the key or item that follows.
func endsInBlankLines(v *yaml.Node) bool {
	if h := endHolders(v); len(h) > 0 {
		v = h[len(h)-1]
	}
	return v.Kind == yaml.ScalarNode && v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 &&
		strings.HasSuffix(v.Value, "\n\n")
}

// comment writes each line of a comment at indent.
func (p *printer) comment(c string, indent int) {
	if c == "" {
		return
	}
	for _, line := range strings.Split(c, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			p.blank()
			continue
		}
		p.out.WriteString(strings.Repeat(" ", indent))
		p.out.WriteString(line)
		p.out.WriteByte('\n')
	}
}

// foot writes the foot comment of a key or item whose value is v. yaml.v3
// reads a comment under the end of a nested block as the foot of the
// block's innermost last key unless a blank line follows it, so the foot
// of a block value is followed by one. Another foot is followed by one
// only before a key or item at its indentation (separate), where it would
// otherwise be read as that one's head comment. (At the top level a foot
// needs no blank line: there yaml.v3 reads a comment after one at the end
// of the file as the document's.)
func (p *printer) foot(c string, indent int, v *yaml.Node) {
	if block(v) {
		// A blank line inside would end the foot there: what comes before
		// it would be read as the foot of the innermost last key.
		c = withoutBlankLines(c)
	}
	p.comment(c, indent)
	if c != "" && block(v) && indent > 0 {
		p.blank()
		p.blankEnd = p.out.Len()
	}
}

// withoutBlankLines returns comment c without its empty lines.
func withoutBlankLines(c string) string {
	var lines []string
	for _, l := range strings.Split(c, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// separate writes a blank line between two keys or items after a foot
// comment, and before a head comment that holds a blank line: without one
// yaml.v3 would read such a head comment as the foot of the entry above.
func (p *printer) separate(foot, head string) {
	if foot != "" || strings.HasSuffix(head, "\n") || strings.Contains(head, "\n\n") {
		p.blank()
	}
}

// blank ends the output with one blank line (never two, never at the top).
// A blank line right after a block scalar with keep chomping (|+) would
// be part of its value, so none is written there.
func (p *printer) blank() {
	b := p.out.Bytes()
	if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n\n")) && len(b) != p.keepEnd {
		p.out.WriteByte('\n')
		p.lastBlank = p.out.Len()
	}
}

// inline reports whether collection n is written on its key's line: a flow
// collection (canonicalStyle decides which stay so) or an empty one.
func inline(n *yaml.Node) bool {
	return n.Style&yaml.FlowStyle != 0 || len(n.Content) == 0
}

// block reports whether n is written below its key or dash: a block
// mapping or sequence.
func block(n *yaml.Node) bool {
	return n != nil && (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && !inline(n)
}

// mapping writes block mapping n, its keys at indent. compact: the first
// key follows a dash on the same line.
func (p *printer) mapping(n *yaml.Node, indent int, compact bool) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if i > 0 {
			p.separate(joinComments(n.Content[i-2].FootComment, n.Content[i-1].FootComment), k.HeadComment)
		}
		if i == 0 && compact {
			p.out.WriteByte(' ')
		} else {
			p.head(k, indent)
			p.out.WriteString(strings.Repeat(" ", indent))
		}
		p.out.WriteString(p.key(k))
		p.out.WriteByte(':')
		p.value(v, k.LineComment, false, k.Column-1, indent)
		foot := joinComments(k.FootComment, v.FootComment)
		if foot != "" && endsInBlankLines(v) && i+2 < len(n.Content) {
			// Read back as the next key's head comment: written as one.
			next := n.Content[i+2]
			next.HeadComment = joinComments(foot, next.HeadComment)
			foot = ""
		}
		if foot != "" && indent == 0 && !block(v) && v.LineComment != "" &&
			i+2 < len(n.Content) && n.Content[i+2].HeadComment == "" {
			// yaml.v3 reads this foot as the next key's head comment
			// whatever the layout: it is written as one, so that
			// formatting again changes nothing.
			p.blank()
		}
		p.foot(foot, indent, v)
	}
}

// sequence writes block sequence n, its dashes at indent.
func (p *printer) sequence(n *yaml.Node, indent int) {
	for i, c := range n.Content {
		if i > 0 {
			p.separate(n.Content[i-1].FootComment, c.HeadComment)
		}
		p.head(c, indent)
		p.out.WriteString(strings.Repeat(" ", indent))
		p.out.WriteByte('-')
		p.value(c, "", true, n.Column-1, indent)
		foot := c.FootComment
		if foot != "" && endsInBlankLines(c) && i+1 < len(n.Content) {
			// Read back as the next item's head comment: written as one.
			n.Content[i+1].HeadComment = joinComments(foot, n.Content[i+1].HeadComment)
			foot = ""
		}
		p.foot(foot, indent, c)
	}
}

// value writes v after its key's colon or its dash (dash), which are at
// indent in the output (at srcIndent in the source); keyComment is the
// comment on the key's line that yaml.v3 gave the key.
func (p *printer) value(v *yaml.Node, keyComment string, dash bool, srcIndent, indent int) {
	props := properties(v)
	if v.Kind == yaml.MappingNode && block(v) && dash && props == "" && v.HeadComment == "" &&
		v.LineComment == "" && v.Content[0].HeadComment == "" {
		p.mapping(v, indent+2, true)
		return
	}
	if block(v) {
		p.out.WriteString(props)
		p.lineComment(strings.TrimSpace(keyComment + " " + v.LineComment))
		p.out.WriteByte('\n')
		p.head(v, indent+2)
		if v.Kind == yaml.MappingNode {
			p.mapping(v, indent+2, false)
		} else {
			p.sequence(v, indent+2)
		}
		return
	}
	if v.Kind == yaml.ScalarNode && v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		if header, lines, ok := p.blockScalar(v, srcIndent); ok {
			if v.Tag != "" && v.Tag != "!!str" {
				props += " " + v.Tag
			}
			p.out.WriteString(props + " " + header)
			p.lineComment(strings.TrimSpace(keyComment + " " + v.LineComment))
			p.out.WriteByte('\n')
			writeBlockLines(&p.out, lines, indent+2)
			if strings.HasSuffix(header, "+") {
				p.keepEnd = p.out.Len()
			}
			return
		}
		p.diags.Add(diag.Diagnostic{
			Span: point(p.file, v.Line, v.Column), Severity: diag.Warning, Rule: RuleFormat,
			Message: "this block scalar could not be copied as written: it is rewritten in the style YAML's encoder chooses",
			Hint:    "check the diff of this value, or write it as a quoted string",
		})
	}
	if keyComment != "" {
		// A comment after the colon: the value goes on the next line, so
		// that the comment stays the key's.
		p.lineComment(keyComment)
		p.out.WriteByte('\n')
		p.out.WriteString(strings.Repeat(" ", indent+2))
		p.out.WriteString(strings.TrimPrefix(p.inlineValue(v, indent+2), " "))
		return
	}
	p.out.WriteString(p.inlineValue(v, indent))
}

// inlineValue renders a scalar, alias or inline collection after a colon:
// " text # comment\n", or ":\n" for an empty scalar. Continuation lines
// (a block scalar yaml.v3 chose) are indented by contIndent.
func (p *printer) inlineValue(v *yaml.Node, contIndent int) string {
	var b strings.Builder
	first, rest, multi := strings.Cut(p.render(v), "\n")
	if first != "" {
		b.WriteString(" " + first)
	}
	if v.LineComment != "" {
		b.WriteString(" " + v.LineComment) // on the first line: after a block's header
	}
	if multi {
		b.WriteString("\n" + strings.Repeat(" ", contIndent))
		b.WriteString(strings.ReplaceAll(rest, "\n", "\n"+strings.Repeat(" ", contIndent)))
	}
	b.WriteByte('\n')
	return b.String()
}

func (p *printer) lineComment(c string) {
	if c != "" {
		p.out.WriteString(" " + c)
	}
}

// properties returns " &anchor !tag" for a block collection that has them.
func properties(n *yaml.Node) string {
	var s string
	if n.Anchor != "" {
		s += " &" + n.Anchor
	}
	if (n.Kind == yaml.MappingNode && n.Tag != "" && n.Tag != "!!map") ||
		(n.Kind == yaml.SequenceNode && n.Tag != "" && n.Tag != "!!seq") {
		s += " " + n.Tag
	}
	return s
}

// joinComments joins the comments yaml.v3 split between a key and its
// value, which the output writes in one place.
func joinComments(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// key renders mapping key k as yaml.v3 writes it.
func (p *printer) key(k *yaml.Node) string {
	c := bare(k)
	if c.Kind == yaml.ScalarNode {
		c.Style &^= yaml.LiteralStyle | yaml.FoldedStyle
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{c, {Kind: yaml.ScalarNode, Tag: "!!str", Value: "x"}}}
	s := p.encode(m)
	text, ok := strings.CutSuffix(s, ": x\n")
	if !ok || strings.HasPrefix(s, "?") || strings.Contains(text, "\n") {
		p.fail(k, "a mapping key that is not a single-line value")
		return ""
	}
	if k.Anchor != "" {
		text = "&" + k.Anchor + " " + text
	}
	return text
}

// render writes a scalar, an alias or an inline collection as yaml.v3
// writes it as a mapping's value, its continuation lines (if any) indented
// by 2.
func (p *printer) render(v *yaml.Node) string {
	if v.Kind == yaml.AliasNode {
		return "*" + v.Value
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: "k"}, bare(v)}}
	s, ok := strings.CutPrefix(p.encode(m), "k:")
	if !ok {
		p.fail(v, "a value yaml.v3 does not write after its key")
		return ""
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, " "), "\n")
	if v.Anchor != "" {
		s = strings.TrimSpace("&" + v.Anchor + " " + s)
	}
	return s
}

// bare is a copy of n without its comments and anchor (the printer writes
// those) and with the same children.
func bare(n *yaml.Node) *yaml.Node {
	c := *n
	c.HeadComment, c.LineComment, c.FootComment, c.Anchor = "", "", "", ""
	return &c
}

func (p *printer) encode(n *yaml.Node) string {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		p.fail(n, err.Error())
		return ""
	}
	if err := enc.Close(); err != nil {
		p.fail(n, err.Error())
	}
	return buf.String()
}

func (p *printer) fail(n *yaml.Node, why string) {
	if p.err == nil {
		p.err = fmt.Errorf("line %d: %s", n.Line, why)
	}
}

// blockLine is a line of a block scalar as the source writes it: its text
// after the block's indentation, or, for a line of at most that many
// spaces (an empty line), how many spaces it has short of it.
type blockLine struct {
	text  string
	short int // for an empty line: the block's indentation minus its spaces
	empty bool
}

// writeBlockLines writes a block scalar's lines at indent. An empty line
// keeps its spaces (trailing whitespace the author left) as far as the new
// indentation allows; one with none stays empty.
func writeBlockLines(b *bytes.Buffer, lines []blockLine, indent int) {
	for _, l := range lines {
		switch {
		case !l.empty:
			b.WriteString(strings.Repeat(" ", indent))
			b.WriteString(l.text)
		case indent-l.short > 0 && l.text != "":
			b.WriteString(strings.Repeat(" ", indent-l.short))
		}
		b.WriteByte('\n')
	}
}

// blockScalar returns the header (| or >, an indentation indicator when
// needed, the chomping indicator) and the lines of block scalar n as the
// source writes them, without their indentation. srcIndent is the
// indentation of n's key or dash in the source. ok is false when the
// lines, written at any indentation, do not read back as n's value: then n
// is left to yaml.v3's encoder.
func (p *printer) blockScalar(n *yaml.Node, srcIndent int) (header string, lines []blockLine, ok bool) {
	if n.Line < 1 || n.Line > len(p.src) {
		return "", nil, false
	}
	line := p.src[n.Line-1]
	rest := line[byteOffset(line, n.Column-1):]
	// Skip the node's properties (&anchor, !tag) to the indicator.
	for strings.HasPrefix(rest, "&") || strings.HasPrefix(rest, "!") {
		_, after, found := strings.Cut(rest, " ")
		if !found {
			return "", nil, false
		}
		rest = strings.TrimLeft(after, " ")
	}
	if rest == "" || (rest[0] != '|' && rest[0] != '>') {
		return "", nil, false
	}
	style, explicit, chomp := rest[0], 0, ""
	for _, c := range rest[1:min(len(rest), 3)] {
		switch {
		case c >= '1' && c <= '9':
			explicit = int(c - '0')
		case c == '-' || c == '+':
			chomp = string(c)
		}
	}
	body := p.src[n.Line:]
	indent := -1
	if explicit > 0 {
		indent = srcIndent + explicit
	} else {
		for _, l := range body {
			if t := strings.TrimLeft(l, " "); t != "" {
				indent = len(l) - len(t)
				break
			}
		}
	}
	if indent > srcIndent {
		for _, l := range body {
			t := strings.TrimLeft(l, " ")
			switch lead := len(l) - len(t); {
			case t == "" && lead <= indent:
				// l holds the spaces only: the text remembers there were some.
				lines = append(lines, blockLine{text: l, short: indent - lead, empty: true})
			case lead >= indent:
				lines = append(lines, blockLine{text: l[indent:]})
			default:
				goto end
			}
		}
	end:
	}
	if chomp != "+" {
		for len(lines) > 0 && lines[len(lines)-1].empty {
			lines = lines[:len(lines)-1]
		}
	}
	header = string(style)
	for _, l := range lines {
		if !l.empty {
			if strings.HasPrefix(l.text, " ") {
				header += "2" // content is written 2 columns right of its key or dash
			}
			break
		}
	}
	header += chomp
	// The copy must mean what the source meant.
	var snippet bytes.Buffer
	snippet.WriteString("k: " + header + "\n")
	writeBlockLines(&snippet, lines, 2)
	var back yaml.Node
	if err := yaml.Unmarshal(snippet.Bytes(), &back); err != nil || len(back.Content) != 1 ||
		len(back.Content[0].Content) != 2 || back.Content[0].Content[1].Value != n.Value {
		return "", nil, false
	}
	return header, lines, true
}

// byteOffset returns the byte offset of the col'th character (0-based) of
// line: yaml.v3 counts columns in characters.
func byteOffset(line string, col int) int {
	off := 0
	for i := 0; i < col && off < len(line); i++ {
		_, size := utf8.DecodeRuneInString(line[off:])
		off += size
	}
	return off
}
