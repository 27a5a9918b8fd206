// Package emit holds what every emitter returns: files as paths and bytes.
// Emitters never write to disk; cmd/udtc writes (or compares, for
// `udtc gen --check`) the files they return.
package emit

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
)

// OutputMarker is the file `udtc gen` keeps at the top of its output
// directory, listing what it wrote. A directory holding it is generated
// output: the compiler never reads manifests below it.
const OutputMarker = ".udtc-generated"

// File is one emitted artifact.
type File struct {
	// Path is slash-separated and relative to the output directory,
	// e.g. "bicep/contosoplatform/types.json".
	Path string
	Data []byte
}

// Sort orders files by path.
func Sort(files []File) {
	slices.SortFunc(files, func(a, b File) int { return cmp.Compare(a.Path, b.Path) })
}

// Each calls do(i) for every i below n, on at most one goroutine per core,
// and returns when all calls have returned. Emitters use it for parts that
// share nothing but the read-only catalog (one per extension or
// namespace); each call writes only its own index's results, so what the
// emitter returns does not depend on the schedule.
func Each(n int, do func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), n) {
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
