package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/udtc/udtc/registry/api"
)

// ErrBatchUnsupported is wrapped by Batch.Send's error when the server has
// no batch endpoint (404 or 405: an older udtc serve, another UCP
// server): send the writes one by one instead.
var ErrBatchUnsupported = errors.New("the registry takes no batches of writes")

// ErrBatchTooLarge is wrapped by Batch.Send's error when the server
// refused the batch as larger than its body limit (413): send fewer
// writes at a time, or one by one.
var ErrBatchTooLarge = errors.New("the batch is larger than the registry takes")

// Batch collects registration writes to send in one request (POST
// /planes/radius/{plane}/providers/System.Resources/batch, api.BatchRequest).
// The server applies each as the separate request it describes, each on
// its own and concurrently with the others: put writes that depend on
// each other (a type and its provider) in successive batches. Its Put and
// Delete methods mirror the Client's; a name the registry's rules refuse
// is that write's error, and it is not sent.
type Batch struct {
	c      *Client
	writes []batchWrite
	size   int
}

type batchWrite struct {
	w   api.BatchWrite
	err error // not sent: the write's error
}

// NewBatch returns an empty batch of writes to c's plane.
func (c *Client) NewBatch() *Batch { return &Batch{c: c} }

// Len returns the number of writes in the batch.
func (b *Batch) Len() int { return len(b.writes) }

// Size returns about how many bytes the batch's request carries.
func (b *Batch) Size() int { return b.size }

func batchPut[P any](b *Batch, t target, body api.Resource[P]) {
	if t.err != nil {
		b.writes = append(b.writes, batchWrite{err: t.err})
		return
	}
	data, err := json.Marshal(body)
	if err != nil {
		b.writes = append(b.writes, batchWrite{err: fmt.Errorf("registry: encoding %s: %w", t.path, err)})
		return
	}
	b.add(api.BatchWrite{Method: http.MethodPut, Path: t.path, Body: data})
}

func (b *Batch) delete(t target) {
	if t.err != nil {
		b.writes = append(b.writes, batchWrite{err: t.err})
		return
	}
	b.add(api.BatchWrite{Method: http.MethodDelete, Path: t.path})
}

func (b *Batch) add(w api.BatchWrite) {
	b.writes = append(b.writes, batchWrite{w: w})
	b.size += len(w.Path) + len(w.Body) + 40
}

// PutProvider adds a PUT of a resource provider.
func (b *Batch) PutProvider(namespace string, body api.ResourceProvider) {
	batchPut(b, b.c.providerTarget(namespace), body)
}

// PutResourceType adds a PUT of a resource type.
func (b *Batch) PutResourceType(namespace, typ string, body api.ResourceType) {
	batchPut(b, b.c.typeTarget(namespace, typ), body)
}

// PutAPIVersion adds a PUT of an API version.
func (b *Batch) PutAPIVersion(namespace, typ, version string, body api.APIVersion) {
	batchPut(b, b.c.versionTarget(namespace, typ, version), body)
}

// PutLocation adds a PUT of a provider location.
func (b *Batch) PutLocation(namespace, location string, body api.Location) {
	batchPut(b, b.c.locationTarget(namespace, location), body)
}

// DeleteResourceType adds a DELETE of a resource type.
func (b *Batch) DeleteResourceType(namespace, typ string) { b.delete(b.c.typeTarget(namespace, typ)) }

// DeleteAPIVersion adds a DELETE of an API version.
func (b *Batch) DeleteAPIVersion(namespace, typ, version string) {
	b.delete(b.c.versionTarget(namespace, typ, version))
}

// DeleteLocation adds a DELETE of a provider location.
func (b *Batch) DeleteLocation(namespace, location string) {
	b.delete(b.c.locationTarget(namespace, location))
}

