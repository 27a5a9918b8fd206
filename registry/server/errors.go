package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/udtc/udtc/registry"
	"github.com/udtc/udtc/registry/api"
)

// errorCode is how an error code is answered: the status, the ARM error
// code, and for errors that are not *registry.Error values (whose message
// is their own) the message: fixed when say is set, else the error's text
// followed by suffix; and, when set, the Retry-After header (seconds) of
// the response.
type errorCode struct {
	status     int
	arm        string
	say        string
	suffix     string
	retryAfter string
}

// errorCodes is the one table from the registry's error codes to HTTP
// statuses and ARM error codes.
var errorCodes = [...]errorCode{
	registry.CodeInternal:               {status: http.StatusInternalServerError, arm: api.CodeInternal, say: "internal error; see the server log"},
	registry.CodeInvalid:                {status: http.StatusBadRequest, arm: api.CodeInvalidRequestContent},
	registry.CodeInvalidAPIVersion:      {status: http.StatusBadRequest, arm: api.CodeInvalidAPIVersion},
	registry.CodeNotFound:               {status: http.StatusNotFound, arm: api.CodeNotFound},
	registry.CodeNamespaceNotFound:      {status: http.StatusNotFound, arm: api.CodeNamespaceNotFound},
	registry.CodeTypeNotFound:           {status: http.StatusNotFound, arm: api.CodeResourceTypeNotFound},
	registry.CodeAPIVersionNotFound:     {status: http.StatusBadRequest, arm: api.CodeAPIVersionNotFound},
	registry.CodeLocationNotRegistered:  {status: http.StatusBadRequest, arm: api.CodeLocationNotRegistered},
	registry.CodeGroupNotFound:          {status: http.StatusNotFound, arm: api.CodeResourceGroupNotFound, suffix: "; create the group first (PUT it with api-version=" + api.Version + ")"},
	registry.CodeParentResourceNotFound: {status: http.StatusNotFound, arm: api.CodeParentNotFound},
	registry.CodeInUse:                  {status: http.StatusConflict, arm: api.CodeConflict},
	registry.CodeSyncManaged:            {status: http.StatusConflict, arm: api.CodeConflict},
	registry.CodePrecondition:           {status: http.StatusPreconditionFailed, arm: api.CodePreconditionFailed},
	registry.CodeConflict:               {status: http.StatusConflict, arm: api.CodeAnotherOperation, suffix: "; retry"},
	registry.CodeUnavailable:            {status: http.StatusServiceUnavailable, arm: api.CodeServiceUnavailable, say: "the request was cancelled or timed out"},
	registry.CodeBusy:                   {status: http.StatusServiceUnavailable, arm: api.CodeServiceUnavailable, say: "the database is busy: another writer holds its lock; retry later", retryAfter: "1"},
	registry.CodeMethodNotAllowed:       {status: http.StatusMethodNotAllowed, arm: api.CodeMethodNotAllowed},
	registry.CodeUnsupportedMediaType:   {status: http.StatusUnsupportedMediaType, arm: api.CodeUnsupportedMediaType},
	registry.CodeTooLarge:               {status: http.StatusRequestEntityTooLarge, arm: api.CodeRequestTooLarge},
	registry.CodeHeadersTooLarge:        {status: http.StatusRequestHeaderFieldsTooLarge, arm: api.CodeHeadersTooLarge},
	registry.CodeUnauthorized:           {status: http.StatusUnauthorized, arm: api.CodeUnauthorized},
	registry.CodeForbidden:              {status: http.StatusForbidden, arm: api.CodeForbidden},
	registry.CodeBadGateway:             {status: http.StatusBadGateway, arm: api.CodeBadGateway},
	registry.CodeLoopDetected:           {status: http.StatusLoopDetected, arm: api.CodeLoopDetected},
}

// errorCodeOf returns the row of errorCodes that answers err.
func errorCodeOf(err error) errorCode {
	code := registry.CodeOf(err)
	if int(code) >= len(errorCodes) {
		code = registry.CodeInternal
	}
	return errorCodes[code]
}

// errorResponse returns the status and ARM error of err.
func errorResponse(err error) (int, api.ErrorDetail) {
	c := errorCodeOf(err)
	d := api.ErrorDetail{Code: c.arm}
	var e *registry.Error
	switch {
	case errors.As(err, &e):
		d.Message, d.Target, d.Details = e.Message, e.Target, e.Details
	case c.say != "":
		d.Message = c.say
	default:
		d.Message = err.Error() + c.suffix
	}
	return c.status, d
}

// handlerFunc is a handler that returns its error instead of answering
// it: handle's adapter answers it.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle adapts h to net/http: the one place where a handler's error
// becomes its response (fail; a catalog page's 404, pageNotFound).
func (s *Server) handle(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		err := h(w, r)
		var page *missingPage
		switch {
		case err == nil:
		case errors.As(err, &page):
			s.pageNotFound(w, r, page.msg)
		default:
			s.fail(w, r, err)
		}
	}
}

// fail answers err with the ARM error envelope, logging the failures of
// the server itself (5xx).
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	status, detail := s.failure(r.Context(), r.Method, r.URL.Path, err)
	setRetryAfter(w, err)
	writeError(w, status, detail)
}

// failure returns the status and ARM error of err, the failure of the
// request method path, and logs it when it is the server's own (5xx).
func (s *Server) failure(ctx context.Context, method, path string, err error) (int, api.ErrorDetail) {
	status, detail := errorResponse(err)
	if status >= 500 {
		s.log.ErrorContext(ctx, "request failed", "method", method, "path", path, "err", err)
	}
	return status, detail
}

// refuse answers err with the ARM error envelope without logging it: the
// refusals of the middleware and the forwarder, which log their own.
func refuse(w http.ResponseWriter, err error) {
	status, detail := errorResponse(err)
	setRetryAfter(w, err)
	writeError(w, status, detail)
}

// setRetryAfter sets the Retry-After header of the answer to err when its
// code has one.
func setRetryAfter(w http.ResponseWriter, err error) {
	if c := errorCodeOf(err); c.retryAfter != "" {
		w.Header().Set("Retry-After", c.retryAfter)
	}
}

// writeError answers with the ARM error envelope of detail, and notes its
// code for the request's log line.
func writeError(w http.ResponseWriter, status int, detail api.ErrorDetail) {
	noteErrorCode(w, detail.Code)
	writeJSON(w, status, api.ErrorResponse{Error: detail})
}
