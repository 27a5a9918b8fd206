package bicep

import (
	"slices"
	"strings"
	"unicode"

	"github.com/udtc/udtc/generator/model"
)

// converter turns checked schemas into Bicep types in one table.
type converter struct {
	tb *table
}

// resource adds the ResourceType for one API version of t and returns it.
// Its body has the ARM envelope; its "properties" is the version's schema.
func (c *converter) resource(t *model.ResourceType, v *model.APIVersion) ref {
	full := t.FullName()
	propsDesc := describe(v.Schema)
	switch {
	case v.Undeclared:
		propsDesc = "The resource properties. The resource type declares no schema: any properties are accepted."
	case propsDesc == "":
		propsDesc = "The resource properties."
	}
	str := c.tb.add(bt{kind: kindString})
	props := c.schema(v.Schema, append(typeSegments(t), "Properties"))
	apiVersion := c.tb.add(bt{kind: kindStringLiteral, value: v.Name})
	typ := c.tb.add(bt{kind: kindStringLiteral, value: full})
	dep := deprecation(t, v)
	envelope := []prop{
		{name: "name", typ: str, flags: flagRequired | flagIdentifier, description: dep + "The resource name."},
		{name: "location", typ: str, description: "The resource location."},
		{name: "properties", typ: props, flags: flagRequired, description: dep + propsDesc},
		{name: "apiVersion", typ: apiVersion, flags: flagReadOnly | flagDeployTimeConstant, description: dep + "The API version."},
		{name: "type", typ: typ, flags: flagReadOnly | flagDeployTimeConstant, description: "The resource type."},
		{name: "id", typ: str, flags: flagReadOnly, description: "The resource ID."},
	}
	body := c.tb.add(bt{kind: kindObject, name: full + "@" + v.Name, properties: aliases(envelope, c.tb.get(props))})
	return c.tb.add(bt{kind: kindResource, name: full + "@" + v.Name, body: body})
}

// deprecation is the notice of a deprecated API version (udtc.yaml's
// lifecycle) as the lead of the descriptions Bicep's hover shows on a
// resource's name, properties and apiVersion: "DEPRECATED: <notice>\n\n";
// "" for a version without one.
func deprecation(t *model.ResourceType, v *model.APIVersion) string {
	if v.Lifecycle == nil {
		return ""
	}
	return "DEPRECATED: " + v.Lifecycle.Notice(t.FullName(), v.Name) + "\n\n"
}

// aliases returns the envelope of a resource body followed by a read-only
// alias of each child of its "properties" type, as Radius's
// manifest-to-bicep adds them (radius-project/radius #12132): the same
// type reference and description, no new types, so that a Bicep file may
// read `redis.host` as well as `redis.properties.host`. The envelope's
// names win; a properties type that is not an object has nothing to hoist.
func aliases(envelope []prop, props *bt) []prop {
	if props.kind != kindObject {
		return envelope
	}
	out := envelope
	for _, p := range props.properties {
		if slices.ContainsFunc(envelope, func(e prop) bool { return e.name == p.name }) {
			continue
		}
		out = append(out, prop{name: p.name, typ: p.typ, flags: flagReadOnly, description: p.description})
	}
	return out
}

// schema adds the type of node s (and everything below it). path is the
// name path of s, PascalCase segments from which the ObjectType of an
// object or map is named; a built-in $ref node's path starts afresh at the
// built-in's name, so every use shares one type.
func (c *converter) schema(s *model.Schema, path []string) ref {
	if s.Ref != "" {
		path = []string{pascal(s.Ref)}
	}
	under := func(seg string) []string { return append(slices.Clip(path), seg) }
	switch s.Kind {
	case model.String:
		if len(s.Enum) > 0 {
			els := make([]ref, len(s.Enum))
			for i, v := range s.Enum {
				els[i] = c.tb.add(bt{kind: kindStringLiteral, value: v.Str})
			}
			if len(els) == 1 {
				return els[0]
			}
			return c.tb.add(bt{kind: kindUnion, elements: els})
		}
		t := bt{kind: kindString, sensitive: s.Sensitive}
		if s.MinLength != nil && safe(*s.MinLength) {
			t.minLength = s.MinLength
		}
		if s.MaxLength != nil && safe(*s.MaxLength) {
			t.maxLength = s.MaxLength
		}
		if s.Pattern != "" {
			p := s.Pattern
			t.pattern = &p
		}
		return c.tb.add(t)
	case model.Integer:
		lo, hi := integerBounds(s)
		return c.tb.add(bt{kind: kindInteger, minValue: lo, maxValue: hi})
	case model.Boolean:
		return c.tb.add(bt{kind: kindBoolean})
	case model.Array:
		item := c.schema(s.Items, under("Item"))
		t := bt{kind: kindArray, itemType: item}
		if s.MinItems != nil && safe(*s.MinItems) {
			t.minLength = s.MinItems
		}
		if s.MaxItems != nil && safe(*s.MaxItems) {
			t.maxLength = s.MaxItems
		}
		return c.tb.add(t)
	case model.Map:
		value := c.schema(s.AdditionalProperties, under("Value"))
		return c.tb.add(bt{kind: kindObject, uses: [][]string{path}, properties: []prop{}, additional: &value, sensitive: s.Sensitive})
	case model.Object:
		props := make([]prop, 0, len(s.Properties))
		for _, p := range s.Properties {
			ps := p.Schema
			r := c.schema(ps, under(pascal(p.Name)))
			props = append(props, prop{name: p.Name, typ: r, flags: flags(p), description: describe(ps)})
		}
		t := bt{kind: kindObject, uses: [][]string{path}, properties: props, sensitive: s.Sensitive}
		if s.AdditionalProperties != nil {
			value := c.schema(s.AdditionalProperties, under("Value"))
			t.additional = &value
		}
		return c.tb.add(t)
	default: // model.Number, model.Any
		return c.tb.add(bt{kind: kindAny})
	}
}

// flags maps a property's required, readOnly and writeOnly to Bicep
// property flags. Bicep rejects Required|ReadOnly and ReadOnly|WriteOnly:
// read-only wins, since the user never writes such a property.
func flags(p *model.Property) int {
	s := p.Schema
	switch {
	case s.ReadOnly:
		return flagReadOnly
	case s.WriteOnly && p.Required:
		return flagRequired | flagWriteOnly
	case s.WriteOnly:
		return flagWriteOnly
	case p.Required:
		return flagRequired
	}
	return 0
}

// typeSegments starts the name path of a resource type's objects: its name
// segments in PascalCase ("contosoBuses/queues" → ["ContosoBuses", "Queues"]).
func typeSegments(t *model.ResourceType) []string {
	var out []string
	for _, s := range t.Segments() {
		out = append(out, pascal(s))
	}
	return out
}

// pascal turns a property or type name into a PascalCase name fragment:
// runs of letters and digits, each with an upper-case first letter
// ("max-size" → "MaxSize").
func pascal(s string) string {
	var b strings.Builder
	upper := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
