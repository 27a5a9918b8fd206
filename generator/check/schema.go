package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/pattern"
)

// radiusHint is the hint of the radius-unsupported diagnostics of schemas.
const radiusHint = "set `target: udtc` in udtc.yaml (or --profile udtc) for udtc serve alone"

// schemaKeywords are the keywords of the supported subset, from the wire struct.
var schemaKeywords = manifest.Keys(manifest.Schema{})

// lookaround finds ECMAScript constructs Bicep's pattern check ignores.
var lookaround = regexp.MustCompile(`\(\?<?[=!]|\\[1-9]|\\k<`)

// schemaChecker checks one schema tree and converts it to the model.
type schemaChecker struct {
	r *reporter
	// root is the path of the API version's schema, when checking one.
	rootPath string
}

// root checks the schema of an API version: n is the value of key (the
// `schema:` key, or nil for a schema on its own). It returns nil when the
// schema cannot be converted; undeclared reports `schema: {}`.
func (c *schemaChecker) root(key, n *yaml.Node, path string) (s *model.Schema, undeclared bool) {
	n = resolve(n)
	if n.Kind == yaml.MappingNode && len(n.Content) == 0 {
		if c.r.base {
			c.r.report(n, RuleSchemaUndeclared, path, "declare `type: object` and the properties to get validation, typed Bicep and Go",
				"`schema: {}` declares no properties of its own: resources have only Radius's base properties (%s)", strings.Join(schema.BaseNames(), ", "))
		} else {
			c.r.report(n, RuleSchemaUndeclared, path, "declare `type: object` and the properties to get validation, typed Bicep and Go",
				"`schema: {}` declares no schema: any properties are accepted")
		}
		return &model.Schema{Kind: model.Map, Path: path, Span: c.r.pos(n),
			AdditionalProperties: &model.Schema{Kind: model.Any, Path: pointer(path, "additionalProperties"), Span: c.r.pos(n)}}, true
	}
	c.rootPath = path
	s = c.node(key, n, path, 1)
	if s == nil {
		return nil, false
	}
	if c.r.radius {
		for _, p := range s.Properties {
			if msg := api.RadiusReservedProblem(p.Name); msg != "" {
				c.r.reportAt(diag.Span(p.Span), RuleRadiusUnsupported, p.Schema.Path, radiusHint, "%s", msg)
			}
		}
	}
	if s.Kind != model.Object && s.Kind != model.Map || s.Ref != "" {
		what := "type: " + s.Kind.String()
		if s.Ref != "" {
			what = "a $ref"
		}
		c.r.report(n, RuleSchemaRoot, path, "the schema describes the resource's `properties`: start it with `type: object`",
			"the root of a schema must be `type: object`, not %s", what)
		return nil, false
	}
	return s, false
}

// node checks one schema node at the given depth (the root is 1). key is
// the mapping key the schema is declared under (a property's name, `items`,
// `additionalProperties`, `schema`), or nil; problems with the node as a
// whole (no `type`) are reported there, where the reader declared it.
func (c *schemaChecker) node(key, n *yaml.Node, path string, depth int) *model.Schema {
	r := c.r
	n = resolve(n)
	if depth > MaxSchemaDepth {
		r.report(n, RuleSchemaDepth, path, "flatten the schema or move parts into their own resource types",
			"schema nests deeper than %d levels", MaxSchemaDepth)
		return nil
	}
	entries, ok := r.mapping(n, path, "a schema")
	if !ok {
		return nil
	}
	kw := make(map[string]*entry, len(entries))
	extensions, poly := c.keywords(entries, kw)
	if ref := kw["$ref"]; ref != nil {
		return c.ref(n, path, ref, kw, extensions)
	}
	s := &model.Schema{Path: path, Span: r.pos(n)}
	at := n
	if key != nil {
		at = key
	}
	// A polymorphic schema (already reported) has no `type` of its own: one
	// error per mistake, so no type-missing on top.
	if (poly && kw["type"] == nil) || !c.kind(s, at, path, kw) {
		// Still check what lies below, so one run reports every problem.
		for _, name := range []string{"properties", "additionalProperties", "items"} {
			if e := kw[name]; e != nil {
				c.children(&model.Schema{Kind: model.Object}, e, depth)
			}
		}
		return nil
	}
	c.requiredFlag(path, kw)
	c.dropInapplicable(s, kw)
	c.annotations(s, kw, extensions)
	c.constraints(s, n, kw, depth)
	if s.ReadOnly && s.WriteOnly {
		r.report(kw["writeOnly"].key, RuleReadWriteOnly, kw["writeOnly"].ptr(), "a property the service returns (readOnly) cannot be one only clients send (writeOnly)",
			"a schema cannot be both readOnly and writeOnly")
	}
	return s
}

