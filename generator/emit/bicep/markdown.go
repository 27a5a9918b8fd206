package bicep

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/udtc/udtc/internal/bufpool"
)

// anchor is the reference library's anchor of a name: the name without
// characters other than ASCII letters, digits and '-', lower-cased.
func anchor(name string) string {
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'A' <= c && c <= 'Z':
			b = append(b, c+'a'-'A')
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-':
			b = append(b, c)
		}
	}
	return string(b)
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

// sortByLowerName returns a copy of xs sorted stably by the lower-cased
// names name gives, in JavaScript's order (jsCompare), as the reference
// library sorts properties and object types. Each name is lower-cased
// once, and the sort moves indices, not elements; names that are all
// ASCII (nearly every catalog's) compare as bytes, the same order.
func sortByLowerName[T any](xs []T, name func(T) string) []T {
	keys := make([]string, len(xs))
	order := make([]int, len(xs))
	ascii := true
	for i, x := range xs {
		keys[i], order[i] = strings.ToLower(name(x)), i
		ascii = ascii && isASCII(keys[i])
	}
	compare := jsCompare
	if ascii {
		compare = strings.Compare
	}
	slices.SortStableFunc(order, func(a, b int) int { return compare(keys[a], keys[b]) })
	out := make([]T, len(xs))
	for i, j := range order {
		out[i] = xs[j]
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, jsCompare)
	return keys
}

// mdResourceInput is one resource type of the extension with the
// description of its resource type (Bicep types have no place for it).
type mdResourceInput struct {
	ref         ref
	description string
}

// typesMarkdown renders types.md of the extension name at version, made
// from the resource types of namespaces: every resource type (by name,
// then API version, in walk order) and every object type reachable from
// them (sorted by name), each with its properties sorted like the
// reference library sorts them. Every resource heading carries the anchor
// index.md links to; every object type has an anchor its uses link to,
// distinct for object types sharing a name. Each block starts with a blank
// line and ends with a newline.
//
// It is written in code, as the reference library's markdown writer is,
// rather than from a template: types.md lists many thousand properties,
// which text/template rendered several times slower.
func typesMarkdown(tb *table, name, version string, namespaces []string, resources []mdResourceInput) []byte {
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
	// By name, then by reference: sorted by reference first, then stably by name.
	slices.Sort(objects)
	objects = sortByLowerName(objects, func(r ref) string { return tb.get(r).name })
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
	m := &mdNamer{tb: tb, anchors: anchors, names: make([]string, len(tb.types))}

	b := bufpool.Get()
	defer bufpool.Put(b)
	writeAll(b, "# Bicep Types: ", name, "\n\n")
	writeAll(b, "Bicep extension `", name, "`, version ", version, ", generated by udtc from the resource types of ")
	for i, ns := range namespaces {
		if i > 0 {
			b.WriteString(", ")
		}
		writeAll(b, "`", ns, "`")
	}
	writeAll(b, ".\nUse it with `extension ", name, "` in a Bicep file (see index.md).\n")
	for _, res := range resources {
		rt := tb.get(res.ref)
		writeAll(b, "\n<a id=\"resource-", anchor(rt.name), "\"></a>\n## Resource ", rt.name, "\n")
		if d := strings.TrimSpace(res.description); d != "" {
			writeAll(b, "\n", d, "\n")
		}
		b.WriteString("\n### Properties\n")
		m.props(b, tb.get(rt.body))
	}
	for _, r := range objects {
		t := tb.get(r)
		writeAll(b, "\n<a id=\"", anchors[r], "\"></a>\n## ", t.name, "\n")
		if t.sensitive {
			b.WriteString("\n*Sensitive*\n")
		}
		if len(t.properties) > 0 {
			b.WriteString("\n### Properties\n")
			m.props(b, t)
		}
		if t.additional != nil {
			writeAll(b, "\n### Additional Properties\n* **Additional Properties Type**: ", m.typeName(*t.additional), "\n")
		}
	}
	return bytes.Clone(b.Bytes())
}

// mdNamer spells the types of one table for types.md.
type mdNamer struct {
	tb      *table
	anchors map[ref]string
	names   []string // typeName of each type, once spelled
}

// props writes the properties of t, one bullet each ("* **name**: type
// (Flags): description"), sorted by name.
func (m *mdNamer) props(b *bytes.Buffer, t *bt) {
	for _, p := range sortByLowerName(t.properties, func(p prop) string { return p.name }) {
		writeAll(b, "* **", p.name, "**: ", m.typeName(p.typ))
		if f := flagLabels(p.flags); f != "" {
			writeAll(b, " (", f, ")")
		}
		if p.description != "" {
			// Continuation lines stay inside the bullet.
			writeAll(b, ": ", strings.ReplaceAll(p.description, "\n", "\n  "))
		}
		b.WriteByte('\n')
	}
}

func writeAll(b *bytes.Buffer, parts ...string) {
	for _, s := range parts {
		b.WriteString(s)
	}
}

// typeName writes a type the way the reference library's markdown writer
// does ("string {minLength: 1}", "'a' | 'b'", "[Obj](#obj)[]"). A type is
// spelled once, however many properties use it.
func (m *mdNamer) typeName(r ref) string {
	if m.names[r] == "" {
		m.names[r] = m.spell(r)
	}
	return m.names[r]
}

func (m *mdNamer) spell(r ref) string {
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
