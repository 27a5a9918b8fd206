package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/udtc/udtc/registry"
)

// The git sync (`udtc serve --sync`) keeps its state in the store
// (registry/service's SyncGuard and SyncStatus): every server sharing the
// store, syncing or not, refuses writes to the namespaces it manages and
// answers /sync/status. The sync itself writes through the service, never
// through these routes.

// syncGuard refuses writes of registrations (PUT and DELETE of providers,
// types, API versions, locations) in namespaces a git sync manages: 409
// naming the repository.
func (s *Server) syncGuard(h handlerFunc) handlerFunc {
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
	return s.svc.SyncGuard(r.Context(), ns)
}

// syncStatus serves GET /sync/status; 404 when no server ever synced the
// store.
func (s *Server) syncStatus(w http.ResponseWriter, r *http.Request) error {
	st, ok, err := s.svc.SyncStatus(r.Context())
	if err != nil {
		return err
	}
	if !ok {
		return registry.Errorf(registry.CodeNotFound, "", "this registry does not follow a git repository (udtc serve --sync)")
	}
	writeJSON(w, http.StatusOK, st)
	return nil
}

// syncReadiness is what /readyz says about the sync: "" when there is no
// sync or nothing to report. A refused commit or drift does not make the
// server unready: the last applied commit stays in force and is served.
func (s *Server) syncReadiness(ctx context.Context) string {
	st, ok, err := s.svc.SyncStatus(ctx)
	switch {
	case err != nil:
		s.log.ErrorContext(ctx, "reading the sync state failed", "err", err)
		return "unknown (reading the sync state failed)"
	case !ok:
		return ""
	case st.Refused != nil:
		return fmt.Sprintf("refused commit %s of %s (%d diagnostics, see /sync/status); serving %s", short(st.Refused.Commit), st.Repository, len(st.Refused.Diagnostics), orNone(short(st.LastAppliedCommit)))
	case st.State == "failed", st.State == "damaged":
		return st.State + ": " + st.Error
	case st.State == "drifted" && st.Drift != nil:
		return fmt.Sprintf("drifted: %d registrations differ from commit %s (see /sync/status)", len(st.Drift.Changes), short(st.Drift.Commit))
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
