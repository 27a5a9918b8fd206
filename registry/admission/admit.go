package admission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/udtc/udtc/internal/naming"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/pattern"
)

// MaxViolations is the most violations Admit reports: it stops walking the
// document after that many, so a huge invalid body costs bounded work. (The
// server returns at most api.MaxErrorDetails of them.)
const MaxViolations = 1000

// Violation codes: stable, one per kind of problem.
const (
	CodeInvalidJSON          = "InvalidJson"
	CodeUnknownProperty      = "UnknownProperty"
	CodeMissingProperty      = "MissingProperty"
	CodeInvalidType          = "InvalidType"
	CodeInvalidEnum          = "InvalidEnum"
	CodeOutOfRange           = "OutOfRange"
	CodeNotMultipleOf        = "NotMultipleOf"
	CodeInvalidLength        = "InvalidLength"
	CodePatternMismatch      = "PatternMismatch"
	CodeInvalidFormat        = "InvalidFormat"
	CodeInvalidItemCount     = "InvalidItemCount"
	CodeDuplicateItems       = "DuplicateItems"
	CodeInvalidPropertyCount = "InvalidPropertyCount"
	CodeInvalidReference     = "InvalidReference"
)

// Violation is one way a document breaks its schema.
type Violation struct {
	// Target is the ARM path of the offending value: "properties" for the
	// document, then ".name" for a property or map key, "[i]" for an array
	// item; a key that is not a plain name (letters, digits, '_', '-') is
	// written as a JSON string in brackets: properties.tags["a.b"].
	Target string
	// Code is one of the Code* constants.
	Code string
	// Message says what was expected. It never contains the value itself
	// when the value is x-radius-sensitive (or lies inside a sensitive
	// object); other values are not echoed either, except a malformed
	// reference's own parse error.
	Message string
}

// Root is the target of the document itself.
const Root = api.TargetRoot

// HiddenKey is the segment a target has in place of a key that GET does not
// show: a key of a map, or an undeclared property, inside an
// x-radius-sensitive value (GET shows the whole value as null), so that no
// response names it: "properties.keys.*".
const HiddenKey = "*"

// Admit validates a PUT's `properties` document (raw JSON; empty or null
// means {}), drops the read-only properties the client sent (at every
// depth), applies schema defaults to absent optional properties at every
// depth (inside present objects, array items and map values; a default
// object gets its own nested defaults), and returns the document to store
// with every violation, in document order, at most MaxViolations. When
// there are violations, admitted is still the document with those changes
// applied but must not be stored. Admit never panics on any input.
func (s *Schema) Admit(properties json.RawMessage) (admitted json.RawMessage, violations []Violation) {
	doc, ok, vs := s.admitTree(properties)
	if !ok {
		return nil, vs
	}
	out, err := api.Marshal(doc)
	if err != nil { // not reachable: decoded JSON re-encodes
		return nil, append(vs, Violation{Target: Root, Code: CodeInvalidJSON, Message: "cannot be re-encoded"})
	}
	return out, vs
}

// admitTree is Admit before encoding: the admitted document as decoded
// JSON; ok is false when properties is not a JSON object.
func (s *Schema) admitTree(properties json.RawMessage) (doc any, ok bool, violations []Violation) {
	raw := bytes.TrimSpace(properties)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	doc, err := decode(raw)
	if err != nil {
		return nil, false, []Violation{{Target: Root, Code: CodeInvalidJSON, Message: "is not valid JSON: " + syntaxProblem(err)}}
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, false, []Violation{{Target: Root, Code: CodeInvalidType, Message: "must be an object, not " + valueKind(doc)}}
	}
	a := &admitter{s: s, path: append(make([]byte, 0, 128), Root...)}
	return a.walk(s.root, doc, false), true, a.v
}

// Admission is what AdmitSplit returns for a document without violations.
type Admission struct {
	Doc        json.RawMessage // Admit's document
	References []Reference     // References(Doc)
	Public     json.RawMessage // SplitSecrets(Doc)
	Secrets    json.RawMessage
}

