package source

import (
	"bytes"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// DefaultReadLimit is how much of one file TreeFS reads unless told
// otherwise: more than a manifest may hold (10 MiB), so the compiler still
// sees that a larger file is too large, without reading a huge blob whole.
const DefaultReadLimit = 16 << 20

// TreeFS is a git tree as an fs.FS (also fs.ReadDirFS and fs.StatFS), safe
// for concurrent use (go-git's trees and object storage are not: every
// access is serialised, and a file's contents are read when it is opened).
// Modification times are the zero time.
//
// Each blob is looked up and read once per TreeFS, however many paths
// name it: a tree whose files all point at one large blob costs one read
// of it (Stat needs only its size, which is looked up once too).
type TreeFS struct {
	root *object.Tree
	// ReadLimit is the most bytes Open reads of one file; a longer file
	// reads as its first ReadLimit bytes (Stat reports the real size).
	ReadLimit int64
	mu        *sync.Mutex
	blobs     map[plumbing.Hash]*blob // guarded by mu; shared with sub-trees
	reads     int                     // blobs read, for tests; guarded by mu
}

// blob is what a TreeFS knows of one blob: its size, and its contents
// once a file naming it was opened (up to ReadLimit).
type blob struct {
	file  *object.File
	size  int64
	data  []byte
	limit int64 // the ReadLimit data was read with; 0: not read yet
}

// newTreeFS returns the TreeFS of root, with a cache of its own.
func newTreeFS(root *object.Tree) *TreeFS {
	return &TreeFS{root: root, mu: &sync.Mutex{}, blobs: map[plumbing.Hash]*blob{}}
}

// blob returns the cache entry of e's blob, looking its size up the first
// time; mu is held.
func (t *TreeFS) blob(e *object.TreeEntry) (*blob, error) {
	if b, ok := t.blobs[e.Hash]; ok {
		return b, nil
	}
	f, err := t.root.TreeEntryFile(e)
	if err != nil {
		return nil, err
	}
	b := &blob{file: f, size: f.Size}
	t.blobs[e.Hash] = b
	return b, nil
}

var (
	_ fs.ReadDirFS = (*TreeFS)(nil)
	_ fs.StatFS    = (*TreeFS)(nil)
)

// lookup finds name; a nil entry with a nil error is the root.
func (t *TreeFS) lookup(op, name string) (*object.TreeEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return nil, nil
	}
	e, err := t.root.FindEntry(name)
	if err != nil || !(e.Mode == filemode.Dir || e.Mode.IsFile()) || e.Mode == filemode.Symlink {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return e, nil
}

// Stat implements fs.StatFS.
func (t *TreeFS) Stat(name string) (fs.FileInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, err := t.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return t.info(name, e), nil
}

// entry looks name up for op and describes it; mu is held.
func (t *TreeFS) entry(op, name string) (*object.TreeEntry, *fileInfo, error) {
	e, err := t.lookup(op, name)
	if err != nil {
		return nil, nil, err
	}
	return e, t.info(name, e), nil
}

// info describes e (nil: the root) as name; a size the blob does not give
// is 0. mu is held.
func (t *TreeFS) info(name string, e *object.TreeEntry) *fileInfo {
	fi := &fileInfo{name: path.Base(name), dir: true}
	if e == nil || e.Mode == filemode.Dir {
		return fi
	}
	fi.dir = false
	if b, err := t.blob(e); err == nil {
		fi.size = b.size
	}
	fi.exec = e.Mode == filemode.Executable
	return fi
}

// Open implements fs.FS.
func (t *TreeFS) Open(name string) (fs.File, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, fi, err := t.entry("open", name)
	if err != nil {
		return nil, err
	}
	if fi.dir {
		entries, err := t.readDir(name)
		if err != nil {
			return nil, err
		}
		return &dirFile{info: fi, entries: entries}, nil
	}
	data, err := t.read(e)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return &blobFile{info: fi, r: bytes.NewReader(data)}, nil
}

// read returns the contents of e's blob (at most ReadLimit bytes), read
// the first time a file naming it is opened (and again only if ReadLimit
// changed); mu is held.
func (t *TreeFS) read(e *object.TreeEntry) ([]byte, error) {
	b, err := t.blob(e)
	if err != nil {
		return nil, err
	}
	limit := t.ReadLimit
	if limit <= 0 {
		limit = DefaultReadLimit
	}
	if b.limit == limit {
		return b.data, nil
	}
	rc, err := b.file.Reader()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, limit))
	if err != nil {
		return nil, err
	}
	b.data, b.limit = data, limit
	t.reads++
	return data, nil
}

// ReadDir implements fs.ReadDirFS: entries sorted by name.
func (t *TreeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.readDir(name)
}

func (t *TreeFS) readDir(name string) ([]fs.DirEntry, error) {
	e, err := t.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	dir := t.root
	if e != nil {
		if e.Mode != filemode.Dir {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
		}
		if dir, err = t.root.Tree(name); err != nil {
			return nil, &fs.PathError{Op: "readdir", Path: name, Err: err}
		}
	}
	sub := &TreeFS{root: dir, mu: t.mu, blobs: t.blobs}
	var out []fs.DirEntry
	for i := range dir.Entries {
		ent := &dir.Entries[i]
		if !(ent.Mode == filemode.Dir || ent.Mode.IsFile()) || ent.Mode == filemode.Symlink {
			continue
		}
		out = append(out, fs.FileInfoToDirEntry(sub.info(ent.Name, ent)))
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}

type fileInfo struct {
	name string
	size int64
	dir  bool
	exec bool
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) ModTime() time.Time { return time.Time{} }
func (fi *fileInfo) IsDir() bool        { return fi.dir }
func (fi *fileInfo) Sys() any           { return nil }
func (fi *fileInfo) Mode() fs.FileMode {
	switch {
	case fi.dir:
		return fs.ModeDir | 0o755
	case fi.exec:
		return 0o755
	}
	return 0o644
}

type blobFile struct {
	info *fileInfo
	r    *bytes.Reader
}

func (f *blobFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *blobFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *blobFile) Close() error               { return nil }

type dirFile struct {
	info    *fileInfo
	entries []fs.DirEntry
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.info.name, Err: fs.ErrInvalid}
}
func (d *dirFile) Close() error { return nil }

// ReadDir implements fs.ReadDirFile.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if n <= 0 {
		out := d.entries
		d.entries = nil
		return out, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	out := d.entries[:n]
	d.entries = d.entries[n:]
	return out, nil
}
