// Package emit holds what every emitter returns: files as paths and bytes.
// Emitters never write to disk; cmd/udtc writes (or compares, for
// `udtc gen --check`) the files they return.
package emit

import (
	"cmp"
	"slices"
)

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
