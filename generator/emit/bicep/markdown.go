package bicep

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/udtc/udtc/templates"
)

// typesTemplate renders types.md; parsed once, read-only afterwards.
var typesTemplate = template.Must(template.ParseFS(templates.FS, "bicep-types.md.tmpl"))

var notAnchorChar = regexp.MustCompile(`[^a-zA-Z0-9-]`)

// anchor is the reference library's anchor of a name: the name without
// characters other than ASCII letters, digits and '-', lower-cased.
func anchor(name string) string {
	return strings.ToLower(notAnchorChar.ReplaceAllString(name, ""))
}

// jsCompare orders strings as JavaScript's < does: by UTF-16 code units.
func jsCompare(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b) // one code unit per byte: the same order
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// indexMarkdown renders index.md exactly as the reference library's
// writeIndexMarkdown does for an index whose resources all live in
// types.json: namespaces, then resource types (both lower-cased, as the
// library groups them), then one link per API version.
func indexMarkdown(keys []string) []byte {
	var b strings.Builder
	b.WriteString("# Bicep Types\n")
	byNS := map[string]map[string][]string{}
	for _, k := range keys {
		ns := strings.ToLower(strings.SplitN(k, "/", 2)[0])
		typ := strings.ToLower(strings.SplitN(k, "@", 2)[0])
		if byNS[ns] == nil {
			byNS[ns] = map[string][]string{}
		}
		byNS[ns][typ] = append(byNS[ns][typ], k)
	}
	for _, ns := range sortedKeys(byNS) {
		fmt.Fprintf(&b, "## %s\n", ns)
		for _, typ := range sortedKeys(byNS[ns]) {
			fmt.Fprintf(&b, "### %s\n", typ)
			versions := slices.Clone(byNS[ns][typ])
			slices.SortFunc(versions, func(x, y string) int { return jsCompare(strings.ToLower(x), strings.ToLower(y)) })
			for _, k := range versions {
				version := strings.SplitN(k, "@", 3)[1]
				fmt.Fprintf(&b, "* **Link**: [%s](types.md#resource-%s)\n", version, anchor(k))
			}
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, jsCompare)
	return keys
}

// typesDoc is the data of bicep-types.md.tmpl.
type typesDoc struct {
	Name, Version string
	Namespaces    []string
	Resources     []mdResource
	Objects       []mdObject
}

type mdResource struct {
	Anchor, Name, Description string
	Properties                []mdProp
}

type mdObject struct {
	Anchor, Name string
	Sensitive    bool
	Properties   []mdProp
	Additional   string
}

type mdProp struct {
	Name, Type, Flags, Description string
}

// mdResourceInput is one resource type of the extension with the
// description of its resource type (Bicep types have no place for it).
type mdResourceInput struct {
	ref         ref
	description string
}

// typesMarkdown renders types.md: every resource type (by name, then API
// version, in walk order) and every object type reachable from them
// (sorted by name), each with its properties sorted like the reference
// library sorts them. Object types sharing a name get distinct anchors.
func typesMarkdown(tb *table, doc typesDoc, resources []mdResourceInput) ([]byte, error) {
	// Objects reachable from the bodies, in first-reach order.
	var objects []ref
	seen := map[ref]bool{}
	var visit func(r ref)
	visit = func(r ref) {
		if seen[r] {
			return
		}
		seen[r] = true
		t := tb.get(r)
		if t.kind == kindObject {
			objects = append(objects, r)
		}
		switch t.kind {
		case kindArray:
			visit(t.itemType)
		case kindObject:
			for _, p := range t.properties {
				visit(p.typ)
			}
			if t.additional != nil {
				visit(*t.additional)
			}
		}
	}
	for _, res := range resources {
		body := tb.get(tb.get(res.ref).body)
		for _, p := range body.properties {
			visit(p.typ)
		}
	}
	slices.SortStableFunc(objects, func(a, b ref) int {
		return cmp.Or(jsCompare(strings.ToLower(tb.get(a).name), strings.ToLower(tb.get(b).name)), cmp.Compare(a, b))
	})
	anchors := map[ref]string{}
	used := map[string]int{}
	for _, r := range objects {
		a := anchor(tb.get(r).name)
		if n := used[a]; n > 0 {
			used[a] = n + 1
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			used[a] = 1
		}
		anchors[r] = a
	}
	m := mdNamer{tb: tb, anchors: anchors}
	for _, res := range resources {
		rt := tb.get(res.ref)
		doc.Resources = append(doc.Resources, mdResource{
			Anchor:      "resource-" + anchor(rt.name),
			Name:        rt.name,
			Description: strings.TrimSpace(res.description),
			Properties:  m.props(tb.get(rt.body)),
		})
	}
	for _, r := range objects {
		t := tb.get(r)
		o := mdObject{Anchor: anchors[r], Name: t.name, Sensitive: t.sensitive, Properties: m.props(t)}
		if t.additional != nil {
			o.Additional = m.typeName(*t.additional)
		}
		doc.Objects = append(doc.Objects, o)
	}
	var b strings.Builder
	if err := typesTemplate.Execute(&b, doc); err != nil {
		return nil, fmt.Errorf("rendering types.md: %w", err)
	}
	return []byte(b.String()), nil
}

type mdNamer struct {
	tb      *table
	anchors map[ref]string
}

func (m mdNamer) props(t *bt) []mdProp {
	ps := slices.Clone(t.properties)
	slices.SortStableFunc(ps, func(a, b prop) int { return jsCompare(strings.ToLower(a.name), strings.ToLower(b.name)) })
	out := make([]mdProp, len(ps))
	for i, p := range ps {
		out[i] = mdProp{
			Name:  p.name,
			Type:  m.typeName(p.typ),
			Flags: flagLabels(p.flags),
			// Continuation lines stay inside the bullet.
			Description: strings.ReplaceAll(p.description, "\n", "\n  "),
		}
	}
	return out
}

// typeName writes a type the way the reference library's markdown writer
// does ("string {minLength: 1}", "'a' | 'b'", "[Obj](#obj)[]").
func (m mdNamer) typeName(r ref) string {
	t := m.tb.get(r)
	switch t.kind {
	case kindObject:
		return fmt.Sprintf("[%s](#%s)", t.name, m.anchors[r])
	case kindArray:
		item := m.typeName(t.itemType)
		if strings.Contains(item, " ") {
			item = "(" + item + ")"
		}
		return item + "[]" + modifiers(optInt("minLength", t.minLength), optInt("maxLength", t.maxLength))
	case kindUnion:
		els := make([]string, len(t.elements))
		for i, e := range t.elements {
			els[i] = m.typeName(e)
		}
		// In declared order, as types.json and the Go client keep them
		// (the reference library sorts them).
		return strings.Join(els, " | ")
	case kindStringLiteral:
		return "'" + t.value + "'"
	case kindAny:
		return "any"
	case kindBoolean:
		return "bool"
	case kindInteger:
		return "int" + modifiers(optInt("minValue", t.minValue), optInt("maxValue", t.maxValue))
	case kindString:
		sensitive, pattern := "", ""
		if t.sensitive {
			sensitive = "sensitive"
		}
		if t.pattern != nil {
			pattern = `pattern: "` + strings.ReplaceAll(*t.pattern, `"`, `\"`) + `"`
		}
		return "string" + modifiers(sensitive, optInt("minLength", t.minLength), optInt("maxLength", t.maxLength), pattern)
	case kindResource:
		return t.name
	}
	return string(t.kind)
}

func optInt(label string, v *int64) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf("%s: %d", label, *v)
}

func modifiers(ms ...string) string {
	ms = slices.DeleteFunc(ms, func(s string) bool { return s == "" })
	if len(ms) == 0 {
		return ""
	}
	return " {" + strings.Join(ms, ", ") + "}"
}

func flagLabels(f int) string {
	var out []string
	for _, l := range []struct {
		bit   int
		label string
	}{
		{flagRequired, "Required"},
		{flagReadOnly, "ReadOnly"},
		{flagWriteOnly, "WriteOnly"},
		{flagDeployTimeConstant, "DeployTimeConstant"},
		{flagIdentifier, "Identifier"},
	} {
		if f&l.bit != 0 {
			out = append(out, l.label)
		}
	}
	return strings.Join(out, ", ")
}