// AdmitSplit is Admit, then References and SplitSecrets of the admitted
// document, decoding the document once (the write path of a resource PUT).
// With violations, the Admission is empty.
func (s *Schema) AdmitSplit(properties json.RawMessage) (Admission, []Violation) {
	doc, ok, vs := s.admitTree(properties)
	if !ok || len(vs) > 0 {
		return Admission{}, vs
	}
	out, err := api.Marshal(doc)
	if err != nil { // not reachable: decoded JSON re-encodes
		return Admission{}, []Violation{{Target: Root, Code: CodeInvalidJSON, Message: "cannot be re-encoded"}}
	}
	a := Admission{Doc: out, Public: out}
	if s.hasRefs {
		a.References = s.references(doc)
	}
	if !s.hasSensitive {
		return a, nil
	}
	// splitSecrets changes doc in place: after encoding Doc and finding the
	// references (a sensitive value may be one).
	if a.Public, a.Secrets, err = s.splitSecrets(doc); err != nil {
		return Admission{}, []Violation{{Target: Root, Code: CodeInvalidJSON, Message: "cannot be re-encoded"}}
	}
	return a, nil
}

func decode(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// syntaxProblem describes a decoding error without quoting the input.
func syntaxProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("syntax error at offset %d", se.Offset)
	}
	if strings.Contains(err.Error(), "unexpected EOF") {
		return "unexpected end of input"
	}
	return "unexpected data after the JSON value"
}

type admitter struct {
	s    *Schema
	v    []Violation
	path []byte
	full bool // MaxViolations reached: stop walking
	// patterns bounds this document's pattern matches (PatternBudget).
	patterns *pattern.Budget
}

func (a *admitter) report(code, format string, args ...any) {
	if a.full {
		return
	}
	a.v = append(a.v, Violation{Target: string(a.path), Code: code, Message: fmt.Sprintf(format, args...)})
	if len(a.v) >= MaxViolations {
		a.full = true
	}
}

// push appends a key or index segment to the path and returns the length to
// restore.
func (a *admitter) pushKey(key string) int {
	n := len(a.path)
	a.path = appendKey(a.path, key)
	return n
}

// pushHiddenKey appends the segment of key, HiddenKey when hidden, and
// returns the length to restore.
func (a *admitter) pushHiddenKey(key string, hidden bool) int {
	n := len(a.path)
	a.path = appendKeyOrHidden(a.path, key, hidden)
	return n
}

// appendKeyOrHidden appends key's segment, or HiddenKey's when hidden (a
// key GET does not show).
func appendKeyOrHidden(path []byte, key string, hidden bool) []byte {
	if hidden {
		return append(append(path, '.'), HiddenKey...)
	}
	return appendKey(path, key)
}

func (a *admitter) pushIndex(i int) int {
	n := len(a.path)
	a.path = appendIndex(a.path, i)
	return n
}

func appendIndex(path []byte, i int) []byte {
	return append(strconv.AppendInt(append(path, '['), int64(i), 10), ']')
}

func appendKey(path []byte, key string) []byte {
	if plainKey(key) {
		return append(append(path, '.'), key...)
	}
	q, _ := json.Marshal(key)
	return append(append(append(path, '['), q...), ']')
}

// plainKey reports whether key can be written as .key in a target.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Target returns the target path of a value reached from the document by
// the given keys (string) and array indexes (int), e.g. Target("ports",
// "web", "containerPort") = "properties.ports.web.containerPort".
func Target(segments ...any) string {
	p := []byte(Root)
	for _, s := range segments {
		switch s := s.(type) {
		case string:
			p = appendKey(p, s)
		case int:
			p = appendIndex(p, s)
		}
	}
	return string(p)
}

// walk checks v against n and returns the value to store in its place.
// sensitive is true inside an x-radius-sensitive value.
func (a *admitter) walk(n *node, v any, sensitive bool) any {
	if a.full {
		return v
	}
	sensitive = sensitive || n.sensitive
	if v == nil {
		if !n.nullable && n.kind != schema.Any {
			a.report(CodeInvalidType, "must be %s, not null", kindWords(n.kind))
		}
		return v
	}
	if !a.typeOK(n, v) {
		return v
	}
	switch n.kind {
	case schema.Integer, schema.Number:
		num, ok := a.number(n, v.(json.Number))
		if !ok {
			return v
		}
		v = num
	case schema.String:
		a.checkString(n, v.(string), sensitive)
		return v // checkString evaluated n.kin
	case schema.Object:
		a.object(n, v.(map[string]any), sensitive)
	case schema.Map:
		m := v.(map[string]any)
		for _, k := range sortedKeys(m) {
			if a.full {
				break
			}
			mark := a.pushHiddenKey(k, sensitive)
			m[k] = a.walk(n.values, m[k], sensitive)
			a.path = a.path[:mark]
		}
	case schema.Array:
		list := v.([]any)
		for i := range list {
			if a.full {
				break
			}
			mark := a.pushIndex(i)
			list[i] = a.walk(n.items, list[i], sensitive)
			a.path = a.path[:mark]
		}
	}
	if n.kin != nil {
		a.keywords(n, v)
	}
	if num, ok := v.(json.Number); ok && n.multipleOf != nil && !schema.MultipleOf(num, *n.multipleOf) {
		a.report(CodeNotMultipleOf, "must be a multiple of %s", *n.multipleOf)
	}
	return v
}

