package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
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

// RegistrationWrite is one write of ApplyRegistrations: a PUT of Body (the
// wire body a client would send: api.ResourceProvider, api.ResourceType,
// api.APIVersion or api.Location) to ID, or a DELETE of ID when Body is nil.
type RegistrationWrite struct {
	ID   registry.ID
	Body any
}

// ApplyRegistrations performs writes of registrations (providers, types,
// API versions, locations) in order, in one transaction of the store: all
// or none. Each body is checked as the body of a PUT is (schemas included);
// a DELETE does not force (resources still using a type make the whole
// batch fail, as the 409 of a DELETE would). The writes carry actor as
// their author. It returns an error wrapping errors.ErrUnsupported when
// the store does not implement registry.Batcher; the sync guard does not
// apply (the caller is the sync).
func (s *Server) ApplyRegistrations(ctx context.Context, actor string, writes []RegistrationWrite) error {
	b, ok := s.store.(registry.Batcher)
	if !ok {
		return fmt.Errorf("the store cannot apply writes in one transaction: %w", errors.ErrUnsupported)
	}
	now := s.now().UTC()
	ops := make([]registry.BatchOp, len(writes))
	for i, w := range writes {
		if err := w.ID.Validate(); err != nil {
			return err
		}
		if w.Body == nil {
			ops[i] = registry.BatchOp{Delete: w.ID}
			continue
		}
		body, err := json.Marshal(w.Body)
		if err != nil {
			return fmt.Errorf("PUT %s: %w", w.ID, err)
		}
		env, err := decodeEnvelope(body, false)
		if err == nil {
			var res registry.Resource
			res, err = s.envelopeResource(ctx, w.ID, env)
			ops[i] = registry.BatchOp{Put: &registry.Write{Resource: res, Now: now, Actor: actor}}
		}
		if err != nil {
			return fmt.Errorf("PUT %s: %w", w.ID, withDetails(err))
		}
	}
	return b.ApplyBatch(ctx, ops)
}

// withDetails adds the details of an *httpError (the violations of a
// schema) to its message.
func withDetails(err error) error {
	var he *httpError
	if !errors.As(err, &he) || len(he.details) == 0 {
		return err
	}
	msgs := make([]string, len(he.details))
	for i, d := range he.details {
		msgs[i] = d.Message
		if d.Target != "" {
			msgs[i] = d.Target + ": " + d.Message
		}
	}
	return fmt.Errorf("%w: %s", err, strings.Join(msgs, "; "))
}

// syncGuard refuses writes of registrations (PUT and DELETE of providers,
// types, API versions, locations) in namespaces the sync manages, unless the
// sync sends them: 409 naming the repository.
func (s *Server) syncGuard(h http.HandlerFunc) http.HandlerFunc {
	if s.sync == nil {
		return h
	}
	return func(w http.ResponseWriter, r *http.Request) {
		ns := r.PathValue("namespace")
		if s.sync.Manages(ns) && !s.sync.IsSyncWriter(r) {
			s.writeError(w, r, &httpError{
				status: http.StatusConflict, code: api.CodeConflict, target: ns,
				message: fmt.Sprintf("namespace %s is managed by git sync from %s: change it there (the repository is the source of truth)", ns, s.sync.Repository()),
			})
			return
		}
		h(w, r)
	}
}

// syncStatus serves GET /sync/status; 404 when the server does not sync.
func (s *Server) syncStatus(w http.ResponseWriter, r *http.Request) {
	if s.sync == nil {
		s.writeError(w, r, &httpError{status: http.StatusNotFound, code: api.CodeNotFound, message: "this server does not follow a git repository (udtc serve --sync)"})
		return
	}
	writeJSON(w, http.StatusOK, s.sync.Status())
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
