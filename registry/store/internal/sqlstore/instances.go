package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// Resource groups and the resources of user-defined types (the tables of
// migration 3, see resourcesTemplate).

// instanceTxStatements are the statements of resource group and resource
// write transactions; Open prepares them with txStatements.
var instanceTxStatements = []string{
	qGroupCurrent,
	qGroupUpdate,
	qGroupOwner,
	qInstanceParent,
	qInstanceCurrent,
	qInstanceUpdate,
	qCountVersion,
	qGroupInsert,
	qInstanceInsert,
	qGroupDeleteLookup,
	qGroupDelete,
	qInstanceDeleteLookup,
	qInstanceDelete,
}

// Statements run inside resource group and resource write transactions.
const (
	qGroupCurrent         = `SELECT id, etag, name, created_at, created_by FROM resource_groups WHERE plane_key = ? AND name_key = ?`
	qGroupUpdate          = `UPDATE resource_groups SET location = ?, tags = ?, etag = ?, modified_at = ?, modified_by = ? WHERE id = ? AND etag = COALESCE(?, etag)`
	qGroupOwner           = `SELECT id, plane, name FROM resource_groups WHERE plane_key = ? AND name_key = ?`
	qInstanceParent       = `SELECT id, rid FROM instances WHERE id_key = ?`
	qInstanceCurrent      = `SELECT id, etag, rid, created_at, created_by FROM instances WHERE id_key = ?`
	qInstanceUpdate       = `UPDATE instances SET version_id = ?, api_version = ?, location = ?, tags = ?, properties = ?, secrets = ?, etag = ?, modified_at = ?, modified_by = ? WHERE id = ? AND etag = COALESCE(?, etag)`
	qCountVersion         = `SELECT COUNT(*) FROM instances WHERE version_id = ?`
	qGroupInsert          = `INSERT INTO resource_groups (plane_id, plane_key, name_key, plane, name, location, tags, etag, created_at, created_by, modified_at, modified_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`
	qInstanceInsert       = `INSERT INTO instances (group_id, parent_id, version_id, id_key, plane_key, provider_key, type_key, rid, api_version, location, tags, properties, secrets, etag, created_at, created_by, modified_at, modified_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`
	qGroupDeleteLookup    = `SELECT id, etag FROM resource_groups WHERE plane_key = ? AND name_key = ?`
	qGroupDelete          = `DELETE FROM resource_groups WHERE id = ? AND etag = COALESCE(?, etag)`
	qInstanceDeleteLookup = `SELECT id, etag FROM instances WHERE id_key = ?`
	qInstanceDelete       = `DELETE FROM instances WHERE id = ? AND etag = COALESCE(?, etag)`
)

func groupKey(id registry.GroupID) (plane, name string) {
	return strings.ToLower(id.Plane), strings.ToLower(id.Name)
}

func encodeTags(tags map[string]string) (string, error) {
	if len(tags) == 0 {
		return "", nil
	}
	b, err := json.Marshal(tags)
	if err != nil {
		return "", fmt.Errorf("%w: tags: %v", registry.ErrInvalid, err)
	}
	return string(b), nil
}

// encodeColumns returns the tags and properties columns of a write: the
// tags as JSON ("" without tags), the properties {} when empty.
func encodeColumns(tags map[string]string, props json.RawMessage) (string, string, error) {
	t, err := encodeTags(tags)
	if err != nil {
		return "", "", err
	}
	if len(props) == 0 {
		return t, "{}", nil
	}
	return t, string(props), nil
}

func decodeTags(s, what string) (map[string]string, error) {
	if s == "" {
		return nil, nil
	}
	var tags map[string]string
	if err := json.Unmarshal([]byte(s), &tags); err != nil {
		return nil, fmt.Errorf("stored tags of %s: %w", what, err)
	}
	return tags, nil
}

func parseTimes(sys *registry.SystemData, created, modified, what string) error {
	var err error
	if sys.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return fmt.Errorf("stored created_at of %s: %w", what, err)
	}
	if sys.LastModifiedAt, err = time.Parse(time.RFC3339Nano, modified); err != nil {
		return fmt.Errorf("stored modified_at of %s: %w", what, err)
	}
	return nil
}