// typeOK reports whether v has n's type, reporting a violation when not.
func (a *admitter) typeOK(n *node, v any) bool {
	ok := true
	switch n.kind {
	case schema.String:
		_, ok = v.(string)
	case schema.Boolean:
		_, ok = v.(bool)
	case schema.Object, schema.Map:
		_, ok = v.(map[string]any)
	case schema.Array:
		_, ok = v.([]any)
	case schema.Integer, schema.Number:
		_, ok = v.(json.Number)
	}
	if !ok {
		a.report(CodeInvalidType, "must be %s, not %s", kindWords(n.kind), valueKind(v))
	}
	return ok
}

// number checks x against n's kind, integer width, enum and bounds,
// exactly (schema.ParseWhole, schema.NumberInEnum, schema.BelowMinimum,
// schema.AboveMaximum: never through float64), and returns the number to
// store: an integer in plain integer form, so that 1e2, 1.0 and 100.000
// are stored as 100 and every stored integer decodes into the Go client's
// int32 or int64. ok is false when x is not a number of n's kind (then
// nothing else is checked).
func (a *admitter) number(n *node, x json.Number) (json.Number, bool) {
	if !schema.Finite(x) {
		a.report(CodeOutOfRange, "is too large, or too close to 0, to be represented as a number")
		return x, false
	}
	if n.kind == schema.Integer {
		i, err := schema.ParseWhole(x)
		switch {
		case errors.Is(err, schema.ErrFraction):
			a.report(CodeInvalidType, "must be an integer, not a fractional number")
			return x, false
		case err != nil || i < n.width.Min || i > n.width.Max:
			code := CodeOutOfRange
			if n.width.Name != "" {
				code = CodeInvalidFormat
			}
			a.report(code, "must be %s, from %d to %d", n.width.Means, n.width.Min, n.width.Max)
			return x, false
		}
		x = json.Number(strconv.FormatInt(i, 10))
	}
	if !schema.NumberInEnum(n.numeric, x) {
		a.report(CodeInvalidEnum, "must be one of %s", enumText(n.enum))
	}
	switch b := n.numeric; {
	case schema.BelowMinimum(b, x) && b.ExclusiveMinimum:
		a.report(CodeOutOfRange, "must be greater than %s", *b.Minimum)
	case schema.BelowMinimum(b, x):
		a.report(CodeOutOfRange, "must be at least %s", *b.Minimum)
	}
	switch b := n.numeric; {
	case schema.AboveMaximum(b, x) && b.ExclusiveMaximum:
		a.report(CodeOutOfRange, "must be less than %s", *b.Maximum)
	case schema.AboveMaximum(b, x):
		a.report(CodeOutOfRange, "must be at most %s", *b.Maximum)
	}
	return x, true
}

func valueKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		if _, err := schema.ParseWhole(v); err == nil || errors.Is(err, schema.ErrRange) {
			return "an integer"
		}
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return "an unknown value"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// object checks a closed object: unknown properties, read-only properties
// (dropped), each declared property, then the missing ones (required, or
// given their default).
func (a *admitter) object(n *node, m map[string]any, sensitive bool) {
	for _, k := range sortedKeys(m) {
		if a.full {
			return
		}
		p := n.props[k]
		mark := a.pushHiddenKey(k, sensitive && p == nil)
		switch {
		case p == nil:
			a.report(CodeUnknownProperty, "is not a property of this object%s", known(n.names))
		case p.readOnly:
			delete(m, k) // read-only: set by the service, never by a client
		default:
			m[k] = a.walk(p, m[k], sensitive)
		}
		a.path = a.path[:mark]
	}
	for _, k := range n.names {
		if a.full {
			return
		}
		if _, present := m[k]; present {
			continue
		}
		p := n.props[k]
		if p.readOnly {
			continue
		}
		mark := a.pushKey(k)
		switch {
		case n.required[k]:
			a.report(CodeMissingProperty, "is required")
		case p.hasDefault:
			m[k] = a.walk(p, deepCopy(p.def), sensitive)
		}
		a.path = a.path[:mark]
	}
}