// keywords sorts a schema mapping's entries: the keywords of the subset
// into kw by name, the x- extensions in order, and whether a polymorphic
// keyword (an error, reported here, as are unknown keywords) was among
// them. (The caller makes kw, so that it need not outlive the node.)
func (c *schemaChecker) keywords(entries []entry, kw map[string]*entry) (extensions []*entry, poly bool) {
	r := c.r
	for i := range entries {
		e := &entries[i]
		switch {
		case slices.Contains(schemaKeywords, e.name) && !schema.IsExtension(e.name):
			kw[e.name] = e
		case schema.IsPolymorphic(e.name):
			poly = true
			r.report(e.key, RulePolymorphism, e.ptr(), "model the variants as optional properties, or as separate resource types",
				"`%s` is not supported: schemas may not use polymorphism", e.name)
		case schema.IsExtension(e.name):
			extensions = append(extensions, e)
			if !c.nearSecurity(e) {
				c.nearExtension(e)
			}
		case c.nearSecurity(e):
		default:
			hint := "it is ignored"
			if s := suggest(e.name, schemaKeywords); s != "" {
				hint = fmt.Sprintf("did you mean `%s`?", s)
			}
			r.report(e.key, RuleUnknownKeyword, e.ptr(), hint, "unknown schema keyword %q", e.name)
		}
	}
	return extensions, poly
}

// maxSecurityTypo is the edit distance within which a keyword is taken
// for a security keyword: typos, not another vendor's extension
// (`x-ms-sensitive` stays an open extension, with unknown-keyword's hint).
const maxSecurityTypo = 2

// nearSecurity reports, as an error, a keyword a typo or two (or only
// case) away from a security keyword (schema.SecurityKeywords): the schema
// means to protect a secret and silently does not. It reports whether it
// did.
func (c *schemaChecker) nearSecurity(e *entry) bool {
	known := schema.SecurityKeywords()
	if slices.Contains(known, e.name) {
		return false
	}
	s := ""
	for _, k := range known {
		if distance(strings.ToLower(e.name), k) <= maxSecurityTypo {
			s = k
			break
		}
	}
	if s == "" {
		return false
	}
	c.r.report(e.key, RuleSecurityKeywordTypo, e.ptr(), fmt.Sprintf("did you mean `%s`?", s),
		"%q is not `%s`: the value it meant to protect would be stored in clear, returned by GET and not @secure in Bicep", e.name, s)
	return true
}

// nearExtension warns on an x- keyword one typo away from a known one
// (`x-radius-sensitve`): open extensions are allowed, but this one most
// likely meant the known keyword, whose meaning (a secret sealed at rest)
// it silently lacks.
func (c *schemaChecker) nearExtension(e *entry) {
	known := schema.KnownExtensions()
	if slices.Contains(known, e.name) {
		return
	}
	if s := suggest(e.name, known); s != "" {
		c.r.report(e.key, RuleUnknownKeyword, e.ptr(), fmt.Sprintf("did you mean `%s`?", s),
			"unknown extension %q is kept as an open extension, without the meaning of `%s`", e.name, s)
	}
}

// requiredFlag reports and drops `required: true` on a schema node, the
// JSON Schema draft 3 (and Swagger parameter) spelling: in OpenAPI 3.0 the
// parent object lists its required properties by name, so the hint points
// there.
func (c *schemaChecker) requiredFlag(path string, kw map[string]*entry) {
	e := kw["required"]
	if e == nil {
		return
	}
	v := resolve(e.value)
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		return
	}
	hint := "list required properties by name in the object that declares them: `required: [name]`"
	if name, ok := propertyName(path); ok {
		hint = fmt.Sprintf("remove it here and list the property in the `required` of the object that declares it, beside `properties`: `required: [%s]`", name)
	}
	c.r.report(e.key, RuleKeywordValue, e.ptr(), hint, "`required` is a list of property names on the parent object, not a flag on the property")
	delete(kw, "required")
}

// propertyName returns the name (unescaped) of the property whose schema
// is at path, if it is one.
func propertyName(path string) (string, bool) {
	i := strings.LastIndex(path, "/properties/")
	if i < 0 || strings.Contains(path[i+len("/properties/"):], "/") {
		return "", false
	}
	return schema.UnescapePointerToken(path[i+len("/properties/"):]), true
}

// dropInapplicable reports and drops the keywords that do not apply to s's
// kind (schema.AppliesTo).
func (c *schemaChecker) dropInapplicable(s *model.Schema, kw map[string]*entry) {
	for name, e := range kw {
		if !schema.AppliesTo(name, s.Kind) {
			c.r.report(e.key, RuleKeywordType, e.ptr(), "", "`%s` does not apply to type %s", name, kindOfType(s.Kind))
			delete(kw, name)
		}
	}
}

