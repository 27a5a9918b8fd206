// Package atomicfile writes files so that a reader never sees half of one:
// the contents go to a temporary file in the same directory, which is then
// renamed over the destination. It is the one place udtc creates such
// temporary files, so their names (TempPattern) are known to the output
// directory's clean-up (generator/outdir).
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TempPattern is the os.CreateTemp pattern of the temporary files:
// ".udtc-" and digits.
const TempPattern = ".udtc-*"

// IsTempName reports whether name is one os.CreateTemp makes for
// TempPattern.
func IsTempName(name string) bool {
	digits, ok := strings.CutPrefix(name, ".udtc-")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}

// WriteFile writes data to path with mode perm, creating its directory,
// through a temporary file in the same directory and a rename.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return Replace(path, data, perm, os.Rename)
}

// Replace is WriteFile in a directory that exists, renaming with rename
// (os.Rename; tests put a failure in).
func Replace(path string, data []byte, perm fs.FileMode, rename func(from, to string) error) error {
	tmp, err := WriteTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// WriteNew writes data with mode perm to path, which must not exist yet.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	f, err := openNew(path, perm)
	if err != nil {
		return err
	}
	return fill(f, data, perm)
}

// WriteTemp writes data with mode perm to a new temporary file beside path
// (in its directory, which exists) and returns the temporary file's name,
// for a rename to path.
func WriteTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), TempPattern)
	if err != nil {
		return "", err
	}
	if err := fill(tmp, data, perm); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}

// fill gives the new file f mode perm and the content data, and closes it.
// The mode is set through the open file: the umask does not apply, and the
// path is not looked up again.
func fill(f *os.File, data []byte, perm fs.FileMode) error {
	merr := f.Chmod(perm)
	_, werr := f.Write(data)
	cerr := f.Close()
	return errors.Join(merr, werr, cerr)
}
