package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds the nesting Decode reads (the checker allows less; this
// only guards against hostile documents).
const MaxDepth = 64

// Decode reads a schema from the JSON the registry stores: the schema of an
// API version as registered (an OpenAPI 3.0 object of the subset). Empty
// input and null read as {}, which declares no schema: a Map of Any, as
// the checker reads `schema: {}`. A `$ref` to a built-in is resolved;
// without `type`, `properties` or `additionalProperties` make an object
// and `items` an array; keys are kept in document order.
//
// For any JSON object it returns the schema as far as it can be read (a
// keyword whose value has the wrong kind is left out of the typed fields;
// Written still returns it) and the first problem, in document order, that
// puts it outside what the registry admits, naming its JSON pointer
// ("schema at /properties/size: `minLength` must be a non-negative
// integer"); nil when there is none. What only the registry's engines can
// judge (patterns, resource type names) is left to them. Input that is not
// a JSON object is an error and no schema.
func Decode(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	if err := oneObject(raw); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	ms := members(raw)
	if len(ms) == 0 {
		return &Schema{Kind: Map, AdditionalProperties: &Schema{Kind: Any, Path: "/additionalProperties"}, src: &source{raw: raw}}, nil
	}
	d := &decoder{}
	s := d.node(raw, ms, "", 1)
	return s, d.err
}

// oneObject checks that raw (without surrounding space) is one JSON value,
// an object; the decoder says what is wrong with text that is not JSON.
func oneObject(raw []byte) error {
	if json.Valid(raw) {
		if !isObject(raw) {
			return errors.New("must be a JSON object")
		}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON value")
	}
	if !isObject(v) {
		return errors.New("must be a JSON object")
	}
	return nil
}

func isObject(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '{' }

// writtenMembers returns the members of the object keyword k is written
// with (the last k), as members read them.
func (s *Schema) writtenMembers(k string) []member {
	ms := s.written()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == k {
			return ms[i].obj
		}
	}
	return nil
}

// Keywords returns the keywords of s as Decode read them, in document
// order (a keyword written twice is listed twice); none for `{}` or for
// nodes built otherwise.
func (s *Schema) Keywords() []string {
	out := make([]string, len(s.written()))
	for i, m := range s.written() {
		out[i] = m.key
	}
	return out
}

// members splits raw, a valid JSON object, into its members in order,
// each value as written (a part of raw, not a copy) and, for a value that
// is an object, its members too: the whole document in one pass. nil for
// anything but an object. raw is valid JSON (Decode checks it first and
// hands on only parts of it), so a scan of its bytes finds where each
// member starts and ends; encoding/json's tokenizer did the same at about
// four times the cost and an allocation per token. On text that is not
// valid JSON it returns what it read, without a panic.
func members(raw json.RawMessage) []member {
	p := &parser{raw: raw}
	p.space()
	if !p.take('{') {
		return nil
	}
	return p.object()
}

// parser scans one valid JSON document; at is the next byte to read.
type parser struct {
	raw []byte
	at  int
}

// object reads the members of an object whose { was read, and its }.
func (p *parser) object() []member { return p.objectMembers(true) }

// shallow reads the members of an object whose { was read, and its },
// without reading the members of the objects among their values (obj stays
// nil): for a caller that needs one level of a large document.
func (p *parser) shallow() []member { return p.objectMembers(false) }

// objectMembers reads the members of an object whose { was read, and its
// }; deep reads the members of the objects among their values too.
func (p *parser) objectMembers(deep bool) []member {
	ms := make([]member, 0, 8)
	for {
		p.space()
		p.take(',')
		p.space()
		if p.at >= len(p.raw) || p.raw[p.at] != '"' {
			p.take('}')
			return ms
		}
		from := p.at
		p.str()
		key := unquote(p.raw[from:p.at])
		p.space()
		p.take(':')
		p.space()
		start := p.at
		var obj []member
		switch {
		case p.at >= len(p.raw) || p.raw[p.at] != '{':
			p.value()
		case deep:
			p.at++
			obj = p.object()
		default:
			p.nested() // to its matching brace
		}
		ms = append(ms, member{key: key, val: p.raw[start:p.at], obj: obj})
	}
}

// shallowMembers is members without the members of nested objects.
func shallowMembers(raw json.RawMessage) []member {
	p := &parser{raw: raw}
	p.space()
	if !p.take('{') {
		return nil
	}
	return p.shallow()
}

