package api

// Registration is the desired registry state of one resource provider
// namespace: what `udtc publish` makes the registry hold. It is produced
// from the checked model by generator/emit/registration and consumed by
// registry/publish, so the request documents have one source.
type Registration struct {
	Namespace string
	Provider  ResourceProvider
	// Types in dependency order: a parent before its children. Each
	// ResourceType has Name set to the type name ("buses/queues").
	Types []RegisteredType
	// Locations, each with Name set, sorted by name.
	Locations []Location
}

// RegisteredType is a resource type with its API versions (Name set on
// each, oldest first).
type RegisteredType struct {
	Type        ResourceType
	APIVersions []APIVersion
}
