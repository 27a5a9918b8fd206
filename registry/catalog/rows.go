package catalog

import (
	"html/template"
	"strconv"
	"strings"
)

// propertyTable writes the head and rows of a type page's property table,
// the template's hottest part (a page has dozens of rows, each some twenty
// actions that html/template runs through reflection), as Go code. It
// writes exactly what this template would write, with html/template's
// escaping of each context (TestPropertyTableAsTemplate holds it to that
// template on hostile strings):
//
//	<thead><tr><th scope="col">Property</th><th scope="col">Type</th>{{if $flags}}<th scope="col">Flags</th>{{end}}...<th scope="col">Description</th></tr></thead>
//	<tbody>
//	{{- range $p.Properties}}
//	<tr><th scope="row"{{if .Depth}} class="d{{.Depth}}"{{end}}><code>{{.Path}}</code><td>{{.Type}}
//	{{- if $flags}}<td>{{if .Required}}<span class="tag tag-required">required</span> {{end}}...{{if .Nullable}}<span class="tag">nullable</span>{{end}}{{end}}
//	{{- if $default}}<td>{{if .Default}}<code>{{.Default}}</code>{{end}}{{end}}
//	{{- if $enum}}<td>{{range $i, $e := .Enum}}{{if $i}}, {{end}}<code>{{$e}}</code>{{end}}{{end}}
//	{{- if $constraints}}<td>{{range $i, $c := .Constraints}}{{if $i}} {{end}}<span>{{.Keyword}}: <code>{{.Value}}</code></span>{{end}}{{end}}
//	<td>{{markdownCell .Description}}{{if .References}} <span class="ref">The ID of a resource of ...{{end}}
//	{{- end}}
//	</tbody>
//
// (one line a row). Rows are most of a page's bytes, and a catalog has
// thousands of pages, so a row writes what a reader needs and no more: the
// flags, default, allowed values and constraints columns only when some
// property has one, cells without class or data attributes (the stylesheet
// picks the description and the constraints by position), a row's path
// only as the text of its header cell, a one-paragraph description without
// its <p>, and no end tags where HTML makes them optional (</th>, </td>,
// </tr>: the next cell or row, or </tbody>, ends them, as the HTML parsing
// rules say and every browser does).
func propertyTable(l Linker, props []Property) template.HTML {
	var flags, def, enum, cons bool
	n := 0
	for _, p := range props {
		flags = flags || p.Required || p.ReadOnly || p.WriteOnly || p.Sensitive || p.Deprecated || p.Nullable
		def = def || p.Default != ""
		enum = enum || len(p.Enum) > 0
		cons = cons || len(p.Constraints) > 0
		n += 120 + len(p.Path) + len(p.Type) + len(p.Description)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(`<thead><tr><th scope="col">Property</th><th scope="col">Type</th>`)
	for _, c := range []struct {
		on   bool
		head string
	}{{flags, "Flags"}, {def, "Default"}, {enum, "Allowed values"}, {cons, "Constraints"}} {
		if c.on {
			b.WriteString(`<th scope="col">` + c.head + `</th>`)
		}
	}
	b.WriteString("<th scope=\"col\">Description</th></tr></thead>\n<tbody>")
	for _, p := range props {
		b.WriteString("\n<tr><th scope=\"row\"")
		if p.Depth != 0 {
			b.WriteString(" class=\"d")
			b.WriteString(strconv.Itoa(p.Depth))
			b.WriteString("\"")
		}
		b.WriteString("><code>")
		escapeHTML(&b, p.Path)
		b.WriteString("</code><td>")
		escapeHTML(&b, p.Type)
		if flags {
			b.WriteString("<td>")
			writeFlags(&b, p)
		}
		if def {
			b.WriteString("<td>")
			if p.Default != "" {
				b.WriteString("<code>")
				escapeHTML(&b, p.Default)
				b.WriteString("</code>")
			}
		}
		if enum {
			b.WriteString("<td>")
			for i, e := range p.Enum {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("<code>")
				escapeHTML(&b, e)
				b.WriteString("</code>")
			}
		}
		if cons {
			b.WriteString("<td>")
			writeConstraints(&b, p.Constraints)
		}
		b.WriteString("<td>")
		b.WriteString(string(markdownCell(p.Description)))
		writeReferences(&b, l, p.References)
	}
	b.WriteString("\n</tbody>")
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
	for i, c := range cs {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("<span>")
		escapeHTML(b, c.Keyword)
		b.WriteString(": <code>")
		escapeHTML(b, c.Value)
		b.WriteString("</code></span>")
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