// take reads c when it is the next byte.
func (p *parser) take(c byte) bool {
	if p.at < len(p.raw) && p.raw[p.at] == c {
		p.at++
		return true
	}
	return false
}

// space skips JSON white space.
func (p *parser) space() {
	for p.at < len(p.raw) {
		switch p.raw[p.at] {
		case ' ', '\t', '\n', '\r':
			p.at++
		default:
			return
		}
	}
}

// str reads a string whose opening quote is next: to the first quote
// after it that an even number of backslashes precede (found with
// bytes.IndexByte, which takes long descriptions many bytes at a time).
func (p *parser) str() {
	p.at++
	for start := p.at; ; {
		i := bytes.IndexByte(p.raw[p.at:], '"')
		if i < 0 {
			p.at = len(p.raw)
			return
		}
		q := p.at + i
		p.at = q + 1
		escapes := 0
		for j := q - 1; j >= start && p.raw[j] == '\\'; j-- {
			escapes++
		}
		if escapes%2 == 0 {
			return
		}
	}
}

// value reads a value other than an object: a string, an array (whatever
// it nests) or a literal (number, true, false, null).
func (p *parser) value() {
	if p.at >= len(p.raw) {
		return
	}
	switch p.raw[p.at] {
	case '"':
		p.str()
	case '[':
		p.nested()
	default:
		for p.at < len(p.raw) {
			switch p.raw[p.at] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return
			}
			p.at++
		}
	}
}

// nested reads an array or object whose opening bracket is next, with all
// it nests, to its matching bracket.
func (p *parser) nested() {
	depth := 0
	for p.at < len(p.raw) {
		switch p.raw[p.at] {
		case '"':
			p.str()
			continue
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				p.at++
				return
			}
		}
		p.at++
	}
}

