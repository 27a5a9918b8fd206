// Package example makes the example resource of a resource type from its
// schema (the schema model, package schema): property values that the
// registry admits, so that a catalog page, the generated docs and `udtc
// init` show a request that works as written. It is the one home of
// example values: the catalog's Bicep, JSON and Go snippets and the docs
// emitter's Bicep declarations all render what Of returns.
//
// The rules, for each schema node:
//
//   - an enum gives its first value, in declared order;
//   - a reference (x-resource-type) gives the ID of the referenced type's
//     own example: resource group "default" of plane "local", every name
//     "example" (ID); a generic reference names a Radius environment;
//   - a string with a validated format gives the format's sample
//     (schema.Format.Sample); with a pattern, a matching sample derived from
//     the expression (Pattern); otherwise "example", padded or cut to its
//     minLength and maxLength;
//   - a number gives the least value its minimum, maximum, multipleOf and
//     format allow (0 when unbounded);
//   - an array gives minItems items (distinct ones for uniqueItems);
//   - an object gives its required writable properties, then optional ones
//     up to minProperties; a map gives minProperties entries;
//   - a scalar example or default is used when it passes the same checks.
//
// Every candidate is checked against the node's constraints before it is
// used (schema.Length, BelowMinimum, AboveMaximum, MultipleOf, the format's
// check and the pattern, compiled by schema/pattern as admission compiles
// it, under one budget of steps and a time backstop for the backtracking
// ones). A
// node no candidate satisfies gets the closest candidate and a Need that
// says what value it needs; Example.Needs lists them, and renderings show
// them as comments.
package example

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/udtc/udtc/schema"
)

// Name is the name of every example resource; Group the resource group
// they are created in.
const (
	Name  = "example"
	Group = "/planes/radius/local/resourceGroups/default"
)

// genericTarget is the type a generic reference (x-resource-type: "*")
// names in examples: a Radius environment, which most applications have.
const genericTarget = "Applications.Core/environments"

// ID is the resource ID of the example of type typeName ("queues" or
// "contosoBuses/queues" for a child type) of namespace: each segment is
// named Name, in Group.
func ID(namespace, typeName string) string {
	var b strings.Builder
	b.WriteString(Group + "/providers/" + namespace)
	for _, seg := range strings.Split(typeName, "/") {
		b.WriteString("/" + seg + "/" + Name)
	}
	return b.String()
}

// ResourceName is the name of the example of a type in Bicep's `name`:
// "example", or "example/example" for a child type.
func ResourceName(typeName string) string {
	return strings.TrimSuffix(strings.Repeat(Name+"/", strings.Count(typeName, "/")+1), "/")
}

// IDOfType is the example ID of the full type name
// "Contoso.Data/postgresDatabases" (or ".../parent/child").
func IDOfType(fullName string) string {
	ns, typ, _ := strings.Cut(fullName, "/")
	return ID(ns, typ)
}

// Example is the example properties of a type's API version.
type Example struct {
	// Properties is the value of the resource's `properties`: an object.
	Properties Value
	// References are the full type names whose examples the properties
	// refer to, in document order, each once: their examples must exist
	// before this one is created.
	References []string
	// Needs say, for each value that no derived candidate satisfies, what
	// it needs ("properties.code: a value matching ^(?!x)..."); empty when
	// the example is admitted as it is.
	Needs []string
}

// Value is an example value.
type Value struct {
	// Literal is a scalar's JSON literal; nil for an object or an array.
	Literal json.RawMessage
	// Object values have Fields, in schema order; arrays have Items.
	Object bool
	Fields []Field
	Array  bool
	Items  []Value
	// Note is a comment on the value: what it stands for, or what it
	// needs when no candidate satisfied the schema.
	Note string
}

// Field is a member of an object value.
type Field struct {
	Name  string
	Value Value
}

// Limits keep an example readable and its cost bounded whatever the schema
// asks for: a string longer than maxLength characters, more than maxCount
// items or entries in one array or map, or more than maxValues values in
// all are not written; the example says what it needs instead.
const (
	maxLength = 1024
	maxCount  = 64
	maxValues = 4096
)

// Of returns the example properties of the API version whose schema is
// root (an object, a map, or {}). root may be nil.
func Of(root *schema.Schema) Example {
	g := &generator{values: maxValues, m: newMatcher()}
	v := Value{Object: true}
	if root != nil && (root.Kind == schema.Object || root.Kind == schema.Map) {
		v = g.value(root, "properties", 0)
	}
	return Example{Properties: v, References: g.refs, Needs: g.needs}
}

// generator collects what one example refers to and needs; values is how
// many more values it may write.
type generator struct {
	refs   []string
	needs  []string
	values int
	m      *matcher
}

