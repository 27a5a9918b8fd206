
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