// constraints checks the keywords that constrain values of s's kind, its
// format, enum and default.
func (c *schemaChecker) constraints(s *model.Schema, n *yaml.Node, kw map[string]*entry, depth int) {
	switch s.Kind {
	case model.String:
		c.stringConstraints(s, kw)
	case model.Integer, model.Number:
		c.numberConstraints(s, kw)
	case model.Array:
		c.arrayConstraints(s, n, kw, depth)
	case model.Object, model.Map:
		c.objectConstraints(s, n, kw, depth)
	}
	if e := kw["format"]; e != nil {
		c.format(s, e)
	}
	if e := kw["enum"]; e != nil {
		c.enum(s, e)
	}
	if e := kw["default"]; e != nil {
		c.defaultValue(s, e)
	}
}

// kindOfType names a kind the way `type` spells it.
func kindOfType(k schema.Kind) string {
	if k == model.Map {
		return "object (a map)"
	}
	return k.String()
}

// kind reads `type`; a missing one is reported at n. The caller checks
// what lies below either way, so one run reports every problem.
func (c *schemaChecker) kind(s *model.Schema, n *yaml.Node, path string, kw map[string]*entry) bool {
	r := c.r
	e := kw["type"]
	if e == nil && r.impliedTypes {
		c.implied(s, n, path, kw)
		return true
	}
	if e == nil {
		hint := "add `type: string` (or " + strings.Join(schema.TypeNames()[1:], ", ") + ")"
		switch {
		case kw["properties"] != nil || kw["additionalProperties"] != nil:
			hint = "add `type: object`"
		case kw["items"] != nil:
			hint = "add `type: array`"
		}
		r.report(n, RuleTypeMissing, path, hint, "schema has no `type`")
		return false
	}
	v := resolve(e.value)
	if v.Kind == yaml.SequenceNode {
		hint := "give one type"
		for _, t := range v.Content {
			if t.Value == "null" {
				hint = "give one type and `nullable: true`"
			}
		}
		r.report(v, RuleTypeInvalid, e.ptr(), hint, "`type` must be a single type name, not a list")
		return false
	}
	name, ok := r.strOf(e, "`type`")
	if !ok {
		return false
	}
	k, ok := schema.KindOfType(name)
	if !ok {
		hint := "one of: " + strings.Join(schema.TypeNames(), ", ")
		if s := suggest(name, schema.TypeNames()); s != "" {
			hint = fmt.Sprintf("did you mean `%s`?", s)
		}
		r.report(v, RuleTypeInvalid, e.ptr(), hint, "unknown type %q", name)
		return false
	}
	s.Kind = k
	if k == model.Any && r.radius && !api.RadiusAnyAllowed(path) {
		r.report(v, RuleRadiusUnsupported, path, radiusHint, "%s", api.RadiusAnyProblem)
	}
	if k == model.Object {
		if ap := kw["additionalProperties"]; ap != nil && resolve(ap.value).Kind == yaml.MappingNode {
			s.Kind = model.Map
		}
	}
	return true
}

// implied gives a schema node written without `type` the kind Radius
// reads it as (schema.ImpliedKind), under target: radius and in the
// registry, which take what rad registers: an object or array by its
// keywords, otherwise any value, which is worth a warning at n.
func (c *schemaChecker) implied(s *model.Schema, n *yaml.Node, path string, kw map[string]*entry) {
	s.Kind = schema.ImpliedKind(kw["properties"] != nil, kw["additionalProperties"] != nil, kw["items"] != nil)
	switch s.Kind {
	case model.Any:
		names := schema.TypeNames()[1:]
		if c.r.radius && !api.RadiusAnyAllowed(path) {
			names = slices.DeleteFunc(slices.Clone(names), func(t string) bool { return t == "any" })
		}
		c.r.report(n, RuleTypeImplied, path, "add `type: string` (or "+strings.Join(names, ", ")+") to have it checked",
			"schema has no `type`: Radius accepts any value here, unchecked, and Bicep and Go type it `any`")
	case model.Object:
		if ap := kw["additionalProperties"]; ap != nil && resolve(ap.value).Kind == yaml.MappingNode {
			s.Kind = model.Map
		}
	}
}

// ref resolves a built-in `$ref`.
func (c *schemaChecker) ref(n *yaml.Node, path string, ref *entry, kw map[string]*entry, ext []*entry) *model.Schema {
	r := c.r
	if r.radius {
		r.report(ref.key, RuleRadiusUnsupported, path, radiusHint, "%s", api.RadiusRefProblem)
	}
	target, ok := r.strOf(ref, "`$ref`")
	if !ok {
		return nil
	}
	s := builtin(target, path, r.pos(n))
	if s == nil {
		hint := "built-in schemas: " + schema.BuiltinPrefix + strings.Join(schema.BuiltinNames(), ", "+schema.BuiltinPrefix)
		if name, ok := strings.CutPrefix(target, schema.BuiltinPrefix); ok {
			if sug := suggest(name, schema.BuiltinNames()); sug != "" {
				hint = fmt.Sprintf("did you mean `%s%s`?", schema.BuiltinPrefix, sug)
			}
			r.report(ref.value, RuleRef, ref.ptr(), hint, "unknown built-in schema %q", name)
		} else {
			r.report(ref.value, RuleRef, ref.ptr(), hint, "`$ref` %q is not allowed: only built-in schemas can be referenced", target)
		}
		return nil
	}
	for name, e := range kw {
		switch name {
		case "$ref":
		case "description":
			d, _ := r.strOf(e, "`description`")
			s.Description = r.intern(d)
		default:
			r.report(e.key, RuleRefSiblings, e.ptr(), "remove it: the built-in schema defines it", "`%s` beside `$ref` is ignored", name)
		}
	}
	c.extensions(s, ext)
	return s
}

