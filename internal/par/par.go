// Package par runs independent pieces of work on a bounded number of
// goroutines: the one worker pool of the compiler, the emitters, gen and
// the catalog. It imports only the standard library.
package par

import (
	"runtime"
	"sync"
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
