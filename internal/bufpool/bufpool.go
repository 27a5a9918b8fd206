// Package bufpool reuses the buffers that emitters render whole files and
// pages into: a file is rendered into a buffer grown by earlier files and
// copied out at its size, so neither the growth nor the spare capacity is
// paid per file.
package bufpool

import (
	"bytes"
	"sync"
)

var pool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxKept is the largest buffer Put keeps: an outsized one is let go
// rather than pinned.
const maxKept = 16 << 20

// Get returns an empty buffer.
func Get() *bytes.Buffer {
	b := pool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// Put gives b back for reuse; nothing may use b, or bytes read from it
// without a copy, afterwards.
func Put(b *bytes.Buffer) {
	if b.Cap() <= maxKept {
		pool.Put(b)
	}
}
