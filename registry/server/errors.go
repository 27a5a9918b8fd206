package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// httpError is an error the server constructs with its status and ARM code.
type httpError struct {
	status  int
	code    string
	message string
	target  string
	details []api.ErrorDetail
}

func (e *httpError) Error() string { return e.message }

// errorStatus is the one mapping from errors to statuses and ARM codes.
func errorStatus(err error) (int, api.ErrorDetail) {
	var he *httpError
	switch {
	case errors.As(err, &he):
		return he.status, api.ErrorDetail{Code: he.code, Message: he.message, Target: he.target, Details: he.details}
	case errors.Is(err, registry.ErrInvalid):
		return http.StatusBadRequest, api.ErrorDetail{Code: api.CodeInvalidRequestContent, Message: err.Error()}
	case errors.Is(err, registry.ErrGroupNotFound):
		return http.StatusNotFound, api.ErrorDetail{Code: api.CodeResourceGroupNotFound, Message: err.Error()}
	case errors.Is(err, registry.ErrParentResourceNotFound):
		return http.StatusNotFound, api.ErrorDetail{Code: api.CodeParentNotFound, Message: err.Error()}
	case errors.Is(err, registry.ErrInUse):
		return http.StatusConflict, api.ErrorDetail{Code: api.CodeConflict, Message: err.Error()}
	case errors.Is(err, registry.ErrNotFound), errors.Is(err, registry.ErrParentNotFound):
		return http.StatusNotFound, api.ErrorDetail{Code: api.CodeNotFound, Message: err.Error()}
	case errors.Is(err, registry.ErrPrecondition):
		return http.StatusPreconditionFailed, api.ErrorDetail{Code: api.CodePreconditionFailed, Message: err.Error()}
	case errors.Is(err, registry.ErrConflict):
		return http.StatusConflict, api.ErrorDetail{Code: api.CodeAnotherOperation, Message: err.Error() + "; retry"}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable, api.ErrorDetail{Code: api.CodeServiceUnavailable, Message: "the request was cancelled or timed out"}
	}
	return http.StatusInternalServerError, api.ErrorDetail{Code: api.CodeInternal, Message: "internal error; see the server log"}
}

// writeError writes err as an ARM error envelope, logging internal errors.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status, detail := errorStatus(err)
	if status >= 500 {
		s.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	writeErrorBody(w, status, detail)
}

func writeErrorBody(w http.ResponseWriter, status int, detail api.ErrorDetail) {
	writeJSON(w, status, api.ErrorResponse{Error: detail})
}
