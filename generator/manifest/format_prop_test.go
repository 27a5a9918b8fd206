package manifest_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/manifest"
)

// choices turns fuzz bytes into decisions; past the end every decision is 0.
type choices struct {
	b []byte
	i int
}

func (c *choices) n(k int) int {
	if c.i >= len(c.b) {
		return 0
	}
	v := int(c.b[c.i]) % k
	c.i++
	return v
}

// manifestGen writes a manifest with comments in every position yaml.v3
// knows: head comments above keys and list items, line comments after
// scalars, flow lists, block lists, mappings and block scalar headers, foot
// comments under values (with or without the blank line that makes them
// feet), keys out of the canonical order, and descriptions in every scalar
// style, block scalars with trailing spaces, blank and more-indented lines.
type manifestGen struct {
	c  *choices
	b  strings.Builder
	id int
}

func genManifest(seed []byte) string {
	g := &manifestGen{c: &choices{b: seed}}
	if g.c.n(2) == 0 {
		g.comments(0)
		if g.c.n(2) == 0 {
			g.b.WriteString("\n")
		}
	}
	g.mapping(0, g.shuffle([]func(int){
		g.pair("namespace", func(ind int) { g.scalarLine("Contoso.Fuzz") }),
		g.pair("types", func(ind int) { g.blockMapOpen(); g.types(ind + 2) }),
	}))
	return g.b.String()
}

// comment returns a comment with a text of its own, so that a test can
// tell where each one went.
func (g *manifestGen) comment() string {
	g.id++
	return "# c" + strconv.Itoa(g.id)
}

// comments writes 1 or 2 comment lines at indent.
func (g *manifestGen) comments(indent int) {
	for range 1 + g.c.n(2) {
		g.b.WriteString(strings.Repeat(" ", indent) + g.comment() + "\n")
	}
}

// lineComment returns "" or a comment to end a line with.
func (g *manifestGen) lineComment() string {
	if g.c.n(3) == 0 {
		return strings.Repeat(" ", 1+g.c.n(3)) + g.comment()
	}
	return ""
}

func (g *manifestGen) shuffle(fs []func(int)) []func(int) {
	for i := len(fs) - 1; i > 0; i-- {
		j := g.c.n(i + 1)
		fs[i], fs[j] = fs[j], fs[i]
	}
	return fs
}

// pair returns a writer of key: value at an indentation, with a head
// comment above it and a foot comment under it maybe.
func (g *manifestGen) pair(key string, val func(indent int)) func(int) {
	return func(indent int) {
		if g.c.n(3) == 0 {
			g.comments(indent)
		}
		g.b.WriteString(strings.Repeat(" ", indent) + key + ":")
		val(indent)
		if g.c.n(5) == 0 {
			g.comments(indent)
			if g.c.n(2) == 0 {
				g.b.WriteString("\n")
			}
		}
	}
}

func (g *manifestGen) mapping(indent int, pairs []func(int)) {
	for _, p := range pairs {
		p(indent)
	}
}

func (g *manifestGen) blockMapOpen() { g.b.WriteString(g.lineComment() + "\n") }

func (g *manifestGen) scalarLine(s string) { g.b.WriteString(" " + s + g.lineComment() + "\n") }

func (g *manifestGen) types(indent int) {
	var pairs []func(int)
	for i := range 1 + g.c.n(2) {
		name := []string{"widgets", "gadgets"}[i]
		pairs = append(pairs, g.pair(name, func(ind int) { g.blockMapOpen(); g.typeDecl(ind + 2) }))
	}
	g.mapping(indent, pairs)
}

func (g *manifestGen) typeDecl(indent int) {
	pairs := []func(int){
		g.pair("description", func(ind int) { g.text(ind) }),
		g.pair("apiVersions", func(ind int) {
			g.blockMapOpen()
			g.mapping(ind+2, []func(int){g.pair("'2025-01-01'", func(ind int) {
				g.blockMapOpen()
				g.mapping(ind+2, []func(int){g.pair("schema", func(ind int) { g.blockMapOpen(); g.schema(ind+2, 0) })})
			})})
		}),
	}
	if g.c.n(2) == 0 {
		pairs = append(pairs, g.pair("capabilities", func(ind int) { g.list(ind, []string{"SupportsRecipes"}) }))
	}
	if g.c.n(2) == 0 {
		pairs = append(pairs, g.pair("defaultApiVersion", func(ind int) { g.scalarLine(`"2025-01-01"`) }))
	}
	g.mapping(indent, g.shuffle(pairs))
}

