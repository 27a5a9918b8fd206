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
// secrets holds the sealed secret part of the properties, NULL when none.
const resourcesTemplate = `
CREATE TABLE resource_groups (
	id          {{ID}},
	plane_id    {{REF}} NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
	plane_key   TEXT {{C}} NOT NULL,
	name_key    TEXT {{C}} NOT NULL,
	plane       TEXT NOT NULL,
	name        TEXT NOT NULL,
	location    TEXT NOT NULL,
	tags        TEXT NOT NULL,
	etag        TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	created_by  TEXT NOT NULL,
	modified_at TEXT NOT NULL,
	modified_by TEXT NOT NULL
);
CREATE UNIQUE INDEX resource_groups_key ON resource_groups (plane_key, name_key);
CREATE INDEX resource_groups_plane ON resource_groups (plane_id);
CREATE TABLE instances (
	id           {{ID}},
	group_id     {{REF}} NOT NULL REFERENCES resource_groups(id) ON DELETE CASCADE,
	parent_id    {{REF}} REFERENCES instances(id) ON DELETE CASCADE,
	version_id   {{REF}} NOT NULL REFERENCES resources(id) ON DELETE CASCADE,
	id_key       TEXT {{C}} NOT NULL,
	plane_key    TEXT {{C}} NOT NULL,
	provider_key TEXT {{C}} NOT NULL,
	type_key     TEXT {{C}} NOT NULL,
	rid          TEXT NOT NULL,
	api_version  TEXT NOT NULL,
	location     TEXT NOT NULL,
	tags         TEXT NOT NULL,
	properties   TEXT NOT NULL,
	secrets      {{BYTES}},
	etag         TEXT NOT NULL,
	created_at   TEXT NOT NULL,
	created_by   TEXT NOT NULL,
	modified_at  TEXT NOT NULL,
	modified_by  TEXT NOT NULL
);
CREATE UNIQUE INDEX instances_key ON instances (id_key);
CREATE INDEX instances_group ON instances (group_id, type_key, id_key);
CREATE INDEX instances_parent ON instances (parent_id, type_key, id_key);
CREATE INDEX instances_type ON instances (plane_key, provider_key, type_key, id_key);
CREATE INDEX instances_version ON instances (version_id)
`

// ResourceTables returns the third migration for a dialect; bytesType is
// the column type of opaque bytes (BLOB, BYTEA).
func ResourceTables(idType, refType, collate, bytesType string) string {
	r := strings.NewReplacer("{{ID}}", idType, "{{REF}}", refType, "{{C}}", collate, "{{BYTES}}", bytesType)
	return r.Replace(resourcesTemplate)
}
