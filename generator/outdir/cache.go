package outdir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/internal/par"
)

// genCache is the machine-local half of the no-op check: the inputs' key of
// the last run into an output directory, the marker it wrote, and each
// listed file's size and modification time then (and for a Go file, the
// hash of its source before gofmt: Run.FormatGo). It lives in the user cache
// directory (os.UserCacheDir()/udtc/gen/), one file per output directory,
// never in the output directory itself.
type genCache struct {
	key    string
	marker string // hex SHA-256 of the marker file
	stats  map[string]fileStat
}

type fileStat struct {
	size, mtime int64
	source      string // "" but for Go files
}

// cachePath returns the cache file of the output directory dir, or "" when
// there is no user cache directory.
func cachePath(dir string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(base, "udtc", "gen", hex.EncodeToString(sum[:16]))
}

func readGenCache(dir string) (genCache, bool) {
	c := genCache{stats: map[string]fileStat{}}
	p := cachePath(dir)
	if p == "" {
		return c, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return c, false
	}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSuffix(line, "\n")
		if v, ok := strings.CutPrefix(line, "key "); ok {
			c.key = v
			continue
		}
		if v, ok := strings.CutPrefix(line, "marker "); ok {
			c.marker = v
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 && len(f) != 4 {
			continue
		}
		size, err1 := strconv.ParseInt(f[1], 10, 64)
		mtime, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 == nil && err2 == nil {
			st := fileStat{size: size, mtime: mtime}
			if len(f) == 4 {
				st.source = f[3]
			}
			c.stats[f[0]] = st
		}
	}
	return c, c.key != "" && c.marker != ""
}

// UpToDate reports whether the last run into dir used key and every file it
// listed is as that run left it (same size and modification time), so this
// run would write nothing. It returns the number of files listed.
func UpToDate(dir, key string) (int, bool) {
	c, ok := readGenCache(dir)
	if !ok || c.key != key {
		return 0, false
	}
	return outputsAsLeft(dir, c)
}

// outputsAsLeft reports whether the marker and every file it lists are as
// the run that wrote c left them, and returns the number of files listed.
func outputsAsLeft(dir string, c genCache) (int, bool) {
	b, err := os.ReadFile(filepath.Join(dir, emit.OutputMarker))
	if err != nil || hash(b) != c.marker {
		return 0, false
	}
	m := parseMarker(b)
	if len(m.files) == 0 {
		return 0, false
	}
	for _, e := range m.files {
		want, ok := c.stats[e.path]
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(e.path)))
		if !ok || err != nil || st.Size() != want.size || st.ModTime().UnixNano() != want.mtime {
			return 0, false
		}
	}
	return len(m.files), true
}

// SaveCache records key and the current state of dir's listed files, with
// the source hash that source gives of each (nil: none). It is best
// effort: without a cache the next run just does the work.
func SaveCache(dir, key string, source func(path string) string) {
	p := cachePath(dir)
	if p == "" {
		return
	}
	mb, err := os.ReadFile(filepath.Join(dir, emit.OutputMarker))
	if err != nil {
		return
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "key %s\nmarker %s\n", key, hash(mb))
	files := readMarker(dir).files
	b.Grow(len(files) * 128) // one allocation: a line is a path, two numbers and a hash
	for _, e := range files {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(e.path)))
		if err != nil {
			return
		}
		fmt.Fprintf(&b, "%s\t%d\t%d", e.path, st.Size(), st.ModTime().UnixNano())
		if source != nil {
			if s := source(e.path); s != "" {
				fmt.Fprintf(&b, "\t%s", s)
			}
		}
		b.WriteByte('\n')
	}
	_ = atomicfile.WriteFile(p, b.Bytes(), 0o644)
}

func hash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// InputKey fingerprints a gen run: the udtc binary (size and modification
// time, so an upgrade regenerates), every option that shapes the output,
// and each input file's path and contents. It is machine-local and is kept
// in the user cache, never in the output directory (UpToDate, SaveCache;
// publish keys its record with it too). It is ReadInputs(...).Key.
func InputKey(inputs []generator.Input, options ...string) (string, error) {
	in, err := ReadInputs(inputs, options...)
	if err != nil {
		return "", err
	}
	return in.Key, nil
}

// ReadInputs reads every input file (on every core) and returns the
// inputs with the SHA-256 of each, the key of the binary and options
// alone (Inputs.Options: a run whose options differ redoes everything)
// and the key of everything (InputKey). It keeps the bytes of each file
// no larger than a manifest may be, for the compile (Inputs.Take).
func ReadInputs(inputs []generator.Input, options ...string) (*Inputs, error) {
	h := sha256.New()
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "exe %s %d %d\n", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	for _, o := range options {
		fmt.Fprintf(h, "opt %q\n", o)
	}
	in := &Inputs{List: inputs, Sums: make([]string, len(inputs)), Options: hex.EncodeToString(h.Sum(nil)),
		contents: make([][]byte, len(inputs)), index: make(map[string]int, len(inputs))}
	errs := make([]error, len(inputs))
	par.Each(len(inputs), func(i int) {
		in.Sums[i], in.contents[i], errs[i] = readSum(inputs[i].Path)
	})
	for i, input := range inputs {
		in.index[input.Path] = i
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	for i, input := range inputs {
		fmt.Fprintf(h, "file %q %t %s\n", input.Path, input.Named, in.Sums[i])
	}
	in.Key = hex.EncodeToString(h.Sum(nil))
	return in, nil
}

// readSum returns the hex SHA-256 of file p and, when it is no larger
// than manifest.MaxFileSize, its contents; a larger file is hashed as it
// streams past, never held (the compile rejects it, reading only as much
// as it needs to).
func readSum(p string) (string, []byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	size := int64(512)
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		size = min(st.Size(), manifest.MaxFileSize) + 1
	}
	// One allocation of the file's size (as os.ReadFile), one byte more
	// so that the read meets the end of the file.
	data, err := readUpTo(f, make([]byte, 0, size), manifest.MaxFileSize+1)
	if err != nil {
		return "", nil, err
	}
	if len(data) <= manifest.MaxFileSize {
		return hash(data), data, nil
	}
	h := sha256.New()
	h.Write(data)
	if _, err := io.Copy(h, f); err != nil {
		return "", nil, err
	}
	return hex.EncodeToString(h.Sum(nil)), nil, nil
}

// readUpTo appends r's bytes to data until r ends or data holds limit
// bytes.
func readUpTo(r io.Reader, data []byte, limit int) ([]byte, error) {
	for len(data) < limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):min(cap(data), limit)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return data, nil
}

// StartKey computes the InputKey of the inputs of paths (generator.Expand)
// and options in the background, so that reading and hashing the inputs
// overlaps other work, and returns the function that waits for it: "" when
// there is no key (Expand's error, which a compile of paths reports).
func StartKey(paths []string, options ...string) func() string {
	ch := make(chan string, 1)
	go func() {
		inputs, err := generator.Expand(paths)
		key := ""
		if err == nil {
			key, _ = InputKey(inputs, options...)
		}
		ch <- key
	}()
	return sync.OnceValue(func() string { return <-ch })
}