func (g *manifestGen) schema(indent, depth int) {
	props := []string{"size", "name", "tier"}[:1+g.c.n(3)]
	pairs := []func(int){
		g.pair("type", func(ind int) { g.scalarLine("object") }),
		g.pair("properties", func(ind int) {
			g.blockMapOpen()
			var ps []func(int)
			for _, p := range props {
				ps = append(ps, g.pair(p, func(ind int) { g.blockMapOpen(); g.property(ind+2, depth) }))
			}
			g.mapping(ind+2, ps)
		}),
	}
	if g.c.n(2) == 0 {
		pairs = append(pairs, g.pair("required", func(ind int) { g.list(ind, props[:1+g.c.n(len(props))]) }))
	}
	if g.c.n(2) == 0 {
		pairs = append(pairs, g.pair("description", func(ind int) { g.text(ind) }))
	}
	g.mapping(indent, g.shuffle(pairs))
}

func (g *manifestGen) property(indent, depth int) {
	if depth < 1 && g.c.n(4) == 0 {
		g.schema(indent, depth+1)
		return
	}
	pairs := []func(int){g.pair("type", func(ind int) { g.scalarLine("string") })}
	if g.c.n(2) == 0 {
		pairs = append(pairs, g.pair("enum", func(ind int) { g.list(ind, []string{"S", "M", "L"}[:1+g.c.n(3)]) }))
	}
	if g.c.n(2) == 0 {
		pairs = append(pairs, g.pair("description", func(ind int) { g.text(ind) }))
	}
	if g.c.n(3) == 0 {
		pairs = append(pairs, g.pair("maxLength", func(ind int) { g.scalarLine("64") }))
	}
	g.mapping(indent, g.shuffle(pairs))
}

// list writes a list of plain values in flow or block style, after its
// key's colon; its key is at indent.
func (g *manifestGen) list(indent int, items []string) {
	if g.c.n(2) == 0 {
		g.b.WriteString(" [" + strings.Join(items, ", ") + "]" + g.lineComment() + "\n")
		return
	}
	g.b.WriteString(g.lineComment() + "\n")
	ind := indent + 2*g.c.n(2) // indentless or indented
	for _, it := range items {
		if g.c.n(4) == 0 {
			g.comments(ind)
		}
		g.b.WriteString(strings.Repeat(" ", ind) + "- " + it + g.lineComment() + "\n")
	}
	if g.c.n(5) == 0 {
		g.comments(ind)
		g.b.WriteString("\n")
	}
}

// text writes a description after its key's colon; its key is at indent.
func (g *manifestGen) text(indent int) {
	words := []string{"A", "widget", "`with`", "Markdown", "**bold**", "and", "a", "sample."}
	sentence := func() string {
		n := 1 + g.c.n(len(words))
		return strings.Join(words[:n], " ")
	}
	switch g.c.n(5) {
	case 0:
		g.scalarLine(sentence())
	case 1:
		g.scalarLine(strconv.Quote(sentence() + "\n" + sentence()))
	case 2:
		g.scalarLine("'" + sentence() + "'")
	default:
		header := []string{"|", "|-", ">", ">-", "|+"}[g.c.n(5)]
		lines := make([]string, 1+g.c.n(6))
		for i := range lines {
			switch g.c.n(6) {
			case 0:
				lines[i] = ""
			case 1:
				lines[i] = "  " + sentence() // more indented: a code sample
			case 2:
				lines[i] = sentence() + strings.Repeat(" ", 1+g.c.n(3)) // trailing spaces
			default:
				lines[i] = sentence()
			}
		}
		if lines[0] == "" || lines[0][0] == ' ' {
			lines[0] = sentence()
		}
		g.b.WriteString(" " + header + g.lineComment() + "\n")
		ind := indent + 2 + 2*g.c.n(2)
		for _, l := range lines {
			if l != "" {
				g.b.WriteString(strings.Repeat(" ", ind) + l)
			}
			g.b.WriteString("\n")
		}
	}
}

// FuzzFormat formats generated manifests (genManifest) with comments in
// every position and checks the promises of docs/cli.md (checkFormat).
func FuzzFormat(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte("comments in every position, keys in every order"))
	r := rand.New(rand.NewPCG(1, 2))
	for range 8 {
		b := make([]byte, 300)
		for i := range b {
			b[i] = byte(r.UintN(256))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, seed []byte) { checkFormat(t, genManifest(seed)) })
}

