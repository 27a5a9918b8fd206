package sqlstore

import (
	_ "embed"
	"strings"
)

// Schema is the shape every dialect's first migration creates; the dialects
// differ only in the id column and collation. Kept here so the two stay
// alike.
//
// kind: 1 plane, 2 provider, 3 resource type, 4 API version, 5 location.
// *_key columns hold lower-cased names for case-insensitive lookup ("" when
// unused); plane/provider/type/name hold the names as created. The SQL is schema.sql.
//
//go:embed schema.sql
var schemaTemplate string

// Schema returns the first migration for a dialect: idType is the primary
// key column type, refType the type of columns referencing it, collate the
// collation clause for key columns ("" for the default).
func Schema(idType, refType, collate string) string {
	r := strings.NewReplacer("{{ID}}", idType, "{{REF}}", refType, "{{C}}", collate)
	return r.Replace(schemaTemplate)
}

// ProviderIndex is the second migration: a provider's rows by key, so one
// provider's summary does not scan every provider of the plane (the
// summary query selects the plane row OR the provider's rows, and each side
// of the OR now has an index).
const ProviderIndex = `CREATE INDEX resources_provider ON resources (plane_key, provider_key, kind)`

// resourcesTemplate is the third migration: resource groups and the
// resources of user-defined types ("instances"; the table "resources" holds
// the registrations). Owners are foreign keys with ON DELETE CASCADE:
//
//   - a group references its plane row;
//   - a resource references its group, its parent resource (child
//     resources only) and the API version row it was written with, so that
//     deleting a group, a parent or a registration deletes it in the same
//     statement (the server refuses registration deletes that would,
//     unless forced).
//
// id_key is the lower-cased resource ID: the unique key and the paging
// cursor of every list. type_key is the lower-cased type within the
// namespace ("contosobuses/queues"). rid is the resource ID as created.
// secrets holds the sealed secret part of the properties, NULL when none. The SQL is resources.sql.
//
//go:embed resources.sql
var resourcesTemplate string

// ResourceTables returns the third migration for a dialect; bytesType is
// the column type of opaque bytes (BLOB, BYTEA).
func ResourceTables(idType, refType, collate, bytesType string) string {
	r := strings.NewReplacer("{{ID}}", idType, "{{REF}}", refType, "{{C}}", collate, "{{BYTES}}", bytesType)
	return r.Replace(resourcesTemplate)
}
