package check

import (
	"github.com/udtc/udtc/schema"
)

// builtin returns the built-in schema for ref (schema.Builtin) with every
// node's path and span set to the referencing node's (its properties have
// their own paths), or nil when ref names no built-in.
func builtin(ref, path string, span schema.Span) *schema.Schema {
	s := schema.Builtin(ref)
	if s == nil {
		return nil
	}
	schema.Walk(s, func(n *schema.Schema) bool {
		n.Path, n.Span = path, span
		return true
	})
	for _, p := range s.Properties {
		p.Span = span
		p.Schema.Path = pointer(pointer(path, "properties"), p.Name)
	}
	return s
}
