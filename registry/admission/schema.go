package admission

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/udtc/udtc/registry/api"
)

// MaxSchemaDepth bounds the nesting of a schema Compile accepts (the checker
// allows less; this only guards against hostile documents).
const MaxSchemaDepth = 64

// PatternTimeout bounds one pattern match: ECMA-262 patterns can backtrack.
const PatternTimeout = 100 * time.Millisecond

// BuiltinPrefix is the URL prefix of the built-in schemas `$ref` may name.
const BuiltinPrefix = "https://radapp.io/schemas/v1#"

// builtins are the built-in schemas by name, as the JSON they stand for.
// They mirror generator/check's table; a test compares the two.
var builtins = map[string]string{
	"RecipeStatus": `{"type":"object","readOnly":true,"description":"The status of the recipe that deployed the resource.",` +
		`"properties":{` +
		`"templateKind":{"type":"string","readOnly":true,"description":"The kind of recipe template, e.g. bicep or terraform."},` +
		`"templatePath":{"type":"string","readOnly":true,"description":"The path of the recipe template."},` +
		`"templateVersion":{"type":"string","readOnly":true,"description":"The version of the recipe template."}}}`,
}

type kind int

const (
	kindAny kind = iota
	kindString
	kindInteger
	kindNumber
	kindBoolean
	kindObject // closed: declared properties only
	kindMap    // additionalProperties: values of one schema
	kindArray
)

var kindNames = map[string]kind{
	"any": kindAny, "string": kindString, "integer": kindInteger, "number": kindNumber,
	"boolean": kindBoolean, "object": kindObject, "array": kindArray,
}

func (k kind) String() string {
	switch k {
	case kindString:
		return "a string"
	case kindInteger:
		return "an integer"
	case kindNumber:
		return "a number"
	case kindBoolean:
		return "a boolean"
	case kindObject, kindMap:
		return "an object"
	case kindArray:
		return "an array"
	}
	return "any value"
}

// node is one compiled schema node.
type node struct {
	kind      kind
	nullable  bool
	readOnly  bool
	sensitive bool

	// kin holds the keyword constraints kin-openapi evaluates on this node's
	// value alone (no children, no pattern, no lengths); nil when there are none.
	kin *openapi3.Schema
	// full is the complete kin-openapi schema of this node and its children.
	full *openapi3.Schema

	enum        []any
	minimum     string // the bounds as written, for messages
	maximum     string
	exclMin     string // the exclusive bounds as written, when exclusive
	exclMax     string
	multipleOf  string
	format      string // a format validated here (formats table), else ""
	minLength   *int64
	maxLength   *int64
	pattern     *regexp2.Regexp
	patternText string
	minItems    *int64
	maxItems    *int64
	minProps    *int64
	maxProps    *int64

	props    map[string]*node
	names    []string // property names, sorted
	required map[string]bool
	reqOrder []string // required, as listed
	values   *node    // map values
	items    *node    // array items

	hasDefault bool
	def        any // decoded with UseNumber; deep-copied before use

	// References (x-resource-type on a string).
	reference bool
	refTypes  []string // allowed full type names; nil for "*"
}

// Schema is a compiled API version schema. It is immutable and safe for
// concurrent use.
type Schema struct {
	root         *node
	hasSensitive bool
	hasRefs      bool
	opts         []openapi3.SchemaValidationOption
}