func (c *schemaChecker) annotations(s *model.Schema, kw map[string]*entry, ext []*entry) {
	r := c.r
	if e := kw["description"]; e != nil {
		d, _ := r.strOf(e, "`description`")
		s.Description = r.intern(d)
	}
	if e := kw["title"]; e != nil {
		t, _ := r.strOf(e, "`title`")
		s.Title = r.intern(t)
	}
	s.ReadOnly = c.flag(kw["readOnly"])
	s.WriteOnly = c.flag(kw["writeOnly"])
	s.Nullable = c.flag(kw["nullable"])
	s.Deprecated = c.flag(kw["deprecated"])
	if e := kw["example"]; e != nil {
		if v, err := literal(e.value); err == nil {
			s.Example = &v
		} else {
			r.report(e.value, RuleKeywordValue, e.ptr(), "", "`example` cannot be represented as JSON: %v", err)
		}
	}
	c.extensions(s, ext)
}

func (c *schemaChecker) extensions(s *model.Schema, ext []*entry) {
	r := c.r
	for _, e := range ext {
		if e.name == api.ExtensionResourceType {
			c.resourceReference(s, e)
			continue
		}
		if e.name == schema.ExtensionSensitive {
			v := resolve(e.value)
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
				r.report(v, RuleSensitive, e.ptr(), "write `x-radius-sensitive: true`", "`x-radius-sensitive` must be a boolean, not %s", kindName(v))
				continue
			}
			s.Sensitive = v.Value == "true"
			if s.Kind != model.String && s.Kind != model.Object && s.Kind != model.Map {
				r.report(e.key, RuleSensitive, e.ptr(), "mark the string (or the object) that holds the secret",
					"`x-radius-sensitive` applies to strings and objects, not %s", kindOfType(s.Kind))
				s.Sensitive = false
			}
			continue
		}
		raw, err := toJSON(e.value)
		if err != nil {
			r.report(e.value, RuleKeywordValue, e.ptr(), "", "`%s` cannot be represented as JSON: %v", e.name, err)
			continue
		}
		s.Extensions = append(s.Extensions, schema.Extension{Name: e.name, Value: raw})
	}
}

// flag reads a boolean keyword.
func (c *schemaChecker) flag(e *entry) bool {
	if e == nil {
		return false
	}
	v := resolve(e.value)
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		c.r.report(v, RuleKeywordValue, e.ptr(), "write true or false", "`%s` must be a boolean, not %s", e.name, kindName(v))
		return false
	}
	return v.Value == "true" || v.Value == "True" || v.Value == "TRUE"
}

// count reads a non-negative integer keyword.
func (c *schemaChecker) count(e *entry) *int64 {
	if e == nil {
		return nil
	}
	v := resolve(e.value)
	var i int64
	var err error
	isInt := v.Kind == yaml.ScalarNode && v.Tag == "!!int"
	if isInt {
		i, err = decodeInt(v)
	}
	if !isInt || err != nil || i < 0 {
		c.r.report(v, RuleKeywordValue, e.ptr(), "", "`%s` must be a non-negative integer, not %s", e.name, describe(v))
		return nil
	}
	return &i
}

// counts reads a pair of non-negative count keywords (minLength and
// maxLength, say) and reports a max below the min.
func (c *schemaChecker) counts(kw map[string]*entry, minName, maxName string) (lo, hi *int64) {
	lo, hi = c.count(kw[minName]), c.count(kw[maxName])
	if lo != nil && hi != nil && *lo > *hi {
		e := kw[maxName]
		c.r.report(e.value, RuleRange, e.ptr(), "", "%s %d is less than %s %d", maxName, *hi, minName, *lo)
	}
	return lo, hi
}

// describe shows a scalar's text, or its kind for other nodes.
func describe(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return strconv.Quote(n.Value)
	}
	return kindName(n)
}

