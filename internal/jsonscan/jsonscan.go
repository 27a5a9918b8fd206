// Package jsonscan moves over JSON that is already known to be valid
// (json.Valid, or checked by its producer) without decoding it: the fast
// paths that take stored or compacted documents apart (the registry's
// responses and batches, the catalog's schemas) share it. On invalid JSON
// the functions return some index at most len(b) and never panic; what they
// mean then is unspecified.
package jsonscan

import "encoding/json"

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index just past the string whose opening quote is
// b[i].
func SkipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// SkipValue returns the index just past the value that starts at b[i].
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = SkipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for i < len(b) && !isDelimiter(b[i]) {
		i++
	}
	return i
}

// isDelimiter reports whether c ends a number, true, false or null.
func isDelimiter(c byte) bool {
	switch c {
	case ',', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// Members calls member with the key (the bytes between its quotes, as
// written) and the value of each member of the JSON object data, in order,
// while member returns true. It returns false when data is not an object
// or member returned false. data must be valid JSON.
func Members(data []byte, member func(key, value []byte) bool) bool {
	return each(data, '{', '}', member)
}

// Elements calls elem with each element of the JSON array data, in order,
// while elem returns true. It returns false when data is not an array or
// elem returned false. data must be valid JSON.
func Elements(data []byte, elem func(value []byte) bool) bool {
	return each(data, '[', ']', func(_, value []byte) bool { return elem(value) })
}

// each is Members (open '{') and Elements (open '[', no keys).
func each(data []byte, open, close byte, fn func(key, value []byte) bool) bool {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != open {
		return false
	}
	i = SkipSpace(data, i+1)
	if i < len(data) && data[i] == close {
		return SkipSpace(data, i+1) == len(data)
	}
	for i < len(data) {
		var key []byte
		if open == '{' {
			if data[i] != '"' {
				return false
			}
			end := SkipString(data, i)
			key = data[i+1 : end-1]
			if i = SkipSpace(data, end); i >= len(data) || data[i] != ':' {
				return false
			}
			i = SkipSpace(data, i+1)
		}
		if i >= len(data) {
			return false
		}
		end := SkipValue(data, i)
		if !fn(key, data[i:end:end]) {
			return false
		}
		if i = SkipSpace(data, end); i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = SkipSpace(data, i+1)
		case close:
			return SkipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
	return false
}

// Compact reports whether the valid JSON value b has no white space
// outside its strings: json.Compact would copy it unchanged.
func Compact(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = SkipString(b, i) - 1
		case ' ', '\t', '\n', '\r':
			return false
		}
	}
	return true
}

// Plain reports whether s, the bytes between the quotes of a JSON string,
// are printable ASCII without escapes: the string is s itself.
func Plain(s []byte) bool {
	for _, c := range s {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// Unquote decodes s, the bytes between the quotes of a JSON string (a key
// as Members gives it); "" when they do not decode.
func Unquote(s []byte) string {
	if Plain(s) {
		return string(s)
	}
	var out string
	_ = json.Unmarshal(append(append([]byte{'"'}, s...), '"'), &out)
	return out
}
