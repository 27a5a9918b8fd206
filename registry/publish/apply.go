package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/udtc/udtc/internal/par"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/registry/client"
)

// Failure is a change that could not be applied.
type Failure struct {
	Change Change
	Err    error
}

// Result is what Apply did.
type Result struct {
	// Applied lists the writes that succeeded, in plan order.
	Applied []Change
	// Failed lists the writes that failed, in plan order.
	Failed []Failure
}

// ApplyOptions tune Apply.
type ApplyOptions struct {
	// Concurrency bounds the writes in flight within one phase (default 8)
	// when they are sent one by one.
	Concurrency int
	// Batch sends each phase's writes in batches when the registry is a
	// Batcher (*client.Client: one request carries many writes, each
	// applied on its own as if sent separately). When the server has no
	// batch endpoint, or refuses a batch as too large, Apply sends the
	// remaining writes one by one instead.
	Batch bool
	// Progress, when set, is called after each write with the count done
	// and the total; calls may come from several goroutines.
	Progress func(done, total int)
	// Waiting, when set, is told of each write that waits: for the
	// registry's asynchronous operation (Radius's UCP), with its state
	// ("Accepted", "Updating"), or for another write of the same resource
	// to finish; elapsed is how long the write has run. Calls may come
	// from several goroutines.
	Waiting func(c Change, state string, elapsed time.Duration)
}

// ErrDependencyFailed is wrapped by the failure of a change that was not
// written because a write it depends on failed: a type's provider or
// parent type, an API version's type, a location's provider or the types
// and versions it serves, a type delete's version deletes.
var ErrDependencyFailed = errors.New("a write it depends on failed")

// Batcher is a registry that takes many writes in one request
// (*client.Client; see ApplyOptions.Batch).
type Batcher interface {
	NewBatch() *client.Batch
}

// Batches of writes: at most batchWrites writes or about batchBytes
// bytes each (the server's default body limit is 4 MiB), batchesInFlight
// sent at a time (the server runs several writes of each concurrently).
const (
	batchWrites     = 64
	batchBytes      = 1 << 20
	batchesInFlight = 4
)

// Apply performs the plan's writes phase by phase (a phase's writes run
// concurrently; the next phase starts when they are done, asynchronous
// operations included), so parents exist before their children. A failed
// write does not stop the others, but the writes that depend on it are
// not sent (ErrDependencyFailed); both are reported in Result.Failed. A
// location's write keeps serving what a failed delete left registered
// (keepServing), and a location whose types' deletes failed is not
// deleted: no failure leaves a registered type unusable. Apply does not
// check Plan.Refused: callers apply no plan that has refusals.
// Apply stops early when ctx is done, and after a 401 or 403 (every other
// write would fail the same way): the writes not sent are reported as
// failed with that cause. With opts.Batch, each phase's writes go in
// batches.
func Apply(ctx context.Context, reg Registry, p *Plan, opts ApplyOptions) Result {
	conc := opts.Concurrency
	if conc <= 0 {
		conc = 8
	}
	changes := slices.Clone(p.Changes) // location writes are adjusted as the deletes go
	var writes []int
	for i, c := range changes {
		if c.IsWrite() {
			writes = append(writes, i)
		}
	}
	total := len(writes)
	// An authentication or authorisation failure will fail every other
	// write the same way: stop instead of sending them all.
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var done atomic.Int64
	batcher, batching := reg.(Batcher) // batching until the server says it takes no batches
	batching = batching && opts.Batch
	errs := make([]error, len(changes))
	attempted := make([]bool, len(changes))
	for start := 0; start < len(writes); {
		end := start
		ph := phase(changes[writes[start]])
		for end < len(writes) && phase(changes[writes[end]]) == ph {
			end++
		}
		if ctx.Err() != nil {
			break
		}
		finish := func(i int, err error) {
			errs[i] = err
			if code := client.StatusCode(err); code == http.StatusUnauthorized || code == http.StatusForbidden {
				stop(err)
			}
			n := done.Add(1)
			if opts.Progress != nil {
				opts.Progress(int(n), total)
			}
		}
		phaseWrites := blocked(changes, writes[start:end], errs, attempted, finish)
		for _, i := range phaseWrites {
			changes[i] = keepServing(changes[i], changes, errs)
		}
		if batching {
			var single, batched, unsent []int
			for _, i := range phaseWrites {
				if batchable(changes[i]) {
					batched = append(batched, i)
				} else {
					single = append(single, i)
				}
			}
			unsent, batching = applyBatches(ctx, batcher, changes, batched, attempted, finish)
			phaseWrites = append(single, unsent...) // the server takes no batches: one by one
			slices.Sort(phaseWrites)
		}
		par.EachOn(conc, len(phaseWrites), func(k int) {
			i := phaseWrites[k]
			attempted[i] = true
			c := changes[i]
			wctx := ctx
			if opts.Waiting != nil {
				wctx = client.WithProgress(ctx, func(state string, elapsed time.Duration) { opts.Waiting(c, state, elapsed) })
			}
			finish(i, applyOne(wctx, reg, c))
		})
		start = end
	}
	var res Result
	for _, i := range writes {
		c := changes[i]
		switch {
		case !attempted[i]:
			res.Failed = append(res.Failed, Failure{c, fmt.Errorf("not attempted: %w", context.Cause(ctx))})
		case errs[i] != nil:
			res.Failed = append(res.Failed, Failure{c, errs[i]})
		default:
			res.Applied = append(res.Applied, c)
		}
	}
	return res
}