// num reads a number keyword; whole requires an integral value.
func (c *schemaChecker) num(e *entry, whole bool) *json.Number {
	if e == nil {
		return nil
	}
	v := resolve(e.value)
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") {
		c.r.report(v, RuleKeywordValue, e.ptr(), "", "`%s` must be a number, not %s", e.name, describe(v))
		return nil
	}
	text, err := number(v)
	if err != nil {
		c.r.report(v, RuleKeywordValue, e.ptr(), "", "`%s`: %v", e.name, err)
		return nil
	}
	if whole {
		// Plain integer form within int64; a whole bound beyond it stays
		// as written (exact), as no integer value reaches it.
		switch i, err := schema.ParseWhole(json.Number(text)); {
		case errors.Is(err, schema.ErrFraction):
			c.r.report(v, RuleKeywordValue, e.ptr(), "", "`%s` of an integer must be a whole number, not %s", e.name, text)
			return nil
		case err == nil:
			text = strconv.FormatInt(i, 10)
		}
	}
	jn := json.Number(text)
	return &jn
}

func (c *schemaChecker) stringConstraints(s *model.Schema, kw map[string]*entry) {
	r := c.r
	s.MinLength, s.MaxLength = c.counts(kw, "minLength", "maxLength")
	if e := kw["pattern"]; e != nil {
		p, ok := r.strOf(e, "`pattern`")
		if !ok {
			return
		}
		if r.radius {
			if msg := r.patterns.radiusProblem(p); msg != "" {
				r.report(e.value, RuleRadiusUnsupported, s.Path, radiusHint, "%s", msg)
			}
		}
		re, err := r.pattern(p)
		if err != nil {
			r.report(e.value, RulePattern, e.ptr(), "patterns are ECMA-262 regular expressions", "pattern does not compile: %v", err)
			return
		}
		if re.Backtracks() {
			r.report(e.value, RulePatternBacktracking, e.ptr(), "write it without lookaround and backreferences (docs/schema-subset.md lists what runs in linear time)",
				"pattern needs the backtracking engine: the registry matches it under a time backstop per request and refuses values it cannot match in time")
		}
		c.patternCost(e, re, s.MaxLength)
		if letters := re.LetterEscapes(); len(letters) > 0 {
			var each []string
			for _, l := range letters {
				each = append(each, fmt.Sprintf("`%s` is %s", l, l[1:]))
			}
			r.report(e.value, RulePatternLetterEscape, e.ptr(), "write ^ and $ for the start and end of the value, or the letter without its backslash",
				"pattern escapes letters ECMA-262 reads as themselves: %s", strings.Join(each, ", "))
		}
		if lookaround.MatchString(p) {
			r.report(e.value, RulePatternBicep, e.ptr(), "the registry still checks it; the Go client cannot (go-pattern-unsupported)",
				"pattern uses lookaround or backreferences, which Bicep does not check")
		}
		s.Pattern = p
	}
}

func (c *schemaChecker) numberConstraints(s *model.Schema, kw map[string]*entry) {
	r := c.r
	whole := s.Kind == model.Integer
	s.Minimum, s.Maximum = c.num(kw["minimum"], whole), c.num(kw["maximum"], whole)
	for _, x := range []struct {
		name, bound string
		dst         *bool
	}{{"exclusiveMinimum", "minimum", &s.ExclusiveMinimum}, {"exclusiveMaximum", "maximum", &s.ExclusiveMaximum}} {
		e := kw[x.name]
		if e == nil {
			continue
		}
		if v := resolve(e.value); v.Kind == yaml.ScalarNode && (v.Tag == "!!int" || v.Tag == "!!float") {
			r.report(v, RuleKeywordValue, e.ptr(), fmt.Sprintf("OpenAPI 3.0 writes `%s: %s` and `%s: true`", x.bound, v.Value, x.name),
				"`%s` must be a boolean (OpenAPI 3.0), not a number", x.name)
			continue
		}
		b := c.flag(e)
		if b && kw[x.bound] == nil {
			r.report(e.key, RuleKeywordValue, e.ptr(), "", "`%s` needs `%s`", x.name, x.bound)
			continue
		}
		*x.dst = b
	}
	if s.Minimum != nil && s.Maximum != nil {
		order, _ := schema.CompareNumbers(*s.Minimum, *s.Maximum)
		e := kw["maximum"]
		switch {
		case order > 0:
			r.report(e.value, RuleRange, e.ptr(), "", "maximum %s is less than minimum %s", *s.Maximum, *s.Minimum)
		case order == 0 && (s.ExclusiveMinimum || s.ExclusiveMaximum):
			r.report(e.value, RuleRange, e.ptr(), "", "no value lies between minimum %s and maximum %s when a bound is exclusive", *s.Minimum, *s.Maximum)
		}
	}
	if e := kw["multipleOf"]; e != nil {
		if m := c.num(e, false); m != nil {
			if f, _ := m.Float64(); f <= 0 {
				r.report(e.value, RuleRange, e.ptr(), "", "multipleOf must be greater than 0, not %s", *m)
			} else {
				s.MultipleOf = m
			}
		}
	}
}

