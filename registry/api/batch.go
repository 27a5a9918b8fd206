package api

import "encoding/json"

// MaxBatchWrites is the most writes one batch may carry.
const MaxBatchWrites = 1000

// BatchRequest is the body of POST
// /planes/radius/{plane}/providers/System.Resources/batch: registration
// writes sent in one request. Each is applied as the separate request it
// describes would be (same checks, same errors, its own durable commit,
// shared with the others' when they commit together), independently of the
// others: one failing does not undo or stop the rest. The writes of a batch
// run concurrently, in no particular order: a write that needs another (a
// type its provider) goes in a later batch.
type BatchRequest struct {
	Requests []BatchWrite `json:"requests"`
}

// BatchWrite is one write of a batch: a PUT of Body, or a DELETE (no
// Body), of the registration (provider, resource type, API version or
// location) at Path, a path of the batch's plane as a separate request
// would use it, escaped, without a query:
// "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Data/resourceTypes/redisCaches".
type BatchWrite struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// BatchResponse answers a BatchRequest: one result per write, in the
// request's order.
type BatchResponse struct {
	Responses []BatchResult `json:"responses"`
}

// BatchResult is what the write's separate request would have answered:
// its status, the ETag of what a PUT stored, and for a failure (status 400
// and above) the error of the ARM envelope. The body of a success is not
// returned.
type BatchResult struct {
	Status int          `json:"status"`
	ETag   string       `json:"etag,omitempty"`
	Error  *ErrorDetail `json:"error,omitempty"`
}