// TestFormatProperties runs checkFormat over many generated manifests, as
// FuzzFormat does, in every `go test` run.
func TestFormatProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := range 400 {
		b := make([]byte, 400)
		for j := range b {
			b[j] = byte(r.UintN(256))
		}
		in := genManifest(b)
		t.Run(strconv.Itoa(i), func(t *testing.T) { checkFormat(t, in) })
	}
}

// checkFormat formats in and checks what docs/cli.md promises: formatting
// twice changes nothing; the result means the same; every comment is still
// there, on the same key; every block scalar is still a block scalar of
// the same style with the same lines; and no warning.
func checkFormat(t *testing.T, in string) {
	t.Helper()
	if _, diags := manifest.Load("m.yaml", []byte(in)); diags.HasErrors() {
		t.Fatalf("generated manifest does not load: %v\n%s", diags, in)
	}
	out, diags := manifest.Format("m.yaml", []byte(in))
	if len(diags) > 0 {
		t.Fatalf("Format: %v\ninput:\n%s", diags, in)
	}
	again, diags := manifest.Format("m.yaml", out)
	if len(diags) > 0 {
		t.Fatalf("Format(Format(x)): %v\nonce:\n%s", diags, out)
	}
	if d := cmp.Diff(string(out), string(again)); d != "" {
		t.Fatalf("not idempotent (-once +twice):\n%s\ninput:\n%s", d, in)
	}
	if d := cmp.Diff(decodeAny(t, []byte(in)), decodeAny(t, out)); d != "" {
		t.Fatalf("meaning changed (-input +formatted):\n%s\ninput:\n%s\nformatted:\n%s", d, in, out)
	}
	end := endPaths(t, out)
	want := keyedComments(t, []byte(in), end, nil)
	got := keyedComments(t, out, end, append([]string{}, want["header"]...))
	wasFoot := map[string]bool{}
	for _, v := range want {
		for _, c := range v {
			if text, ok := strings.CutPrefix(c, "foot "); ok {
				wasFoot[text] = true
			}
		}
	}
	if d := cmp.Diff(placed(want, wasFoot), placed(got, wasFoot)); d != "" {
		t.Fatalf("comments moved (-input +formatted):\n%s\ninput:\n%s\nformatted:\n%s", d, in, out)
	}
	if d := cmp.Diff(texts(want), texts(got)); d != "" {
		t.Fatalf("comments lost (-input +formatted):\n%s\ninput:\n%s\nformatted:\n%s", d, in, out)
	}
	if d := cmp.Diff(blockScalars(t, []byte(in)), blockScalars(t, out)); d != "" {
		t.Fatalf("block scalars changed (-input +formatted):\n%s\ninput:\n%s\nformatted:\n%s", d, in, out)
	}
}

func decodeAny(t *testing.T, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// parseNode parses data into its document node.
func parseNode(t *testing.T, data []byte) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return &doc
}

// walkPaths calls f for every node of doc with the path of the key or
// list item it belongs to (a key and its value share their path).
func walkPaths(doc *yaml.Node, f func(path string, n *yaml.Node)) {
	var walk func(path string, n *yaml.Node)
	walk = func(path string, n *yaml.Node) {
		f(path, n)
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(path, c)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := path + "/" + n.Content[i].Value
				f(p, n.Content[i])
				walk(p, n.Content[i+1])
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(fmt.Sprintf("%s[%d]", path, i), c)
			}
		}
	}
	walk("", doc)
}

// endPaths returns the paths of the keys and items that end the file data:
// its last key, that key's value's last key, and so on.
func endPaths(t *testing.T, data []byte) map[string]bool {
	t.Helper()
	end := map[string]bool{}
	doc := parseNode(t, data)
	if len(doc.Content) != 1 {
		return end
	}
	path := ""
	for n := doc.Content[0]; (n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode) && len(n.Content) > 0; {
		if n.Kind == yaml.MappingNode {
			path += "/" + n.Content[len(n.Content)-2].Value
		} else {
			path += fmt.Sprintf("[%d]", len(n.Content)-1)
		}
		end[path] = true
		n = n.Content[len(n.Content)-1]
	}
	return end
}