func (c *schemaChecker) arrayConstraints(s *model.Schema, n *yaml.Node, kw map[string]*entry, depth int) {
	r := c.r
	s.MinItems, s.MaxItems = c.counts(kw, "minItems", "maxItems")
	s.UniqueItems = c.flag(kw["uniqueItems"])
	e := kw["items"]
	if e == nil {
		r.report(n, RuleItemsMissing, s.Path, "add `items:` with the element schema, e.g. `items: {type: string}`", "array has no `items`")
		s.Items = &model.Schema{Kind: model.Any, Path: pointer(s.Path, "items"), Span: s.Span}
		return
	}
	s.Items = c.node(e.key, e.value, e.ptr(), depth+1)
}

func (c *schemaChecker) objectConstraints(s *model.Schema, n *yaml.Node, kw map[string]*entry, depth int) {
	r := c.r
	s.MinProperties, s.MaxProperties = c.counts(kw, "minProperties", "maxProperties")
	if e := kw["additionalProperties"]; e != nil {
		v := resolve(e.value)
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!bool" && v.Value == "true":
			hint := "give the value schema, e.g. `additionalProperties: {type: string}` (or `type: any`)"
			if r.radius {
				hint = "give the value schema, e.g. `additionalProperties: {type: string}`"
			}
			r.report(v, RuleAdditionalTrue, e.ptr(), hint,
				"`additionalProperties: true` is not allowed: a map declares the type of its values")
		case v.Kind == yaml.ScalarNode && v.Tag == "!!bool":
			// false: the default closed object.
		case v.Kind == yaml.MappingNode:
			if p := kw["properties"]; p != nil {
				r.report(p.key, RuleMapWithProperties, p.ptr(), "use a map (additionalProperties) or an object (properties), or nest the map in a property",
					"an object cannot declare both `properties` and `additionalProperties`")
			}
			s.AdditionalProperties = c.node(e.key, v, e.ptr(), depth+1)
		default:
			r.report(v, RuleKeywordValue, e.ptr(), "", "`additionalProperties` must be a schema or false, not %s", kindName(v))
		}
	}
	if e := kw["properties"]; e != nil && s.Kind == model.Object {
		c.children(s, e, depth)
	} else if e != nil {
		c.children(&model.Schema{Kind: model.Object}, e, depth) // checked, then dropped
	}
	if e := kw["required"]; e != nil {
		c.required(s, e)
	}
}

// children checks the schemas below `properties`, `additionalProperties` or
// `items` into s.
func (c *schemaChecker) children(s *model.Schema, e *entry, depth int) {
	r := c.r
	switch e.name {
	case "properties":
		props, ok := r.mapping(e.value, e.ptr(), "`properties`")
		if !ok {
			return
		}
		// One allocation for the properties and one for the list: the
		// checker builds them for every object of every manifest, and the
		// model stays live through every target.
		block := make([]model.Property, 0, len(props))
		list := make([]*model.Property, 0, len(props))
		for _, p := range props {
			if ps := c.node(p.key, p.value, p.ptr(), depth+1); ps != nil {
				block = append(block, model.Property{Name: r.intern(p.name), Schema: ps, Span: r.pos(p.key)})
				list = append(list, &block[len(block)-1])
			}
		}
		if len(list) > 0 {
			s.Properties = list
		}
	default:
		if resolve(e.value).Kind == yaml.MappingNode {
			c.node(e.key, e.value, e.ptr(), depth+1)
		}
	}
}

// list returns the value of a keyword that must be a list, reporting rule
// (saying "what must be a list") when it is not.
func (c *schemaChecker) list(e *entry, rule, hint, what string) (*yaml.Node, bool) {
	v := resolve(e.value)
	if v.Kind != yaml.SequenceNode {
		c.r.report(v, rule, e.ptr(), hint, "%s, not %s", what, kindName(v))
		return nil, false
	}
	return v, true
}

func (c *schemaChecker) required(s *model.Schema, e *entry) {
	r := c.r
	v, ok := c.list(e, RuleKeywordValue, "for example: required: [name, size]", "`required` must be a list of property names")
	if !ok {
		return
	}
	seen := map[string]bool{}
	ptr := e.ptr()
	for i, item := range v.Content {
		// The item's pointer is built only for a diagnostic.
		path := func() string { return indexPointer(ptr, i) }
		if !isStr(resolve(item)) {
			r.str(item, path(), "a required property name")
			continue
		}
		name := resolve(item).Value
		if seen[name] {
			r.report(item, RuleRequired, path(), "", "%q is listed twice in `required`", name)
			continue
		}
		seen[name] = true
		p := s.Property(name)
		if p == nil && c.r.base && s.Path == c.rootPath && s.Kind == model.Object {
			// Radius merges the base property in (schema.MergeBase).
			if p = schema.BaseProperty(name, schema.AppendPointer(schema.AppendPointer(s.Path, "properties"), name)); p != nil {
				s.Properties = append(s.Properties, p)
			}
		}
		if p == nil {
			hint := ""
			var names []string
			for _, q := range s.Properties {
				names = append(names, q.Name)
			}
			if sug := suggest(name, names); sug != "" {
				hint = fmt.Sprintf("did you mean `%s`?", sug)
			} else if s.Kind == model.Map {
				hint = "a map declares no properties; required does not apply"
			}
			r.report(item, RuleRequired, path(), hint, "required property %q is not declared in `properties`", name)
			continue
		}
		p.Required = true
		if p.Schema.Default != nil {
			r.report(item, RuleRequiredDefault, path(), fmt.Sprintf("drop the `default`, or drop %q from `required`", name),
				"property %q is required, so its default %s never applies", name, p.Schema.Default.JSON)
		}
	}
}

