package schema

import (
	"bytes"
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
	trimmed := bytes.TrimLeft(schema, " \t\n\r")
	root := members(schema) // the one pass over the text that Decode makes too
	if root == nil {
		return schema
	}
	at := implied(schema, len(schema)-len(trimmed)+1, root, roleSchema, nil)
	if len(at) == 0 {
		return schema
	}
	const insert = `"type":"object",`
	out := make([]byte, 0, len(schema)+len(at)*len(insert))
	prev := 0
	for _, off := range at {
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

// implied appends to at, in order, the offsets in raw just after the '{'
// of each schema node that needs "type": "object", in the object whose
// members are ms, whose '{' ends at open, and whose role is role. Values
// in no schema role hold no schema node, nor do arrays.
func implied(raw []byte, open int, ms []member, role int, at []int) []int {
	idx := len(at)
	typed, object := false, false
	for _, m := range ms {
		child := roleOther
		switch {
		case role == roleSchemaMap:
			child = roleSchema
		case role != roleSchema:
		case m.key == "type":
			typed = true
		case m.key == "properties":
			object, child = true, roleSchemaMap
		case m.key == "additionalProperties":
			object, child = true, roleSchema
		case m.key == "items":
			child = roleSchema
		}
		if child != roleOther && m.obj != nil {
			// m.val is a part of raw: its offset is what its capacity lacks.
			at = implied(raw, cap(raw)-cap(m.val)+1, m.obj, child, at)
		}
	}
	if role == roleSchema && object && !typed {
		// Before the offsets of the nodes inside it: at stays in order.
		at = slices.Insert(at, idx, open)
	}
	return at
}
