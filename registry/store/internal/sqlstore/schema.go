package sqlstore

import "strings"

// Schema is the shape every dialect's first migration creates; the dialects
// differ only in the id column and collation. Kept here so the two stay
// alike.
//
// kind: 1 plane, 2 provider, 3 resource type, 4 API version, 5 location.
// *_key columns hold lower-cased names for case-insensitive lookup ("" when
// unused); plane/provider/type/name hold the names as created.
const schemaTemplate = `
CREATE TABLE resources (
	id           {{ID}},
	parent_id    {{REF}} REFERENCES resources(id) ON DELETE CASCADE,
	owner_id     {{REF}} REFERENCES resources(id) ON DELETE CASCADE,
	kind         INTEGER NOT NULL CHECK (kind BETWEEN 1 AND 5),
	plane_key    TEXT {{C}} NOT NULL,
	provider_key TEXT {{C}} NOT NULL,
	type_key     TEXT {{C}} NOT NULL,
	name_key     TEXT {{C}} NOT NULL,
	plane        TEXT NOT NULL,
	provider     TEXT NOT NULL,
	type         TEXT NOT NULL,
	name         TEXT NOT NULL,
	location     TEXT NOT NULL,
	tags         TEXT NOT NULL,
	properties   TEXT NOT NULL,
	etag         TEXT NOT NULL,
	created_at   TEXT NOT NULL,
	created_by   TEXT NOT NULL,
	modified_at  TEXT NOT NULL,
	modified_by  TEXT NOT NULL,
	CHECK ((kind = 1) = (parent_id IS NULL))
);
CREATE UNIQUE INDEX resources_key ON resources (plane_key, kind, provider_key, type_key, name_key);
CREATE INDEX resources_children ON resources (parent_id, kind, name_key);
CREATE INDEX resources_owner ON resources (owner_id)
`

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
