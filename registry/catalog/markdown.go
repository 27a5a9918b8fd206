package catalog

import (
	"bytes"
	"html"
	"html/template"
	"regexp"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/udtc/udtc/internal/bufpool"
)

// Descriptions are Markdown: the Radius manifests document their types
// with paragraphs, lists and fenced Bicep samples, and Radius's dashboard
// renders them so. Whoever can publish writes them, so they are rendered
// in two safe steps:
//
//  1. goldmark (CommonMark with the GFM tables, strikethrough and
//     autolinks) without its unsafe mode: links to javascript:, vbscript:,
//     file: and data: URLs lose their address, and raw HTML is shown as
//     the text it is (rawHTMLAsText), not dropped, as the pages always
//     showed it;
//  2. bluemonday's UGC policy over the result, as defence in depth: should
//     a goldmark bug let markup through, no script, event handler, style or
//     dangerous URL survives it.
//
// The Content-Security-Policy of the pages (no inline script) is the third
// wall.

// md converts Markdown; it is safe for concurrent use.
var md = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(rawHTMLAsText{}, 100))),
)

// sanitizer is bluemonday's policy for user-generated content, plus two
// classes: a fenced block's language on its <code> and the paragraphs
// rawHTMLAsText writes. A Policy is safe for concurrent use
// once built.
var sanitizer = func() *bluemonday.Policy {
	p := bluemonday.UGCPolicy()
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[A-Za-z0-9_+-]+$`)).OnElements("code")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^raw-html$`)).OnElements("p")
	return p
}()

// markdown renders a description as sanitized HTML: block elements
// (paragraphs, lists, <pre><code> blocks that keep their indentation).
func markdown(s string) template.HTML {
	return template.HTML(renderMarkdown(s, false))
}

// markdownSummary renders the description's first paragraph only, for the
// home page's type cards; a description that does not start with a
// paragraph (a heading, a list, a code block) renders whole.
func markdownSummary(s string) template.HTML {
	return template.HTML(renderMarkdown(s, true))
}

// markdownCell renders a description for a table cell: as markdown does,
// but a description of one paragraph without the <p> around it, which the
// cell already is.
func markdownCell(s string) template.HTML {
	r := renderMarkdown(s, false)
	if inner, ok := strings.CutPrefix(r, "<p>"); ok {
		if inner, ok = strings.CutSuffix(inner, "</p>\n"); ok && !strings.Contains(inner, "</p>") {
			return template.HTML(inner)
		}
	}
	return template.HTML(r)
}

func renderMarkdown(s string, summary bool) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	if plainText(s) {
		// What goldmark and bluemonday make of it, without their cost:
		// most property descriptions are one plain sentence.
		return "<p>" + html.EscapeString(s) + "</p>\n"
	}
	key := rendering{s, summary}
	if r, ok := rendered.Get(key); ok {
		return r
	}
	r := convertMarkdown(s, summary)
	rendered.Add(key, r)
	return r
}

// rendering is a description and whether its summary is rendered.
type rendering struct {
	text    string
	summary bool
}

// rendered keeps the HTML of the descriptions rendered last, by text: a
// description is shown on the page of every API version that declares it
// (the versions of a type repeat most of theirs), on its type's and its
// namespace's cards, and in comparisons. Rendering is a pure function of
// the text, so a static site of 1,000 types renders its 11,800 Markdown
// descriptions once per distinct text; the bound keeps a server that
// renders pages for years to a few MB.
var rendered, _ = lru.New[rendering, string](4096) // errs only on a size < 1

// convertMarkdown is renderMarkdown's conversion of s by goldmark, then
// bluemonday.
func convertMarkdown(s string, summary bool) string {
	src := []byte(s)
	doc := md.Parser().Parse(text.NewReader(src))
	var node ast.Node = doc
	if first := doc.FirstChild(); summary && first != nil && first.Kind() == ast.KindParagraph && first.NextSibling() != nil {
		node = first
	}
	b := bufpool.Get()
	defer bufpool.Put(b)
	if err := md.Renderer().Render(b, src, node); err != nil {
		// Rendering to a buffer fails only on a bug: show the text.
		return template.HTMLEscapeString(s)
	}
	return sanitizer.SanitizeReader(b).String()
}

// plainText reports whether s is one paragraph that Markdown leaves as it
// is: it starts with a letter (no list, heading, quote or indented code),
// is one line without blanks at its ends, and holds no character that
// starts inline markup, an entity, an autolink or a table, and no "www.".
func plainText(s string) bool {
	if c := s[0]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if markup[s[i]] {
			return false
		}
	}
	return !strings.Contains(s, "www.")
}

// markup holds the bytes plainText refuses: control characters and those
// that can start inline markup, an entity, an autolink or a table.
var markup = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t[0x7f] = true
	for _, c := range []byte("`*_[]<>&#\\|~!:@") {
		t[c] = true
	}
	return t
}()

// rawHTMLAsText renders the HTML a description holds, inline or as a
// block, as escaped text: a reader sees what the author wrote, and no
// element of it reaches the page.
type rawHTMLAsText struct{}

func (rawHTMLAsText) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindRawHTML, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := n.(*ast.RawHTML).Segments
			for i := range segs.Len() {
				seg := segs.At(i)
				w.Write(util.EscapeHTML(seg.Value(source)))
			}
		}
		return ast.WalkSkipChildren, nil
	})
	r.Register(ast.KindHTMLBlock, func(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		block := n.(*ast.HTMLBlock)
		if !entering {
			return ast.WalkContinue, nil
		}
		var text bytes.Buffer
		lines := block.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			text.Write(seg.Value(source))
		}
		if block.HasClosure() {
			text.Write(block.ClosureLine.Value(source))
		}
		w.WriteString(`<p class="raw-html">`)
		w.Write(util.EscapeHTML(bytes.TrimRight(text.Bytes(), "\n")))
		w.WriteString("</p>\n")
		return ast.WalkSkipChildren, nil
	})
}