const groupCols = `plane, name, location, tags, etag, created_at, created_by, modified_at, modified_by`

func scanGroup(sc Scanner) (registry.Group, error) {
	var (
		g                     registry.Group
		tags                  string
		createdAt, modifiedAt string
	)
	if err := sc.Scan(&g.ID.Plane, &g.ID.Name, &g.Location, &tags, &g.ETag, &createdAt, &g.System.CreatedBy, &modifiedAt, &g.System.LastModifiedBy); err != nil {
		return g, err
	}
	var err error
	if g.Tags, err = decodeTags(tags, g.ID.String()); err != nil {
		return g, err
	}
	return g, parseTimes(&g.System, createdAt, modifiedAt, g.ID.String())
}

// PutGroup implements registry.ResourceStore.
func (s *Store) PutGroup(ctx context.Context, w registry.GroupWrite) (registry.Group, bool, error) {
	g := w.Group
	if err := g.ID.Validate(); err != nil {
		return registry.Group{}, false, err
	}
	tags, err := encodeTags(g.Tags)
	if err != nil {
		return registry.Group{}, false, err
	}
	tx, we, err := s.beginWrite(ctx)
	if err != nil {
		return registry.Group{}, false, err
	}
	defer we.end()
	plane, found, err := s.lookup(ctx, tx, registry.PlaneID(g.ID.Plane))
	if err != nil {
		return registry.Group{}, false, err
	}
	if !found {
		return registry.Group{}, false, fmt.Errorf("plane %s: %w", registry.PlaneID(g.ID.Plane), registry.ErrParentNotFound)
	}
	pk, nk := groupKey(g.ID)
	stored := registry.GroupID{Plane: plane.plane, Name: g.ID.Name}
	etag, now := newETag(), formatTime(w.Now)
	row, err := s.upsert(ctx, tx, upsert{
		what: g.ID.String(), current: qGroupCurrent, args: []any{pk, nk}, cond: w.If, now: now, actor: w.Actor,
		insert: func() (bool, error) {
			done, err := affected(s.exec(ctx, tx, qGroupInsert,
				plane.id, pk, nk, stored.Plane, stored.Name, g.Location, tags, etag, now, w.Actor, now, w.Actor))
			return done, s.groupWriteErr(g.ID, err)
		},
		update: func(rowID int64, guard any, oldName string) (bool, error) {
			stored.Name = oldName
			done, err := affected(s.exec(ctx, tx, qGroupUpdate,
				g.Location, tags, etag, now, w.Actor, rowID, guard))
			return done, s.groupWriteErr(g.ID, err)
		},
	})
	if err != nil {
		return registry.Group{}, false, err
	}
	if err := we.commit(); err != nil {
		return registry.Group{}, false, s.groupWriteErr(g.ID, err)
	}
	out := registry.Group{ID: stored, Location: g.Location, Tags: g.Tags, ETag: etag,
		System: registry.SystemData{CreatedBy: row.createdBy, LastModifiedBy: w.Actor}}
	if len(out.Tags) == 0 {
		out.Tags = nil
	}
	if err := parseTimes(&out.System, row.createdAt, now, g.ID.String()); err != nil {
		return registry.Group{}, false, err
	}
	return out, !row.exists, nil
}

// lookupToDelete reads, in tx, the row ID and ETag of what (sel with args)
// and checks cond against them; found is false when there is no such row.
func (s *Store) lookupToDelete(ctx context.Context, tx *sql.Tx, what string, cond registry.Precondition, sel string, args ...any) (rowID int64, etag string, found bool, err error) {
	err = s.queryRow(ctx, tx, sel, args...).Scan(&rowID, &etag)
	found = err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, "", false, fmt.Errorf("%s: look up %s: %w", s.d.Name, what, err)
	}
	if err := cond.Check(found, etag); err != nil {
		return rowID, etag, found, fmt.Errorf("%s: %w", what, err)
	}
	return rowID, etag, found, nil
}

