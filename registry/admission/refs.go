package admission

import (
	"encoding/json"

	"github.com/udtc/udtc/registry/api"
)

// Reference is a reference-valued property (x-resource-type) of an admitted
// document.
type Reference struct {
	Target string         // "properties.database"
	ID     api.ResourceID // the parsed value
	Types  []string       // the allowed full type names; nil for a generic reference ("*")
	// Sensitive is set when the value is x-radius-sensitive (or inside a
	// sensitive value): a message about it must not repeat ID.
	Sensitive bool
}

// References lists the reference-valued properties of an admitted document,
// in document order, for the server to check that their targets exist.
// Values that are not well-formed resource IDs (Admit reports those) and
// null values are skipped; a document that is not valid JSON has none.
func (s *Schema) References(admitted json.RawMessage) []Reference {
	if !s.hasRefs {
		return nil
	}
	doc, err := decode(admitted)
	if err != nil {
		return nil
	}
	return s.references(doc)
}

// references is References of the decoded admitted document.
func (s *Schema) references(doc any) []Reference {
	r := &refWalker{path: []byte(Root)}
	r.walk(s.root, doc, false)
	return r.out
}

type refWalker struct {
	path []byte
	out  []Reference
}

// walk collects the references in v; sensitive is true inside an
// x-radius-sensitive value, where map keys are HiddenKey in targets (as in
// Admit's violations).
func (r *refWalker) walk(n *node, v any, sensitive bool) {
	sensitive = sensitive || n.sensitive
	switch n.kind {
	case kindString:
		str, ok := v.(string)
		if !ok || !n.reference {
			return
		}
		id, err := api.ParseResourceID(str)
		if err != nil {
			return
		}
		r.out = append(r.out, Reference{Target: string(r.path), ID: id, Types: n.refTypes, Sensitive: sensitive})
	case kindObject:
		m, _ := v.(map[string]any)
		for _, k := range sortedKeys(m) {
			if p := n.props[k]; p != nil {
				mark := len(r.path)
				r.path = appendKey(r.path, k)
				r.walk(p, m[k], sensitive)
				r.path = r.path[:mark]
			}
		}
	case kindMap:
		m, _ := v.(map[string]any)
		for _, k := range sortedKeys(m) {
			mark := len(r.path)
			r.path = appendKeyOrHidden(r.path, k, sensitive)
			r.walk(n.values, m[k], sensitive)
			r.path = r.path[:mark]
		}
	case kindArray:
		list, _ := v.([]any)
		for i, e := range list {
			mark := len(r.path)
			r.path = appendIndex(r.path, i)
			r.walk(n.items, e, sensitive)
			r.path = r.path[:mark]
		}
	}
}