// Send sends the batch and returns one error per write, in the order they
// were added: nil when the write succeeded, else what its separate
// request would have returned (an *Error with the server's status, code
// and details, or the invalid name). Writes answered with a retryable
// status (api.Retryable: 429, 5xx, the 409 of a concurrent write) are sent
// again in a smaller batch, with the client's backoff and number of
// attempts. err is not nil when the batch itself failed (the server could
// not be reached, refused the request, 401, 403, ...) on its first
// request: then no result is known, and it wraps ErrBatchUnsupported when
// the server has no batch endpoint, ErrBatchTooLarge when the batch is
// over its body limit. When a later request (a retry) fails so, the
// earlier results stand: that error is the error of each write still
// pending, and err is nil.
func (b *Batch) Send(ctx context.Context) (errs []error, err error) {
	errs = make([]error, len(b.writes))
	var pending []int // indexes of writes to send
	for i, w := range b.writes {
		if w.err != nil {
			errs[i] = w.err
		} else {
			pending = append(pending, i)
		}
	}
	t := planeTarget(b.c.plane)
	if t.err != nil {
		return nil, t.err
	}
	path := t.path + "/providers/System.Resources/batch"
	for attempt := 1; len(pending) > 0; attempt++ {
		results, err := b.post(ctx, path, pending)
		if err != nil {
			// The failure of this attempt's request: the batch's error on
			// the first, else the error of the writes it carried, the
			// others keeping what earlier attempts answered (writes
			// applied then must not be reported failed).
			if attempt == 1 {
				return nil, err
			}
			for _, i := range pending {
				errs[i] = err
			}
			return errs, nil
		}
		again := batchErrors(errs, pending, results)
		if len(again) == 0 || attempt >= b.c.maxAttempts {
			break
		}
		pending = again
		t := time.NewTimer(b.c.backoff(attempt))
		select {
		case <-ctx.Done():
			t.Stop()
			for _, i := range pending {
				errs[i] = fmt.Errorf("registry: %w (last error: %v)", ctx.Err(), errs[i])
			}
			return errs, nil
		case <-t.C:
		}
	}
	return errs, nil
}

// post sends the writes pending (indexes of b.writes) to path in one
// request and returns their results, in order.
func (b *Batch) post(ctx context.Context, path string, pending []int) ([]api.BatchResult, error) {
	req := api.BatchRequest{Requests: make([]api.BatchWrite, len(pending))}
	for j, i := range pending {
		req.Requests[j] = b.writes[i].w
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("registry: encoding a batch: %w", err)
	}
	resp, data, err := b.c.do(ctx, http.MethodPost, path, body, nil)
	if err != nil {
		return nil, err
	}
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound, http.StatusMethodNotAllowed:
		return nil, fmt.Errorf("registry: POST %s: %w: %w", path, ErrBatchUnsupported, responseError(resp, data))
	case http.StatusRequestEntityTooLarge:
		return nil, fmt.Errorf("registry: POST %s: %w: %w", path, ErrBatchTooLarge, responseError(resp, data))
	default:
		return nil, responseError(resp, data)
	}
	out, err := decode[api.BatchResponse](resp, data)
	if err != nil {
		return nil, err
	}
	if len(out.Responses) != len(pending) {
		return nil, fmt.Errorf("registry: POST %s: %d results for %d writes", path, len(out.Responses), len(pending))
	}
	return out.Responses, nil
}

// batchErrors sets errs[i] of each write i of pending from its result and
// returns the writes to send again: those whose result is retryable.
func batchErrors(errs []error, pending []int, results []api.BatchResult) (again []int) {
	for j, i := range pending {
		r := results[j]
		if r.Status < 400 {
			errs[i] = nil
			continue
		}
		e := &Error{StatusCode: r.Status, Code: http.StatusText(r.Status)}
		if r.Error != nil {
			e.Code, e.Message, e.Target, e.Details = r.Error.Code, r.Error.Message, r.Error.Target, r.Error.Details
		}
		errs[i] = e
		if api.Retryable(r.Status, e.Code) {
			again = append(again, i)
		}
	}
	return again
}
