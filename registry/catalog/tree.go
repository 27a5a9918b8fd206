package catalog

import (
	"bytes"
	"encoding/json"
	"html/template"
	"slices"
	"strings"
)

// propertyTree writes a resource's stored properties as a tree people can
// read: an object as a definition list (its keys sorted), an array as an
// ordered list, a scalar as its JSON literal. Every string from the
// document is escaped as html/template escapes text. A document that is not
// JSON is shown as text.
func propertyTree(raw json.RawMessage) template.HTML {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	var b strings.Builder
	if err := d.Decode(&v); err != nil {
		b.WriteString(`<code>`)
		escapeHTML(&b, string(raw))
		b.WriteString(`</code>`)
		return template.HTML(b.String())
	}
	writeTree(&b, v)
	return template.HTML(b.String())
}

func writeTree(b *strings.Builder, v any) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			b.WriteString(`<code>{}</code>`)
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString(`<dl class="tree">`)
		for _, k := range keys {
			b.WriteString(`<dt>`)
			escapeHTML(b, k)
			b.WriteString(`</dt><dd>`)
			writeTree(b, x[k])
			b.WriteString(`</dd>`)
		}
		b.WriteString(`</dl>`)
	case []any:
		if len(x) == 0 {
			b.WriteString(`<code>[]</code>`)
			return
		}
		b.WriteString(`<ol class="tree" start="0">`)
		for _, e := range x {
			b.WriteString(`<li>`)
			writeTree(b, e)
			b.WriteString(`</li>`)
		}
		b.WriteString(`</ol>`)
	default:
		lit, _ := json.Marshal(x)
		b.WriteString(`<code>`)
		escapeHTML(b, compactJSON(lit))
		b.WriteString(`</code>`)
	}
}

// breakable writes a type name or path with a <wbr> after each '.' and
// '/', so that a long name wraps between its parts, never inside a word.
func breakable(s string) template.HTML {
	var b strings.Builder
	for {
		i := strings.IndexAny(s, "./")
		if i < 0 {
			escapeHTML(&b, s)
			return template.HTML(b.String())
		}
		escapeHTML(&b, s[:i+1])
		b.WriteString("<wbr>")
		s = s[i+1:]
	}
}
