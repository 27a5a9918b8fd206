package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/udtc/udtc/registry/api"
)

// Writes that a server performs asynchronously, as Radius's UCP does (the
// ARM asynchronous operation contract): a PUT answered 201 (or a DELETE
// answered 202) with an Azure-AsyncOperation or Location header is done
// only when that operation reaches a terminal state. The client polls it,
// so that Put* and Delete* return only once the write is done, or failed.
// udtc serve writes synchronously: its answers carry no such header and
// nothing is polled.

// Operations time the waits of writes: for a server's asynchronous
// operations, and after a 409 that says another write of the resource is
// still in progress (api.InProgress). Zero fields keep their default.
type Operations struct {
	// Timeout bounds one write, from its first request to its operation's
	// end, 409 retries included (default 3 minutes, more than UCP's own
	// 2-minute limit on an operation).
	Timeout time.Duration
	// Poll is the first wait between polls of an operation (unless the
	// server's Retry-After says otherwise); it doubles up to MaxPoll
	// (defaults 500ms and 5s).
	Poll, MaxPoll time.Duration
	// Busy is the first wait after a 409 in progress; it doubles up to
	// MaxBusy (defaults 2s and 30s).
	Busy, MaxBusy time.Duration
}

// DefaultOperations are the waits of a Client without WithOperations.
var DefaultOperations = Operations{Timeout: 3 * time.Minute, Poll: 500 * time.Millisecond, MaxPoll: 5 * time.Second, Busy: 2 * time.Second, MaxBusy: 30 * time.Second}

// WithOperations sets how long writes wait for asynchronous operations
// and for other writes in progress.
func WithOperations(o Operations) Option {
	return func(c *Client) {
		d := DefaultOperations
		for _, f := range []struct{ to, from *time.Duration }{
			{&o.Timeout, &d.Timeout}, {&o.Poll, &d.Poll}, {&o.MaxPoll, &d.MaxPoll}, {&o.Busy, &d.Busy}, {&o.MaxBusy, &d.MaxBusy},
		} {
			if *f.to <= 0 {
				*f.to = *f.from
			}
		}
		c.ops = o
	}
}

// OperationError is the error of a write whose asynchronous operation
// ended Failed or Canceled: the write did not happen.
type OperationError struct {
	State   string // Failed or Canceled, as the server spells it
	Code    string // the operation's error code, when it gave one
	Message string
	URL     string // the operation's status URL
}

func (e *OperationError) Error() string {
	msg := fmt.Sprintf("registry: operation %s ended %s", e.URL, e.State)
	if e.Code != "" || e.Message != "" {
		msg += fmt.Sprintf(": %s: %s", e.Code, e.Message)
	}
	return msg
}

// ErrOperationTimeout is wrapped by the error of a write whose operation
// did not end within Operations.Timeout; the write may still happen.
var ErrOperationTimeout = errors.New("operation timed out")

type progressKey struct{}

// Progress is told of the writes of a call made with ctx that wait, after
// each poll that found the write still running: the state of the
// operation polled ("Accepted", "Updating", or "waiting for another
// write" while a 409 in progress is retried) and how long the write has
// run.
type Progress func(state string, elapsed time.Duration)

// WithProgress returns a context whose calls report their waits to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

func progress(ctx context.Context, state string, since time.Time) {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && p != nil {
		p(state, time.Since(since))
	}
}

// terminal reports whether an operation or provisioning state is final,
// as ARM's clients read it (case-insensitively; "" counts as Succeeded).
func terminal(state string) bool {
	switch strings.ToLower(state) {
	case "", "succeeded", "completed", "failed", "canceled", "cancelled":
		return true
	}
	return false
}

// failedState reports whether a terminal state means the write failed.
func failedState(state string) bool {
	switch strings.ToLower(state) {
	case "failed", "canceled", "cancelled":
		return true
	}
	return false
}

// operation is one write being waited for.
type operation struct {
	c        *Client
	method   string
	target   string // the resource's path, for the final GET of a PUT
	start    time.Time
	deadline time.Time
	state    string
	url      string // what is polled
}

// settle waits for the write (method to target, started at start) that
// resp answered to be done, when the server performs it asynchronously,
// and returns its final answer: for a PUT, the resource as a GET gives it
// once the operation succeeded; for a DELETE, resp. A Failed or Canceled
// operation is an *OperationError; an operation still running at the
// deadline an error wrapping ErrOperationTimeout.
func (c *Client) settle(ctx context.Context, method, target string, start time.Time, resp *http.Response, data []byte) (*http.Response, []byte, error) {
	switch resp.StatusCode {
	case http.StatusOK, http.StatusCreated, http.StatusAccepted:
	default:
		return resp, data, nil
	}
	op := &operation{c: c, method: method, target: target, start: start, deadline: start.Add(c.ops.Timeout), state: "Accepted"}
	var err error
	switch {
	case resp.Header.Get("Azure-AsyncOperation") != "":
		err = op.pollStatus(ctx, resp.Header.Get("Azure-AsyncOperation"), firstWait(resp.Header, c.ops.Poll))
	case resp.StatusCode == http.StatusAccepted && resp.Header.Get("Location") != "":
		err = op.pollLocation(ctx, resp.Header.Get("Location"), firstWait(resp.Header, c.ops.Poll))
	case method == http.MethodPut && !terminal(provisioningState(data)):
		op.state = provisioningState(data)
		resp, data, err := op.pollResource(ctx)
		return resp, data, op.timedOut(ctx, err)
	default:
		return resp, data, nil
	}
	if err != nil || method != http.MethodPut {
		return resp, data, op.timedOut(ctx, err)
	}
	return c.do(ctx, http.MethodGet, target, nil, nil)
}

