package compat

import (
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/schema"
)

// node is the context of a schema comparison: the property path, whether an
// ancestor is read-only (old and new), and the spans to report at.
type node struct {
	path             string
	oldRO, newRO     bool
	oldSpan, newSpan diag.Span
	element          bool // the node is a map value or array item
}

func (n node) describe() string {
	if n.path == "" {
		return "the schema"
	}
	return "property " + n.path
}

// schema judges one place both schemas have (schema.Compare and Children
// pair them) and, unless its type changed, the places below it.
func (c *comparer) schema(base Finding, p schema.Pair, at node) {
	o, n := p.Old, p.New
	f := base
	f.Path, f.Old, f.New = at.path, at.oldSpan, at.newSpan
	where := f.location() + at.describe()
	oldRO, newRO := at.oldRO || o.ReadOnly, at.newRO || n.ReadOnly
	writable := !newRO

	if o.Kind != n.Kind {
		rule := RuleTypeChanged
		if at.element {
			rule = RuleElementTypeChanged
		}
		c.add(f, rule, "%s changed type from %s to %s", where, o.Kind, n.Kind)
		return
	}
	if o.Format != n.Format {
		c.add(f, RuleFormatChanged, "%s changed format from %s to %s", where, orNone(o.Format), orNone(n.Format))
	}
	if !oldRO && newRO {
		c.add(f, RuleMadeReadOnly, "%s became read-only", where)
	}
	if !jsonEqual(o.Default, n.Default) {
		c.add(f, RuleDefaultChanged, "%s changed default from %s to %s", where, literal(o.Default), literal(n.Default))
	}
	if o.Sensitive && !n.Sensitive {
		c.add(f, RuleSensitiveRemoved, "%s is no longer x-radius-sensitive: Radius would store and return its value in clear text", where)
	}
	c.enum(f, where, o, n, writable)
	if writable && !oldRO {
		c.bounds(f, where, o, n)
	}
	c.below(base, p, at, oldRO, newRO)
}

// below judges the places under a place of one kind: an object's
// properties, a map's values or an array's items.
func (c *comparer) below(base Finding, p schema.Pair, at node, oldRO, newRO bool) {
	if p.New.Kind == model.Object {
		c.properties(base, p, at, oldRO, newRO)
		return
	}
	for _, e := range p.Children() {
		if e.Old == nil || e.New == nil || e.OldProperty != nil || e.NewProperty != nil {
			continue
		}
		c.schema(base, e, node{
			path: at.path + "[*]", oldRO: oldRO, newRO: newRO, element: true,
			oldSpan: diag.Span(e.Old.Span), newSpan: diag.Span(e.New.Span),
		})
	}
}
func (c *comparer) enum(f Finding, where string, o, n *model.Schema, writable bool) {
	if len(o.Enum) == 0 && len(n.Enum) == 0 {
		return
	}
	if len(o.Enum) == 0 {
		if writable {
			c.add(f, RuleEnumAdded, "%s now only accepts %s", where, values(n.Enum))
		}
		return
	}
	if len(n.Enum) == 0 {
		return // any value is accepted now
	}
	var removed, added []model.Value
	for _, v := range o.Enum {
		if !containsValue(n.Enum, v) {
			removed = append(removed, v)
		}
	}
	for _, v := range n.Enum {
		if !containsValue(o.Enum, v) {
			added = append(added, v)
		}
	}
	if len(removed) > 0 && writable {
		c.add(f, RuleEnumValueRemoved, "%s no longer accepts %s", where, values(removed))
	}
	if len(added) > 0 {
		if writable {
			c.add(f, RuleEnumValueAdded, "%s accepts new values %s", where, values(added))
		} else {
			c.add(f, RuleEnumValueAddedReadOnly, "%s (read-only) may now hold %s", where, values(added))
		}
	}
}

// bounds reports tightened constraints of a writable node.
func (c *comparer) bounds(f Finding, where string, o, n *model.Schema) {
	type intBound struct {
		name   string
		o, n   *int64
		isMax  bool
		active bool
	}
	for _, b := range []intBound{
		{"maxLength", o.MaxLength, n.MaxLength, true, true},
		{"maxItems", o.MaxItems, n.MaxItems, true, true},
		{"maxProperties", o.MaxProperties, n.MaxProperties, true, true},
		{"minLength", o.MinLength, n.MinLength, false, true},
		{"minItems", o.MinItems, n.MinItems, false, true},
		{"minProperties", o.MinProperties, n.MinProperties, false, true},
	} {
		if b.n == nil {
			continue
		}
		switch {
		case b.isMax && (b.o == nil || *b.n < *b.o):
			c.add(f, RuleMaxDecreased, "%s: %s lowered from %s to %d", where, b.name, intText(b.o), *b.n)
		case !b.isMax && (b.o == nil || *b.n > *b.o):
			c.add(f, RuleMinIncreased, "%s: %s raised from %s to %d", where, b.name, intText(b.o), *b.n)
		}
	}
	if n.Maximum != nil {
		cmpv := compareNumbers(n.Maximum, o.Maximum)
		if o.Maximum == nil || cmpv < 0 || (cmpv == 0 && n.ExclusiveMaximum && !o.ExclusiveMaximum) {
			c.add(f, RuleMaxDecreased, "%s: maximum lowered from %s to %s", where, bound(o.Maximum, o.ExclusiveMaximum), bound(n.Maximum, n.ExclusiveMaximum))
		}
	}
	if n.Minimum != nil {
		cmpv := compareNumbers(n.Minimum, o.Minimum)
		if o.Minimum == nil || cmpv > 0 || (cmpv == 0 && n.ExclusiveMinimum && !o.ExclusiveMinimum) {
			c.add(f, RuleMinIncreased, "%s: minimum raised from %s to %s", where, bound(o.Minimum, o.ExclusiveMinimum), bound(n.Minimum, n.ExclusiveMinimum))
		}
	}
	if n.Pattern != "" && n.Pattern != o.Pattern {
		if o.Pattern == "" {
			c.add(f, RulePatternChanged, "%s: pattern %q added", where, n.Pattern)
		} else {
			c.add(f, RulePatternChanged, "%s: pattern changed from %q to %q", where, o.Pattern, n.Pattern)
		}
	}
}

