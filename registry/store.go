package registry

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Store persists registry resources. Implementations are safe for concurrent
// use and enforce the nested lifecycle in the database itself, so that two
// processes sharing one database can never leave a child without its parent.
type Store interface {
	// Get returns the resource. It returns ErrNotFound when the resource (or
	// any ancestor) does not exist.
	Get(ctx context.Context, id ID) (Resource, error)
	// Put creates or replaces w.Resource, keeping the stored casing of its
	// names and its creation data on update, and returns the stored resource
	// and whether it was created. It returns ErrParentNotFound when the parent
	// (or a child type's parent type) does not exist, ErrPrecondition when
	// w.If does not hold, and ErrConflict when a concurrent write interfered.
	// A Put that would store nothing new (the same location, tags and
	// properties, by the same w.Actor as the last write) under a condition
	// that holds writes nothing and returns the stored resource, its ETag
	// and system data unchanged; so does each such Put of ApplyBatch.
	Put(ctx context.Context, w Write) (stored Resource, created bool, err error)
	// Delete removes the resource and all its descendants (for a type, also
	// its child types), and only them, in one transaction. It reports whether
	// something was deleted; deleting an absent resource is not an error. It
	// returns ErrPrecondition when cond does not hold, and an *InUseError
	// when resources of user-defined types would be deleted with it (see
	// ResourceStore.DeleteRegistration).
	Delete(ctx context.Context, id ID, cond Precondition) (deleted bool, err error)
	// List returns the children of kind under parent (parent is ignored for
	// KindPlane), ordered by lower-cased name. It returns ErrParentNotFound
	// when the parent does not exist.
	List(ctx context.Context, parent ID, kind Kind, opts ListOptions) (Page, error)
	// Summaries returns the summaries of every provider of the plane, or of
	// the one provider named namespace when it is not "". It returns
	// ErrParentNotFound when the plane does not exist and ErrNotFound when
	// the named provider does not. It runs a bounded number of queries.
	Summaries(ctx context.Context, plane, namespace string) ([]ProviderSummary, error)
	// Ping checks the database connection.
	Ping(ctx context.Context) error
	// Close releases the store.
	Close() error

	// The resources of the registered types.
	ResourceStore
}

// Write is a Put request.
type Write struct {
	Resource Resource
	If       Precondition
	Now      time.Time // the write's timestamp, stored in UTC
	Actor    string    // the caller's identity, "" when unknown
}

// Precondition holds parsed If-Match / If-None-Match values: ETags without
// quotes, or "*".
type Precondition struct {
	IfMatch     []string
	IfNoneMatch []string
}

// IsZero reports whether there is no condition.
func (p Precondition) IsZero() bool { return len(p.IfMatch) == 0 && len(p.IfNoneMatch) == 0 }

// Check returns ErrPrecondition when the condition does not hold for the
// current ETag (exists false: the resource is absent), wrapped in a message
// that says which header failed and why.
func (p Precondition) Check(exists bool, etag string) error {
	if len(p.IfMatch) > 0 {
		switch {
		case !exists:
			return fmt.Errorf("%w: If-Match %s, but the resource does not exist", ErrPrecondition, etags(p.IfMatch))
		case !(slices.Contains(p.IfMatch, "*") || slices.Contains(p.IfMatch, etag)):
			return fmt.Errorf("%w: If-Match %s, but the resource's ETag is %q (it changed since it was read)", ErrPrecondition, etags(p.IfMatch), etag)
		}
	}
	if len(p.IfNoneMatch) > 0 && exists {
		switch {
		case slices.Contains(p.IfNoneMatch, "*"):
			return fmt.Errorf("%w: If-None-Match \"*\", but the resource exists", ErrPrecondition)
		case slices.Contains(p.IfNoneMatch, etag):
			return fmt.Errorf("%w: If-None-Match %s, but the resource's ETag is %q", ErrPrecondition, etags(p.IfNoneMatch), etag)
		}
	}
	return nil
}

// etags writes a condition's ETags as the header carries them.
func etags(tags []string) string {
	q := make([]string, len(tags))
	for i, t := range tags {
		q[i] = fmt.Sprintf("%q", t)
	}
	return strings.Join(q, ", ")
}

// ListOptions page a List.
type ListOptions struct {
	// Top is the page size; 0 means DefaultPageSize.
	Top int
	// After is the lower-cased name the page starts after (Page.Next of the
	// previous page); "" starts at the beginning.
	After string
}

// Page size limits.
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
)

// Page is one page of a List.
type Page struct {
	Items []Resource
	// Next is the After value of the next page; "" on the last page.
	Next string
}

// Generations is implemented by stores that can tell cheaply whether the
// data changed: the server caches encoded read responses per generation
// (registry/server's response cache). Generation returns a value that
// differs from every value returned before a write committed, by this
// process or any other process sharing the database; equal values mean
// nothing was committed in between. It returns an error wrapping
// errors.ErrUnsupported when the store cannot tell, and then nothing is
// cached.
type Generations interface {
	Generation(ctx context.Context) (string, error)
}

// BatchOp is one write of a batch: a Put of Put.Resource when Put is not
// nil, else a Delete of Delete under If.
type BatchOp struct {
	Put    *Write
	Delete ID
	If     Precondition
}

// Batcher is implemented by stores that can apply several writes in one
// transaction (git sync applies a namespace's plan through it).
type Batcher interface {
	// ApplyBatch performs ops in order, each with the rules and errors of
	// Put or Delete (a Delete that would delete resources of user-defined
	// types fails with an *InUseError), in one transaction: either every op
	// is committed or none is. A failure is returned as a *BatchError
	// wrapping the failed op's error.
	ApplyBatch(ctx context.Context, ops []BatchOp) error
}

// BatchError is the failure of the op at Index of a batch; nothing of the
// batch was committed.
type BatchError struct {
	Index int
	Op    BatchOp
	Err   error
}

func (e *BatchError) Error() string {
	if e.Op.Put != nil {
		return fmt.Sprintf("batch write %d (put %s): %v", e.Index+1, e.Op.Put.Resource.ID, e.Err)
	}
	return fmt.Sprintf("batch write %d (delete %s): %v", e.Index+1, e.Op.Delete, e.Err)
}

func (e *BatchError) Unwrap() error { return e.Err }