// timedOut returns err, or the timeout error when err is ctx's deadline
// passing while the operation ran (the command's --timeout, say): the
// write's failure then names the operation and its state.
func (op *operation) timedOut(ctx context.Context, err error) error {
	if err != nil && !errors.Is(err, ErrOperationTimeout) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return op.timeout()
	}
	return err
}

// timeout is the error of an operation still running at the deadline.
func (op *operation) timeout() error {
	return fmt.Errorf("registry: %s %s: operation %s still %s after %s: %w", op.method, op.target, op.url, op.state,
		time.Since(op.start).Round(time.Second), ErrOperationTimeout)
}

// provisioningState returns properties.provisioningState of a body.
func provisioningState(data []byte) string {
	var b struct {
		Properties struct {
			ProvisioningState string `json:"provisioningState"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(data, &b)
	return b.Properties.ProvisioningState
}

// firstWait is the wait before the first poll: the write answer's
// Retry-After (at most 10s), else def.
func firstWait(h http.Header, def time.Duration) time.Duration {
	if d, ok := retryAfter(h); ok {
		return min(d, 10*time.Second)
	}
	return def
}

// retryAfter reads a Retry-After header in seconds.
func retryAfter(h http.Header) (time.Duration, bool) {
	s, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After")))
	if err != nil || s < 0 {
		return 0, false
	}
	return time.Duration(s) * time.Second, true
}

// wait sleeps d, or until the deadline; it returns the timeout error when
// the deadline has passed, and ctx's error when ctx ends first.
func (op *operation) wait(ctx context.Context, d time.Duration) error {
	left := time.Until(op.deadline)
	if left <= 0 {
		return op.timeout()
	}
	t := time.NewTimer(min(d, left))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return fmt.Errorf("registry: %s %s: waiting for operation %s (%s): %w", op.method, op.target, op.url, op.state, ctx.Err())
	case <-t.C:
		return nil
	}
}

// next returns the wait after a poll answered with h, and doubles
// interval up to MaxPoll.
func (op *operation) next(h http.Header, interval *time.Duration) time.Duration {
	d, ok := retryAfter(h)
	if !ok || d == 0 {
		d = *interval
		*interval = min(*interval*2, op.c.ops.MaxPoll)
	}
	return d
}

// absolute resolves a URL a server gave against the client's base.
func (c *Client) absolute(ref string) (string, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("registry: the server's operation URL %q: %w", ref, err)
	}
	return c.base.ResolveReference(u).String(), nil
}

// pollStatus polls the operation status resource at ref (an
// Azure-AsyncOperation URL) until its status is terminal.
func (op *operation) pollStatus(ctx context.Context, ref string, wait time.Duration) error {
	u, err := op.c.absolute(ref)
	if err != nil {
		return err
	}
	op.url = u
	interval := op.c.ops.Poll
	for {
		if err := op.wait(ctx, wait); err != nil {
			return err
		}
		resp, data, err := op.c.do(ctx, http.MethodGet, u, nil, nil)
		if err != nil {
			return err
		}
		if resp.StatusCode >= 400 {
			return responseError(resp, data)
		}
		var st struct {
			Status string           `json:"status"`
			Error  *api.ErrorDetail `json:"error"`
		}
		if err := json.Unmarshal(data, &st); err != nil || st.Status == "" {
			return fmt.Errorf("registry: the operation status at %s has no status: %.200s", u, data)
		}
		op.state = st.Status
		if failedState(st.Status) {
			e := &OperationError{State: st.Status, URL: u}
			if st.Error != nil {
				e.Code, e.Message = st.Error.Code, st.Error.Message
			}
			return e
		}
		if terminal(st.Status) {
			return nil
		}
		progress(ctx, st.Status, op.start)
		wait = op.next(resp.Header, &interval)
	}
}

// pollLocation polls the URL ref (a Location header of a 202) until it
// answers anything but 202.
func (op *operation) pollLocation(ctx context.Context, ref string, wait time.Duration) error {
	u, err := op.c.absolute(ref)
	if err != nil {
		return err
	}
	op.url, op.state = u, "InProgress"
	interval := op.c.ops.Poll
	for {
		if err := op.wait(ctx, wait); err != nil {
			return err
		}
		resp, data, err := op.c.do(ctx, http.MethodGet, u, nil, nil)
		switch {
		case err != nil:
			return err
		case resp.StatusCode >= 400:
			return responseError(resp, data)
		case resp.StatusCode != http.StatusAccepted:
			return nil
		}
		progress(ctx, op.state, op.start)
		wait = op.next(resp.Header, &interval)
	}
}

// pollResource GETs the resource a PUT wrote until its provisioningState
// is terminal, and returns that answer.
func (op *operation) pollResource(ctx context.Context) (*http.Response, []byte, error) {
	op.url = op.target
	interval := op.c.ops.Poll
	for {
		if err := op.wait(ctx, interval); err != nil {
			return nil, nil, err
		}
		resp, data, err := op.c.do(ctx, http.MethodGet, op.target, nil, nil)
		if err != nil {
			return nil, nil, err
		}
		if resp.StatusCode != http.StatusOK {
			return nil, nil, responseError(resp, data)
		}
		op.state = provisioningState(data)
		if failedState(op.state) {
			return nil, nil, &OperationError{State: op.state, URL: op.target}
		}
		if terminal(op.state) {
			return resp, data, nil
		}
		progress(ctx, op.state, op.start)
		interval = min(interval*2, op.c.ops.MaxPoll)
	}
}
