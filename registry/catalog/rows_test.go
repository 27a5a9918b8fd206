package catalog

import (
	"bytes"
	"html/template"
	"strings"
	"testing"
)

// tableTemplate is the property table as catalog.html.tmpl would write it
// with html/template: the reference propertyTable must match byte for
// byte, escaping included. .Flags, .Default, .Enum and .Constraints say
// which of those columns it shows.
const tableTemplate = `{{- $l := .L}}{{$c := .}}<thead><tr><th scope="col">Property</th><th scope="col">Type</th>
{{- if .Flags}}<th scope="col">Flags</th>{{end}}{{if .Default}}<th scope="col">Default</th>{{end}}
{{- if .Enum}}<th scope="col">Allowed values</th>{{end}}{{if .Constraints}}<th scope="col">Constraints</th>{{end -}}
<th scope="col">Description</th></tr></thead>
<tbody>
{{- range .Properties}}
<tr><th scope="row"{{if .Depth}} class="d{{.Depth}}"{{end}}><code>{{.Path}}</code><td>{{.Type}}
{{- if $c.Flags}}<td>{{if .Required}}<span class="tag tag-required">required</span> {{end}}{{if .ReadOnly}}<span class="tag">read-only</span> {{end}}{{if .WriteOnly}}<span class="tag">write-only</span> {{end}}{{if .Sensitive}}<span class="tag tag-sensitive">sensitive</span> {{end}}{{if .Deprecated}}<span class="tag">deprecated</span> {{end}}{{if .Nullable}}<span class="tag">nullable</span>{{end}}{{end}}
{{- if $c.Default}}<td>{{if .Default}}<code>{{.Default}}</code>{{end}}{{end}}
{{- if $c.Enum}}<td>{{range $i, $e := .Enum}}{{if $i}}, {{end}}<code>{{$e}}</code>{{end}}{{end}}
{{- if $c.Constraints}}<td>{{range $i, $c := .Constraints}}{{if $i}} {{end}}<span>{{.Keyword}}: <code>{{.Value}}</code></span>{{end}}{{end -}}
<td>{{markdownCell .Description}}{{if .References}} <span class="ref">The ID of a resource of {{range $i, $r := .References}}{{if $i}} or {{end}}{{if eq $r.Type "*"}}any type{{else if $r.Page}}<a href="{{$l.Href $r.Page}}">{{$r.Type}}</a>{{else}}{{$r.Type}}{{end}}{{end}}.</span>{{end}}
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

func TestPropertyTableAsTemplate(t *testing.T) {
	ref := template.Must(template.New("table").Funcs(template.FuncMap{"markdownCell": markdownCell}).Parse(tableTemplate))
	fast := template.Must(template.New("table").Funcs(template.FuncMap{"propertyTable": propertyTable}).Parse(
		`{{propertyTable .L .Properties}}`))
	plain := []Property{{Path: "a", Type: "string", Description: "One *paragraph*."}, {Path: "b", Depth: 1, Type: "integer", Description: "Two\n\nparagraphs."}}
	for _, l := range []Linker{ServerLinks(), staticLinks("/types/Ns/t/2025-01-01")} {
		for _, props := range [][]Property{nil, hostileProperties(), plain} {
			data := struct {
				L                                 Linker
				Properties                        []Property
				Flags, Default, Enum, Constraints bool
			}{L: l, Properties: props}
			for _, p := range props {
				data.Flags = data.Flags || p.Required || p.ReadOnly || p.WriteOnly || p.Sensitive || p.Deprecated || p.Nullable
				data.Default = data.Default || p.Default != ""
				data.Enum = data.Enum || len(p.Enum) > 0
				data.Constraints = data.Constraints || len(p.Constraints) > 0
			}
			var want, got bytes.Buffer
			if err := ref.Execute(&want, data); err != nil {
				t.Fatal(err)
			}
			if err := fast.Execute(&got, data); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("static %v, %d rows: propertyTable differs from the template:\n got %q\nwant %q", l.Static(), len(props), got.String(), want.String())
			}
		}
	}
	var got bytes.Buffer
	if err := fast.Execute(&got, struct {
		L          Linker
		Properties []Property
	}{ServerLinks(), plain}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<td>One <em>paragraph</em>.\n<tr>", "<td><p>Two</p>\n<p>paragraphs.</p>\n\n</tbody>", `<th scope="col">Type</th><th scope="col">Description</th>`} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("the table lacks %s:\n%s", want, got.String())
		}
	}
}
