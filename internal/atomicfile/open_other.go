//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// openNew creates path, which must not exist, for writing.
func openNew(path string, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}