func (c *schemaChecker) format(s *model.Schema, e *entry) {
	r := c.r
	f, ok := r.strOf(e, "`format`")
	if !ok {
		return
	}
	format, known := schema.LookupFormat(f)
	switch {
	case !known:
		names := schema.FormatNames(s.Kind)
		hint := "known formats for " + s.Kind.String() + ": " + strings.Join(names, ", ")
		if sug := suggest(f, names); sug != "" {
			hint = fmt.Sprintf("did you mean `%s`?", sug)
		}
		r.report(e.value, RuleFormatUnknown, e.ptr(), hint, "unknown format %q", f)
		s.Format = f
	case format.Kind != s.Kind:
		r.report(e.value, RuleFormat, e.ptr(), fmt.Sprintf("format %s is for type %s", f, format.Kind), "format %q does not fit type %s", f, kindOfType(s.Kind))
	default:
		s.Format = f
	}
}

func (c *schemaChecker) enum(s *model.Schema, e *entry) {
	r := c.r
	v, ok := c.list(e, RuleEnum, "for example: enum: [S, M, L]", "`enum` must be a list")
	if !ok {
		return
	}
	if len(v.Content) == 0 {
		r.report(v, RuleEnum, e.ptr(), "list the allowed values, or remove `enum`", "`enum` is empty: no value would be valid")
		return
	}
	seen := map[string]int{}
	ptr := e.ptr()
	for i, item := range v.Content {
		// The item's pointer is built only for a diagnostic.
		path := func() string { return indexPointer(ptr, i) }
		val, problem := c.value(item, s)
		if problem != "" {
			hint := ""
			if s.Kind == model.String && resolve(item).Kind == yaml.ScalarNode {
				hint = fmt.Sprintf("quote it: '%s'", resolve(item).Value)
			}
			r.report(item, RuleEnum, path(), hint, "enum value %s", problem)
			continue
		}
		if j, dup := seen[string(val.JSON)]; dup {
			r.report(item, RuleEnum, path(), "", "enum value %s is listed twice (first at index %d)", val.JSON, j)
			continue
		}
		seen[string(val.JSON)] = i
		s.Enum = append(s.Enum, val)
	}
}

func (c *schemaChecker) defaultValue(s *model.Schema, e *entry) {
	r := c.r
	val, problem := c.value(e.value, s)
	if problem != "" {
		r.report(e.value, RuleDefault, e.ptr(), "", "default %s", problem)
		return
	}
	if val.Kind == model.Any { // null, allowed by nullable
		s.Default = &val
		return
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(m model.Value) bool { return bytes.Equal(m.JSON, val.JSON) }) {
		r.report(e.value, RuleDefault, e.ptr(), "one of: "+enumList(s.Enum), "default %s is not one of the enum values", val.JSON)
		return
	}
	if msg := c.violation(s, val); msg != "" {
		r.report(e.value, RuleDefault, e.ptr(), "", "default %s %s", val.JSON, msg)
		return
	}
	s.Default = &val
}

// costlyValue is the shortest value pattern-cost warns about a pattern
// refusing: 1 MiB characters.
const costlyValue = 1 << 20

// patternCost warns (pattern-cost) about a pattern on RE2 whose steps per
// character (pattern.Cost) come mostly from a bounded repetition and make
// the registry refuse values shorter than costlyValue for the budget,
// unless maxLength keeps such values out (admission checks it first).
func (c *schemaChecker) patternCost(e *entry, re *pattern.Pattern, maxLength *int64) {
	cost := re.Cost()
	if re.Backtracks() {
		return
	}
	refused, ok := cost.Refuses(pattern.DefaultBudget)
	if !ok || refused > costlyValue || maxLength != nil && *maxLength < refused {
		return
	}
	repeat, repeatSteps := re.CostliestRepeat() // only for a pattern that costs this much
	if repeat == "" || 2*repeatSteps < cost.PerChar {
		return
	}
	c.r.report(e.value, RulePatternCost, e.ptr(),
		fmt.Sprintf("set maxLength below %s, anchor the pattern at the start (^) so a match spans few characters, or lower the count", pattern.Thousands(refused)),
		"matching this pattern costs %s steps per character of the value, %s of them for the bounded repetition %s: a 1 MiB value costs %s, and the registry refuses values of %s characters or more (its budget is %s per request)",
		pattern.Thousands(cost.PerChar), pattern.Thousands(repeatSteps), repeat,
		pattern.Steps((costlyValue+1)*cost.PerChar), pattern.Thousands(refused), pattern.DefaultBudget)
}