// properties judges an object's properties: removed, added (a removed and
// an added one with the same schema are one finding, a possible rename),
// and those in both.
func (c *comparer) properties(base Finding, p schema.Pair, at node, oldRO, newRO bool) {
	var removed, added, both []schema.Pair
	for _, e := range p.Children() {
		switch {
		case e.OldProperty != nil && e.NewProperty != nil:
			both = append(both, e)
		case e.OldProperty != nil:
			removed = append(removed, e)
		case e.NewProperty != nil:
			added = append(added, e)
		}
	}
	removed, added = c.renamed(base, at, removed, added)
	for _, e := range removed {
		f := base
		f.Path, f.Old, f.New = at.child(e.OldProperty), diag.Span(e.OldProperty.Span), at.newSpan
		if oldRO || e.Old.ReadOnly {
			c.add(f, RuleReadOnlyPropertyRemoved, "%sread-only property %s removed", base.location(), f.Path)
		} else {
			c.add(f, RulePropertyRemoved, "%sproperty %s removed", base.location(), f.Path)
		}
	}
	for _, e := range added {
		f := base
		f.Path, f.Old, f.New = at.child(e.NewProperty), at.oldSpan, diag.Span(e.NewProperty.Span)
		if e.NewProperty.Required && !newRO && !e.New.ReadOnly {
			c.add(f, RuleRequiredPropertyAdded, "%snew required property %s", base.location(), f.Path)
		} else {
			c.add(f, RulePropertyAdded, "%sproperty %s added", base.location(), f.Path)
		}
	}
	for _, e := range both {
		c.property(base, e, at, oldRO, newRO)
	}
}

// renamed reports each removed property that an added one with the same
// schema (and requiredness) may have replaced, and returns the removed and
// added properties left.
func (c *comparer) renamed(base Finding, at node, removed, added []schema.Pair) (restRemoved, restAdded []schema.Pair) {
	taken := make([]bool, len(added))
	for _, r := range removed {
		match := -1
		for j, a := range added {
			if !taken[j] && r.OldProperty.Required == a.NewProperty.Required && fingerprint(r.Old) == fingerprint(a.New) {
				match = j
				break
			}
		}
		if match < 0 {
			restRemoved = append(restRemoved, r)
			continue
		}
		taken[match] = true
		a := added[match]
		f := base
		f.Path, f.Old, f.New = at.child(r.OldProperty), diag.Span(r.OldProperty.Span), diag.Span(a.NewProperty.Span)
		c.add(f, RulePropertyRenamed, "%sproperty %s removed and %s added with the same schema: possibly renamed", base.location(), f.Path, at.child(a.NewProperty))
	}
	for j, a := range added {
		if !taken[j] {
			restAdded = append(restAdded, a)
		}
	}
	return restRemoved, restAdded
}

// property judges a property both schemas have: its requiredness, then
// its schema.
func (c *comparer) property(base Finding, e schema.Pair, at node, oldRO, newRO bool) {
	op, np := e.OldProperty, e.NewProperty
	f := base
	f.Path, f.Old, f.New = at.child(np), diag.Span(op.Span), diag.Span(np.Span)
	what := base.location() + "property " + f.Path
	npRO := newRO || np.Schema.ReadOnly
	opRO := oldRO || op.Schema.ReadOnly
	switch {
	case !op.Required && np.Required && !npRO:
		c.add(f, RulePropertyBecameRequired, "%s became required", what)
	case op.Required && !np.Required && opRO && npRO:
		c.add(f, RuleReadOnlyPropertyOptional, "%s (read-only) became optional", what)
	}
	c.schema(base, e, node{path: f.Path, oldRO: oldRO, newRO: newRO, oldSpan: f.Old, newSpan: f.New})
}

// child is the path of property p below n.
func (n node) child(p *model.Property) string {
	if n.path == "" {
		return p.Name
	}
	return n.path + "." + p.Name
}
