package compat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/registry/api"
)

// Breaking changes judged against what exists. A registry that stores the
// resources of a type can admit each of them, as their next write would
// be, against the schema a publish would send (udtc serve's dry-run
// admission, registry/client.CheckResources). JudgeStored attaches what it
// answered to each breaking finding of that API version: how many of the
// stored resources the change refuses, and which.

// Stored is what a registry answered for one API version.
type Stored struct {
	// Known is false when the registry could not check (Why says why).
	Known bool
	Why   string
	// Checked is how many resources of the version it stores.
	Checked int
	// Refused are those the candidate schema refuses, with every reason.
	Refused []api.RefusedResource
}

// StoredImpact is the judgement of one finding: of Checked stored
// resources, those Refused for a reason at or under the finding's path.
type StoredImpact struct {
	Known   bool                  `json:"known"`
	Why     string                `json:"why,omitempty"`
	Checked int                   `json:"checked"`
	Refused []api.RefusedResource `json:"refused"`
}

// StoredKey is the key of JudgeStored's map: the API version's
// NAMESPACE/TYPE@VERSION, lower-cased as the registry matches it.
func StoredKey(namespace, typ, version string) string {
	return strings.ToLower(namespace + "/" + typ + "@" + version)
}

// JudgedByAdmission reports whether a break of rule is one admission
// refuses: a stored document the old schema admitted that the new one
// does not. The others (a property made read-only, a default or
// sensitivity changed, a read-only property removed) change what is
// stored or read without refusing a write, so no count of refused
// resources measures them.
func JudgedByAdmission(rule string) bool {
	switch rule {
	case RulePropertyRemoved, RulePropertyRenamed, RuleTypeChanged, RuleElementTypeChanged,
		RuleRequiredPropertyAdded, RulePropertyBecameRequired, RuleEnumValueRemoved, RuleEnumAdded,
		RuleMaxDecreased, RuleMinIncreased, RulePatternChanged, RuleFormatChanged:
		return true
	}
	return false
}

// StoredExamples is how many refused resources a finding's text names;
// the JSON output lists them all.
const StoredExamples = 3

// JudgeStored returns fs with each breaking finding (an error that
// admission judges, JudgedByAdmission) of an API version in stored
// judged: Stored set, and its message saying how many of the stored
// resources it would have refused, its hint naming the first few. Call it
// before Policy.Apply, which allows unviolated changes on request. fs is
// not modified.
func JudgeStored(fs []Finding, stored map[string]Stored) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		s, ok := stored[StoredKey(f.Namespace, f.Type, f.Version)]
		if ok && f.Severity == diag.Error && f.Version != "" && JudgedByAdmission(f.Rule) {
			f.Stored = impact(f.Path, s)
			f.Message += f.Stored.summary()
			f.Hint = f.Stored.examples()
		}
		out[i] = f
	}
	return out
}

// impact is the part of s a finding at path accounts for: each refused
// resource with the reasons whose target is at or under path.
func impact(path string, s Stored) *StoredImpact {
	im := &StoredImpact{Known: s.Known, Why: s.Why, Checked: s.Checked, Refused: []api.RefusedResource{}}
	want := pathSegments(path)
	for _, r := range s.Refused {
		var mine []api.ErrorDetail
		for _, d := range r.Details {
			if segs, err := api.ParseTarget(d.Target); err == nil && under(segs, want) {
				mine = append(mine, d)
			}
		}
		if len(mine) > 0 {
			im.Refused = append(im.Refused, api.RefusedResource{ID: r.ID, Details: mine})
		}
	}
	return im
}

// summary is what a finding's message gets: the count, or why there is
// none.
func (im *StoredImpact) summary() string {
	switch {
	case !im.Known:
		return " (stored resources not checked: " + im.Why + ")"
	case im.Checked == 0:
		return "; no resource of this API version is stored"
	case len(im.Refused) == 0:
		return fmt.Sprintf("; %d of %s affected", 0, stored(im.Checked))
	}
	return fmt.Sprintf("; %d of %s would be refused at their next write", len(im.Refused), stored(im.Checked))
}

func stored(n int) string {
	if n == 1 {
		return "1 stored resource"
	}
	return strconv.Itoa(n) + " stored resources"
}

// examples names the first StoredExamples refused resources and the first
// reason of each.
func (im *StoredImpact) examples() string {
	if len(im.Refused) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("refused: ")
	for i, r := range im.Refused[:min(len(im.Refused), StoredExamples)] {
		if i > 0 {
			b.WriteString("; ")
		}
		d := r.Details[0]
		fmt.Fprintf(&b, "%s (%s %s)", r.ID, d.Target, d.Message)
	}
	if more := len(im.Refused) - StoredExamples; more > 0 {
		fmt.Fprintf(&b, "; and %d more (--output json lists them all)", more)
	}
	return b.String()
}

// pathSegments splits a finding's path ("a.b[*].c"; "" for the root) into
// property names, "[*]" standing for any one item or map key.
func pathSegments(path string) []string {
	var segs []string
	for _, part := range strings.Split(path, ".") {
		for part != "" {
			name, rest, found := strings.Cut(part, "[*]")
			if name != "" {
				segs = append(segs, name)
			}
			if !found {
				break
			}
			segs = append(segs, "[*]")
			part = rest
		}
	}
	return segs
}

// under reports whether an admission target (api.ParseTarget's
// keys and indexes) lies at or under a finding's path: the path's
// segments are a prefix of the target's, "[*]" matching any one key or
// index.
func under(target []any, path []string) bool {
	if len(target) < len(path) {
		return false
	}
	for i, p := range path {
		if p != "[*]" && p != target[i] {
			return false
		}
	}
	return true
}
