package api

import "fmt"

// Kind is a kind of registration resource. It is the one enumeration of
// them: the store and the server (registry.Kind), publish's plans
// (publish.Kind) and the "type" field of bodies all use it.
type Kind int

// The kinds, parents first.
const (
	KindPlane Kind = iota + 1
	KindProvider
	KindResourceType
	KindAPIVersion
	KindLocation
)

// kinds holds each kind's spellings: in messages, as an identifier (plans,
// JSON), and as the wire "type" of its bodies.
var kinds = [...]struct{ text, ident, wire string }{
	KindPlane:        {"plane", "plane", TypePlane},
	KindProvider:     {"resource provider", "resourceProvider", TypeResourceProvider},
	KindResourceType: {"resource type", "resourceType", TypeResourceType},
	KindAPIVersion:   {"API version", "apiVersion", TypeAPIVersion},
	KindLocation:     {"location", "location", TypeLocation},
}

// Valid reports whether k is one of the kinds.
func (k Kind) Valid() bool { return k >= KindPlane && k <= KindLocation }

// String returns the kind for messages: "resource provider".
func (k Kind) String() string {
	if !k.Valid() {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kinds[k].text
}

// Ident returns the kind as an identifier: "resourceProvider", "apiVersion".
func (k Kind) Ident() string {
	if !k.Valid() {
		return fmt.Sprintf("Kind(%d)", int(k))
	}
	return kinds[k].ident
}

// WireType returns the "type" field of the kind's bodies:
// "System.Resources/resourceProviders/resourceTypes".
func (k Kind) WireType() string {
	if !k.Valid() {
		return ""
	}
	return kinds[k].wire
}

// MarshalText encodes the kind as its Ident.
func (k Kind) MarshalText() ([]byte, error) {
	if !k.Valid() {
		return nil, fmt.Errorf("api: invalid kind %d", int(k))
	}
	return []byte(kinds[k].ident), nil
}

// UnmarshalText decodes an Ident.
func (k *Kind) UnmarshalText(b []byte) error {
	for i := KindPlane; i <= KindLocation; i++ {
		if kinds[i].ident == string(b) {
			*k = i
			return nil
		}
	}
	return fmt.Errorf("api: unknown kind %q", b)
}
