// Package jsonindent indents JSON that encoding/json wrote, byte for byte
// as json.Indent does, without json.Indent's validating scanner: the
// scanner steps a state machine per byte, which made indenting the
// largest cost of writing the catalog's JSON twins and the registration
// documents.
package jsonindent

// Append appends src, which must be valid JSON (an encoder's output, not
// input from outside), to dst indented as json.Indent(dst, src, "",
// indent) does: each element of an object or array on its own line,
// nested one indent deeper, a space after each colon, empty objects and
// arrays kept as {} and [], space before the value dropped and space after
// it kept.
func Append(dst, src []byte, indent string) []byte {
	needIndent := false // an object or array was opened: indent before its first element
	depth, open := 0, 0
	seen := false // the top-level value has started
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			if seen && open == 0 {
				return append(dst, src[i:]...) // after the value: kept as it is
			}
			continue
		}
		seen = true
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			dst = newline(dst, indent, depth)
		}
		switch c {
		case '"':
			end := stringEnd(src, i)
			dst = append(dst, src[i:end]...)
			i = end - 1
		case '{', '[':
			needIndent = true
			open++
			dst = append(dst, c)
		case ',':
			dst = newline(append(dst, c), indent, depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if needIndent {
				needIndent = false // {} and [] stay on one line
			} else {
				depth--
				dst = newline(dst, indent, depth)
			}
			open--
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd returns the index just past the string that starts at src[i].
func stringEnd(src []byte, i int) int {
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(src)
}

func newline(dst []byte, indent string, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, indent...)
	}
	return dst
}