// Compile compiles an API version's registered schema (the raw JSON the
// registry stores). `{}` (or null, or empty) declares no schema: any
// properties are accepted. It returns an error, naming the schema path, for
// a schema outside the supported subset: a root that is not an object,
// polymorphism, an unknown `$ref`, a pattern that does not compile, and so on.
func Compile(schema json.RawMessage) (*Schema, error) {
	raw := bytes.TrimSpace(schema)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	m, err := decodeObject(raw)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	c := &compiler{}
	var root *node
	if len(m) == 0 {
		root = &node{kind: kindMap, values: anyNode(), full: &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeObject}}}
		attachChildren(root)
	} else {
		root, err = c.node(m, "", 1)
		if err != nil {
			return nil, err
		}
		if root.kind != kindObject && root.kind != kindMap {
			return nil, fmt.Errorf("schema: the root must be `type: object`, not %s", root.kind)
		}
	}
	// Patterns were compiled above as ECMA-262; kin-openapi would compile
	// them again and keep them in its process-wide cache.
	if err := root.full.Validate(context.Background(), openapi3.DisableSchemaPatternValidation()); err != nil {
		return nil, fmt.Errorf("schema: not a well-formed OpenAPI 3 schema: %w", err)
	}
	s := &Schema{root: root, opts: validationOptions()}
	walkNodes(root, func(n *node) {
		s.hasSensitive = s.hasSensitive || n.sensitive
		s.hasRefs = s.hasRefs || n.reference
	})
	return s, nil
}

// OpenAPI returns the schema as kin-openapi's model (objects closed with
// additionalProperties: false, built-in references resolved, `any` untyped).
// Callers must not modify it.
func (s *Schema) OpenAPI() *openapi3.Schema { return s.root.full }

// HasSensitive reports whether any property is x-radius-sensitive.
func (s *Schema) HasSensitive() bool { return s.hasSensitive }

func walkNodes(n *node, fn func(*node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, name := range n.names {
		walkNodes(n.props[name], fn)
	}
	walkNodes(n.values, fn)
	walkNodes(n.items, fn)
}

func decodeObject(raw []byte) (map[string]any, error) {
	v, err := decode(raw)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a JSON object")
	}
	return m, nil
}

type compiler struct{}

func ptr(path, key string) string { return api.AppendPointer(path, key) }

func at(path string) string {
	if path == "" {
		return "schema"
	}
	return "schema at " + path
}

