// Package emit holds what every emitter returns: files as paths and bytes.
// Emitters never write to disk; cmd/udtc writes (or compares, for
// `udtc gen --check`) the files they return.
package emit

import (
	"cmp"
	"slices"
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
