package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
)

// RuleFormat is the error Format reports when its own output would not
// parse back (an alias that reordering would move before its anchor).
const RuleFormat = "fmt"

// Canonical key orders (docs/manifest.md, docs/cli.md). Keys not listed
// keep their relative order after the listed ones.
var (
	topLevelOrder   = []string{"namespace", "name", "location", "types"}
	typeOrder       = []string{"description", "capabilities", "defaultApiVersion", "apiVersions"}
	apiVersionOrder = []string{"schema"}
	// SchemaKeyOrder is the order of schema keywords: what a node is, its
	// constraints, its default and annotations, then its children and
	// which of them are required.
	SchemaKeyOrder = []string{
		"$ref", "type", "format", "title", "description", "enum",
		"minLength", "maxLength", "pattern",
		"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
		"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
		"default", "nullable", "readOnly", "writeOnly", "deprecated",
		"x-radius-sensitive", "x-resource-type", "example",
		"items", "properties", "additionalProperties", "required",
	}
)

// IsJSON reports whether a manifest file is JSON by its name. Format leaves
// JSON manifests as they are.
func IsJSON(file string) bool { return strings.EqualFold(filepath.Ext(file), ".json") }

// Format returns the canonical layout of a YAML manifest: keys in the
// documented order at every level, 2-space indentation, block mappings,
// sequences of scalars in flow style, API version keys single-quoted,
// comments kept. It is idempotent. A file that does not load (Load's
// diagnostics) is returned as nil with the diagnostics; an empty file is
// returned unchanged.
func Format(file string, data []byte) ([]byte, diag.List) {
	doc, diags := Load(file, data)
	if diags.HasErrors() {
		return nil, diags
	}
	if doc.Root == nil {
		return data, nil
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, diag.List{syntaxDiagnostic(file, data, err)}
	}
	top := &root
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	formatTop(top)
	canonicalStyle(&root)
	src := strings.ReplaceAll(string(data), "\r\n", "\n")
	pr := printer{file: file, src: strings.Split(strings.TrimSuffix(src, "\n"), "\n")}
	out, err := pr.print(&root)
	if err != nil {
		return nil, diag.List{formatError(file, doc, err, "write each mapping key on one line")}
	}
	if _, again := Load(file, out); again.HasErrors() {
		return nil, diag.List{formatError(file, doc, fmt.Errorf("%s", again[0].Message),
			"anchors and aliases may keep a file from being reordered: expand the alias")}
	}
	if !sameValue(data, out) {
		return nil, diag.List{formatError(file, doc, errors.New("the formatted file would not mean the same"),
			"the file is left as it is; this is a bug of udtc fmt: please report it with the file")}
	}
	return out, pr.diags
}

// sameValue reports whether two YAML documents decode to the same value
// (compared as yaml.v3 writes them: sorted keys, .nan equal to itself). A
// date is the same as its text: Format quotes API versions. A document a
// that has no value (a key given twice: udtc check reports it) is the
// same as any b.
func sameValue(a, b []byte) bool {
	var va, vb any
	if yaml.Unmarshal(a, &va) != nil {
		return true
	}
	if yaml.Unmarshal(b, &vb) != nil {
		return false
	}
	ma, errA := yaml.Marshal(datesAsText(va))
	mb, errB := yaml.Marshal(datesAsText(vb))
	return errA == nil && errB == nil && bytes.Equal(ma, mb)
}

// datesAsText replaces the dates in a decoded YAML value by their text.
func datesAsText(v any) any {
	switch v := v.(type) {
	case time.Time:
		if v.Equal(v.Truncate(24 * time.Hour)) {
			return v.Format(time.DateOnly)
		}
		return v.Format(time.RFC3339Nano)
	case map[string]any:
		for k, e := range v {
			v[k] = datesAsText(e)
		}
	case map[any]any:
		for k, e := range v {
			v[k] = datesAsText(e)
		}
	case []any:
		for i, e := range v {
			v[i] = datesAsText(e)
		}
	}
	return v
}

func formatError(file string, doc *Document, err error, hint string) diag.Diagnostic {
	line, col := doc.Root.Line, doc.Root.Column
	return diag.Diagnostic{
		Span:     point(file, line, col),
		Severity: diag.Error, Rule: RuleFormat,
		Message: "cannot format this file: " + err.Error(),
		Hint:    hint,
	}
}

func formatTop(n *yaml.Node) {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return
	}
	// A comment above the first key is the file's header: it stays at the
	// top when that key moves.
	first := n.Content[0]
	header := first.HeadComment
	reorder(n, topLevelOrder)
	if header != "" && n.Content[0] != first {
		first.HeadComment = ""
		n.Content[0].HeadComment = strings.TrimSuffix(header+"\n"+n.Content[0].HeadComment, "\n")
	}
	if types := value(n, "types"); types != nil && types.Kind == yaml.MappingNode {
		for i := 1; i < len(types.Content); i += 2 {
			formatType(types.Content[i])
		}
	}
}

