package catalog

import (
	"bytes"
	"html/template"
	"testing"
)

// rowsTemplate is the range over a page's properties that catalog.html.tmpl
// held before propertyRows wrote the rows: the reference propertyRows must
// match byte for byte, escaping included.
const rowsTemplate = `{{- $l := .L}}<tbody>
{{- range .Properties}}
<tr data-path="{{.Path}}">
<th scope="row" class="path depth-{{.Depth}}"><code>{{.Path}}</code></th>
<td class="ptype">{{.Type}}</td>
<td class="flags">{{if .Required}}<span class="tag tag-required">required</span> {{end}}{{if .ReadOnly}}<span class="tag">read-only</span> {{end}}{{if .WriteOnly}}<span class="tag">write-only</span> {{end}}{{if .Sensitive}}<span class="tag tag-sensitive">sensitive</span> {{end}}{{if .Deprecated}}<span class="tag">deprecated</span> {{end}}{{if .Nullable}}<span class="tag">nullable</span>{{end}}</td>
<td class="default">{{if .Default}}<code>{{.Default}}</code>{{end}}</td>
<td class="enum">{{range $i, $e := .Enum}}{{if $i}}, {{end}}<code>{{$e}}</code>{{end}}</td>
<td class="constraints">{{range .Constraints}}<span class="constraint" data-keyword="{{.Keyword}}">{{.Keyword}}: <code>{{.Value}}</code></span> {{end}}</td>
<td class="pdesc">{{markdown .Description}}{{if .References}} <span class="ref">The ID of a resource of {{range $i, $r := .References}}{{if $i}} or {{end}}{{if eq $r.Type "*"}}any type{{else if $r.Page}}<a href="{{$l.Href $r.Page}}">{{$r.Type}}</a>{{else}}{{$r.Type}}{{end}}{{end}}.</span>{{end}}</td>
</tr>
{{- end}}
</tbody>`

// hostile are strings with every byte html/template escapes in text,
// attributes and URLs, and some it leaves alone.
var hostile = []string{
	"",
	"plain",
	`<script>alert("x")</script>`,
	`a & b 'c' "d" <e> f+g = h ` + "`i`",
	"nul\x00byte, tab\tnewline\nreturn\r",
	"é ü 漢字 😀 \u2028\u2029 \ufdd0 \ufffe",
	"invalid \xff\xfe utf-8 \xc3",
	"javascript:alert(1)",
	"JavaScript:alert(1)",
	"HTTP://example.com/a b?c=d&e=f+g#h",
	"mailto:a@b.c",
	"data:text/html,<b>",
	"/types/a:b/c",
	"a/b:c",
	"%41%4a%zz%4%",
	"%20",
	"x%2",
	"!#$&*+,/:;=?@[]-._~'()\"<>\\^`{|}",
	"../../types/Ns/t/2025-01-01",
}

func hostileProperties() []Property {
	var props []Property
	for i, s := range hostile {
		props = append(props, Property{
			Path: s, Depth: i, Type: s, Description: s, Default: s, Ref: s,
			Required: i%2 == 0, ReadOnly: i%3 == 0, WriteOnly: i%4 == 0, Sensitive: i%5 == 0, Deprecated: i%2 == 1, Nullable: i%3 == 1,
			Enum:        []string{s, "x", s},
			Constraints: []Constraint{{Keyword: s, Value: s}, {Keyword: "maxLength", Value: "3"}},
			References: []Reference{
				{Type: s, Page: s}, {Type: "*"}, {Type: s}, {Type: "Contoso.Data/dbs", Page: "/types/Contoso.Data/dbs/2025-01-01"},
			},
		})
	}
	// The common case: no enum, constraints or references.
	props = append(props, Property{Path: "a.b[].c", Type: "string"})
	return props
}

func TestPropertyRowsAsTemplate(t *testing.T) {
	ref := template.Must(template.New("rows").Funcs(template.FuncMap{"markdown": markdown}).Parse(rowsTemplate))
	fast := template.Must(template.New("rows").Funcs(template.FuncMap{"propertyRows": propertyRows}).Parse(
		`{{- $l := .L}}<tbody>{{propertyRows $l .Properties}}` + "\n</tbody>"))
	for _, l := range []Linker{ServerLinks(), staticLinks("/types/Ns/t/2025-01-01")} {
		for _, props := range [][]Property{nil, hostileProperties()} {
			data := struct {
				L          Linker
				Properties []Property
			}{l, props}
			var want, got bytes.Buffer
			if err := ref.Execute(&want, data); err != nil {
				t.Fatal(err)
			}
			if err := fast.Execute(&got, data); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("static %v, %d rows: propertyRows differs from the template:\n got %q\nwant %q", l.Static(), len(props), got.String(), want.String())
			}
		}
	}
}
