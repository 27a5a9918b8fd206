package service

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
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
	var at []int64
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	if err := implyNode(dec, roleSchema, &at); err != nil || len(at) == 0 {
		return schema
	}
	const insert = `"type":"object",`
	out := make([]byte, 0, len(schema)+len(at)*len(insert))
	prev := int64(0)
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

// implyNode reads the next value of dec, whose role is role, and adds to
// at, in order, the offsets just after the '{' of each schema node that
// needs "type": "object".
func implyNode(dec *json.Decoder, role int, at *[]int64) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	switch {
	case !ok:
		return nil
	case d == '[':
		for dec.More() {
			if err := implyNode(dec, roleOther, at); err != nil {
				return err
			}
		}
		_, err := dec.Token()
		return err
	case d != '{':
		return errors.New("unexpected delimiter")
	}
	open := dec.InputOffset()
	idx := len(*at)
	typed, object := false, false
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := kt.(string)
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
		if err := implyNode(dec, child, at); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if role == roleSchema && object && !typed {
		// Before the offsets of the nodes inside it: at stays in order.
		*at = append((*at)[:idx], append([]int64{open}, (*at)[idx:]...)...)
	}
	return nil
}
