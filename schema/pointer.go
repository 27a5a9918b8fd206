package schema

import "strings"

// PointerToken escapes one JSON Pointer reference token (RFC 6901): '~'
// becomes "~0" and '/' becomes "~1".
func PointerToken(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// UnescapePointerToken is the inverse of PointerToken ("~1" before "~0",
// as RFC 6901 says).
func UnescapePointerToken(token string) string {
	return strings.ReplaceAll(strings.ReplaceAll(token, "~1", "/"), "~0", "~")
}

// AppendPointer returns the JSON Pointer of key inside the value at ptr.
// Schema paths (Schema.Path) are JSON Pointers.
func AppendPointer(ptr, key string) string { return ptr + "/" + PointerToken(key) }
