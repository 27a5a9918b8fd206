
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
