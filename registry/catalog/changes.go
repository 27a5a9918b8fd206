package catalog

import (
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/udtc/udtc/schema"
)

// CompareFunc judges what changes for a client that moves from the API
// version with oldSchema to the one with newSchema (both the registered
// schemas as JSON). cmd/udtc supplies the breaking-change check of `udtc
// breaking` (generator/compat), which this package cannot import. An error
// means a schema cannot be judged (it does not pass the checker).
type CompareFunc func(oldSchema, newSchema json.RawMessage) ([]Change, error)

// Change is one finding of a CompareFunc.
type Change struct {
	Rule     string `json:"rule"`     // "enum-value-removed"
	Severity string `json:"severity"` // "error" (breaks clients), "warning" or "info"
	Path     string `json:"path"`     // property path, "" for the schema root
	Message  string `json:"message"`
}

// Methods of a comparison.
const (
	// MethodCompat: Findings are the breaking-change check's.
	MethodCompat = "compat"
	// MethodStructural: Added, Removed and Changed compare the property
	// tables; nothing is judged.
	MethodStructural = "structural"
)

// Changes compares two API versions of a type, older to newer. With a
// CompareFunc (Options.Compare) it lists that function's findings, judged
// as if the newer version replaced the older; without one, or when it
// fails (Note says why), it falls back to a structural comparison of the
// two property tables (path, type, flags, default, enum, constraints,
// description), which does not judge whether a change breaks clients.
type Changes struct {
	Type   *Type   `json:"type"`
	From   Version `json:"from"`
	To     Version `json:"to"`
	Method string  `json:"method"`
	// Findings, for MethodCompat: errors first, then warnings and info,
	// each by path.
	Findings []Change `json:"findings,omitempty"`
	// Added, Removed and Changed, for MethodStructural.
	Added   []Property       `json:"added,omitempty"`
	Removed []Property       `json:"removed,omitempty"`
	Changed []PropertyChange `json:"changed,omitempty"`
	// Note explains a fallback to MethodStructural despite a CompareFunc.
	Note string `json:"note,omitempty"`
}

// Breaking counts the findings of severity error.
func (c Changes) Breaking() int {
	n := 0
	for _, f := range c.Findings {
		if f.Severity == "error" {
			n++
		}
	}
	return n
}

// PropertyChange is a property present in both versions that differs.
type PropertyChange struct {
	Path        string   `json:"path"`
	Differences []string `json:"differences"` // "maxLength: 63 → 50"
}

// Changes compares versions from and to of t with opts.Compare, else
// structurally; false when either version is missing.
func (c *Catalog) Changes(t *Type, from, to string, opts Options) (Changes, bool) {
	return c.changes(t, from, to, opts, nil)
}

func (c *Catalog) changes(t *Type, from, to string, opts Options, known parsed) (Changes, bool) {
	fv, ok1 := t.version(from)
	tv, ok2 := t.version(to)
	if !ok1 || !ok2 {
		return Changes{}, false
	}
	out := Changes{Type: t, From: fv, To: tv}
	if opts.Compare != nil {
		fs, err := opts.Compare(t.schemas[fv.Name], t.schemas[tv.Name])
		if err == nil {
			out.Method = MethodCompat
			out.Findings = sortChanges(fs)
			return out, true
		}
		out.Note = "the breaking-change check cannot compare these versions (" + err.Error() + "); this is a structural comparison"
	}
	out.Method = MethodStructural
	out.Added, out.Removed, out.Changed = c.structural(known.of(t, fv.Name), known.of(t, tv.Name))
	return out, true
}

// structural compares the property tables of two schemas: the rows of the
// places only the newer schema has, of those only the older one has, and
// the differences of the rows of the places both have (places pair as
// schema.Compare pairs them: by property name, map values, array items),
// each in table order; never nil.
func (c *Catalog) structural(older, newer *schema.Schema) (added, removed []Property, changed []PropertyChange) {
	added, removed, changed = []Property{}, []Property{}, []PropertyChange{}
	before, after := c.properties(older), c.properties(newer)
	old := map[string]Property{}
	for _, p := range before {
		old[p.place.Pointer()] = p
	}
	seen := map[string]bool{}
	for _, p := range after {
		place := p.place.Pointer()
		seen[place] = true
		o, ok := old[place]
		if !ok {
			added = append(added, p)
			continue
		}
		if d := differences(o, p); len(d) > 0 {
			changed = append(changed, PropertyChange{Path: p.Path, Differences: d})
		}
	}
	for _, p := range before {
		if !seen[p.place.Pointer()] {
			removed = append(removed, p)
		}
	}
	return added, removed, changed
}

// sortChanges orders findings by severity (errors first), path, rule and
// message; never nil.
func sortChanges(fs []Change) []Change {
	rank := func(s string) int {
		switch s {
		case "error":
			return 0
		case "warning":
			return 1
		}
		return 2
	}
	out := append([]Change{}, fs...)
	slices.SortStableFunc(out, func(a, b Change) int {
		return cmp.Or(cmp.Compare(rank(a.Severity), rank(b.Severity)), cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message))
	})
	return out
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

// CachedCompare returns f judging each pair of schemas once: the changes
// page between two API versions costs two schema checks, and anyone may
// GET it, so the answer (findings or error) is kept per pair of schema
// texts, which is per version pair while neither version's schema
// changes. At most size pairs are kept, the least recently used dropped
// first. A nil f stays nil (structural comparison, nothing to cache). It
// is safe for concurrent use if f is.
func CachedCompare(f CompareFunc, size int) CompareFunc {
	if f == nil {
		return nil
	}
	type answer struct {
		changes []Change
		err     error
	}
	cache, err := lru.New[[sha256.Size]byte, answer](max(size, 1))
	if err != nil { // not reachable: the size is positive
		return f
	}
	return func(oldSchema, newSchema json.RawMessage) ([]Change, error) {
		h := sha256.New()
		fmt.Fprintf(h, "%d\n", len(oldSchema))
		h.Write(oldSchema)
		h.Write(newSchema)
		var key [sha256.Size]byte
		h.Sum(key[:0])
		if a, ok := cache.Get(key); ok {
			return slices.Clone(a.changes), a.err
		}
		changes, err := f(oldSchema, newSchema)
		cache.Add(key, answer{slices.Clone(changes), err})
		return changes, err
	}
}