// unquote is the text of a JSON string as written with its quotes, as
// encoding/json reads it (escapes resolved, invalid UTF-8 replaced).
func unquote(quoted []byte) string {
	if len(quoted) >= 2 && bytes.IndexByte(quoted, '\\') < 0 && utf8.Valid(quoted) {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	_ = json.Unmarshal(quoted, &s)
	return s
}

// decoder reads the nodes of one schema and keeps the first problem.
type decoder struct {
	err error
}

// problem records a problem at the node at path, unless one was found
// before.
func (d *decoder) problem(path, format string, args ...any) {
	if d.err == nil {
		d.err = &Problem{Path: path, Message: fmt.Sprintf(format, args...)}
	}
}

// Problem is why a schema is outside what the registry admits: what is
// wrong with the node at Path, a JSON pointer ("" for the root).
type Problem struct {
	Path    string
	Message string
}

// Error is "schema at /properties/size: `minLength` must be a
// non-negative integer" ("schema: ..." for the root).
func (p *Problem) Error() string {
	if p.Path == "" {
		return "schema: " + p.Message
	}
	return "schema at " + p.Path + ": " + p.Message
}

// node reads the schema object raw (members ms) found at path.
func (d *decoder) node(raw json.RawMessage, ms []member, path string, depth int) *Schema {
	s := &Schema{Path: path, src: &source{raw: raw, members: ms}}
	if depth > MaxDepth {
		d.problem(path, "nests deeper than %d levels", MaxDepth)
		s.Kind = Any
		return s
	}
	for _, k := range polymorphic {
		if _, ok := s.Written(k); ok {
			d.problem(path, "`%s` is not supported", k)
		}
	}
	if ref, ok := s.Written("$ref"); ok {
		if target, isStr := jsonString(ref); isStr {
			return d.ref(s, target)
		}
		d.problem(path, "`$ref` %q names no built-in schema", "")
	}
	d.kind(s)
	d.annotations(s)
	d.extensions(s, s)
	switch s.Kind {
	case String:
		d.stringKeywords(s)
	case Integer, Number:
		d.numberKeywords(s)
	case Array:
		d.arrayKeywords(s, depth)
	case Object, Map:
		d.objectKeywords(s, depth)
	}
	d.literals(s)
	return s
}

// ref resolves a `$ref` node: the built-in with the node's description and
// extensions, or, for an unknown target, an object that names it.
func (d *decoder) ref(s *Schema, target string) *Schema {
	b := Builtin(target)
	if b == nil {
		d.problem(s.Path, "`$ref` %q names no built-in schema", target)
		s.Kind, s.Ref = Object, target
		if i := strings.LastIndexByte(target, '#'); i >= 0 {
			s.Ref = strings.TrimLeft(target[i+1:], "/")
		}
		return s
	}
	setPaths(b, s.Path)
	b.src = s.src
	if desc, ok := s.str("description"); ok {
		b.Description = desc
	}
	d.extensions(s, b)
	return b
}

// setPaths sets the Path of s and of the nodes below it, s being at path.
func setPaths(s *Schema, path string) {
	s.Path = path
	for _, p := range s.Properties {
		setPaths(p.Schema, AppendPointer(AppendPointer(path, "properties"), p.Name))
	}
	if s.AdditionalProperties != nil {
		setPaths(s.AdditionalProperties, AppendPointer(path, "additionalProperties"))
	}
	if s.Items != nil {
		setPaths(s.Items, AppendPointer(path, "items"))
	}
}

// ImpliedKind is the kind of a schema node written without `type`, as
// Radius reads it (kin-openapi validates such a node by its other keywords
// alone, and rad registers it as written): an object when it has
// properties or additionalProperties, an array when it has items, and
// otherwise any value.
func ImpliedKind(properties, additionalProperties, items bool) Kind {
	switch {
	case properties || additionalProperties:
		return Object
	case items:
		return Array
	}
	return Any
}

// kind reads `type`; without one, the structure decides (ImpliedKind). An
// object whose additionalProperties is a schema is a Map.
func (d *decoder) kind(s *Schema) {
	t, ok := s.Written("type")
	if ok {
		name, _ := jsonString(t)
		k, known := KindOfType(name)
		if !known {
			d.problem(s.Path, "unsupported `type` %s", compact(t))
			return
		}
		s.Kind = k
	} else {
		s.Kind = ImpliedKind(present(s, "properties"), present(s, "additionalProperties"), present(s, "items"))
	}
	if ap, ok := s.Written("additionalProperties"); s.Kind == Object && ok && isObject(ap) {
		s.Kind = Map
	}
}

// present reports whether keyword k is written with a value other than
// null.
func present(s *Schema, k string) bool {
	v, ok := s.Written(k)
	return ok && string(v) != "null"
}

// annotations reads the keywords every kind may carry.
func (d *decoder) annotations(s *Schema) {
	s.Description, _ = s.str("description")
	s.Title, _ = s.str("title")
	s.Nullable = d.flag(s, "nullable", true)
	s.ReadOnly = d.flag(s, "readOnly", true)
	s.WriteOnly = d.flag(s, "writeOnly", false)
	s.Deprecated = d.flag(s, "deprecated", false)
	if f, ok := s.str("format"); ok {
		s.Format = f
	}
}

// flag reads a boolean keyword; strict ones are problems when not a
// boolean, the others read as false.
func (d *decoder) flag(s *Schema, k string, strict bool) bool {
	v, ok := s.Written(k)
	if !ok {
		return false
	}
	switch string(v) {
	case "true":
		return true
	case "false":
	default:
		if strict {
			d.problem(s.Path, "`%s` must be a boolean", k)
		}
	}
	return false
}

// extensions reads the x- keywords of from into s: x-radius-sensitive,
// x-resource-type and the others as Extensions.
func (d *decoder) extensions(from, s *Schema) {
	for _, m := range from.written() {
		switch {
		case m.key == ExtensionSensitive:
			switch string(m.val) {
			case "true", "false":
				s.Sensitive = string(m.val) == "true"
			default:
				d.problem(s.Path, "`%s` must be a boolean", ExtensionSensitive)
			}
		case m.key == ExtensionResourceType:
			d.reference(s, m.val)
		case IsExtension(m.key):
			s.Extensions = append(s.Extensions, Extension{Name: m.key, Value: m.val})
		}
	}
}

// reference reads x-resource-type: a type name, a non-empty list of them,
// or "*" alone. Whether each name is a well-formed type name is the
// caller's to judge (registry/api).
func (d *decoder) reference(s *Schema, v json.RawMessage) {
	const name = ExtensionResourceType
	if s.Kind != String {
		d.problem(s.Path, "`%s` applies to strings only", name)
		return
	}
	var types []string
	if t, ok := jsonString(v); ok {
		if t != AnyResourceType {
			types = []string{t}
		}
		s.Reference = &Reference{Types: types}
		return
	}
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil || !strings.HasPrefix(string(v), "[") {
		d.problem(s.Path, "`%s` must be a type name, a list of type names or %q", name, AnyResourceType)
		return
	}
	if len(list) == 0 {
		d.problem(s.Path, "`%s` lists no type", name)
		return
	}
	for _, e := range list {
		t, ok := jsonString(e)
		switch {
		case !ok:
			d.problem(s.Path, "`%s` must list type names, not %s", name, compact(e))
			return
		case t == AnyResourceType:
			d.problem(s.Path, "`%s` %q stands alone, not in a list", name, AnyResourceType)
			return
		}
		types = append(types, t)
	}
	s.Reference = &Reference{Types: types}
}

// stringKeywords reads the lengths and the pattern (whether the pattern
// compiles is the caller's to judge: it needs an ECMA-262 engine).
func (d *decoder) stringKeywords(s *Schema) {
	s.MinLength, s.MaxLength = d.count(s, "minLength"), d.count(s, "maxLength")
	if v, ok := s.Written("pattern"); ok {
		p, isStr := jsonString(v)
		if !isStr {
			d.problem(s.Path, "`pattern` must be a string")
			return
		}
		s.Pattern = p
	}
}

// numberKeywords reads the bounds (OpenAPI 3.0: the exclusive ones are
// booleans that modify them) and multipleOf (> 0).
func (d *decoder) numberKeywords(s *Schema) {
	s.Minimum, s.Maximum, s.MultipleOf = d.number(s, "minimum"), d.number(s, "maximum"), d.number(s, "multipleOf")
	s.ExclusiveMinimum = d.exclusive(s, "exclusiveMinimum", "minimum", s.Minimum)
	s.ExclusiveMaximum = d.exclusive(s, "exclusiveMaximum", "maximum", s.Maximum)
	if m := s.MultipleOf; m != nil {
		if f, _ := m.Float64(); f <= 0 {
			d.problem(s.Path, "`multipleOf` must be greater than 0")
			s.MultipleOf = nil
		}
	}
}

func (d *decoder) exclusive(s *Schema, k, bound string, n *json.Number) bool {
	v, ok := s.Written(k)
	switch {
	case !ok:
		return false
	case string(v) == "true" || string(v) == "false":
		if string(v) == "true" && n == nil {
			d.problem(s.Path, "`%s` needs `%s`", k, bound)
			return false
		}
		return string(v) == "true"
	}
	d.problem(s.Path, "`%s` must be a boolean (OpenAPI 3.0: `%s: N` and `%s: true`)", k, bound, k)
	return false
}

// arrayKeywords reads the item counts, uniqueItems and items (absent:
// items of any kind).
func (d *decoder) arrayKeywords(s *Schema, depth int) {
	s.MinItems, s.MaxItems = d.count(s, "minItems"), d.count(s, "maxItems")
	s.UniqueItems = d.flag(s, "uniqueItems", false)
	items, ok := s.Written("items")
	if ok && !isObject(items) {
		d.problem(s.Path, "`items` must be a schema")
	}
	if !ok || !isObject(items) {
		s.Items = &Schema{Kind: Any, Path: AppendPointer(s.Path, "items")}
		return
	}
	s.Items = d.node(items, s.writtenMembers("items"), AppendPointer(s.Path, "items"), depth+1)
}

// objectKeywords reads the property counts, additionalProperties (false:
// the closed default; a schema: a Map), the properties and required.
func (d *decoder) objectKeywords(s *Schema, depth int) {
	s.MinProperties, s.MaxProperties = d.count(s, "minProperties"), d.count(s, "maxProperties")
	switch ap, _ := s.Written("additionalProperties"); {
	case ap == nil || string(ap) == "null" || string(ap) == "false":
	case string(ap) == "true":
		d.problem(s.Path, "`additionalProperties: true` is not supported: declare the value schema")
	case !isObject(ap):
		d.problem(s.Path, "`additionalProperties` must be a schema or false")
	default:
		if _, ok := s.Written("properties"); ok {
			d.problem(s.Path, "an object cannot declare both `properties` and `additionalProperties`")
		}
		s.AdditionalProperties = d.node(ap, s.writtenMembers("additionalProperties"), AppendPointer(s.Path, "additionalProperties"), depth+1)
	}
	if s.Kind == Object {
		d.properties(s, depth)
	}
}

func (d *decoder) properties(s *Schema, depth int) {
	if v, ok := s.Written("properties"); ok {
		if !isObject(v) {
			d.problem(s.Path, "`properties` must be an object")
		}
		base := AppendPointer(s.Path, "properties")
		for _, m := range s.writtenMembers("properties") {
			path := AppendPointer(base, m.key)
			if !isObject(m.val) {
				d.problem(path, "must be a schema")
				continue
			}
			if p := s.Property(m.key); p != nil { // written twice: the last one counts
				p.Schema = d.node(m.val, m.obj, path, depth+1)
				continue
			}
			s.Properties = append(s.Properties, &Property{Name: m.key, Schema: d.node(m.val, m.obj, path, depth+1)})
		}
	}
	v, ok := s.Written("required")
	if !ok {
		return
	}
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil || !strings.HasPrefix(string(v), "[") {
		d.problem(s.Path, "`required` must be a list of property names")
		return
	}
	for _, r := range list {
		name, _ := jsonString(r)
		p := s.Property(name)
		if p == nil {
			d.problem(s.Path, "required property %s is not declared in `properties`", compact(r))
			continue
		}
		p.Required = true
	}
}

// literals reads enum, default and example; on a Number node integer
// literals are numbers.
func (d *decoder) literals(s *Schema) {
	if v, ok := s.Written("enum"); ok {
		var list []json.RawMessage
		if json.Unmarshal(v, &list) != nil || !strings.HasPrefix(string(v), "[") {
			d.problem(s.Path, "`enum` must be a list")
		}
		for _, e := range list {
			s.Enum = append(s.Enum, literalOf(e, s.Kind))
		}
	}
	if v, ok := s.Written("default"); ok {
		l := literalOf(v, s.Kind)
		s.Default = &l
	}
	if v, ok := s.Written("example"); ok {
		l := literalOf(v, 0)
		s.Example = &l
	}
}

// literalOf is the Value of a JSON literal: integers are numbers written
// with no fraction or exponent, or any number for a node of kind Number.
func literalOf(raw json.RawMessage, node Kind) Value {
	v := Value{JSON: raw}
	switch c := raw[0]; {
	case c == '"':
		v.Kind = String
		v.Str, _ = jsonString(raw)
	case c == '{':
		v.Kind = Object
	case c == '[':
		v.Kind = Array
	case c == 'n':
		v.Kind = Any
	case c == 't' || c == 'f':
		v.Kind, v.Bool = Boolean, c == 't'
	default:
		v.Kind, v.Num = Integer, json.Number(raw)
		if node == Number || strings.ContainsAny(string(raw), ".eE") {
			v.Kind = Number
		}
	}
	return v
}

// count reads a non-negative integer keyword.
func (d *decoder) count(s *Schema, k string) *int64 {
	v, ok := s.Written(k)
	if !ok {
		return nil
	}
	i, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || i < 0 {
		d.problem(s.Path, "`%s` must be a non-negative integer", k)
		return nil
	}
	return &i
}

// number reads a finite number keyword, as written.
func (d *decoder) number(s *Schema, k string) *json.Number {
	v, ok := s.Written(k)
	if !ok {
		return nil
	}
	n := json.Number(v)
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) || len(v) == 0 || !(v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
		d.problem(s.Path, "`%s` must be a finite number", k)
		return nil
	}
	return &n
}

// str returns the string value of keyword k; false when it is absent or
// not a string.
func (s *Schema) str(k string) (string, bool) {
	v, ok := s.Written(k)
	if !ok {
		return "", false
	}
	return jsonString(v)
}

// jsonString decodes a JSON string; false for any other value.
func jsonString(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if plain := raw[1 : len(raw)-1]; plainString(plain) {
		return string(plain), true // what json.Unmarshal decodes it to
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// plainString reports whether b, the text between a JSON string's quotes,
// is the string itself: no escapes, no control characters, valid UTF-8.
func plainString(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' || c == '"' {
			return false
		}
	}
	return utf8.Valid(b)
}

// WrittenString returns the value of keyword k as written when it is a JSON
// string (decoded), and "" otherwise.
func (s *Schema) WrittenString(k string) string {
	v, _ := s.str(k)
	return v
}

// compact writes a JSON value for a message, as encoding/json writes it.
func compact(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}
