package bicepsync

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// config is a bicepconfig.json as written: JSON with comments and trailing
// commas (hujson), edited in place so that every comment, every other key
// and the layout stay as they are.
type config struct {
	v hujson.Value
}

// parseConfig parses a bicepconfig.json; an error says where it is not
// valid JSONC.
func parseConfig(data []byte) (*config, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{\n}\n")
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("is not valid JSON with comments: %w", err)
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, fmt.Errorf("is not a JSON object")
	}
	if ext := v.Find("/extensions"); ext != nil {
		if _, ok := ext.Value.(*hujson.Object); !ok {
			return nil, fmt.Errorf(`has "extensions" that is not an object`)
		}
	}
	return &config{v: v}, nil
}

// extension returns the entry of extension name, "" when there is none or
// it is not a string.
func (c *config) extension(name string) string {
	e := c.v.Find("/extensions/" + pointerEscape(name))
	if e == nil {
		return ""
	}
	lit, ok := e.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		return ""
	}
	return lit.String()
}

// setExtension adds or updates the entry of extension name: a new member
// is laid out like its siblings.
func (c *config) setExtension(name, value string) error {
	root := c.v.Value.(*hujson.Object)
	if c.v.Find("/extensions") == nil {
		if err := c.add(root, "", "/extensions", "extensions", json.RawMessage("{}")); err != nil {
			return err
		}
	}
	ext := c.v.Find("/extensions")
	obj := ext.Value.(*hujson.Object)
	if e := c.v.Find("/extensions/" + pointerEscape(name)); e != nil {
		e.Value = hujson.String(value)
		return nil
	}
	b, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return c.add(obj, indentOf(c.memberOf(root, "extensions")), "/extensions/"+pointerEscape(name), name, b)
}

// memberOf returns the name of member key of obj.
func (c *config) memberOf(obj *hujson.Object, key string) hujson.Extra {
	for _, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == key {
			return m.Name.BeforeExtra
		}
	}
	return nil
}

// add adds the member key (at pointer ptr) to obj, whose own key is
// indented by outer, and lays it out like the members before it.
func (c *config) add(obj *hujson.Object, outer, ptr, key string, value []byte) error {
	n := len(obj.Members)
	trailingComma := n > 0 && obj.Members[n-1].Value.AfterExtra != nil
	op, err := json.Marshal([]map[string]any{{"op": "add", "path": ptr, "value": json.RawMessage(value)}})
	if err != nil {
		return err
	}
	if err := c.v.Patch(op); err != nil {
		return fmt.Errorf("adding %s: %w", key, err)
	}
	m := &obj.Members[n]
	switch {
	case n > 0:
		prev := obj.Members[n-1]
		if indent, ok := lineIndent(prev.Name.BeforeExtra); ok {
			m.Name.BeforeExtra = onNewLine(m.Name.BeforeExtra, indent)
		} else {
			m.Name.BeforeExtra = append(bytes.TrimRight(m.Name.BeforeExtra, " \t"), ' ')
		}
		m.Value.BeforeExtra = hujson.Extra(" ")
		if isSpace(prev.Value.BeforeExtra) {
			m.Value.BeforeExtra = append(hujson.Extra{}, prev.Value.BeforeExtra...)
		}
		if trailingComma {
			m.Value.AfterExtra = hujson.Extra{}
		}
	case outer != "" || bytes.ContainsRune(obj.AfterExtra, '\n'):
		// The first member of a multi-line object: one level deeper than
		// the object's own key.
		unit := outer
		if unit == "" {
			unit = "  "
		}
		m.Name.BeforeExtra = onNewLine(m.Name.BeforeExtra, outer+unit)
		m.Value.BeforeExtra = hujson.Extra(" ")
		if isSpace(obj.AfterExtra) {
			obj.AfterExtra = hujson.Extra("\n" + outer)
		}
	default:
		m.Value.BeforeExtra = hujson.Extra(" ")
	}
	return nil
}

// indentOf is the indentation of a member whose name has extra before it,
// "" when it is not on a line of its own.
func indentOf(extra hujson.Extra) string {
	indent, _ := lineIndent(extra)
	return indent
}

// lineIndent returns the white space that starts the last line of extra
// (a comment may follow it); ok is false when extra holds no line break.
func lineIndent(extra hujson.Extra) (indent string, ok bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	line := extra[i+1:]
	return string(line[:len(line)-len(bytes.TrimLeft(line, " \t"))]), true
}

// onNewLine is extra ending with a line break and indent.
func onNewLine(extra hujson.Extra, indent string) hujson.Extra {
	out := bytes.TrimRight(extra, " \t")
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	return append(out, indent...)
}

func isSpace(b []byte) bool { return len(bytes.Trim(b, " \t\r\n")) == 0 }

// pointerEscape escapes a JSON pointer token.
func pointerEscape(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// bytes returns the edited file.
func (c *config) bytes() []byte { return c.v.Pack() }
