package api

import (
	"strings"

	"github.com/udtc/udtc/schema"
)

// References between resources. A string property of a resource type's
// schema may declare what it points at with the extension
//
//	x-resource-type: Contoso.Data/postgresDatabases        # a known reference
//	x-resource-type: [Contoso.Data/postgresDatabases, ...] # one of several types
//	x-resource-type: "*"                                   # a generic reference
//
// and its value is then a resource ID (ParseResourceID) of an allowed type.
// `udtc check` and the registry's admission read the extension with the same
// rules.

// ExtensionResourceType is the schema extension that declares a reference
// (schema.ExtensionResourceType).
const ExtensionResourceType = schema.ExtensionResourceType

// AnyResourceType is the x-resource-type value of a generic reference
// (schema.AnyResourceType).
const AnyResourceType = schema.AnyResourceType

// FullTypeNameProblem explains why t is not a full resource type name
// "Namespace/type" or "Namespace/type/child", or returns "".
func FullTypeNameProblem(t string) string {
	ns, name, ok := strings.Cut(t, "/")
	if !ok || name == "" {
		return "must be Namespace/type, like Contoso.Data/postgresDatabases"
	}
	if p := NamespaceProblem(ns); p != "" {
		return "has a namespace that " + p
	}
	if p := TypeNameProblem(name); p != "" {
		return "has a type name that " + p
	}
	return ""
}
