package publish

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"

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
	// Concurrency bounds the writes in flight within one phase (default 8).
	Concurrency int
	// Progress, when set, is called after each write with the count done
	// and the total; calls may come from several goroutines.
	Progress func(done, total int)
}

// Apply performs the plan's writes phase by phase (a phase's writes run
// concurrently; the next phase starts when it is done), so parents exist
// before their children. A failed write does not stop the others; it is
// reported in Result.Failed. Apply stops early when ctx is done, and after a
// 401 or 403 (every other write would fail the same way): the writes not
// sent are reported as failed with that cause.
func Apply(ctx context.Context, reg Registry, p *Plan, opts ApplyOptions) Result {
	conc := opts.Concurrency
	if conc <= 0 {
		conc = 8
	}
	var writes []int
	for i, c := range p.Changes {
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
	errs := make([]error, len(p.Changes))
	attempted := make([]bool, len(p.Changes))
	for start := 0; start < len(writes); {
		end := start
		ph := phase(p.Changes[writes[start]])
		for end < len(writes) && phase(p.Changes[writes[end]]) == ph {
			end++
		}
		if ctx.Err() != nil {
			break
		}
		sem := make(chan struct{}, conc)
		var wg sync.WaitGroup
		for _, i := range writes[start:end] {
			sem <- struct{}{}
			attempted[i] = true
			wg.Go(func() {
				defer func() { <-sem }()
				errs[i] = applyOne(ctx, reg, p.Changes[i])
				if code := client.StatusCode(errs[i]); code == http.StatusUnauthorized || code == http.StatusForbidden {
					stop(errs[i])
				}
				n := done.Add(1)
				if opts.Progress != nil {
					opts.Progress(int(n), total)
				}
			})
		}
		wg.Wait()
		start = end
	}
	var res Result
	for _, i := range writes {
		c := p.Changes[i]
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

func applyOne(ctx context.Context, reg Registry, c Change) error {
	var err error
	switch {
	case c.Action == Delete && c.Kind == KindAPIVersion:
		_, err = reg.DeleteAPIVersion(ctx, c.Namespace, c.Type, c.Version)
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
