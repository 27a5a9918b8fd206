package server

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// countingGens is a registry.Generations whose generation is the number of
// reads started so far; each read takes a moment, so callers overlap.
type countingGens struct{ started atomic.Int64 }

func (g *countingGens) Generation(ctx context.Context) (string, error) {
	n := g.started.Add(1)
	time.Sleep(200 * time.Microsecond)
	return strconv.FormatInt(n, 10), nil
}

// TestGenerationReadAfterCall: concurrent callers share generation reads,
// but each gets a value from a read that started after it called (else a
// write acknowledged just before its request could be missed).
func TestGenerationReadAfterCall(t *testing.T) {
	g := &countingGens{}
	c := &respCache{gens: g, entries: map[string]cachedResponse{}}
	const callers, calls = 16, 200
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls {
				before := g.started.Load()
				gen, ok := c.generation(context.Background())
				if !ok {
					t.Error("generation: not ok")
					return
				}
				if n, _ := strconv.ParseInt(gen, 10, 64); n <= before {
					t.Errorf("got the generation of read %d, started before the call (%d reads had started)", n, before)
					return
				}
			}
		}()
	}
	wg.Wait()
	if n := g.started.Load(); n >= callers*calls {
		t.Errorf("%d reads for %d calls: none shared", n, callers*calls)
	}
}