func formatType(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		return
	}
	reorder(n, typeOrder)
	if v := value(n, "defaultApiVersion"); v != nil {
		quote(v)
	}
	versions := value(n, "apiVersions")
	if versions == nil || versions.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(versions.Content); i += 2 {
		quote(versions.Content[i])
		v := versions.Content[i+1]
		if v.Kind != yaml.MappingNode {
			continue
		}
		reorder(v, apiVersionOrder)
		if s := value(v, "schema"); s != nil {
			formatSchema(s, 0)
		}
	}
}

// formatSchema orders a schema's keywords and recurses into its children.
// depth stops at the nesting limit Load enforces.
func formatSchema(n *yaml.Node, depth int) {
	if n.Kind != yaml.MappingNode || depth > MaxNesting {
		return
	}
	reorder(n, SchemaKeyOrder)
	for _, k := range []string{"items", "additionalProperties"} {
		if c := value(n, k); c != nil {
			formatSchema(c, depth+1)
		}
	}
	if props := value(n, "properties"); props != nil && props.Kind == yaml.MappingNode {
		for i := 1; i < len(props.Content); i += 2 {
			formatSchema(props.Content[i], depth+1)
		}
	}
}

// value returns the value of key in mapping n, or nil.
func value(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// reorder sorts mapping n's key/value pairs stably by their place in order;
// keys not in order go last, in their original order.
func reorder(n *yaml.Node, order []string) {
	type pair struct{ k, v *yaml.Node }
	pairs := make([]pair, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		pairs = append(pairs, pair{n.Content[i], n.Content[i+1]})
	}
	rank := func(p pair) int {
		if p.k.Kind == yaml.ScalarNode {
			if i := slices.Index(order, p.k.Value); i >= 0 {
				return i
			}
		}
		return len(order)
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return rank(a) - rank(b) })
	for i, p := range pairs {
		n.Content[2*i], n.Content[2*i+1] = p.k, p.v
	}
}

// quote makes a plain or double-quoted scalar (an API version) a
// single-quoted string.
func quote(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && (n.Style == 0 || n.Style == yaml.DoubleQuotedStyle) && n.Tag != "!!null" &&
		!strings.ContainsAny(n.Value, "'\n\\") {
		n.Style = yaml.SingleQuotedStyle
		n.Tag = "!!str"
	}
}

// canonicalStyle makes every mapping a block mapping and every sequence a
// block sequence, except that a sequence of scalars without comments (but
// for one at the end of its line) is written in flow style ([a, b]), and a mapping written in flow style on
// one line ({type: string, maxLength: 64}) stays so when it holds only
// scalars, such sequences and empty mappings (flowMapping).
func canonicalStyle(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		keep := flowMapping(n)
		n.Style &^= yaml.FlowStyle
		if keep {
			n.Style |= yaml.FlowStyle
		}
	case yaml.SequenceNode:
		n.Style &^= yaml.FlowStyle
		if flowable(n) {
			n.Style |= yaml.FlowStyle
		}
	}
	for _, c := range n.Content {
		canonicalStyle(c)
	}
}

// flowMapping reports whether n is a flow mapping that stays one: it was
// written on one line, and its keys and values are one-line scalars,
// flowable sequences or empty mappings, without comments (but for one at
// the end of n's line). A flow mapping that holds a mapping
// ({properties: {size: ...}}) is a schema tree, laid out in blocks.
func flowMapping(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || n.Style&yaml.FlowStyle == 0 || n.HeadComment != "" || n.FootComment != "" {
		return false
	}
	for i, c := range n.Content {
		switch {
		case c.Line != n.Line || c.HeadComment != "" || c.LineComment != "" || c.FootComment != "":
			return false
		case c.Kind == yaml.ScalarNode:
			if c.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || strings.Contains(c.Value, "\n") {
				return false
			}
		case i%2 == 0: // a key that is not a scalar
			return false
		case c.Kind == yaml.SequenceNode && !flowable(c) && len(c.Content) > 0,
			c.Kind == yaml.MappingNode && len(c.Content) > 0,
			c.Kind != yaml.SequenceNode && c.Kind != yaml.MappingNode:
			return false
		}
	}
	return true
}

func flowable(n *yaml.Node) bool {
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.HeadComment != "" || c.LineComment != "" || c.FootComment != "" ||
			c.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 || strings.Contains(c.Value, "\n") {
			return false
		}
	}
	return len(n.Content) > 0 && n.HeadComment == "" && n.FootComment == ""
}
