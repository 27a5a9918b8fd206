package example

import (
	"encoding/json"
	"strings"

	"github.com/udtc/udtc/internal/bicepsyntax"
)

// notation is what the JSON and Bicep renderings of a value differ in.
type notation struct {
	key      func(name string) string // a property name as written
	literal  func(raw []byte) string  // a scalar as written
	commas   bool                     // members are separated by commas
	comments bool                     // notes are written as // comments
}

var (
	bicepNotation = notation{key: bicepsyntax.Key, literal: bicepsyntax.JSON, comments: true}
	jsonNotation  = notation{key: jsonKey, literal: func(raw []byte) string { return string(raw) }, commas: true}
)

func jsonKey(name string) string {
	k, _ := json.Marshal(name)
	return string(k)
}

// JSON renders v as JSON indented by two spaces, its first line unindented
// and the others at depth levels. JSON has no comments: a value's Note is
// left out (Example.Needs lists what is needed).
func (v Value) JSON(depth int) string { return v.renderLine(jsonNotation, depth) }

// Bicep renders v as a Bicep expression, like JSON, with each Note as a
// // comment: after a scalar, or after the brace that opens an object or
// array.
func (v Value) Bicep(depth int) string { return v.renderLine(bicepNotation, depth) }

func (v Value) renderLine(n notation, depth int) string {
	text, comment := v.render(n, depth)
	return text + comment
}

// render writes v at depth; a scalar's comment is returned apart, so that
// a comma can come between the value and its comment.
func (v Value) render(n notation, depth int) (text, comment string) {
	if n.comments && v.Note != "" {
		comment = " // " + v.Note
	}
	if !v.Array && !v.Object {
		return n.literal(v.Literal), comment
	}
	open, close := "{", "}"
	if v.Array {
		open, close = "[", "]"
	}
	count := len(v.Fields) + len(v.Items)
	if count == 0 {
		return open + close, comment
	}
	indent := strings.Repeat("  ", depth)
	var b strings.Builder
	b.WriteString(open + comment + "\n")
	i := 0
	member := func(key string, m Value) {
		text, comment := m.render(n, depth+1)
		b.WriteString(indent + "  " + key + text)
		if i++; n.commas && i < count {
			b.WriteByte(',')
		}
		b.WriteString(comment + "\n")
	}
	for _, it := range v.Items {
		member("", it)
	}
	for _, f := range v.Fields {
		member(n.key(f.Name)+": ", f.Value)
	}
	b.WriteString(indent + close)
	return b.String(), ""
}
