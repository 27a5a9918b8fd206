// Package par runs independent pieces of work on a bounded number of
// goroutines: the one worker pool of the compiler, the emitters, gen and
// the catalog. It imports only the standard library.
package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls do(i) for every i below n, on at most one goroutine per core,
// and returns when every call has returned. The calls share nothing but
// what they only read; each writes only its own index's results, so the
// outcome does not depend on the schedule.
func Each(n int, do func(i int)) { EachOn(runtime.GOMAXPROCS(0), n, do) }

// EachOn is Each on at most workers goroutines (for work that mostly waits,
// such as file I/O).
func EachOn(workers, n int, do func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, min(workers, n)) {
		wg.Go(func() {
			for i := range next {
				do(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// EachErr is Each for work that can fail. It returns the error of the
// lowest index that fails, as a loop from 0 would: every index below the
// lowest failure so far runs, and those above it are skipped once it is
// known, so the result does not depend on the schedule.
func EachErr(n int, do func(i int) error) error {
	errs := make([]error, n)
	var lowest atomic.Int64 // the lowest index that failed so far; n for none
	lowest.Store(int64(n))
	Each(n, func(i int) {
		if int64(i) > lowest.Load() {
			return
		}
		if errs[i] = do(i); errs[i] == nil {
			return
		}
		for l := lowest.Load(); int64(i) < l && !lowest.CompareAndSwap(l, int64(i)); l = lowest.Load() {
		}
	})
	if l := lowest.Load(); l < int64(n) {
		return errs[l]
	}
	return nil
}
