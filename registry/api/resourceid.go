package api

import (
	"fmt"
	"strings"
)

// Resource IDs of resources of user-defined types (instances, not
// registrations). The form is the ARM/Radius one:
//
//	/planes/radius/{plane}/resourceGroups/{group}/providers/{Namespace}/{type}/{name}[/{childType}/{childName}]...
//
// A child resource nests under its parent: the type "contosoBuses/queues" has
// the ID .../providers/Contoso.Platform/contosoBuses/bus1/queues/q1. The
// server's routes, admission's reference checks and the generated Go IDs all
// use this one parser.

// MaxResourceNameLength is the longest resource or resource group name.
const MaxResourceNameLength = 63

// ResourceNameProblem explains why s is not a valid resource or resource
// group name: 1 to 63 letters, digits, '-', '_' and '.', not "." or "..".
func ResourceNameProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > MaxResourceNameLength:
		return fmt.Sprintf("is %d characters long; the limit is %d", len(s), MaxResourceNameLength)
	case s == "." || s == "..":
		return "must not be \".\" or \"..\""
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Sprintf("contains %q; use only letters, digits, '-', '_' and '.'", r)
		}
	}
	return ""
}

// ResourceID identifies a resource of a user-defined type.
type ResourceID struct {
	Plane     string
	Group     string
	Namespace string
	// Types and Names are the type segments and resource names, outermost
	// first: ["contosoBuses", "queues"] and ["bus1", "q1"]. They have the
	// same length, at least 1.
	Types []string
	Names []string
}

// ParseResourceID parses s as a resource ID, checking every name with the
// registry's rules. Fixed segments ("planes", "resourceGroups", ...) match
// case-insensitively.
func ParseResourceID(s string) (ResourceID, error) {
	var id ResourceID
	if !strings.HasPrefix(s, "/") {
		return id, fmt.Errorf("resource ID %q must start with /planes/radius/", s)
	}
	seg := strings.Split(s[1:], "/")
	bad := func(why string) (ResourceID, error) {
		return ResourceID{}, fmt.Errorf("resource ID %q %s; the form is /planes/radius/{plane}/resourceGroups/{group}/providers/{Namespace}/{type}/{name}", s, why)
	}
	if len(seg) < 9 || !strings.EqualFold(seg[0], "planes") || !strings.EqualFold(seg[1], "radius") ||
		!strings.EqualFold(seg[3], "resourceGroups") || !strings.EqualFold(seg[5], "providers") {
		return bad("is not a resource ID")
	}
	if len(seg)%2 == 0 {
		return bad("has a type without a name")
	}
	id.Plane, id.Group, id.Namespace = seg[2], seg[4], seg[6]
	if p := SegmentProblem(id.Plane); p != "" {
		return bad("has a plane name that " + p)
	}
	if p := ResourceNameProblem(id.Group); p != "" {
		return bad("has a resource group name that " + p)
	}
	if p := NamespaceProblem(id.Namespace); p != "" {
		return bad("has a namespace that " + p)
	}
	for i := 7; i < len(seg); i += 2 {
		if p := SegmentProblem(seg[i]); p != "" {
			return bad(fmt.Sprintf("has a type segment %q that %s", seg[i], p))
		}
		if p := ResourceNameProblem(seg[i+1]); p != "" {
			return bad(fmt.Sprintf("has a resource name %q that %s", seg[i+1], p))
		}
		id.Types = append(id.Types, seg[i])
		id.Names = append(id.Names, seg[i+1])
	}
	return id, nil
}

// TypeName is the resource type name within its namespace: "contosoBuses/queues".
func (id ResourceID) TypeName() string { return strings.Join(id.Types, "/") }

// Type is the full resource type: "Contoso.Platform/contosoBuses/queues".
func (id ResourceID) Type() string { return id.Namespace + "/" + id.TypeName() }

// Name is the resource's own (innermost) name.
func (id ResourceID) Name() string {
	if len(id.Names) == 0 {
		return ""
	}
	return id.Names[len(id.Names)-1]
}

// Scope is the part of the ID before "/providers/".
func (id ResourceID) Scope() string {
	return "/planes/radius/" + id.Plane + "/resourceGroups/" + id.Group
}

// String formats the ID.
func (id ResourceID) String() string {
	var b strings.Builder
	b.WriteString(id.Scope())
	b.WriteString("/providers/")
	b.WriteString(id.Namespace)
	for i := range id.Types {
		b.WriteString("/")
		b.WriteString(id.Types[i])
		b.WriteString("/")
		b.WriteString(id.Names[i])
	}
	return b.String()
}

// Parent returns the ID of the owning resource of a child resource; ok is
// false for a top-level resource (its owner is the resource group).
func (id ResourceID) Parent() (parent ResourceID, ok bool) {
	if len(id.Types) < 2 {
		return ResourceID{}, false
	}
	parent = id
	parent.Types = id.Types[: len(id.Types)-1 : len(id.Types)-1]
	parent.Names = id.Names[: len(id.Names)-1 : len(id.Names)-1]
	return parent, true
}

// IsType reports whether the ID's full type equals t ("Contoso.Data/postgresDatabases"),
// compared case-insensitively as ARM does.
func (id ResourceID) IsType(t string) bool { return strings.EqualFold(id.Type(), t) }