// node compiles one schema object found at the JSON pointer path.
func (c *compiler) node(m map[string]any, path string, depth int) (*node, error) {
	if depth > MaxSchemaDepth {
		return nil, fmt.Errorf("%s: nests deeper than %d levels", at(path), MaxSchemaDepth)
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "not", "discriminator"} {
		if _, ok := m[k]; ok {
			return nil, fmt.Errorf("%s: `%s` is not supported", at(path), k)
		}
	}
	if ref, ok := m["$ref"]; ok {
		target, _ := ref.(string)
		name, ok := strings.CutPrefix(target, BuiltinPrefix)
		src, known := builtins[name]
		if !ok || !known {
			return nil, fmt.Errorf("%s: `$ref` %q names no built-in schema", at(path), target)
		}
		bm, err := decodeObject([]byte(src))
		if err != nil {
			return nil, err // a bug in the table
		}
		if d, ok := m["description"].(string); ok {
			bm["description"] = d
		}
		for k, v := range m {
			if strings.HasPrefix(k, "x-") {
				bm[k] = v
			}
		}
		return c.node(bm, path, depth)
	}
	n := &node{}
	var err error
	get := func(k string) (any, bool) { v, ok := m[k]; return v, ok }
	flag := func(k string) bool {
		if err != nil {
			return false
		}
		v, ok := get(k)
		if !ok {
			return false
		}
		b, isBool := v.(bool)
		if !isBool {
			err = fmt.Errorf("%s: `%s` must be a boolean", at(path), k)
		}
		return b
	}
	count := func(k string) *int64 {
		if err != nil {
			return nil
		}
		v, ok := get(k)
		if !ok {
			return nil
		}
		num, isNum := v.(json.Number)
		i, perr := strconv.ParseInt(string(num), 10, 64)
		if !isNum || perr != nil || i < 0 {
			err = fmt.Errorf("%s: `%s` must be a non-negative integer", at(path), k)
			return nil
		}
		return &i
	}
	number := func(k string) (string, *float64) {
		if err != nil {
			return "", nil
		}
		v, ok := get(k)
		if !ok {
			return "", nil
		}
		num, isNum := v.(json.Number)
		f, ferr := num.Float64()
		if !isNum || ferr != nil || math.IsInf(f, 0) {
			err = fmt.Errorf("%s: `%s` must be a finite number", at(path), k)
			return "", nil
		}
		return string(num), &f
	}

	// type
	switch t, ok := get("type"); {
	case !ok:
		switch {
		case m["properties"] != nil || m["additionalProperties"] != nil:
			n.kind = kindObject
		case m["items"] != nil:
			n.kind = kindArray
		default:
			return nil, fmt.Errorf("%s: no `type`", at(path))
		}
	default:
		name, _ := t.(string)
		k, known := kindNames[name]
		if !known {
			return nil, fmt.Errorf("%s: unsupported `type` %v", at(path), jsonText(t))
		}
		n.kind = k
	}
	n.nullable = flag("nullable")
	n.readOnly = flag("readOnly")
	if v, ok := get("x-radius-sensitive"); ok {
		b, isBool := v.(bool)
		if !isBool {
			return nil, fmt.Errorf("%s: `x-radius-sensitive` must be a boolean", at(path))
		}
		n.sensitive = b
	}
	if v, ok := get(api.ExtensionResourceType); ok {
		if n.kind != kindString {
			return nil, fmt.Errorf("%s: `%s` applies to strings only", at(path), api.ExtensionResourceType)
		}
		if n.refTypes, err = refTypes(v); err != nil {
			return nil, fmt.Errorf("%s: `%s` %v", at(path), api.ExtensionResourceType, err)
		}
		n.reference = true
	}

	switch n.kind {
	case kindString:
		n.minLength, n.maxLength = count("minLength"), count("maxLength")
		if p, ok := get("pattern"); ok && err == nil {
			text, isStr := p.(string)
			if !isStr {
				return nil, fmt.Errorf("%s: `pattern` must be a string", at(path))
			}
			re, perr := regexp2.Compile(text, regexp2.ECMAScript)
			if perr != nil {
				return nil, fmt.Errorf("%s: pattern does not compile as ECMA-262: %v", at(path), perr)
			}
			re.MatchTimeout = PatternTimeout
			n.pattern, n.patternText = re, text
		}
	case kindInteger, kindNumber:
		n.minimum, _ = number("minimum")
		n.maximum, _ = number("maximum")
		n.multipleOf, _ = number("multipleOf")
	case kindArray:
		n.minItems, n.maxItems = count("minItems"), count("maxItems")
		items, ok := get("items")
		if !ok {
			n.items = anyNode()
			break
		}
		im, isObj := items.(map[string]any)
		if !isObj {
			return nil, fmt.Errorf("%s: `items` must be a schema", at(path))
		}
		if n.items, err = c.node(im, ptr(path, "items"), depth+1); err != nil {
			return nil, err
		}
	case kindObject:
		n.minProps, n.maxProps = count("minProperties"), count("maxProperties")
		switch ap := m["additionalProperties"].(type) {
		case nil:
		case bool:
			if ap {
				return nil, fmt.Errorf("%s: `additionalProperties: true` is not supported: declare the value schema", at(path))
			}
		case map[string]any:
			if _, ok := m["properties"]; ok {
				return nil, fmt.Errorf("%s: an object cannot declare both `properties` and `additionalProperties`", at(path))
			}
			n.kind = kindMap
			if n.values, err = c.node(ap, ptr(path, "additionalProperties"), depth+1); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s: `additionalProperties` must be a schema or false", at(path))
		}
		if n.kind == kindObject {
			if err := c.properties(n, m, path, depth); err != nil {
				return nil, err
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if v, ok := get("enum"); ok {
		list, isList := v.([]any)
		if !isList {
			return nil, fmt.Errorf("%s: `enum` must be a list", at(path))
		}
		n.enum = list
	}
	if v, ok := get("default"); ok {
		n.hasDefault, n.def = true, v
	}
	if f, ok := m["format"].(string); ok && formatApplies(f, n.kind) {
		n.format = f
	}
	if err := c.kinSchemas(n, m, path); err != nil {
		return nil, err
	}
	return n, nil
}

func (c *compiler) properties(n *node, m map[string]any, path string, depth int) error {
	n.props = map[string]*node{}
	n.required = map[string]bool{}
	if v, ok := m["properties"]; ok {
		props, isObj := v.(map[string]any)
		if !isObj {
			return fmt.Errorf("%s: `properties` must be an object", at(path))
		}
		for name, pv := range props {
			pm, isObj := pv.(map[string]any)
			if !isObj {
				return fmt.Errorf("%s: must be a schema", at(ptr(ptr(path, "properties"), name)))
			}
			child, err := c.node(pm, ptr(ptr(path, "properties"), name), depth+1)
			if err != nil {
				return err
			}
			n.props[name] = child
			n.names = append(n.names, name)
		}
		slices.Sort(n.names)
	}
	if v, ok := m["required"]; ok {
		list, isList := v.([]any)
		if !isList {
			return fmt.Errorf("%s: `required` must be a list of property names", at(path))
		}
		for _, r := range list {
			name, isStr := r.(string)
			if !isStr || n.props[name] == nil {
				return fmt.Errorf("%s: required property %s is not declared in `properties`", at(path), jsonText(r))
			}
			n.required[name] = true
			n.reqOrder = append(n.reqOrder, name)
		}
	}
	return nil
}

// refTypes reads an x-resource-type value: a full type name, a list of
// them, or "*" (nil: any type).
func refTypes(v any) ([]string, error) {
	var names []string
	switch v := v.(type) {
	case string:
		if v == api.AnyResourceType {
			return nil, nil
		}
		names = []string{v}
	case []any:
		if len(v) == 0 {
			return nil, fmt.Errorf("lists no type")
		}
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("must list type names, not %s", jsonText(e))
			}
			names = append(names, s)
		}
	default:
		return nil, fmt.Errorf("must be a type name, a list of type names or %q", api.AnyResourceType)
	}
	for _, t := range names {
		if t == api.AnyResourceType {
			return nil, fmt.Errorf("%q stands alone, not in a list", api.AnyResourceType)
		}
		if p := api.FullTypeNameProblem(t); p != "" {
			return nil, fmt.Errorf("type %q %s", t, p)
		}
	}
	return names, nil
}

// kinSchemas builds the node's kin-openapi schemas: kin (the local keyword
// constraints it evaluates) and full (the whole tree, for OpenAPI()).
func (c *compiler) kinSchemas(n *node, m map[string]any, path string) error {
	k := &openapi3.Schema{Nullable: n.nullable, ReadOnly: n.readOnly}
	set := func(t string) { k.Type = &openapi3.Types{t} }
	switch n.kind {
	case kindString:
		set(openapi3.TypeString)
	case kindInteger:
		set(openapi3.TypeInteger)
	case kindNumber:
		set(openapi3.TypeNumber)
	case kindBoolean:
		set(openapi3.TypeBoolean)
	case kindObject, kindMap:
		set(openapi3.TypeObject)
	case kindArray:
		set(openapi3.TypeArray)
	}
	local := false
	if len(n.enum) > 0 {
		k.Enum, local = n.enum, true
	}
	f := func(s string) *float64 {
		if s == "" {
			return nil
		}
		v, _ := strconv.ParseFloat(s, 64)
		return &v
	}
	if n.kind == kindInteger || n.kind == kindNumber {
		k.Min, k.Max, k.MultipleOf = f(n.minimum), f(n.maximum), f(n.multipleOf)
		local = local || k.Min != nil || k.Max != nil || k.MultipleOf != nil
		for _, x := range []struct {
			key   string
			bound string
			dst   *openapi3.ExclusiveBound
			excl  *string
			text  string
		}{{"exclusiveMinimum", "minimum", &k.ExclusiveMin, &n.exclMin, n.minimum}, {"exclusiveMaximum", "maximum", &k.ExclusiveMax, &n.exclMax, n.maximum}} {
			switch v := m[x.key].(type) {
			case nil:
			case bool: // OpenAPI 3.0: a modifier of the bound
				if v && x.text == "" {
					return fmt.Errorf("%s: `%s` needs `%s`", at(path), x.key, x.bound)
				}
				b := v
				*x.dst = openapi3.ExclusiveBound{Bool: &b}
				if v {
					*x.excl = x.text
				}
			default:
				return fmt.Errorf("%s: `%s` must be a boolean (OpenAPI 3.0: `%s: N` and `%s: true`)", at(path), x.key, x.bound, x.key)
			}
		}
		if n.multipleOf != "" && *k.MultipleOf <= 0 {
			return fmt.Errorf("%s: `multipleOf` must be greater than 0", at(path))
		}
	}
	if n.format != "" {
		k.Format, local = n.format, true
	}
	u := func(p *int64) *uint64 {
		if p == nil {
			return nil
		}
		v := uint64(*p)
		return &v
	}
	if n.kind == kindArray {
		k.UniqueItems, _ = m["uniqueItems"].(bool)
		if n.minItems != nil {
			k.MinItems = uint64(*n.minItems)
		}
		k.MaxItems = u(n.maxItems)
		local = local || k.UniqueItems || n.minItems != nil || n.maxItems != nil
	}
	if n.kind == kindObject || n.kind == kindMap {
		if n.minProps != nil {
			k.MinProps = uint64(*n.minProps)
		}
		k.MaxProps = u(n.maxProps)
		local = local || n.minProps != nil || n.maxProps != nil
	}
	if local {
		n.kin = k
	}

	full := *k
	full.Format, _ = m["format"].(string)
	full.Description, _ = m["description"].(string)
	full.Title, _ = m["title"].(string)
	full.WriteOnly, _ = m["writeOnly"].(bool)
	full.Deprecated, _ = m["deprecated"].(bool)
	if n.hasDefault {
		full.Default = n.def
	}
	if n.minLength != nil {
		full.MinLength = uint64(*n.minLength)
	}
	full.MaxLength = u(n.maxLength)
	full.Pattern = n.patternText
	full.Example = m["example"]
	for k, v := range m {
		if !strings.HasPrefix(k, "x-") || k == "x-radius-sensitive" && !n.sensitive {
			continue
		}
		if full.Extensions == nil {
			full.Extensions = map[string]any{}
		}
		full.Extensions[k] = v
	}
	if n.reference { // canonical: "*", one name, or a list of several
		switch len(n.refTypes) {
		case 0:
			full.Extensions[api.ExtensionResourceType] = api.AnyResourceType
		case 1:
			full.Extensions[api.ExtensionResourceType] = n.refTypes[0]
		default:
			full.Extensions[api.ExtensionResourceType] = n.refTypes
		}
	}
	n.full = &full
	attachChildren(n)
	return nil
}

// attachChildren links the full schemas of n's children into n.full.
func attachChildren(n *node) {
	switch n.kind {
	case kindObject:
		n.full.Properties = openapi3.Schemas{}
		for _, name := range n.names {
			n.full.Properties[name] = openapi3.NewSchemaRef("", n.props[name].full)
		}
		n.full.Required = n.reqOrder
		closed := false
		n.full.AdditionalProperties = openapi3.AdditionalProperties{Has: &closed}
	case kindMap:
		n.full.AdditionalProperties = openapi3.AdditionalProperties{Schema: openapi3.NewSchemaRef("", n.values.full)}
	case kindArray:
		n.full.Items = openapi3.NewSchemaRef("", n.items.full)
	}
}

// anyNode is the implicit schema of values anything goes for.
func anyNode() *node { return &node{kind: kindAny, full: &openapi3.Schema{}} }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
