// Package emit holds what every emitter produces: files as paths and bytes.
// Emitters never write to disk: they hand their files to a Put a unit at a
// time (Each runs the units on the worker pool and puts them in order), and
// cmd/udtc writes (or compares, for `udtc gen --check`) each batch as it
// comes; Collect gathers an emitter's whole output instead (each emitter's
// Emit: the golden tests, and publish --git for the Bicep extension).
package emit

import (
	"cmp"
	"slices"
	"sync"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/internal/par"
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

// Put receives a batch of an emitter's files as soon as they are made. It
// may be called from several goroutines at once; an error stops the
// emitter, which returns it.
type Put func([]File) error

// Each runs unit(i) for every i below n on the worker pool (one goroutine
// per core) and hands each result to put as soon as it is made, so only
// the units in flight are held in memory. The first error, of unit or put,
// stops the units not yet started; the error of the lowest unit is returned.
func Each(n int, unit func(i int) ([]File, error), put Put) error {
	return par.EachErr(n, func(i int) error {
		files, err := unit(i)
		if err != nil {
			return err
		}
		return put(files)
	})
}

// Collect runs an emitter's streaming form with a Put that gathers the
// files, and returns them sorted by path with its diagnostics: the
// emitter's all-at-once form.
func Collect(stream func(Put) (diag.List, error)) ([]File, diag.List, error) {
	var mu sync.Mutex
	var files []File
	diags, err := stream(func(batch []File) error {
		mu.Lock()
		defer mu.Unlock()
		files = append(files, batch...)
		return nil
	})
	if err != nil {
		return nil, diags, err
	}
	Sort(files)
	return files, diags, nil
}
