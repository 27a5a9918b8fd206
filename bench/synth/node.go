package synth

import (
	"bytes"
	"strconv"
	"strings"
)

// node is one schema node of a generated manifest. Nodes are immutable once
// built, so the same node (a shared fragment) may appear under many types.
type node struct {
	typ       string // string, integer, number, boolean, object, array; "" for a $ref
	ref       string
	desc      string
	readOnly  bool
	sensitive bool
	enum      []string // literal YAML scalars
	pattern   string
	minLength int // -1: unset
	maxLength int
	minimum   string // literal YAML number, "" unset
	maximum   string
	def       string // literal YAML scalar, "" unset
	maxItems  int    // -1: unset
	// The deep profile's constraints.
	format      string
	multipleOf  string // literal YAML number, "" unset
	minItems    int    // -1: unset
	uniqueItems bool
	props       []prop
	required    []string
	addl        *node // map value schema
	items       *node
}

type prop struct {
	name string
	n    *node
}

func newNode(typ, desc string) *node {
	return &node{typ: typ, desc: desc, minLength: -1, maxLength: -1, maxItems: -1, minItems: -1}
}

// write renders n as the YAML mapping body at the given indent.
func (n *node) write(b *bytes.Buffer, indent int) {
	if n.ref != "" {
		line(b, indent, "$ref: "+quote(n.ref))
		return
	}
	line(b, indent, "type: "+n.typ)
	if n.desc != "" {
		line(b, indent, "description: "+quote(n.desc))
	}
	if n.readOnly {
		line(b, indent, "readOnly: true")
	}
	if n.sensitive {
		line(b, indent, "x-radius-sensitive: true")
	}
	if len(n.enum) > 0 {
		line(b, indent, "enum: ["+strings.Join(n.enum, ", ")+"]")
	}
	if n.pattern != "" {
		line(b, indent, "pattern: "+quote(n.pattern))
	}
	if n.format != "" {
		line(b, indent, "format: "+n.format)
	}
	if n.minLength >= 0 {
		line(b, indent, "minLength: "+strconv.Itoa(n.minLength))
	}
	if n.maxLength >= 0 {
		line(b, indent, "maxLength: "+strconv.Itoa(n.maxLength))
	}
	if n.minimum != "" {
		line(b, indent, "minimum: "+n.minimum)
	}
	if n.maximum != "" {
		line(b, indent, "maximum: "+n.maximum)
	}
	if n.multipleOf != "" {
		line(b, indent, "multipleOf: "+n.multipleOf)
	}
	if n.def != "" {
		line(b, indent, "default: "+n.def)
	}
	if n.minItems >= 0 {
		line(b, indent, "minItems: "+strconv.Itoa(n.minItems))
	}
	if n.maxItems >= 0 {
		line(b, indent, "maxItems: "+strconv.Itoa(n.maxItems))
	}
	if n.uniqueItems {
		line(b, indent, "uniqueItems: true")
	}
	if n.typ == "object" && n.addl == nil {
		line(b, indent, "properties:")
		for _, p := range n.props {
			line(b, indent+2, p.name+":")
			p.n.write(b, indent+4)
		}
		if len(n.required) > 0 {
			line(b, indent, "required: ["+strings.Join(n.required, ", ")+"]")
		}
	}
	if n.addl != nil {
		line(b, indent, "additionalProperties:")
		n.addl.write(b, indent+2)
	}
	if n.items != nil {
		line(b, indent, "items:")
		n.items.write(b, indent+2)
	}
}

func line(b *bytes.Buffer, indent int, s string) {
	for range indent {
		b.WriteByte(' ')
	}
	b.WriteString(s)
	b.WriteByte('\n')
}

// quote returns s as a single-quoted YAML scalar: no escapes except a
// doubled quote, so patterns keep their backslashes verbatim.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
