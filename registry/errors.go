package registry

import (
	"context"
	"errors"
	"fmt"

	"github.com/udtc/udtc/registry/api"
)

// Typed errors. Stores and the service wrap them with context; test with
// errors.Is.
var (
	// ErrNotFound: the resource does not exist.
	ErrNotFound = errors.New("not found")
	// ErrParentNotFound: a parent (plane, provider, type, or the parent type
	// of a child type) does not exist.
	ErrParentNotFound = errors.New("parent not found")
	// ErrPrecondition: an If-Match / If-None-Match condition does not hold.
	ErrPrecondition = errors.New("precondition failed")
	// ErrConflict: a concurrent write got in the way; retrying may succeed.
	ErrConflict = errors.New("conflict")
	// ErrInvalid: a name or body is invalid.
	ErrInvalid = errors.New("invalid")
	// ErrBusy: the database did not grant a lock in time (another writer,
	// possibly of another process, holds it); retrying later may succeed.
	ErrBusy = errors.New("the database is busy")
)

// More typed errors, for resources of user-defined types. Both NotFound
// errors are kinds of ErrParentNotFound (errors.Is holds). Their text is
// "not found" alone: the error that wraps one names the group or parent.
var (
	// ErrGroupNotFound: the resource group of a resource does not exist.
	ErrGroupNotFound error = &kindError{"not found", ErrParentNotFound}
	// ErrParentResourceNotFound: the parent resource of a child resource
	// does not exist.
	ErrParentResourceNotFound error = &kindError{"not found", ErrParentNotFound}
	// ErrInUse: a registration still has resources (see InUseError).
	ErrInUse = errors.New("in use")
)

// kindError is a typed error that is a kind of another (errors.Is(e, of)
// holds) without repeating the other's text.
type kindError struct {
	text string
	of   error
}

func (e *kindError) Error() string { return e.text }
func (e *kindError) Unwrap() error { return e.of }

// InUseError says that deleting a registration would delete Count
// resources. errors.Is(err, ErrInUse) holds.
type InUseError struct {
	ID    ID
	Count int
}

func (e *InUseError) Error() string {
	noun := "resources"
	if e.Count == 1 {
		noun = "resource"
	}
	return fmt.Sprintf("%s %s still has %d %s of its types; delete them first, or pass ?force=true to delete them with it",
		e.ID.Kind, e.ID.Leaf(), e.Count, noun)
}

// Is makes errors.Is(err, ErrInUse) hold.
func (e *InUseError) Is(target error) bool { return target == ErrInUse }

// Code classifies an error for the registry's callers; registry/server
// maps each code to an HTTP status and ARM error code in one table.
type Code uint8

// The codes. CodeOf gives the code of any error: an *Error's own, or the
// code of the typed error it wraps.
const (
	// CodeInternal: a failure of the registry itself (the zero Code).
	CodeInternal Code = iota
	// CodeInvalid: a name, body, parameter or schema is invalid (ErrInvalid).
	CodeInvalid
	// CodeInvalidAPIVersion: the api-version parameter is missing or wrong.
	CodeInvalidAPIVersion
	// CodeNotFound: the resource, or a parent of it, does not exist
	// (ErrNotFound, ErrParentNotFound), or nothing is served at the path.
	CodeNotFound
	// CodeNamespaceNotFound, CodeTypeNotFound, CodeAPIVersionNotFound and
	// CodeLocationNotRegistered: a resource request names a registration
	// that does not exist.
	CodeNamespaceNotFound
	CodeTypeNotFound
	CodeAPIVersionNotFound
	CodeLocationNotRegistered
	// CodeGroupNotFound: the resource group does not exist (ErrGroupNotFound).
	CodeGroupNotFound
	// CodeParentResourceNotFound: the parent resource does not exist
	// (ErrParentResourceNotFound).
	CodeParentResourceNotFound
	// CodeInUse: a registration still has resources (ErrInUse).
	CodeInUse
	// CodeSyncManaged: a git sync owns the namespace written to.
	CodeSyncManaged
	// CodePrecondition: an If-Match / If-None-Match condition does not hold
	// (ErrPrecondition).
	CodePrecondition
	// CodeConflict: a concurrent write got in the way (ErrConflict).
	CodeConflict
	// CodeUnavailable: the request was cancelled or timed out.
	CodeUnavailable
	// CodeBusy: the database did not grant a lock in time (ErrBusy).
	CodeBusy
	// The codes of the HTTP API's own refusals.
	CodeMethodNotAllowed
	CodeUnsupportedMediaType
	CodeTooLarge
	CodeHeadersTooLarge
	CodeUnauthorized
	// CodeForbidden: the request is not one the registry serves at all:
	// a Host that is not the server's, a write from a web page of another
	// origin (registry/server's guardRequests).
	CodeForbidden
	CodeBadGateway
	// CodeLoopDetected: a forwarded request would come back to a registry
	// (it carries the hop header, or the address is the server's own).
	CodeLoopDetected
)

// Error is an error with its code, its message as the caller sees it, the
// part of the request it is about (Target: "location", "properties", ...;
// "" for none) and the problems it is made of (the violations of a schema).
type Error struct {
	Code    Code
	Message string
	Target  string
	Details []api.ErrorDetail
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error of code about target with a formatted message.
func Errorf(code Code, target, format string, args ...any) *Error {
	return &Error{Code: code, Target: target, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of err: an *Error's own, else the code of the
// typed error err wraps; CodeInternal for any other error.
func CodeOf(err error) Code {
	var e *Error
	switch {
	case errors.As(err, &e):
		return e.Code
	case errors.Is(err, ErrInvalid):
		return CodeInvalid
	case errors.Is(err, ErrGroupNotFound):
		return CodeGroupNotFound
	case errors.Is(err, ErrParentResourceNotFound):
		return CodeParentResourceNotFound
	case errors.Is(err, ErrInUse):
		return CodeInUse
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrParentNotFound):
		return CodeNotFound
	case errors.Is(err, ErrPrecondition):
		return CodePrecondition
	case errors.Is(err, ErrConflict):
		return CodeConflict
	case errors.Is(err, ErrBusy):
		return CodeBusy
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return CodeUnavailable
	}
	return CodeInternal
}
