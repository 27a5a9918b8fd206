package service

import (
	"encoding/json"
	"slices"
)

// ImplyObjectTypes returns schema as the registry reads it before checking
// it: a schema node without "type" that has "properties" or
// "additionalProperties" is an object, as Radius reads it (rad sends a
// manifest's schema: {} merged with its base properties, without a type).
// Nodes are the root and, below it, the values of properties, items and
// additionalProperties; "type": "object" is written into each such node,
// first, and nothing else changes (key order, numbers, escapes), so JSON
// pointers into the result point into schema. A node with only "items"
// stays without a type. Text that is not JSON is returned as it is, for
// the checker to refuse.
func ImplyObjectTypes(schema json.RawMessage) json.RawMessage {
	if !json.Valid(schema) {
		return schema
	}
	w := &implier{data: schema}
	w.value(roleSchema)
	if len(w.at) == 0 {
		return schema
	}
	const insert = `"type":"object",`
	out := make([]byte, 0, len(schema)+len(w.at)*len(insert))
	prev := 0
	for _, off := range w.at {
		out = append(out, schema[prev:off]...)
		out = append(out, insert...)
		prev = off
	}
	return append(out, schema[prev:]...)
}

// The roles of a JSON value in a schema: a schema node, a map of names to
// schema nodes (properties), or anything else.
const (
	roleSchema = iota
	roleSchemaMap
	roleOther
)

// implier walks the bytes of a valid JSON text (json.Valid) and collects
// in at, in order, the offsets just after the '{' of each schema node that
// needs "type": "object". Reading the text through encoding/json's tokens
// cost a third of the check of a PUT's schema.
type implier struct {
	data []byte
	i    int // next byte
	at   []int
}

// space moves past white space and the separators ',' and ':'.
func (w *implier) space() {
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case ' ', '\t', '\n', '\r', ',', ':':
			w.i++
		default:
			return
		}
	}
}

// value reads the next value, whose role is role.
func (w *implier) value(role int) {
	w.space()
	switch w.data[w.i] {
	case '{':
		w.object(role)
	case '[':
		w.i++
		for w.space(); w.data[w.i] != ']'; w.space() {
			w.value(roleOther)
		}
		w.i++
	case '"':
		w.str()
	default: // a number, true, false or null
		for w.i < len(w.data) && !delimiter(w.data[w.i]) {
			w.i++
		}
	}
}

// delimiter reports whether c ends a number, true, false or null.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ']', '}':
		return true
	}
	return false
}

// object reads an object whose role is role.
func (w *implier) object(role int) {
	w.i++
	open, idx := w.i, len(w.at)
	typed, object := false, false
	for w.space(); w.data[w.i] != '}'; w.space() {
		key := w.key()
		child := roleOther
		switch {
		case role == roleSchemaMap:
			child = roleSchema
		case role != roleSchema:
		case key == "type":
			typed = true
		case key == "properties":
			object, child = true, roleSchemaMap
		case key == "additionalProperties":
			object, child = true, roleSchema
		case key == "items":
			child = roleSchema
		}
		w.value(child)
	}
	w.i++
	if role == roleSchema && object && !typed {
		// Before the offsets of the nodes inside it: at stays in order.
		w.at = slices.Insert(w.at, idx, open)
	}
}

// keywords are the keys of a schema node that object looks for.
var keywords = []string{"type", "properties", "additionalProperties", "items"}

// key reads a key and returns it when it is one of keywords, "" when not.
func (w *implier) key() string {
	raw, escaped := w.str()
	name := raw[1 : len(raw)-1]
	if escaped {
		var s string
		_ = json.Unmarshal(raw, &s) // valid: json.Valid accepted the text
		name = []byte(s)
	}
	for _, k := range keywords {
		if string(name) == k {
			return k
		}
	}
	return ""
}

// str reads a string and returns its text, quotes included, and whether
// it has escapes.
func (w *implier) str() (raw []byte, escaped bool) {
	start := w.i
	for w.i++; w.data[w.i] != '"'; w.i++ {
		if w.data[w.i] == '\\' {
			escaped = true
			w.i++
		}
	}
	w.i++
	return w.data[start:w.i], escaped
}