// groupWriteErr classifies a failed resource group write; nil stays nil.
func (s *Store) groupWriteErr(id registry.GroupID, err error) error {
	return s.classifyWrite(id, "plane", err)
}

// GetGroup implements registry.ResourceStore.
func (s *Store) GetGroup(ctx context.Context, id registry.GroupID) (registry.Group, error) {
	pk, nk := groupKey(id)
	g, err := scanGroup(s.queryRow(ctx, nil, `SELECT `+groupCols+` FROM resource_groups WHERE plane_key = ? AND name_key = ?`, pk, nk))
	if errors.Is(err, sql.ErrNoRows) {
		return registry.Group{}, fmt.Errorf("resource group %s: %w", id, registry.ErrNotFound)
	}
	if err != nil {
		return registry.Group{}, fmt.Errorf("%s: get %s: %w", s.d.Name, id, err)
	}
	return g, nil
}

// DeleteGroup implements registry.ResourceStore: one DELETE, cascading to
// every resource of the group.
func (s *Store) DeleteGroup(ctx context.Context, id registry.GroupID, cond registry.Precondition) (bool, error) {
	pk, nk := groupKey(id)
	return s.deleteRow(ctx, id.String(), cond,
		qGroupDeleteLookup, []any{pk, nk}, qGroupDelete)
}

// deleteRow deletes the row that sel finds (id, etag) with del (id, etag),
// checking cond as part of the delete (casLoop).
func (s *Store) deleteRow(ctx context.Context, what string, cond registry.Precondition, sel string, args []any, del string) (bool, error) {
	tx, we, err := s.beginWrite(ctx)
	if err != nil {
		return false, err
	}
	defer we.end()
	exists := false
	err = casLoop(what, func() (bool, error) {
		rowID, etag, found, err := s.lookupToDelete(ctx, tx, what, cond, sel, args...)
		exists = found
		if err != nil {
			return false, err
		}
		if !exists {
			return true, nil // nothing to delete
		}
		done, err := affected(s.exec(ctx, tx, del, rowID, guard(cond, etag)))
		if err != nil {
			return false, fmt.Errorf("%s: delete %s: %w", s.d.Name, what, err)
		}
		return done, nil
	})
	if err != nil || !exists {
		return false, err
	}
	if err := we.commit(); err != nil {
		return false, fmt.Errorf("%s: delete %s: %w", s.d.Name, what, err)
	}
	return true, nil
}

// ListGroups implements registry.ResourceStore.
func (s *Store) ListGroups(ctx context.Context, plane string, opts registry.ListOptions) (registry.GroupPage, error) {
	top := pageSize(opts)
	if _, found, err := s.lookup(ctx, nil, registry.PlaneID(plane)); err != nil {
		return registry.GroupPage{}, err
	} else if !found {
		return registry.GroupPage{}, fmt.Errorf("plane %s: %w", registry.PlaneID(plane), registry.ErrParentNotFound)
	}
	rows, err := s.query(ctx, `SELECT `+groupCols+` FROM resource_groups WHERE plane_key = ? AND name_key > ? ORDER BY name_key LIMIT ?`,
		strings.ToLower(plane), opts.After, top+1)
	if err != nil {
		return registry.GroupPage{}, fmt.Errorf("%s: list resource groups: %w", s.d.Name, err)
	}
	var page registry.GroupPage
	page.Items, page.Next, err = scanPage(rows, top, scanGroup, func(g registry.Group) string {
		return strings.ToLower(g.ID.Name)
	})
	if err != nil {
		return registry.GroupPage{}, fmt.Errorf("%s: list resource groups: %w", s.d.Name, err)
	}
	return page, nil
}

func pageSize(opts registry.ListOptions) int {
	top := opts.Top
	if top <= 0 {
		top = registry.DefaultPageSize
	}
	return min(top, registry.MaxPageSize)
}

const instanceCols = `rid, api_version, location, tags, properties, secrets, etag, created_at, created_by, modified_at, modified_by`

