package registry

import (
	"context"
	"encoding/json"
	"time"

	"github.com/udtc/udtc/registry/api"
)

// Resources of user-defined types ("instances", to tell them from the
// registration resources above) live in resource groups of a plane. A
// resource belongs to its group and a child resource to its parent
// resource; each is written with one registered API version of its type.
// The owners are enforced by the database: deleting a group deletes every
// resource in it, deleting a resource deletes its children, and
// unregistering an API version (or the type or provider above it) that
// still has resources is refused unless forced, which deletes them too.

// GroupID identifies a resource group.
type GroupID struct{ Plane, Name string }

// String returns the group's ID: /planes/radius/{plane}/resourceGroups/{name}.
func (g GroupID) String() string { return "/planes/radius/" + g.Plane + "/resourceGroups/" + g.Name }

// Validate checks the plane and group names.
func (g GroupID) Validate() error {
	if err := ValidatePlane(g.Plane); err != nil {
		return err
	}
	return invalid("resource group name", g.Name, api.ResourceNameProblem(g.Name))
}

// Group is a stored resource group.
type Group struct {
	ID       GroupID // the names as created
	Location string
	Tags     map[string]string
	ETag     string
	System   SystemData
}

// Instance is a stored resource of a user-defined type.
type Instance struct {
	// ID carries the names as created; its namespace and types are spelled
	// as registered.
	ID api.ResourceID
	// APIVersion is the registered API version the resource was last
	// written with.
	APIVersion string
	Location   string
	Tags       map[string]string
	// Properties is the admitted JSON object without its secret values and
	// without provisioningState.
	Properties json.RawMessage
	// Secrets is the secret part of the properties as the server sealed it
	// (nil when the type has none); stores keep it as opaque bytes.
	Secrets []byte
	ETag    string
	System  SystemData
}

// GroupWrite is a PutGroup request.
type GroupWrite struct {
	Group Group
	If    Precondition
	Now   time.Time
	Actor string
}

// InstanceWrite is a PutInstance request.
type InstanceWrite struct {
	Instance Instance
	If       Precondition
	Now      time.Time
	Actor    string
}

// InstanceQuery selects the resources of one type for ListInstances: in a
// group (Group set), under a parent resource (Parent set; its type is the
// parent type of Type), or in the whole plane (neither).
type InstanceQuery struct {
	Plane     string
	Namespace string
	Type      string // "contosoBuses/queues"
	Group     string
	Parent    *api.ResourceID
}

// GroupPage is one page of ListGroups; Next is as in Page.
type GroupPage struct {
	Items []Group
	Next  string
}

// InstancePage is one page of ListInstances; Next is as in Page.
type InstancePage struct {
	Items []Instance
	Next  string
}

// ResourceStore persists resource groups and resources of user-defined
// types. Like Store, it enforces owners in the database, so that no
// resource outlives its group, parent resource or API version, whatever
// runs concurrently.
type ResourceStore interface {
	// PutGroup creates or replaces a resource group, keeping the stored
	// casing of its name. It returns ErrParentNotFound when the plane does
	// not exist and ErrPrecondition when w.If does not hold.
	PutGroup(ctx context.Context, w GroupWrite) (stored Group, created bool, err error)
	// GetGroup returns ErrNotFound when the group does not exist.
	GetGroup(ctx context.Context, id GroupID) (Group, error)
	// DeleteGroup removes the group and every resource in it in one
	// transaction and reports whether it existed.
	DeleteGroup(ctx context.Context, id GroupID, cond Precondition) (deleted bool, err error)
	// ListGroups lists the groups of a plane by lower-cased name. It returns
	// ErrParentNotFound when the plane does not exist.
	ListGroups(ctx context.Context, plane string, opts ListOptions) (GroupPage, error)

	// PutInstance creates or replaces a resource, keeping the stored casing
	// of its names and its creation data on update. It returns
	// ErrGroupNotFound, ErrParentResourceNotFound, ErrParentNotFound when
	// the API version w.Instance.APIVersion of its type is not registered,
	// ErrPrecondition and ErrConflict.
	PutInstance(ctx context.Context, w InstanceWrite) (stored Instance, created bool, err error)
	// GetInstance returns ErrNotFound when the resource does not exist.
	GetInstance(ctx context.Context, id api.ResourceID) (Instance, error)
	// DeleteInstance removes the resource and its children, and only them,
	// in one transaction and reports whether it existed.
	DeleteInstance(ctx context.Context, id api.ResourceID, cond Precondition) (deleted bool, err error)
	// ListInstances lists resources ordered by lower-cased ID. It returns
	// ErrGroupNotFound or ErrParentResourceNotFound when the group or the
	// parent of the query does not exist.
	ListInstances(ctx context.Context, q InstanceQuery, opts ListOptions) (InstancePage, error)

	// AnySecrets returns one resource that has secrets, its ID and its
	// sealed secrets as stored; found is false when no resource has any.
	// The server opens it at start to check that it has the key the
	// secrets were sealed with.
	AnySecrets(ctx context.Context) (id api.ResourceID, sealed []byte, found bool, err error)

	// DeleteRegistration is Store.Delete, with force: without it, deleting
	// a provider, type (with its child types) or API version that still has
	// resources returns an *InUseError; with it, those resources are
	// deleted in the same transaction. removed is how many were.
	DeleteRegistration(ctx context.Context, id ID, cond Precondition, force bool) (deleted bool, removed int, err error)
	// CountInstances counts the resources of the types of a provider
	// namespace by the API version they were last written with: what
	// DeleteRegistration without force counts before it refuses (a type
	// counts its own and its child types' resources, an API version those
	// written with it). Types are as registered, ordered by name, then by
	// version; a version without resources is absent.
	CountInstances(ctx context.Context, plane, namespace string) ([]InstanceCount, error)
}

// InstanceCount is how many resources of a type were last written with
// one of its API versions.
type InstanceCount struct {
	Type       string // as registered: "contosoBuses/queues"
	APIVersion string // as registered
	Count      int
}
