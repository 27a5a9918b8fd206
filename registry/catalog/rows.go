package catalog

import (
	"html/template"
	"strconv"
	"strings"
)

// propertyRows writes the rows of a type page's property table, the
// template's hottest part (a page has dozens of rows, each some twenty
// actions that html/template runs through reflection), as Go code. It
// writes exactly what this range wrote in catalog.html.tmpl, with
// html/template's escaping of each context (TestPropertyRowsAsTemplate
// holds it to that template on hostile strings):
//
//	{{- range $p.Properties}}
//	<tr data-path="{{.Path}}">
//	<th scope="row" class="path depth-{{.Depth}}"><code>{{.Path}}</code></th>
//	<td class="ptype">{{.Type}}</td>
//	<td class="flags">{{if .Required}}<span class="tag tag-required">required</span> {{end}}...{{if .Nullable}}<span class="tag">nullable</span>{{end}}</td>
//	<td class="default">{{if .Default}}<code>{{.Default}}</code>{{end}}</td>
//	<td class="enum">{{range $i, $e := .Enum}}{{if $i}}, {{end}}<code>{{$e}}</code>{{end}}</td>
//	<td class="constraints">{{range .Constraints}}<span class="constraint" data-keyword="{{.Keyword}}">{{.Keyword}}: <code>{{.Value}}</code></span> {{end}}</td>
//	<td class="pdesc">{{markdown .Description}}{{if .References}} <span class="ref">The ID of a resource of ...{{end}}</td>
//	</tr>
//	{{- end}}
func propertyRows(l Linker, props []Property) template.HTML {
	var b strings.Builder
	n := 0
	for _, p := range props {
		n += 400 + 2*len(p.Path) + len(p.Type) + len(p.Description)
	}
	b.Grow(n)
	for _, p := range props {
		b.WriteString("\n<tr data-path=\"")
		escapeHTML(&b, p.Path)
		b.WriteString("\">\n<th scope=\"row\" class=\"path depth-")
		b.WriteString(strconv.Itoa(p.Depth))
		b.WriteString("\"><code>")
		escapeHTML(&b, p.Path)
		b.WriteString("</code></th>\n<td class=\"ptype\">")
		escapeHTML(&b, p.Type)
		b.WriteString("</td>\n<td class=\"flags\">")
		writeFlags(&b, p)
		b.WriteString("</td>\n<td class=\"default\">")
		if p.Default != "" {
			b.WriteString("<code>")
			escapeHTML(&b, p.Default)
			b.WriteString("</code>")
		}
		b.WriteString("</td>\n<td class=\"enum\">")
		for i, e := range p.Enum {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("<code>")
			escapeHTML(&b, e)
			b.WriteString("</code>")
		}
		b.WriteString("</td>\n<td class=\"constraints\">")
		writeConstraints(&b, p.Constraints)
		b.WriteString("</td>\n<td class=\"pdesc\">")
		b.WriteString(string(markdown(p.Description)))
		writeReferences(&b, l, p.References)
		b.WriteString("</td>\n</tr>")
	}
	return template.HTML(b.String())
}

// writeFlags writes the tags of a row's flags cell.
func writeFlags(b *strings.Builder, p Property) {
	for _, f := range []struct {
		on  bool
		tag string
	}{
		{p.Required, `<span class="tag tag-required">required</span> `},
		{p.ReadOnly, `<span class="tag">read-only</span> `},
		{p.WriteOnly, `<span class="tag">write-only</span> `},
		{p.Sensitive, `<span class="tag tag-sensitive">sensitive</span> `},
		{p.Deprecated, `<span class="tag">deprecated</span> `},
		{p.Nullable, `<span class="tag">nullable</span>`},
	} {
		if f.on {
			b.WriteString(f.tag)
		}
	}
}

// writeConstraints writes a row's constraints cell.
func writeConstraints(b *strings.Builder, cs []Constraint) {
	for _, c := range cs {
		b.WriteString(`<span class="constraint" data-keyword="`)
		escapeHTML(b, c.Keyword)
		b.WriteString(`">`)
		escapeHTML(b, c.Keyword)
		b.WriteString(": <code>")
		escapeHTML(b, c.Value)
		b.WriteString("</code></span> ")
	}
}

// writeReferences writes the sentence about the types a reference may
// name, each linked to its page when it has one.
func writeReferences(b *strings.Builder, l Linker, refs []Reference) {
	if len(refs) == 0 {
		return
	}
	b.WriteString(` <span class="ref">The ID of a resource of `)
	for i, r := range refs {
		if i > 0 {
			b.WriteString(" or ")
		}
		switch {
		case r.Type == "*":
			b.WriteString("any type")
		case r.Page != "":
			b.WriteString(`<a href="`)
			escapeURL(b, l.Href(r.Page))
			b.WriteString(`">`)
			escapeHTML(b, r.Type)
			b.WriteString("</a>")
		default:
			escapeHTML(b, r.Type)
		}
	}
	b.WriteString(".</span>")
}

// htmlEscapes are html/template's escapes of a string in text and in a
// quoted attribute value (its htmlEscaper and attrEscaper), by byte; the
// bytes of a multi-byte UTF-8 character, or of invalid UTF-8, are never
// among them, so escaping byte by byte escapes as it does rune by rune.
var htmlEscapes = [256]string{
	0:    "\uFFFD",
	'"':  "&#34;",
	'&':  "&amp;",
	'\'': "&#39;",
	'+':  "&#43;",
	'<':  "&lt;",
	'>':  "&gt;",
}

// escapeHTML writes s as html/template writes a string value in text or in
// a quoted attribute value other than a URL.
func escapeHTML(b *strings.Builder, s string) {
	written := 0
	for i := 0; i < len(s); i++ {
		if e := htmlEscapes[s[i]]; e != "" {
			b.WriteString(s[written:i])
			b.WriteString(e)
			written = i + 1
		}
	}
	b.WriteString(s[written:])
}

// escapeURL writes s as html/template writes a string value that starts a
// quoted URL attribute value (href="{{.}}"): a scheme other than http,
// https or mailto is replaced (urlFilter), bytes a URL may not hold are
// percent-encoded with existing escapes kept (urlNormalizer), and the
// result is escaped for the attribute (attrEscaper).
func escapeURL(b *strings.Builder, s string) {
	if protocol, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(protocol, "/") &&
		!strings.EqualFold(protocol, "http") && !strings.EqualFold(protocol, "https") && !strings.EqualFold(protocol, "mailto") {
		s = "#ZgotmplZ"
	}
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			strings.IndexByte("-._~!#$*,/:;=?@[]", c) >= 0:
			b.WriteByte(c)
		case c == '&':
			b.WriteString("&amp;")
		case c == '+':
			b.WriteString("&#43;")
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