func scanInstance(sc Scanner) (registry.Instance, error) {
	var (
		in                    registry.Instance
		rid, tags, props      string
		createdAt, modifiedAt string
	)
	if err := sc.Scan(&rid, &in.APIVersion, &in.Location, &tags, &props, &in.Secrets, &in.ETag, &createdAt, &in.System.CreatedBy, &modifiedAt, &in.System.LastModifiedBy); err != nil {
		return in, err
	}
	var err error
	if in.ID, err = api.ParseResourceID(rid); err != nil {
		return in, fmt.Errorf("stored resource ID: %w", err)
	}
	if in.Tags, err = decodeTags(tags, rid); err != nil {
		return in, err
	}
	in.Properties = json.RawMessage(props)
	if len(in.Secrets) == 0 {
		in.Secrets = nil
	}
	return in, parseTimes(&in.System, createdAt, modifiedAt, rid)
}

// PutInstance implements registry.ResourceStore. The ID and API version
// are the caller's, as parsed and resolved (registry/service); the store
// looks up the owners in the write's transaction, for their rows (the
// foreign keys) and stored names.
func (s *Store) PutInstance(ctx context.Context, w registry.InstanceWrite) (registry.Instance, bool, error) {
	in := w.Instance
	id := in.ID
	tags, props, err := encodeColumns(in.Tags, in.Properties)
	if err != nil {
		return registry.Instance{}, false, err
	}
	var secrets any // NULL without secrets
	if len(in.Secrets) > 0 {
		secrets = in.Secrets
	}
	tx, we, err := s.beginWrite(ctx)
	if err != nil {
		return registry.Instance{}, false, err
	}
	defer we.end()
	o, err := s.instanceOwners(ctx, tx, id, in.APIVersion)
	if err != nil {
		return registry.Instance{}, false, err
	}
	stored, key := o.stored, id.Key()
	etag, now := newETag(), formatTime(w.Now)
	row, err := s.upsert(ctx, tx, upsert{
		what: id.String(), current: qInstanceCurrent, args: []any{key}, cond: w.If, now: now, actor: w.Actor,
		insert: func() (bool, error) {
			done, err := affected(s.exec(ctx, tx, qInstanceInsert,
				o.groupID, o.parentID, o.version.id, key, o.planeKey, strings.ToLower(id.Namespace), strings.ToLower(id.TypeName()), stored.String(),
				in.APIVersion, in.Location, tags, props, secrets, etag, now, w.Actor, now, w.Actor))
			return done, s.instanceWriteErr(ctx, id, o.vid, err)
		},
		update: func(rowID int64, guard any, oldRID string) (bool, error) {
			old, err := api.ParseResourceID(oldRID)
			if err != nil {
				return false, fmt.Errorf("stored resource ID: %w", err)
			}
			stored.Names[len(stored.Names)-1] = old.Name() // keep the name as created
			done, err := affected(s.exec(ctx, tx, qInstanceUpdate,
				o.version.id, in.APIVersion, in.Location, tags, props, secrets, etag, now, w.Actor, rowID, guard))
			return done, s.instanceWriteErr(ctx, id, o.vid, err)
		},
	})
	if err != nil {
		return registry.Instance{}, false, err
	}
	if err := we.commit(); err != nil {
		return registry.Instance{}, false, s.instanceWriteErr(ctx, id, o.vid, err)
	}
	out := in
	out.ID, out.Properties, out.ETag = stored, json.RawMessage(props), etag
	if len(out.Secrets) == 0 {
		out.Secrets = nil
	}
	if len(out.Tags) == 0 {
		out.Tags = nil
	}
	out.System = registry.SystemData{CreatedBy: row.createdBy, LastModifiedBy: w.Actor}
	if err := parseTimes(&out.System, row.createdAt, now, stored.String()); err != nil {
		return registry.Instance{}, false, err
	}
	return out, !row.exists, nil
}

