package generator

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/generator/model"
)

// Options tune Compile.
type Options struct {
	// Strict turns every warning into an error.
	Strict bool
}

// Compile reads the manifests named by paths (files, or directories searched
// recursively for *.yaml, *.yml and *.json), checks them and returns the
// catalog with its diagnostics, sorted. The catalog is nil when any error
// diagnostic was found. The error is for usage and I/O failures only (a
// missing path, an unreadable file).
func Compile(ctx context.Context, paths []string, opts Options) (*model.Catalog, diag.List, error) {
	files, err := Expand(paths)
	if err != nil {
		return nil, nil, err
	}
	docs, diags, err := load(ctx, files)
	if err != nil {
		return nil, nil, err
	}
	cat, more := check.Check(docs)
	diags = append(diags, more...)
	if opts.Strict {
		diags = diags.Promote()
	}
	diags = diags.Sorted()
	if diags.HasErrors() {
		return nil, diags, nil
	}
	return cat, diags, nil
}

// Expand lists the manifest files named by paths: files as given, and the
// *.yaml, *.yml and *.json files below directories (skipping hidden
// directories and node_modules), sorted and without duplicates.
func Expand(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no manifest paths given")
	}
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", p, unwrapPath(err))
		}
		if !st.IsDir() {
			files = append(files, filepath.Clean(p))
			continue
		}
		before := len(files)
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			name := d.Name()
			if d.IsDir() {
				if path != p && (strings.HasPrefix(name, ".") || name == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			switch strings.ToLower(filepath.Ext(name)) {
			case ".yaml", ".yml", ".json":
				files = append(files, filepath.Clean(path))
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", p, unwrapPath(err))
		}
		if len(files) == before {
			return nil, fmt.Errorf("%s holds no manifests (*.yaml, *.yml, *.json)", p)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// load reads and parses files concurrently, keeping their order.
func load(ctx context.Context, files []string) ([]*manifest.Document, diag.List, error) {
	docs := make([]*manifest.Document, len(files))
	diags := make([]diag.List, len(files))
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := range work {
				if ctx.Err() != nil {
					errs[i] = ctx.Err()
					continue
				}
				data, err := readLimited(files[i])
				if err != nil {
					errs[i] = err
					continue
				}
				docs[i], diags[i] = manifest.Load(files[i], data)
			}
		})
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	var all diag.List
	var loaded []*manifest.Document
	for i := range files {
		if errs[i] != nil {
			return nil, nil, errs[i]
		}
		all = append(all, diags[i]...)
		if docs[i] != nil {
			loaded = append(loaded, docs[i])
		}
	}
	return loaded, all, nil
}

// readLimited reads a file, stopping just past the size limit so a huge file
// is rejected without reading it whole.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, manifest.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	return data, nil
}
