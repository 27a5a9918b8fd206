package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/service"
)

// Sync is what the server needs of a git sync (`udtc serve --sync`), which
// makes a repository the source of truth of some namespaces.
type Sync interface {
	// Repository names the followed repository in errors.
	Repository() string
	// Manages reports whether the sync owns the namespace (any case).
	Manages(namespace string) bool
	// IsSyncWriter reports whether a request was sent by the sync itself.
	IsSyncWriter(r *http.Request) bool
	// Status is the body of GET /sync/status.
	Status() api.SyncStatus
}

// RegistrationWrite is one write of ApplyRegistrations (see
// service.SyncWrite).
type RegistrationWrite = service.SyncWrite

// ApplyRegistrations is the service's ApplyRegistrations: writes of
// registrations in one transaction of the store, all or none (see
// service.Service.ApplyRegistrations). The sync guard does not apply (the
// caller is the sync).
func (s *Server) ApplyRegistrations(ctx context.Context, actor string, writes []RegistrationWrite) error {
	return s.svc.ApplyRegistrations(ctx, actor, writes)
}

// syncGuard refuses writes of registrations (PUT and DELETE of providers,
// types, API versions, locations) in namespaces the sync manages, unless the
// sync sends them: 409 naming the repository.
func (s *Server) syncGuard(h handlerFunc) handlerFunc {
	if s.sync == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := s.guard(r, r.PathValue("namespace")); err != nil {
			return err
		}
		return h(w, r)
	}
}

// guard returns the sync guard's refusal of a write of r to namespace ns,
// nil when it may be written.
func (s *Server) guard(r *http.Request, ns string) error {
	if s.sync == nil || !s.sync.Manages(ns) || s.sync.IsSyncWriter(r) {
		return nil
	}
	return registry.Errorf(registry.CodeSyncManaged, ns,
		"namespace %s is managed by git sync from %s: change it there (the repository is the source of truth)", ns, s.sync.Repository())
}

// syncStatus serves GET /sync/status; 404 when the server does not sync.
func (s *Server) syncStatus(w http.ResponseWriter, r *http.Request) error {
	if s.sync == nil {
		return registry.Errorf(registry.CodeNotFound, "", "this server does not follow a git repository (udtc serve --sync)")
	}
	writeJSON(w, http.StatusOK, s.sync.Status())
	return nil
}

// syncReadiness is what /readyz says about the sync: "" when there is no
// sync or nothing to report. A refused commit does not make the server
// unready: the last applied commit stays in force and is served.
func (s *Server) syncReadiness() string {
	if s.sync == nil {
		return ""
	}
	st := s.sync.Status()
	switch {
	case st.Refused != nil:
		return fmt.Sprintf("refused commit %s of %s (%d diagnostics, see /sync/status); serving %s", short(st.Refused.Commit), st.Repository, len(st.Refused.Diagnostics), orNone(short(st.LastAppliedCommit)))
	case st.State == "failed":
		return "failed: " + st.Error
	}
	return st.State
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

func orNone(s string) string {
	if s == "" {
		return "nothing yet"
	}
	return s
}