// blocked marks as failed, without sending them, the writes (indexes into
// changes) whose prerequisites failed in an earlier phase (errs), and
// returns the others.
func blocked(changes []Change, writes []int, errs []error, attempted []bool, finish func(int, error)) []int {
	failed := map[string]string{} // resource key → name of the failed write
	for i, err := range errs {
		if c := changes[i]; err != nil {
			failed[c.key()] = c.Name()
			if c.Action == Delete && c.Kind == KindAPIVersion {
				failed[versionDeletesKey(c.Namespace, c.Type)] = c.Name()
			}
		}
	}
	var out []int
	for _, i := range writes {
		dep := ""
		for _, k := range changes[i].prerequisites() {
			if name, ok := failed[k]; ok {
				dep = name
				break
			}
		}
		if dep == "" {
			out = append(out, i)
			continue
		}
		attempted[i] = true
		finish(i, fmt.Errorf("not written: %s failed: %w", dep, ErrDependencyFailed))
	}
	return out
}

// key identifies the resource a change writes (case-insensitively).
func (c Change) key() string {
	return strings.ToLower(fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%s", c.Kind, c.Namespace, c.Type, c.Version, c.Location))
}

// prerequisites returns the keys of the resources whose writes c needs to
// have succeeded.
func (c Change) prerequisites() []string {
	at := func(kind Kind, typ, version string) string {
		return Change{Kind: kind, Namespace: c.Namespace, Type: typ, Version: version}.key()
	}
	var out []string
	switch {
	case c.Action == Delete && c.Kind == KindType:
		out = append(out, versionDeletesKey(c.Namespace, c.Type))
	case c.Action == Delete && c.Kind == KindLocation && c.had != nil:
		// Not deleted while a type it serves stays registered by a failed
		// delete (or failed write).
		for t, lt := range c.had.Properties.ResourceTypes {
			out = append(out, at(KindType, t, ""))
			for v := range lt.APIVersions {
				out = append(out, at(KindAPIVersion, t, v))
			}
		}
	case c.Action == Delete:
	case c.Kind == KindType:
		out = append(out, at(KindProvider, "", ""))
		if parent, _, ok := cutLast(c.Type, "/"); ok {
			out = append(out, at(KindType, parent, ""))
		}
	case c.Kind == KindAPIVersion:
		out = append(out, at(KindProvider, "", ""), at(KindType, c.Type, ""))
	case c.Kind == KindLocation:
		out = append(out, at(KindProvider, "", ""))
		for t, lt := range c.location.Properties.ResourceTypes {
			out = append(out, at(KindType, t, ""))
			for v := range lt.APIVersions {
				out = append(out, at(KindAPIVersion, t, v))
			}
		}
	}
	return out
}

// versionDeletesKey stands for the deletes of the API versions of a type:
// the type's delete needs them all to have succeeded.
func versionDeletesKey(namespace, typ string) string {
	return strings.ToLower("versions deleted\x00" + namespace + "\x00" + typ)
}

// cutLast cuts s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// keepServing returns the location write c with what failed deletes
// (errs, indexes into changes) of its namespace left registered served
// again as the location served it before (c.had): the types whose delete
// failed, with their child types, and the API versions whose delete
// failed. Other changes are returned as they are.
func keepServing(c Change, changes []Change, errs []error) Change {
	if c.Kind != KindLocation || c.Action == Delete || c.had == nil {
		return c
	}
	left := map[string]api.ResourceTypeSummary{} // what stays registered, as the location named it
	keep := func(typ, version string) {
		t, ok := left[typ]
		if !ok {
			t = api.ResourceTypeSummary{APIVersions: map[string]api.APIVersionSummary{}}
			left[typ] = t
		}
		t.APIVersions[version] = api.APIVersionSummary{}
	}
	for i, d := range changes {
		if errs[i] == nil || d.Action != Delete || !strings.EqualFold(d.Namespace, c.Namespace) {
			continue
		}
		for name, lt := range c.had.Properties.ResourceTypes {
			for v := range lt.APIVersions {
				switch {
				case d.Kind == KindType && typeOrChild(name, d.Type):
					keep(name, v)
				case d.Kind == KindAPIVersion && strings.EqualFold(name, d.Type) && strings.EqualFold(v, d.Version):
					keep(name, v)
				}
			}
		}
	}
	if len(left) == 0 {
		return c
	}
	loc := *c.location
	loc.Properties.ResourceTypes = keepServed(loc.Properties.ResourceTypes, c.had.Properties.ResourceTypes, left)
	c.location = &loc
	return c
}

// batchable reports whether c can go in a batch: a batch's writes carry no
// query (?force=true), and a provider's delete goes alone.
func batchable(c Change) bool {
	return !c.force && !(c.Action == Delete && c.Kind == KindProvider)
}

func applyOne(ctx context.Context, reg Registry, c Change) error {
	var err error
	switch {
	case c.Action == Delete && c.Kind == KindProvider && c.force:
		_, err = reg.ForceDeleteProvider(ctx, c.Namespace)
	case c.Action == Delete && c.Kind == KindProvider:
		_, err = reg.DeleteProvider(ctx, c.Namespace)
	case c.Action == Delete && c.Kind == KindAPIVersion && c.force:
		_, err = reg.ForceDeleteAPIVersion(ctx, c.Namespace, c.Type, c.Version)
	case c.Action == Delete && c.Kind == KindAPIVersion:
		_, err = reg.DeleteAPIVersion(ctx, c.Namespace, c.Type, c.Version)
	case c.Action == Delete && c.Kind == KindType && c.force:
		_, err = reg.ForceDeleteResourceType(ctx, c.Namespace, c.Type)
	case c.Action == Delete && c.Kind == KindType:
		_, err = reg.DeleteResourceType(ctx, c.Namespace, c.Type)
	case c.Action == Delete && c.Kind == KindLocation:
		_, err = reg.DeleteLocation(ctx, c.Namespace, c.Location)
	case c.Kind == KindProvider:
		_, err = reg.PutProvider(ctx, c.Namespace, *c.provider)
	case c.Kind == KindType:
		_, err = reg.PutResourceType(ctx, c.Namespace, c.Type, *c.rtype)
	case c.Kind == KindAPIVersion:
		_, err = reg.PutAPIVersion(ctx, c.Namespace, c.Type, c.Version, *c.version)
	case c.Kind == KindLocation:
		_, err = reg.PutLocation(ctx, c.Namespace, c.Location, *c.location)
	default:
		err = errors.New("publish: unknown change")
	}
	return err
}

// applyBatches sends the writes (indexes into changes) of one phase in
// batches, batchesInFlight at a time, marking each attempted and calling
// finish with its outcome. A batch is encoded just before it is sent, so
// that the client encodes the next batches while the server applies the
// first. When the server takes no batches (or none this large: a small
// --max-body-bytes) it returns the writes it did not send and batching
// false.
func applyBatches(ctx context.Context, b Batcher, changes []Change, writes []int, attempted []bool, finish func(int, error)) (unsent []int, batching bool) {
	var (
		mu          sync.Mutex
		unsupported bool
		wg          sync.WaitGroup
		sem         = make(chan struct{}, batchesInFlight)
		next        int // the first write of writes not yet in a batch
	)
	// take returns the next batch of writes, with the indexes of its writes.
	take := func() (*client.Batch, []int) {
		mu.Lock()
		defer mu.Unlock()
		batch := b.NewBatch()
		var idx []int
		for ; next < len(writes) && batch.Len() < batchWrites && batch.Size() < batchBytes; next++ {
			i := writes[next]
			attempted[i] = true
			if !addToBatch(batch, changes[i]) {
				finish(i, errors.New("publish: unknown change"))
				continue
			}
			idx = append(idx, i)
		}
		return batch, idx
	}
	done := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return next >= len(writes) || unsupported
	}
	for !done() && ctx.Err() == nil {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			batch, idx := take()
			if len(idx) == 0 {
				return
			}
			errs, err := batch.Send(ctx)
			if errors.Is(err, client.ErrBatchUnsupported) || errors.Is(err, client.ErrBatchTooLarge) {
				mu.Lock()
				unsupported = true
				for _, i := range idx {
					attempted[i] = false
				}
				unsent = append(unsent, idx...)
				mu.Unlock()
				return
			}
			for j, i := range idx {
				if err != nil {
					finish(i, err)
				} else {
					finish(i, errs[j])
				}
			}
		})
	}
	wg.Wait()
	if unsupported {
		unsent = append(unsent, writes[next:]...)
	}
	slices.Sort(unsent)
	return unsent, !unsupported
}

// addToBatch adds the write of c, a batchable change, to b, as applyOne
// sends it; false for a change applyOne does not know.
func addToBatch(b *client.Batch, c Change) bool {
	switch {
	case c.Action == Delete && c.Kind == KindAPIVersion:
		b.DeleteAPIVersion(c.Namespace, c.Type, c.Version)
	case c.Action == Delete && c.Kind == KindType:
		b.DeleteResourceType(c.Namespace, c.Type)
	case c.Action == Delete && c.Kind == KindLocation:
		b.DeleteLocation(c.Namespace, c.Location)
	case c.Kind == KindProvider:
		b.PutProvider(c.Namespace, *c.provider)
	case c.Kind == KindType:
		b.PutResourceType(c.Namespace, c.Type, *c.rtype)
	case c.Kind == KindAPIVersion:
		b.PutAPIVersion(c.Namespace, c.Type, c.Version, *c.version)
	case c.Kind == KindLocation:
		b.PutLocation(c.Namespace, c.Location, *c.location)
	default:
		return false
	}
	return true
}