// owners are the rows a resource belongs to, as PutInstance finds them.
type owners struct {
	groupID  int64
	planeKey string
	parentID sql.NullInt64 // the parent resource of a child
	vid      registry.ID   // the API version it is written with
	version  parentRow
	stored   api.ResourceID // the resource's ID in its owners' stored names
}

// instanceOwners looks up, in tx, the owners of resource id written with
// apiVersion: the group (top-level resources) or the parent resource
// (children), and the API version, taking their stored names.
func (s *Store) instanceOwners(ctx context.Context, tx *sql.Tx, id api.ResourceID, apiVersion string) (owners, error) {
	var o owners
	gid := registry.GroupID{Plane: id.Plane, Name: id.Group}
	gpk, gnk := groupKey(gid)
	o.planeKey = gpk
	var gPlane, gName string
	err := s.queryRow(ctx, tx, qGroupOwner, gpk, gnk).Scan(&o.groupID, &gPlane, &gName)
	if errors.Is(err, sql.ErrNoRows) {
		return o, fmt.Errorf("resource group %s: %w", gid, registry.ErrGroupNotFound)
	}
	if err != nil {
		return o, fmt.Errorf("%s: look up %s: %w", s.d.Name, gid, err)
	}
	if pid, ok := id.Parent(); ok {
		var prid string
		var p int64
		err := s.queryRow(ctx, tx, qInstanceParent, pid.Key()).Scan(&p, &prid)
		if errors.Is(err, sql.ErrNoRows) {
			return o, fmt.Errorf("parent resource %s: %w", pid, registry.ErrParentResourceNotFound)
		}
		if err != nil {
			return o, fmt.Errorf("%s: look up %s: %w", s.d.Name, pid, err)
		}
		o.parentID = sql.NullInt64{Int64: p, Valid: true}
		if o.stored, err = api.ParseResourceID(prid); err != nil {
			return o, fmt.Errorf("stored resource ID: %w", err)
		}
		o.stored.Names = append(slices.Clone(o.stored.Names), id.Name())
	} else {
		o.stored = api.ResourceID{Plane: gPlane, Group: gName, Names: slices.Clone(id.Names)}
	}
	o.vid = registry.APIVersionID(id.Plane, id.Namespace, id.TypeName(), apiVersion)
	version, found, err := s.lookup(ctx, tx, o.vid)
	if err != nil {
		return o, err
	}
	if !found {
		return o, fmt.Errorf("%s %s: %w", o.vid.Kind, o.vid, registry.ErrParentNotFound)
	}
	o.version = version
	// The namespace and types as registered.
	o.stored.Namespace = version.provider
	o.stored.Types = strings.Split(version.typ, "/")
	return o, nil
}

// instanceWriteErr classifies a failed resource write. A foreign key
// violation means an owner was deleted after it was looked up (PostgreSQL,
// another transaction): the API version (unregistered), else the parent
// resource of a child, else the group; which one is looked up again.
func (s *Store) instanceWriteErr(ctx context.Context, id api.ResourceID, vid registry.ID, err error) error {
	switch {
	case err == nil:
		return nil
	case s.d.IsForeignKeyViolation != nil && s.d.IsForeignKeyViolation(err):
		if _, found, lerr := s.lookup(ctx, nil, vid); lerr == nil && !found {
			return fmt.Errorf("%s %s was unregistered concurrently: %w", vid.Kind, vid, registry.ErrParentNotFound)
		}
		if _, ok := id.Parent(); ok {
			return fmt.Errorf("parent of %s was deleted concurrently: %w", id, registry.ErrParentResourceNotFound)
		}
		return fmt.Errorf("resource group of %s was deleted concurrently: %w", id, registry.ErrGroupNotFound)
	case s.d.IsUniqueViolation != nil && s.d.IsUniqueViolation(err):
		return fmt.Errorf("%s was written concurrently: %w", id, registry.ErrConflict)
	}
	return fmt.Errorf("%s: write %s: %w", s.d.Name, id, err)
}

