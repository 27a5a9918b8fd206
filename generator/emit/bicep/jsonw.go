package bicep

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The JSON written here is byte-identical to JavaScript's JSON.stringify:
// with an indentation of 2 (writeJSON) as the reference library
// (@azure/bicep-types writeIndexJson, writeTypesJson) writes it, or without
// (writeCompact). Three details differ from encoding/json: no HTML
// escaping, U+2028/U+2029 are written as-is, and object keys that are
// array indices ("0", "17") come first in ascending numeric order, as
// JavaScript orders them.

// node is a JSON value: str, num, boolean, obj or arr.
type node interface{ isNode() }

type (
	str     string
	num     int64
	boolean bool
	// obj keeps its members in insertion order (before JavaScript's
	// array-index reordering, which write applies).
	obj []member
	arr []node
)

type member struct {
	key string
	val node
}

func (str) isNode()     {}
func (num) isNode()     {}
func (boolean) isNode() {}
func (obj) isNode()     {}
func (arr) isNode()     {}

// writeJSON renders n like JSON.stringify(n, null, 2) would when the first
// line starts at the given indentation depth (used for elements of the
// top-level types array, whose rendering is then context free).
func writeJSON(b *bytes.Buffer, n node, depth int) { write(b, n, depth, true) }

// writeCompact renders n like JSON.stringify(n) would: no whitespace.
func writeCompact(b *bytes.Buffer, n node) { write(b, n, 0, false) }

// write is writeJSON, or writeCompact when not indented.
func write(b *bytes.Buffer, n node, depth int, indented bool) {
	sep := ":"
	if indented {
		sep = ": "
	}
	switch v := n.(type) {
	case str:
		quote(b, string(v))
	case num:
		var d [20]byte
		b.Write(strconv.AppendInt(d[:0], int64(v), 10))
	case boolean:
		b.WriteString(strconv.FormatBool(bool(v)))
	case obj:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range jsOrder(v) {
			if i > 0 {
				b.WriteByte(',')
			}
			if indented {
				newline(b, depth+1)
			}
			quote(b, m.key)
			b.WriteString(sep)
			write(b, m.val, depth+1, indented)
		}
		if indented {
			newline(b, depth)
		}
		b.WriteByte('}')
	case arr:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if indented {
				newline(b, depth+1)
			}
			write(b, e, depth+1, indented)
		}
		if indented {
			newline(b, depth)
		}
		b.WriteByte(']')
	}
}

func newline(b *bytes.Buffer, depth int) {
	b.WriteByte('\n')
	for ; depth > len(indent)/2; depth -= len(indent) / 2 {
		b.WriteString(indent)
	}
	b.WriteString(indent[:2*depth])
}

// indent is the spaces of 16 levels of indentation.
const indent = "                                "

// jsOrder returns the members in JavaScript's own-property order: array
// index keys ascending, then the other keys in insertion order.
func jsOrder(o obj) obj {
	if !slices.ContainsFunc(o, func(m member) bool { _, ok := arrayIndex(m.key); return ok }) {
		return o // the common case: no key to move
	}
	var idx, rest obj
	for _, m := range o {
		if _, ok := arrayIndex(m.key); ok {
			idx = append(idx, m)
		} else {
			rest = append(rest, m)
		}
	}
	if len(idx) == 0 {
		return o
	}
	slices.SortStableFunc(idx, func(a, b member) int {
		x, _ := arrayIndex(a.key)
		y, _ := arrayIndex(b.key)
		return cmp.Compare(x, y)
	})
	return append(idx, rest...)
}

// arrayIndex reports whether k is a canonical array index in JavaScript:
// the decimal form of an integer in [0, 2^32-2].
func arrayIndex(k string) (uint64, bool) {
	if k == "" || len(k) > 10 || (len(k) > 1 && k[0] == '0') || k[0] < '0' || k[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseUint(k, 10, 64)
	if err != nil || n > 1<<32-2 {
		return 0, false
	}
	return n, true
}

// quote writes s as a JSON string the way JSON.stringify does: runs of
// bytes that need no escape are copied as they are.
func quote(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0 // of the run not yet written
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				// Invalid UTF-8 cannot come from a JavaScript string; write
				// the replacement character a decoder would have produced.
				b.WriteString(s[start:i])
				b.WriteRune(r)
				start = i + size
			}
			i += size
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		b.WriteString(s[start:i])
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		}
		i++
		start = i
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}
