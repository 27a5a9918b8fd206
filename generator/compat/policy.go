package compat

import (
	"fmt"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/registry/api"
)

// Policy says which breaking changes (findings of an error rule) a project
// accepts: Apply reports those as warnings that name what allowed them.
// `udtc breaking` and `udtc publish` build it from udtc.yaml's breaking
// section and --allow-breaking.
//
// Azure's and Radius's practice is that a preview API version may still
// break: by default a breaking change within a preview version
// (YYYY-MM-DD-preview) is allowed. Removing `x-radius-sensitive` is the
// exception: it makes Radius store and return a secret in clear text, so
// only an explicit allowance (AllowAll, Allow) allows it.
type Policy struct {
	// StrictPreviews treats preview versions like stable ones
	// (breaking.previews: strict).
	StrictPreviews bool
	// AllowAll allows every breaking change (--allow-breaking).
	AllowAll bool
	// Allow lists API versions, NAMESPACE/TYPE@VERSION (matched ignoring
	// case, as types are), whose breaking changes are allowed
	// (--allow-breaking=NAMESPACE/TYPE@VERSION).
	Allow []string
	// AllowUnviolated allows the breaking changes that no stored resource
	// violates: those JudgeStored judged, with none refused
	// (--allow-breaking-unviolated).
	AllowUnviolated bool
}

// Previews is the value of breaking.previews: "allow" or "strict".
func (p Policy) Previews() string {
	if p.StrictPreviews {
		return "strict"
	}
	return "allow"
}

// Apply returns fs with the errors p allows lowered to warnings; each
// names what allowed it (Allowed) at the end of its message. Findings of a
// whole type (no version), such as type-removed, are allowed only by
// AllowAll. fs is not modified.
func (p Policy) Apply(fs []Finding) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		if f.Severity == diag.Error {
			if why, note := p.allows(f); why != "" {
				f.Severity, f.Allowed = diag.Warning, why
				f.Message += " (" + note + ")"
			}
		}
		out[i] = f
	}
	return out
}

// allows returns what allows the breaking change f, and the note its
// message gets, or "".
func (p Policy) allows(f Finding) (why, note string) {
	if p.AllowAll {
		return "--allow-breaking", "allowed by --allow-breaking"
	}
	if f.Version == "" {
		return "", ""
	}
	name := f.Namespace + "/" + f.Type + "@" + f.Version
	for _, a := range p.Allow {
		if strings.EqualFold(a, name) {
			why = "--allow-breaking=" + a
			return why, "allowed by " + why
		}
	}
	if !p.StrictPreviews && api.IsPreview(f.Version) && f.Rule != RuleSensitiveRemoved {
		return "breaking.previews: allow", fmt.Sprintf("breaking change in preview version %s, allowed by breaking.previews: allow", f.Version)
	}
	if p.AllowUnviolated && f.Unviolated() {
		return UnviolatedFlag, "no stored resource violates it: allowed by " + UnviolatedFlag
	}
	return "", ""
}

// UnviolatedFlag is the flag that sets Policy.AllowUnviolated.
const UnviolatedFlag = "--allow-breaking-unviolated"

// Unviolated reports whether f is a breaking change judged against a
// registry's stored resources (JudgeStored) that none of them violates.
func (f Finding) Unviolated() bool {
	return f.Stored != nil && f.Stored.Known && len(f.Stored.Refused) == 0
}
