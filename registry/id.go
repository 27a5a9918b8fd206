package registry

import (
	"fmt"
	"strings"

	"github.com/udtc/udtc/registry/api"
)

// Kind is the kind of a registry resource (one enumeration, api.Kind;
// its values are api.KindPlane and the others).
type Kind = api.Kind

// MaxNameLength is the longest name (or child type segment) accepted.
const MaxNameLength = api.MaxNameLength

// ValidateNamespace checks a resource provider namespace ("Contoso.Platform").
func ValidateNamespace(s string) error {
	return invalid("resource provider namespace", s, api.NamespaceProblem(s))
}

// ValidateTypeName checks a resource type name; child types are "/"-joined
// segments ("contosoBuses/queues"), each a valid segment.
func ValidateTypeName(s string) error {
	return invalid("resource type name", s, api.TypeNameProblem(s))
}

// ValidateAPIVersion checks an API version name ("2024-08-01-preview"); the
// date must exist.
func ValidateAPIVersion(s string) error { return invalid("API version", s, api.APIVersionProblem(s)) }

// ValidateLocation checks a location name ("global").
func ValidateLocation(s string) error { return invalid("location name", s, api.SegmentProblem(s)) }

// ValidatePlane checks a plane name ("local").
func ValidatePlane(s string) error { return invalid("plane name", s, api.SegmentProblem(s)) }

// invalid wraps a name problem (from registry/api, the rules udtc check
// applies too) in ErrInvalid.
func invalid(what, name, problem string) error {
	if problem == "" {
		return nil
	}
	return fmt.Errorf("%w: %s %q %s", ErrInvalid, what, name, problem)
}

// ID identifies a registry resource. Which fields are used depends on Kind:
//
//	KindPlane         Plane
//	KindProvider      Plane, Provider
//	KindResourceType  Plane, Provider, Type
//	KindAPIVersion    Plane, Provider, Type, Name (the version)
//	KindLocation      Plane, Provider, Name (the location)
//
// Names compare case-insensitively (see Key); a stored resource's ID carries
// the casing the names were created with.
type ID struct {
	Kind     Kind
	Plane    string
	Provider string
	Type     string // unescaped: "contosoBuses/queues"
	Name     string
}

// PlaneID returns the ID of a plane.
func PlaneID(plane string) ID { return ID{Kind: api.KindPlane, Plane: plane} }

// ProviderID returns the ID of a resource provider.
func ProviderID(plane, namespace string) ID {
	return ID{Kind: api.KindProvider, Plane: plane, Provider: namespace}
}

// TypeID returns the ID of a resource type.
func TypeID(plane, namespace, typ string) ID {
	return ID{Kind: api.KindResourceType, Plane: plane, Provider: namespace, Type: typ}
}

// APIVersionID returns the ID of a resource type API version.
func APIVersionID(plane, namespace, typ, version string) ID {
	return ID{Kind: api.KindAPIVersion, Plane: plane, Provider: namespace, Type: typ, Name: version}
}

// LocationID returns the ID of a resource provider location.
func LocationID(plane, namespace, location string) ID {
	return ID{Kind: api.KindLocation, Plane: plane, Provider: namespace, Name: location}
}

// Leaf returns the resource's own name.
func (id ID) Leaf() string {
	switch id.Kind {
	case api.KindPlane:
		return id.Plane
	case api.KindProvider:
		return id.Provider
	case api.KindResourceType:
		return id.Type
	}
	return id.Name
}

// Parent returns the ID of the parent resource; ok is false for a plane.
func (id ID) Parent() (parent ID, ok bool) {
	switch id.Kind {
	case api.KindProvider:
		return PlaneID(id.Plane), true
	case api.KindResourceType, api.KindLocation:
		return ProviderID(id.Plane, id.Provider), true
	case api.KindAPIVersion:
		return TypeID(id.Plane, id.Provider, id.Type), true
	}
	return ID{}, false
}

// ParentType returns, for a child resource type ("contosoBuses/queues"), the
// ID of the type it is nested in ("contosoBuses").
func (id ID) ParentType() (parent ID, ok bool) {
	if id.Kind != api.KindResourceType {
		return ID{}, false
	}
	i := strings.LastIndexByte(id.Type, '/')
	if i < 0 {
		return ID{}, false
	}
	return TypeID(id.Plane, id.Provider, id.Type[:i]), true
}

// Key returns the ID with every name lower-cased: the lookup key.
func (id ID) Key() ID {
	return ID{
		Kind:     id.Kind,
		Plane:    strings.ToLower(id.Plane),
		Provider: strings.ToLower(id.Provider),
		Type:     strings.ToLower(id.Type),
		Name:     strings.ToLower(id.Name),
	}
}

// Equal reports whether two IDs name the same resource (case-insensitively).
func (id ID) Equal(o ID) bool { return id.Key() == o.Key() }

// Validate checks every name the ID uses against the seed's patterns and
// returns an error wrapping ErrInvalid.
func (id ID) Validate() error {
	if !id.Kind.Valid() {
		return fmt.Errorf("%w: unknown kind %d", ErrInvalid, int(id.Kind))
	}
	if err := ValidatePlane(id.Plane); err != nil {
		return err
	}
	if id.Kind == api.KindPlane {
		return nil
	}
	if err := ValidateNamespace(id.Provider); err != nil {
		return err
	}
	switch id.Kind {
	case api.KindResourceType:
		return ValidateTypeName(id.Type)
	case api.KindAPIVersion:
		if err := ValidateTypeName(id.Type); err != nil {
			return err
		}
		return ValidateAPIVersion(id.Name)
	case api.KindLocation:
		return ValidateLocation(id.Name)
	}
	return nil
}

// String returns the resource ID path, e.g.
// /planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Platform/resourceTypes/contosoBuses_queues.
func (id ID) String() string {
	var b strings.Builder
	b.WriteString("/planes/radius/")
	b.WriteString(id.Plane)
	if id.Kind == api.KindPlane {
		return b.String()
	}
	b.WriteString("/providers/System.Resources/resourceProviders/")
	b.WriteString(id.Provider)
	switch id.Kind {
	case api.KindResourceType, api.KindAPIVersion:
		b.WriteString("/resourceTypes/")
		b.WriteString(api.EscapeTypeName(id.Type))
		if id.Kind == api.KindAPIVersion {
			b.WriteString("/apiVersions/")
			b.WriteString(id.Name)
		}
	case api.KindLocation:
		b.WriteString("/locations/")
		b.WriteString(id.Name)
	}
	return b.String()
}