// keyedComments maps each key path to its comments, each line marked with
// where it is (head, line or foot). The comments that end the file are
// the document's foot and the feet of the keys in end (endPaths of the
// formatted file): yaml.v3 cannot tell those apart, so they count as one
// place, "end". The head comment of the first key is the file's
// header, and so is the document's head comment, the comments above the
// first key: they stay at the top when that key moves. In the formatted
// file, the lines of header (the input's) are the header, and others at
// the top are the first key's.
func keyedComments(t *testing.T, data []byte, end map[string]bool, header []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	doc := parseNode(t, data)
	first := ""
	if len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode && len(doc.Content[0].Content) > 0 {
		first = "/" + doc.Content[0].Content[0].Value
	}
	walkPaths(doc, func(path string, n *yaml.Node) {
		for i, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, line := range strings.Split(c, "\n") {
				p := path
				switch {
				case i == 2 && (n == doc || end[path]):
					p = "end"
				case i == 0 && (path == first || n == doc) && (header == nil || slices.Contains(header, "head "+strings.TrimSpace(line))):
					p = "header" // stays at the top when the first key moves
				case i == 0 && n == doc:
					p = first // a head comment of the first key reads as the document's
				}
				if line = strings.TrimSpace(line); line != "" {
					out[p] = append(out[p], []string{"head ", "line ", "foot "}[i]+line)
				}
			}
		}
	})
	for _, v := range out {
		slices.Sort(v)
	}
	return out
}

// placed keeps the head and line comments of keyedComments that were not
// feet in the input (wasFoot): those stay on their key. A foot comment
// (under a value) is only checked to survive (texts): yaml.v3 reads some of
// them as the next key's head or as the document's foot depending on the
// blank lines and line comments around them, so not every foot can be
// written back onto the same key.
func placed(keyed map[string][]string, wasFoot map[string]bool) map[string][]string {
	out := map[string][]string{}
	for k, v := range keyed {
		for _, c := range v {
			_, text, _ := strings.Cut(c, " ")
			if !strings.HasPrefix(c, "foot ") && !wasFoot[text] {
				out[k] = append(out[k], c)
			}
		}
	}
	return out
}

// texts lists the text of every comment line of keyedComments, sorted.
func texts(keyed map[string][]string) []string {
	var out []string
	for _, v := range keyed {
		for _, c := range v {
			_, text, _ := strings.Cut(c, " ")
			out = append(out, text)
		}
	}
	slices.Sort(out)
	return out
}

// blockScalar is a block scalar as written: its style and its lines
// without their indentation.
type blockScalar struct {
	Style string
	Lines []string
}

// blockScalars maps the path of every block scalar (| or >) to its lines
// as written, without the block's indentation and without trailing empty
// lines. An empty line that holds spaces is shown with their number
// relative to the indentation, "<spaces -2>", for those are kept too.
func blockScalars(t *testing.T, data []byte) map[string]blockScalar {
	t.Helper()
	src := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	out := map[string]blockScalar{}
	walkPaths(parseNode(t, data), func(path string, n *yaml.Node) {
		if n.Kind != yaml.ScalarNode || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
			return
		}
		line := src[n.Line-1]
		header := line[n.Column-1+strings.IndexAny(line[n.Column-1:], "|>"):] // ASCII before it
		style := header[:1]
		indent := -1
		if i := strings.IndexAny(header, "123456789"); i > 0 && i < 3 {
			indent = len(line) - len(strings.TrimLeft(line, " ")) + int(header[i]-'0')
		} else {
			for _, l := range src[n.Line:] {
				if t := strings.TrimLeft(l, " "); t != "" {
					indent = len(l) - len(t)
					break
				}
			}
		}
		var lines []string
		for _, l := range src[n.Line:] {
			t := strings.TrimLeft(l, " ")
			lead := len(l) - len(t)
			switch {
			case t == "" && lead == 0:
				lines = append(lines, "")
			case t == "" && lead <= indent:
				lines = append(lines, fmt.Sprintf("<spaces %d>", lead-indent))
			case lead < indent:
				goto done
			default:
				lines = append(lines, l[indent:])
			}
		}
	done:
		for len(lines) > 0 && (lines[len(lines)-1] == "" || strings.HasPrefix(lines[len(lines)-1], "<spaces")) {
			lines = lines[:len(lines)-1]
		}
		out[path] = blockScalar{style, lines}
	})
	return out
}