// GetInstance implements registry.ResourceStore.
func (s *Store) GetInstance(ctx context.Context, id api.ResourceID) (registry.Instance, error) {
	in, err := scanInstance(s.queryRow(ctx, nil, `SELECT `+instanceCols+` FROM instances WHERE id_key = ?`, id.Key()))
	if errors.Is(err, sql.ErrNoRows) {
		return registry.Instance{}, fmt.Errorf("resource %s: %w", id, registry.ErrNotFound)
	}
	if err != nil {
		return registry.Instance{}, fmt.Errorf("%s: get %s: %w", s.d.Name, id, err)
	}
	return in, nil
}

// AnySecrets implements registry.ResourceStore.
func (s *Store) AnySecrets(ctx context.Context) (api.ResourceID, []byte, bool, error) {
	var (
		rid    string
		sealed []byte
	)
	err := s.queryRow(ctx, nil, `SELECT rid, secrets FROM instances WHERE secrets IS NOT NULL ORDER BY id LIMIT 1`).Scan(&rid, &sealed)
	if errors.Is(err, sql.ErrNoRows) {
		return api.ResourceID{}, nil, false, nil
	}
	if err != nil {
		return api.ResourceID{}, nil, false, fmt.Errorf("%s: a resource with secrets: %w", s.d.Name, err)
	}
	id, err := api.ParseResourceID(rid)
	if err != nil {
		return api.ResourceID{}, nil, false, fmt.Errorf("stored resource ID: %w", err)
	}
	return id, sealed, true, nil
}

// DeleteInstance implements registry.ResourceStore: one DELETE, cascading
// to the resource's children.
func (s *Store) DeleteInstance(ctx context.Context, id api.ResourceID, cond registry.Precondition) (bool, error) {
	return s.deleteRow(ctx, id.String(), cond, qInstanceDeleteLookup, []any{id.Key()}, qInstanceDelete)
}

// ListInstances implements registry.ResourceStore.
func (s *Store) ListInstances(ctx context.Context, q registry.InstanceQuery, opts registry.ListOptions) (registry.InstancePage, error) {
	top := pageSize(opts)
	typeKey := strings.ToLower(q.Type)
	var (
		rows *sql.Rows
		err  error
	)
	switch {
	case q.Parent != nil:
		var pid int64
		err = s.queryRow(ctx, nil, `SELECT id FROM instances WHERE id_key = ?`, q.Parent.Key()).Scan(&pid)
		if errors.Is(err, sql.ErrNoRows) {
			return registry.InstancePage{}, fmt.Errorf("parent resource %s: %w", q.Parent, registry.ErrParentResourceNotFound)
		}
		if err != nil {
			return registry.InstancePage{}, fmt.Errorf("%s: look up %s: %w", s.d.Name, q.Parent, err)
		}
		rows, err = s.query(ctx, `SELECT `+instanceCols+` FROM instances WHERE parent_id = ? AND type_key = ? AND id_key > ? ORDER BY id_key LIMIT ?`,
			pid, typeKey, opts.After, top+1)
	case q.Group != "":
		gid := registry.GroupID{Plane: q.Plane, Name: q.Group}
		pk, nk := groupKey(gid)
		var g int64
		err = s.queryRow(ctx, nil, `SELECT id FROM resource_groups WHERE plane_key = ? AND name_key = ?`, pk, nk).Scan(&g)
		if errors.Is(err, sql.ErrNoRows) {
			return registry.InstancePage{}, fmt.Errorf("resource group %s: %w", gid, registry.ErrGroupNotFound)
		}
		if err != nil {
			return registry.InstancePage{}, fmt.Errorf("%s: look up %s: %w", s.d.Name, gid, err)
		}
		rows, err = s.query(ctx, `SELECT `+instanceCols+` FROM instances WHERE group_id = ? AND type_key = ? AND id_key > ? ORDER BY id_key LIMIT ?`,
			g, typeKey, opts.After, top+1)
	default:
		rows, err = s.query(ctx, `SELECT `+instanceCols+` FROM instances WHERE plane_key = ? AND provider_key = ? AND type_key = ? AND id_key > ? ORDER BY id_key LIMIT ?`,
			strings.ToLower(q.Plane), strings.ToLower(q.Namespace), typeKey, opts.After, top+1)
	}
	if err != nil {
		return registry.InstancePage{}, fmt.Errorf("%s: list resources: %w", s.d.Name, err)
	}
	var page registry.InstancePage
	page.Items, page.Next, err = scanPage(rows, top, scanInstance, func(in registry.Instance) string {
		return in.ID.Key()
	})
	if err != nil {
		return registry.InstancePage{}, fmt.Errorf("%s: list resources: %w", s.d.Name, err)
	}
	return page, nil
}