func (g *generator) need(path, what string) string {
	g.needs = append(g.needs, path+": "+what)
	return "needs " + what
}

func (g *generator) refer(fullName string) {
	for _, r := range g.refs {
		if strings.EqualFold(r, fullName) {
			return
		}
	}
	g.refs = append(g.refs, fullName)
}

// value is the example of node s at path; variant > 0 asks for a value
// different from variant 0 (the items of a uniqueItems array).
func (g *generator) value(s *schema.Schema, path string, variant int) Value {
	if s == nil { // a registered schema read by Decode may lack a child
		return Value{Literal: json.RawMessage(`{}`)}
	}
	if g.values--; g.values < 0 {
		if g.values == -1 {
			return Value{Literal: json.RawMessage(`null`), Note: g.need(path, fmt.Sprintf("a value: the example stops after %d values", maxValues))}
		}
		return Value{Literal: json.RawMessage(`null`)}
	}
	switch s.Kind {
	case schema.Object:
		return g.object(s, path, variant)
	case schema.Map:
		return g.mapValue(s, path, variant)
	case schema.Array:
		return g.array(s, path, variant)
	case schema.String, schema.Integer, schema.Number, schema.Boolean:
		return g.scalar(s, path, variant)
	}
	return Value{Literal: json.RawMessage(`{}`)} // any value is admitted
}

func (g *generator) object(s *schema.Schema, path string, variant int) Value {
	v := Value{Object: true}
	want := int64(0)
	if s.MinProperties != nil {
		want = *s.MinProperties
	}
	// Required writable properties first, then optional ones up to
	// minProperties, each in schema order.
	for _, optional := range []bool{false, true} {
		for _, p := range s.Properties {
			if p.Required == optional || p.Schema != nil && p.Schema.ReadOnly || optional && int64(len(v.Fields)) >= want {
				continue
			}
			fv := g.value(p.Schema, path+"."+p.Name, variant)
			variant = 0 // one field varying is enough to tell items apart
			v.Fields = append(v.Fields, Field{Name: p.Name, Value: fv})
		}
	}
	if s.Sensitive {
		v.Note = sensitiveNote
	}
	return v
}

func (g *generator) mapValue(s *schema.Schema, path string, variant int) Value {
	v := Value{Object: true}
	if s.MinProperties != nil {
		if *s.MinProperties > maxCount {
			v.Note = g.need(path, fmt.Sprintf("%d entries (the example writes at most %d)", *s.MinProperties, maxCount))
			return v
		}
		for i := int64(0); i < *s.MinProperties; i++ {
			key := mapKey(int(i))
			v.Fields = append(v.Fields, Field{Name: key, Value: g.value(s.AdditionalProperties, path+"."+key, variant)})
		}
	}
	if s.Sensitive {
		v.Note = sensitiveNote
	}
	return v
}

// mapKey is the key of the i-th entry of an example map.
func mapKey(i int) string {
	if i == 0 {
		return "key"
	}
	return "key" + itoa(int64(i+1))
}

func (g *generator) array(s *schema.Schema, path string, variant int) Value {
	v := Value{Array: true, Items: []Value{}}
	if s.MinItems == nil {
		return v
	}
	if *s.MinItems > maxCount {
		v.Note = g.need(path, fmt.Sprintf("%d items (the example writes at most %d)", *s.MinItems, maxCount))
		return v
	}
	seen := map[string]bool{}
	for i := 0; int64(i) < *s.MinItems; i++ {
		item := variant + i
		if !s.UniqueItems {
			item = variant
		}
		it := g.value(s.Items, path+"["+itoa(int64(i))+"]", item)
		if s.UniqueItems && seen[it.JSON(0)] && it.Note == "" {
			it.Note = g.need(path+"["+itoa(int64(i))+"]", "a value different from the other items")
		}
		seen[it.JSON(0)] = true
		v.Items = append(v.Items, it)
	}
	return v
}

const sensitiveNote = "sensitive: pass a secret here, e.g. a @secure() parameter"

// Declaration is the Bicep declaration of the example of API version
// version of type typeName ("queues", or "buses/queues" for a child type)
// of namespace, whose properties are props: `resource example
// 'Namespace/type@version' = {...}`, without a final newline.
func Declaration(namespace, typeName, version string, props Value) string {
	var b strings.Builder
	b.WriteString("resource " + Name + " '" + namespace + "/" + typeName + "@" + version + "' = {\n")
	b.WriteString("  name: '" + ResourceName(typeName) + "'\n")
	if len(props.Fields) > 0 {
		b.WriteString("  properties: " + props.Bicep(1) + "\n")
	}
	b.WriteString("}")
	return b.String()
}