// violation explains how a scalar value breaks s's constraints, or returns "".
func (c *schemaChecker) violation(s *model.Schema, v model.Value) string {
	switch v.Kind {
	case model.String:
		n := schema.Length(v.Str)
		if s.MinLength != nil && n < *s.MinLength {
			return fmt.Sprintf("is shorter than minLength %d", *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return fmt.Sprintf("is longer than maxLength %d", *s.MaxLength)
		}
		if s.Pattern != "" {
			re, err := c.r.pattern(s.Pattern) // cached: the checker compiled it already
			if err != nil {
				return ""
			}
			ok, err := c.r.match(re, v.Str)
			if err != nil {
				return fmt.Sprintf("cannot be matched against pattern %s: %v", s.Pattern, err)
			}
			if !ok {
				return fmt.Sprintf("does not match pattern %s", s.Pattern)
			}
		}
	case model.Integer, model.Number:
		w := schema.IntegerWidth(s)
		i, err := schema.ParseWhole(v.Num)
		switch {
		case s.Kind == model.Integer && (err != nil || i < w.Min || i > w.Max):
			return fmt.Sprintf("is outside the range of %s (%d to %d)", w.Means, w.Min, w.Max)
		case schema.BelowMinimum(s, v.Num):
			return fmt.Sprintf("is below the minimum %s", *s.Minimum)
		case schema.AboveMaximum(s, v.Num):
			return fmt.Sprintf("is above the maximum %s", *s.Maximum)
		case s.MultipleOf != nil && !schema.MultipleOf(v.Num, *s.MultipleOf):
			return fmt.Sprintf("is not a multiple of %s", *s.MultipleOf)
		}
	}
	return ""
}

// value converts a literal for s, or explains why it is not of s's type.
func (c *schemaChecker) value(n *yaml.Node, s *model.Schema) (model.Value, string) {
	v, err := literal(n)
	if err != nil {
		return v, "cannot be represented as JSON: " + err.Error()
	}
	if v.Kind == model.Any && s.Nullable {
		return v, ""
	}
	ok := v.Kind == s.Kind ||
		s.Kind == model.Any ||
		s.Kind == model.Number && v.Kind == model.Integer ||
		s.Kind == model.Map && v.Kind == model.Object
	if !ok {
		return v, fmt.Sprintf("%s is %s, not of type %s", display(n, v), article(v.Kind), kindOfType(s.Kind))
	}
	if s.Kind == model.Number {
		v.Kind = model.Number
	}
	return v, ""
}

func article(k schema.Kind) string {
	switch k {
	case model.Any:
		return "null"
	case model.Integer, model.Object, model.Array:
		return "an " + k.String()
	}
	return "a " + k.String()
}

// display shows a literal as the user wrote it: a scalar's source text
// (quoted when it is a string), else its JSON.
func display(n *yaml.Node, v model.Value) string {
	n = resolve(n)
	switch {
	case n.Kind != yaml.ScalarNode:
		return string(v.JSON)
	case v.Kind == model.String:
		return strconv.Quote(n.Value)
	}
	return n.Value
}

// literal converts a YAML value to a model.Value.
func literal(n *yaml.Node) (model.Value, error) {
	n = resolve(n)
	raw, err := toJSON(n)
	if err != nil {
		return model.Value{}, err
	}
	v := model.Value{JSON: raw}
	switch {
	case n.Kind == yaml.MappingNode:
		v.Kind = model.Object
	case n.Kind == yaml.SequenceNode:
		v.Kind = model.Array
	case n.Tag == "!!null":
		v.Kind = model.Any
	case n.Tag == "!!bool":
		v.Kind, v.Bool = model.Boolean, string(raw) == "true"
	case n.Tag == "!!int":
		v.Kind, v.Num = model.Integer, json.Number(raw)
	case n.Tag == "!!float":
		v.Kind, v.Num = model.Number, json.Number(raw)
		if f, _ := v.Num.Float64(); f == math.Trunc(f) && !strings.ContainsAny(n.Value, ".eE") {
			v.Kind = model.Integer
		}
	default:
		v.Kind, v.Str = model.String, n.Value
	}
	return v, nil
}

// enumList lists an enum's values as JSON for a hint, the first ten and
// how many more.
func enumList(vals []model.Value) string {
	const most = 10
	var b strings.Builder
	for i, v := range vals {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(vals)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.Write(v.JSON)
	}
	return b.String()
}
