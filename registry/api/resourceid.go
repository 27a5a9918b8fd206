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
	if p := lengthProblem(s, MaxResourceNameLength); p != "" {
		return p
	}
	switch {
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
	id, seg, err := parseScope(s, formID)
	if err != nil {
		return ResourceID{}, err
	}
	if err := parsePairs(s, formID, seg[7:], &id); err != nil {
		return ResourceID{}, err
	}
	return id, nil
}

// ResourceListID identifies a list of the resources of one type: those of
// a group (Parent nil; .../providers/{Namespace}/{type}) or those under a
// parent resource (.../{type}/{name}/{childType}).
type ResourceListID struct {
	Plane, Group, Namespace string
	// Type is the type name within the namespace: "contosoBuses/queues".
	Type   string
	Parent *ResourceID
}

// ParseResourceListID parses s as the ID of a list of resources, checking
// every name as ParseResourceID does.
func ParseResourceListID(s string) (ResourceListID, error) {
	id, seg, err := parseScope(s, formList)
	if err != nil {
		return ResourceListID{}, err
	}
	last := seg[len(seg)-1]
	if p := SegmentProblem(last); p != "" {
		return ResourceListID{}, badID(s, formList, fmt.Sprintf("has a type segment %q that %s", last, p))
	}
	out := ResourceListID{Plane: id.Plane, Group: id.Group, Namespace: id.Namespace, Type: last}
	if len(seg) > 8 {
		if err := parsePairs(s, formList, seg[7:len(seg)-1], &id); err != nil {
			return ResourceListID{}, err
		}
		out.Parent = &id
		out.Type = id.TypeName() + "/" + last
	}
	return out, nil
}

const (
	formID   = "/planes/radius/{plane}/resourceGroups/{group}/providers/{Namespace}/{type}/{name}"
	formList = "/planes/radius/{plane}/resourceGroups/{group}/providers/{Namespace}/{type}[/{name}/{childType}]"
)

func badID(s, form, why string) error {
	return fmt.Errorf("resource ID %q %s; the form is %s", s, why, form)
}

// parseScope checks the part of s up to the namespace, and that s ends
// with a name (formID) or a type (formList), and returns the segments of s
// (without the leading "/").
func parseScope(s, form string) (ResourceID, []string, error) {
	var id ResourceID
	if !strings.HasPrefix(s, "/") {
		return id, nil, fmt.Errorf("resource ID %q must start with /planes/radius/", s)
	}
	seg := strings.Split(s[1:], "/")
	if len(seg) < 8 || !strings.EqualFold(seg[0], "planes") || !strings.EqualFold(seg[1], "radius") ||
		!strings.EqualFold(seg[3], "resourceGroups") || !strings.EqualFold(seg[5], "providers") {
		return id, nil, badID(s, form, "is not a resource ID")
	}
	id.Plane, id.Group, id.Namespace = seg[2], seg[4], seg[6]
	if p := SegmentProblem(id.Plane); p != "" {
		return id, nil, badID(s, form, "has a plane name that "+p)
	}
	if p := ResourceNameProblem(id.Group); p != "" {
		return id, nil, badID(s, form, "has a resource group name that "+p)
	}
	if p := NamespaceProblem(id.Namespace); p != "" {
		return id, nil, badID(s, form, "has a namespace that "+p)
	}
	// An ID ends with a name (an odd count of segments), a list with a type.
	switch {
	case form == formID && len(seg)%2 == 0:
		return id, nil, badID(s, form, "has a type without a name")
	case form == formList && len(seg)%2 == 1:
		return id, nil, badID(s, form, "ends with a name, not a type")
	}
	return id, seg, nil
}

// parsePairs checks type/name pairs and appends them to id.
func parsePairs(s, form string, pairs []string, id *ResourceID) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if p := SegmentProblem(pairs[i]); p != "" {
			return badID(s, form, fmt.Sprintf("has a type segment %q that %s", pairs[i], p))
		}
		if p := ResourceNameProblem(pairs[i+1]); p != "" {
			return badID(s, form, fmt.Sprintf("has a resource name %q that %s", pairs[i+1], p))
		}
		id.Types = append(id.Types, pairs[i])
		id.Names = append(id.Names, pairs[i+1])
	}
	return nil
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

// Key is the lower-cased ID: the one identity of a resource, whatever the
// casing of a request (stores look resources up by it, and the server binds
// a resource's sealed secrets to it).
func (id ResourceID) Key() string { return strings.ToLower(id.String()) }

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