// known lists the declared property names for an unknown-property message.
func known(names []string) string {
	switch {
	case len(names) == 0:
		return ": it declares none"
	case len(names) > 10:
		return fmt.Sprintf("; it declares %d, such as %s", len(names), strings.Join(names[:10], ", "))
	}
	return "; it declares " + strings.Join(names, ", ")
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// checkString checks a string: the cheap checks first (lengths, then the
// enum and format), and the pattern only for a value they all accept, so
// that a value already refused is never matched.
func (a *admitter) checkString(n *node, s string, sensitive bool) {
	before := len(a.v)
	if n.minLength != nil || n.maxLength != nil {
		chars := int64(utf8.RuneCountInString(s))
		if n.minLength != nil && chars < *n.minLength {
			a.report(CodeInvalidLength, "must be at least %d characters long", *n.minLength)
		}
		if n.maxLength != nil && chars > *n.maxLength {
			a.report(CodeInvalidLength, "must be at most %d characters long", *n.maxLength)
		}
	}
	if n.kin != nil {
		a.keywords(n, s)
	}
	if n.pattern != nil && len(a.v) == before && !a.full {
		if a.patterns == nil {
			a.patterns = pattern.NewBudget(PatternBudget)
		}
		ok, err := n.pattern.Match(a.patterns, s)
		switch {
		case err != nil:
			a.report(CodePatternMismatch, "could not be matched against the pattern %s: %v", n.patternText, err)
		case !ok:
			a.report(CodePatternMismatch, "must match the pattern %s", n.patternText)
		}
	}
	if n.reference {
		a.reference(n, s, sensitive)
	}
}

// reference checks a reference's form and type (existence is the server's).
func (a *admitter) reference(n *node, s string, sensitive bool) {
	want := "a resource ID"
	if n.refTypes != nil {
		want = "a resource ID of type " + strings.Join(n.refTypes, " or ")
	}
	id, err := api.ParseResourceID(s)
	if err != nil {
		if sensitive {
			a.report(CodeInvalidReference, "must be %s (/planes/radius/{plane}/resourceGroups/{group}/providers/{Namespace}/{type}/{name})", want)
		} else {
			a.report(CodeInvalidReference, "must be %s: %v", want, err)
		}
		return
	}
	if n.refTypes != nil && !slices.ContainsFunc(n.refTypes, id.IsType) {
		if sensitive {
			a.report(CodeInvalidReference, "must be %s, not of another type", want)
		} else {
			a.report(CodeInvalidReference, "must be %s, not the ID of %s %s", want, naming.Article(id.Type()), id.Type())
		}
	}
}

// keywords has kin-openapi evaluate n's keyword constraints on v and
// reports each failure with a message built from the schema.
func (a *admitter) keywords(n *node, v any) {
	err := n.kin.VisitJSON(v, a.s.opts...)
	if err == nil {
		return
	}
	var errs []error
	var me openapi3.MultiError
	if errors.As(err, &me) {
		errs = me
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var se *openapi3.SchemaError
		if !errors.As(e, &se) {
			a.report(CodeInvalidType, "does not match the schema")
			continue
		}
		a.schemaError(n, se.SchemaField)
	}
}

func (a *admitter) schemaError(n *node, field string) {
	switch field {
	case "enum":
		a.report(CodeInvalidEnum, "must be one of %s", enumText(n.enum))
	case "format":
		a.report(CodeInvalidFormat, "must be %s (format %s)", n.format.Means, n.format.Name)
	case "minItems":
		a.report(CodeInvalidItemCount, "must have at least %d items", *n.minItems)
	case "maxItems":
		a.report(CodeInvalidItemCount, "must have at most %d items", *n.maxItems)
	case "uniqueItems":
		a.report(CodeDuplicateItems, "must not contain the same item twice")
	case "minProperties":
		a.report(CodeInvalidPropertyCount, "must have at least %d properties", *n.minProps)
	case "maxProperties":
		a.report(CodeInvalidPropertyCount, "must have at most %d properties", *n.maxProps)
	default:
		a.report(CodeInvalidType, "does not match the schema's %s", field)
	}
}

func enumText(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = jsonText(v)
	}
	return strings.Join(parts, ", ")
}