// DeleteRegistration implements registry.ResourceStore. On PostgreSQL the
// rows being deleted are locked first (FOR UPDATE), so a resource create
// racing with the delete either commits before the count (and is counted)
// or waits and then fails its foreign key check: the count is exact.
func (s *Store) DeleteRegistration(ctx context.Context, id registry.ID, cond registry.Precondition, force bool) (bool, int, error) {
	tx, we, err := s.beginWrite(ctx)
	if err != nil {
		return false, 0, err
	}
	defer we.end()
	deleted, n, err := s.deleteIn(ctx, tx, id, cond, force)
	if err != nil || !deleted {
		return false, 0, err
	}
	if err := we.commit(); err != nil {
		return false, 0, s.writeErr(id, err)
	}
	return true, n, nil
}

// deleteIn performs DeleteRegistration in tx, which the caller commits.
func (s *Store) deleteIn(ctx context.Context, tx *sql.Tx, id registry.ID, cond registry.Precondition, force bool) (bool, int, error) {
	var (
		exists bool
		n      int
	)
	err := casLoop(id.String(), func() (bool, error) {
		rowID, etag, found, err := s.lookupToDelete(ctx, tx, id.String(), cond, qDeleteLookup, keyArgs(id)...)
		exists = found
		if err != nil {
			return false, err
		}
		if !exists {
			return true, nil // nothing to delete
		}
		if n, err = s.countInstances(ctx, tx, id, rowID); err != nil {
			return false, err
		}
		if n > 0 && !force {
			return false, &registry.InUseError{ID: id, Count: n}
		}
		done, err := affected(s.exec(ctx, tx, qDelete, rowID, guard(cond, etag)))
		return done, s.writeErr(id, err)
	})
	if err != nil || !exists {
		return false, 0, err
	}
	return true, n, nil
}

// ApplyBatch implements registry.Batcher: every op in one write
// transaction (with group commit, in one savepoint of the shared
// transaction), rolled back as a whole when one fails.
func (s *Store) ApplyBatch(ctx context.Context, ops []registry.BatchOp) error {
	if len(ops) == 0 {
		return nil
	}
	tx, we, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer we.end()
	if err := s.applyOps(ctx, tx, ops); err != nil {
		return err
	}
	if err := we.commit(); err != nil {
		return fmt.Errorf("%s: commit a batch of %d writes: %w", s.d.Name, len(ops), err)
	}
	return nil
}

// unchangedOp reports whether the Put w of a batch is unchanged (see
// unchanged) in tx.
func (s *Store) unchangedOp(ctx context.Context, tx *sql.Tx, w registry.Write) bool {
	_, props, err := encodeColumns(w.Resource.Tags, w.Resource.Properties)
	if err != nil {
		return false // putIn reports it
	}
	_, ok := s.unchangedIn(ctx, tx, w, props)
	return ok
}

// applyOps performs the ops of a batch in tx, which the caller commits; a
// failed op is returned as a *registry.BatchError.
func (s *Store) applyOps(ctx context.Context, tx *sql.Tx, ops []registry.BatchOp) error {
	for i, op := range ops {
		var err error
		switch {
		case op.Put != nil && s.unchangedOp(ctx, tx, *op.Put):
			// Nothing new to store: written, it would only change the ETag.
		case op.Put != nil:
			_, _, err = s.putIn(ctx, tx, *op.Put)
		default:
			_, _, err = s.deleteIn(ctx, tx, op.Delete, op.If, false)
		}
		if err != nil {
			return &registry.BatchError{Index: i, Op: op, Err: err}
		}
	}
	return nil
}

