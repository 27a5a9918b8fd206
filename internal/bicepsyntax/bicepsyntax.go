// Package bicepsyntax owns how values are written as Bicep source: string
// literals, object keys and JSON values as Bicep expressions. The docs
// emitter's examples and the registry catalog's snippets both call it, so
// an escaping rule has one home.
package bicepsyntax

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

var escaper = strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "${", `\${`)

// String quotes s as a Bicep string literal; "${" is escaped so that a
// value never becomes an interpolation.
func String(s string) string { return "'" + escaper.Replace(s) + "'" }

// Key writes an object key: bare when it is an identifier, else quoted
// (the empty key too).
func Key(k string) string {
	if k == "" {
		return "''"
	}
	for i, r := range k {
		if !(r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9')) {
			return String(k)
		}
	}
	return k
}

// JSON converts a JSON value to a Bicep expression on one line: strings
// quoted, numbers that are not integers through json(), objects with their
// keys sorted. Invalid JSON gives "null".
func JSON(raw []byte) string {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "null"
	}
	return Value(v)
}

// Value converts a decoded JSON value (json.Number for numbers) to a Bicep
// expression.
func Value(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		if x {
			return "true"
		}
		return "false"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return x.String()
		}
		return "json('" + x.String() + "')"
	case string:
		return String(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = Value(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = Key(k) + ": " + Value(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return "null"
}
