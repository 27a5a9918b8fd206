package catalog

import (
	"fmt"
	"slices"
	"strings"
)

// Changes compares two API versions of a type property by property: a
// structural comparison of the two property tables (path, type, flags,
// default, enum, constraints, description). It does not judge whether a
// change breaks clients.
type Changes struct {
	Type    *Type            `json:"type"`
	From    Version          `json:"from"`
	To      Version          `json:"to"`
	Added   []Property       `json:"added"`
	Removed []Property       `json:"removed"`
	Changed []PropertyChange `json:"changed"`
}

// PropertyChange is a property present in both versions that differs.
type PropertyChange struct {
	Path        string   `json:"path"`
	Differences []string `json:"differences"` // "maxLength: 63 → 50"
}

// Changes compares versions from and to of t; false when either is missing.
func (c *Catalog) Changes(t *Type, from, to string) (Changes, bool) {
	fv, ok1 := t.version(from)
	tv, ok2 := t.version(to)
	if !ok1 || !ok2 {
		return Changes{}, false
	}
	out := Changes{Type: t, From: fv, To: tv, Added: []Property{}, Removed: []Property{}, Changed: []PropertyChange{}}
	before := c.properties(t.schemas[fv.Name])
	after := c.properties(t.schemas[tv.Name])
	old := map[string]Property{}
	for _, p := range before {
		old[p.Path] = p
	}
	seen := map[string]bool{}
	for _, p := range after {
		seen[p.Path] = true
		o, ok := old[p.Path]
		if !ok {
			out.Added = append(out.Added, p)
			continue
		}
		if d := differences(o, p); len(d) > 0 {
			out.Changed = append(out.Changed, PropertyChange{Path: p.Path, Differences: d})
		}
	}
	for _, p := range before {
		if !seen[p.Path] {
			out.Removed = append(out.Removed, p)
		}
	}
	return out, true
}

// differences lists what differs between two rows of the same path.
func differences(a, b Property) []string {
	var out []string
	diff := func(what, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %s → %s", what, orNone(x), orNone(y)))
		}
	}
	yes := func(v bool) string {
		if v {
			return "yes"
		}
		return "no"
	}
	diff("type", a.Type, b.Type)
	diff("required", yes(a.Required), yes(b.Required))
	diff("read-only", yes(a.ReadOnly), yes(b.ReadOnly))
	diff("write-only", yes(a.WriteOnly), yes(b.WriteOnly))
	diff("sensitive", yes(a.Sensitive), yes(b.Sensitive))
	diff("deprecated", yes(a.Deprecated), yes(b.Deprecated))
	diff("nullable", yes(a.Nullable), yes(b.Nullable))
	diff("default", a.Default, b.Default)
	for _, v := range b.Enum {
		if len(a.Enum) > 0 && !slices.Contains(a.Enum, v) {
			out = append(out, "enum: added "+v)
		}
	}
	for _, v := range a.Enum {
		if len(b.Enum) > 0 && !slices.Contains(b.Enum, v) {
			out = append(out, "enum: removed "+v)
		}
	}
	if (len(a.Enum) == 0) != (len(b.Enum) == 0) {
		diff("enum", strings.Join(a.Enum, ", "), strings.Join(b.Enum, ", "))
	}
	ca, cb := constraintMap(a), constraintMap(b)
	for _, k := range constraintKeywords {
		diff(k, ca[k], cb[k])
	}
	diff("references", refNames(a.References), refNames(b.References))
	if a.Description != b.Description {
		out = append(out, "description changed")
	}
	return out
}

func refNames(refs []Reference) string {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Type
	}
	return strings.Join(names, ", ")
}

func constraintMap(p Property) map[string]string {
	m := map[string]string{}
	for _, c := range p.Constraints {
		m[c.Keyword] = c.Value
	}
	return m
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