// CountInstances implements registry.ResourceStore: one query, grouped by
// the API version row each resource references.
func (s *Store) CountInstances(ctx context.Context, plane, namespace string) ([]registry.InstanceCount, error) {
	rows, err := s.query(ctx, `SELECT v.type, v.name, COUNT(*) FROM instances i JOIN resources v ON v.id = i.version_id
		WHERE i.plane_key = ? AND i.provider_key = ?
		GROUP BY v.type_key, v.name_key, v.type, v.name ORDER BY v.type_key, v.name_key`,
		strings.ToLower(plane), strings.ToLower(namespace))
	if err != nil {
		return nil, fmt.Errorf("%s: count resources of %s: %w", s.d.Name, namespace, err)
	}
	defer rows.Close()
	out := []registry.InstanceCount{}
	for rows.Next() {
		var c registry.InstanceCount
		if err := rows.Scan(&c.Type, &c.APIVersion, &c.Count); err != nil {
			return nil, fmt.Errorf("%s: count resources of %s: %w", s.d.Name, namespace, err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: count resources of %s: %w", s.d.Name, namespace, err)
	}
	return out, nil
}

// countInstances locks the registration rows that deleting id would delete
// (where the database has row locks) and counts the resources written with
// any of their API versions.
func (s *Store) countInstances(ctx context.Context, tx *sql.Tx, id registry.ID, rowID int64) (int, error) {
	p, _, pr, t, _ := keys(id)
	var where string
	var args []any
	switch id.Kind {
	case api.KindPlane:
		where, args = `plane_key = ?`, []any{p}
	case api.KindProvider:
		where, args = `plane_key = ? AND provider_key = ?`, []any{p, pr}
	case api.KindResourceType:
		where, args = `plane_key = ? AND provider_key = ? AND (type_key = ? OR type_key LIKE ?)`, []any{p, pr, t, t + "/%"}
	case api.KindAPIVersion:
		if s.d.LockRows != "" {
			if _, err := s.exec(ctx, tx, `SELECT id FROM resources WHERE id = ?`+s.d.LockRows, rowID); err != nil {
				return 0, fmt.Errorf("%s: lock %s: %w", s.d.Name, id, err)
			}
		}
		var n int
		if err := s.queryRow(ctx, tx, qCountVersion, rowID).Scan(&n); err != nil {
			return 0, fmt.Errorf("%s: count resources of %s: %w", s.d.Name, id, err)
		}
		return n, nil
	default:
		return 0, nil // a location owns no resources
	}
	if s.d.LockRows != "" {
		if _, err := s.exec(ctx, tx, `SELECT id FROM resources WHERE `+where+` ORDER BY id`+s.d.LockRows, args...); err != nil {
			return 0, fmt.Errorf("%s: lock %s: %w", s.d.Name, id, err)
		}
	}
	var n int
	if err := s.queryRow(ctx, tx, `SELECT COUNT(*) FROM instances WHERE `+where, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("%s: count resources of %s: %w", s.d.Name, id, err)
	}
	return n, nil
}

// InstanceOrphanCount returns how many resource groups or resources lack
// an owner row (group, parent resource, API version, plane). It is zero in
// a healthy database.
func (s *Store) InstanceOrphanCount(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM resource_groups g WHERE NOT EXISTS (SELECT 1 FROM resources p WHERE p.id = g.plane_id AND p.kind = 1)) +
		(SELECT COUNT(*) FROM instances i WHERE
			NOT EXISTS (SELECT 1 FROM resource_groups g WHERE g.id = i.group_id)
			OR NOT EXISTS (SELECT 1 FROM resources v WHERE v.id = i.version_id AND v.kind = 4)
			OR (i.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM instances p WHERE p.id = i.parent_id AND p.group_id = i.group_id)))`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("%s: orphan count: %w", s.d.Name, err)
	}
	return n, nil
}
