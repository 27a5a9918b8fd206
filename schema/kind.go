package schema

// Kind is the kind of a schema node.
type Kind int

// Schema kinds. An object with a typed additionalProperties schema and no
// properties is a Map; `type: any` is Any.
const (
	String Kind = iota + 1
	Integer
	Number
	Boolean
	Object
	Map
	Array
	Any
)

var kindNames = [...]string{"", "string", "integer", "number", "boolean", "object", "map", "array", "any"}

// typeKinds are the values `type` takes in a schema of the supported subset,
// in the order the docs list them, with the kind each one gives (an object
// with a typed additionalProperties becomes a Map). This is the one list:
// the checker, its hints, the registry's reading and the manifest's JSON
// Schema use it.
var typeKinds = []struct {
	name string
	kind Kind
}{
	{"string", String}, {"integer", Integer}, {"number", Number}, {"boolean", Boolean},
	{"object", Object}, {"array", Array}, {"any", Any},
}

// TypeNames returns the values `type` may take, in documentation order.
func TypeNames() []string {
	out := make([]string, len(typeKinds))
	for i, t := range typeKinds {
		out[i] = t.name
	}
	return out
}

// KindOfType returns the kind a `type` value gives, and false when the
// value is not a type of the subset.
func KindOfType(name string) (Kind, bool) {
	for _, t := range typeKinds {
		if t.name == name {
			return t.kind, true
		}
	}
	return 0, false
}

// String returns the kind's lower-case name ("map" for Map).
func (k Kind) String() string {
	if k <= 0 || int(k) >= len(kindNames) {
		return "invalid"
	}
	return kindNames[k]
}

// TypeName returns the `type` value a node of kind k is written with:
// "object" for a Map, "" for an invalid kind.
func (k Kind) TypeName() string {
	switch {
	case k == Map:
		return "object"
	case k <= 0 || int(k) >= len(kindNames):
		return ""
	}
	return kindNames[k]
}
