package admission

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/registry/api"
)

// Located is a violation found in a file, with where it is: 1-based line
// and column of the offending value (or key), and where it ends on that
// line; Line alone for a document that does not parse.
type Located struct {
	Violation
	Line, Column, EndLine, EndColumn int
}

// resourceKeys are the top-level keys of a resource body (docs/resources.md);
// the read-only ones are accepted so that a GET body validates.
var resourceKeys = []string{"id", "name", "type", "location", "tags", "properties", "systemData", "etag"}

// AdmitFile admits every document of a YAML or JSON file (several YAML
// documents per file are allowed) as the registry admits a PUT of a
// resource of type typ ("Namespace/type"): each is a resource body
// {location, tags, properties} whose properties must pass Admit. It
// returns how many documents there were and every violation with its
// position, in the order of the file (by line, column, then target);
// reading stops at a document that does not parse.
func (s *Schema) AdmitFile(typ string, data []byte) (docs int, found []Located) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	defer func() {
		slices.SortStableFunc(found, func(a, b Located) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), strings.Compare(a.Target, b.Target))
		})
	}()
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs, found
		}
		if err != nil {
			found = append(found, Located{Violation: Violation{Code: CodeInvalidJSON,
				Message: "not valid YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: ")}, Line: yamlErrorLine(err)})
			return docs, found
		}
		docs++
		found = append(found, s.admitDocument(typ, &doc)...)
	}
}

// admitDocument admits one parsed document.
func (s *Schema) admitDocument(typ string, doc *yaml.Node) []Located {
	var found []Located
	report := func(n *yaml.Node, code, target, msg string) {
		found = append(found, locate(n, Violation{Target: target, Code: code, Message: msg}))
	}
	root := doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		report(root, CodeInvalidType, "resource", "must be an object {location, tags, properties}")
		return found
	}
	var props *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch {
		case k.Value == "properties":
			props = v
		case k.Value == "type" && v.Kind == yaml.ScalarNode && !strings.EqualFold(v.Value, typ):
			report(v, CodeInvalidType, "type", fmt.Sprintf("is %q, but the document is checked as %s", v.Value, typ))
		case !slices.ContainsFunc(resourceKeys, func(key string) bool { return strings.EqualFold(key, k.Value) }):
			report(k, CodeUnknownProperty, k.Value, "is not a key of a resource: "+strings.Join(resourceKeys, ", ")+" (the schema applies to properties)")
		}
	}
	raw := []byte("{}")
	if props != nil {
		var v any
		if err := props.Decode(&v); err != nil {
			report(props, CodeInvalidJSON, Root, err.Error())
			return found
		}
		var err error
		if raw, err = json.Marshal(v); err != nil {
			report(props, CodeInvalidJSON, Root, "cannot be read as JSON (keys must be strings): "+err.Error())
			return found
		}
	}
	_, violations := s.Admit(raw)
	for _, v := range violations {
		n := root
		if props != nil {
			key, val := find(props, v.Target)
			n = val
			if v.Code == CodeUnknownProperty && key != nil {
				n = key
			}
		}
		found = append(found, locate(n, v))
	}
	return found
}

// locate is v at node n: its position, and for a plain one-line scalar
// where it ends.
func locate(n *yaml.Node, v Violation) Located {
	l := Located{Violation: v}
	if n != nil {
		l.Line, l.Column, l.EndLine, l.EndColumn = n.Line, n.Column, n.Line, n.Column
		if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") && n.Style == 0 {
			l.EndColumn = n.Column + len(n.Value)
		}
	}
	return l
}

// find returns the node a violation's target names (and, when its last
// segment is a mapping key, that key's node), or the deepest node that
// exists: a missing property's parent object.
func find(props *yaml.Node, target string) (key, value *yaml.Node) {
	segs, err := api.ParseTarget(target)
	if err != nil {
		return nil, props
	}
	n := props
	for _, s := range segs {
		key = nil
		switch s := s.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return nil, n
			}
			found := false
			for j := 0; j+1 < len(n.Content); j += 2 {
				if n.Content[j].Value == s {
					key, n, found = n.Content[j], n.Content[j+1], true
					break
				}
			}
			if !found {
				return nil, n
			}
		case int:
			if n.Kind != yaml.SequenceNode || s >= len(n.Content) {
				return nil, n
			}
			n = n.Content[s]
		}
	}
	return key, n
}

// yamlErrorLine extracts "line N" from a YAML parser error, or 0.
func yamlErrorLine(err error) int {
	var line int
	if _, e := fmt.Sscanf(strings.TrimPrefix(err.Error(), "yaml: "), "line %d:", &line); e == nil {
		return line
	}
	return 0
}
