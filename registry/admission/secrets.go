package admission

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
)

// SplitSecrets separates the x-radius-sensitive values of an admitted
// document. public is the document with every sensitive value replaced by
// null (what GET and LIST return, and what is stored in clear); secrets
// holds only the sensitive values, at their paths: objects keep only the
// keys that lead to a secret, arrays keep their length with null for items
// that hold none. secrets is nil when the document holds no sensitive value
// (a sensitive property that is null or absent holds none). A sensitive
// object is one secret: it is null in public and whole in secrets. When the
// root itself is sensitive, public is {}.
//
// A document that is not valid JSON is returned unchanged with no secrets:
// callers pass what Admit returned.
func (s *Schema) SplitSecrets(admitted json.RawMessage) (public, secrets json.RawMessage) {
	if !s.hasSensitive {
		return admitted, nil
	}
	doc, err := decode(admitted)
	if err != nil {
		return admitted, nil
	}
	if public, secrets, err = s.splitSecrets(doc); err != nil {
		return admitted, nil
	}
	return public, secrets
}

// splitSecrets is SplitSecrets of the decoded admitted document, which it
// changes in place.
func (s *Schema) splitSecrets(doc any) (public, secrets json.RawMessage, err error) {
	var sec any
	if s.root.sensitive {
		doc, sec = map[string]any{}, doc
	} else {
		doc, sec = split(s.root, doc)
	}
	if public, err = api.Marshal(doc); err != nil || sec == nil {
		return public, nil, err
	}
	secrets, err = api.Marshal(sec)
	return public, secrets, err
}

// split returns v with its sensitive values replaced by null, and the
// secrets found in v (nil for none). n itself is not sensitive.
func split(n *node, v any) (public, secrets any) {
	switch n.kind {
	case schema.Object, schema.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return v, nil
		}
		var sec map[string]any
		for k, e := range m {
			child := n.values
			if n.kind == schema.Object {
				child = n.props[k]
			}
			if child == nil || e == nil {
				continue
			}
			var s any
			if child.sensitive {
				m[k], s = nil, e
			} else {
				m[k], s = split(child, e)
			}
			if s != nil {
				if sec == nil {
					sec = map[string]any{}
				}
				sec[k] = s
			}
		}
		if sec == nil {
			return m, nil
		}
		return m, sec
	case schema.Array:
		list, ok := v.([]any)
		if !ok || n.items == nil {
			return v, nil
		}
		var sec []any
		for i, e := range list {
			if e == nil {
				continue
			}
			var s any
			if n.items.sensitive {
				list[i], s = nil, e
			} else {
				list[i], s = split(n.items, e)
			}
			if s != nil {
				if sec == nil {
					sec = make([]any, len(list))
				}
				sec[i] = s
			}
		}
		if sec == nil {
			return list, nil
		}
		return list, sec
	}
	return v, nil
}

// MergeSecrets is the inverse of SplitSecrets: it puts the values of secrets
// back into public at their paths. Where both hold an object (or arrays of
// the same length), it merges recursively; a null in secrets keeps public's
// value; any other secret value replaces public's. Empty or null secrets
// return public as is. It needs no schema, so a resource's secrets can be
// merged even after its type's schema changed.
func MergeSecrets(public, secrets json.RawMessage) (json.RawMessage, error) {
	if len(secrets) == 0 || string(secrets) == "null" {
		return public, nil
	}
	pub, err := decode(public)
	if err != nil {
		return nil, fmt.Errorf("public document: %w", err)
	}
	sec, err := decode(secrets)
	if err != nil {
		return nil, fmt.Errorf("secrets document: %w", err)
	}
	if _, ok := sec.(map[string]any); !ok {
		return nil, errors.New("secrets document: must be a JSON object")
	}
	return api.Marshal(merge(pub, sec))
}

func merge(pub, sec any) any {
	switch s := sec.(type) {
	case nil:
		return pub
	case map[string]any:
		if p, ok := pub.(map[string]any); ok {
			for k, e := range s {
				p[k] = merge(p[k], e)
			}
			return p
		}
	case []any:
		if p, ok := pub.([]any); ok && len(p) == len(s) {
			for i, e := range s {
				p[i] = merge(p[i], e)
			}
			return p
		}
	}
	return sec
}
