package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/udtc/udtc/generator/emit"
)

// syncResult counts what a stager's commit did (or, with check, would do).
type syncResult struct {
	written, unchanged, removed int
	stale                       []string // paths that differ, are missing or would be removed
}

func (r syncResult) changed() bool { return r.written > 0 || r.removed > 0 }

// stager makes an output directory hold the files of a gen run in two
// steps, so that no target's files wait in memory for the other targets:
// stage takes one target's files as soon as its emitter returns, compares
// each with the file on disk and writes the ones that differ to temporary
// files beside them (only their marker entries are kept); commit, once
// every emitter is done and no diagnostic is an error, renames them into
// place, removes what the run no longer produces and writes the marker.
// abort instead removes the temporary files and the directories stage
// made, so a failed run changes nothing. With check nothing is written.
type stager struct {
	dir   string
	check bool

	mu      sync.Mutex // guards what follows; dirMu serializes making directories
	dirMu   sync.Mutex
	dirs    map[string]bool // directories known to exist: true when this run made them
	made    []string        // the directories this run made, parents first
	staged  []stagedFile
	errs    []error
	aborted bool
}

// stagedFile is one file of the run.
type stagedFile struct {
	entry markerEntry
	path  string // on disk
	tmp   string // the new contents, to rename to path; "" when path is up to date
	stale bool   // path is missing or differs
}

func newStager(dir string, check bool) *stager {
	return &stager{dir: filepath.Clean(dir), check: check, dirs: map[string]bool{}}
}

// stage takes files that target produced (all of them, or a batch). The
// directories are made first, once each; a file in a directory this run
// made is new and is written without first reading the path. It returns
// the first error of the batch; commit returns it too.
func (s *stager) stage(target string, files []emit.File) error {
	out := make([]stagedFile, len(files))
	for i, f := range files {
		out[i].path = filepath.Join(s.dir, filepath.FromSlash(f.Path))
	}
	var made map[string]bool
	if !s.check {
		paths := make([]string, len(out))
		for i := range out {
			paths[i] = out[i].path
		}
		var err error
		if made, err = s.makeDirs(paths); err != nil {
			s.fail(err)
			return err
		}
	}
	errs := make([]error, len(files))
	parallel(len(files), func(i int) {
		sf := &out[i]
		sf.entry = newMarkerEntry(target, files[i])
		if !made[filepath.Dir(sf.path)] {
			old, err := os.ReadFile(sf.path)
			if err == nil && bytes.Equal(old, files[i].Data) {
				return
			}
		}
		sf.stale = true
		if !s.check {
			sf.tmp, errs[i] = writeTemp(sf.path, files[i].Data, 0o644)
		}
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.staged = append(s.staged, out...)
	err := errors.Join(errs...)
	if err != nil {
		s.errs = append(s.errs, err)
	}
	return err
}

func (s *stager) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, err)
}

// makeDirs makes the directories of paths below s.dir that are not known
// yet, parents before children, and returns which of the paths'
// directories this run made.
func (s *stager) makeDirs(paths []string) (map[string]bool, error) {
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if len(s.dirs) == 0 {
		if err := s.makeRoot(); err != nil {
			return nil, err
		}
	}
	var byDepth [][]string
	for _, p := range paths {
		for d := filepath.Dir(p); len(d) > len(s.dir); d = filepath.Dir(d) {
			if _, ok := s.dirs[d]; ok {
				break
			}
			s.dirs[d] = false
			depth := strings.Count(d[len(s.dir):], string(filepath.Separator))
			for len(byDepth) <= depth {
				byDepth = append(byDepth, nil)
			}
			byDepth[depth] = append(byDepth[depth], d)
		}
	}
	for _, dirs := range byDepth {
		slices.Sort(dirs)
		made := make([]bool, len(dirs))
		errs := make([]error, len(dirs))
		parallel(len(dirs), func(i int) {
			err := os.Mkdir(dirs[i], 0o755)
			switch {
			case err == nil:
				made[i] = true
			case errors.Is(err, fs.ErrExist):
				if st, serr := os.Stat(dirs[i]); serr != nil || !st.IsDir() {
					errs[i] = err
				}
			default:
				errs[i] = err
			}
		})
		for i, d := range dirs {
			if made[i] {
				s.dirs[d] = true
				s.made = append(s.made, d)
			}
		}
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
	}
	made := map[string]bool{}
	for _, p := range paths {
		if d := filepath.Dir(p); s.dirs[d] {
			made[d] = true
		}
	}
	return made, nil
}

// makeRoot makes s.dir and its missing parents, remembering which it made.
func (s *stager) makeRoot() error {
	var missing []string
	for d := s.dir; ; d = filepath.Dir(d) {
		if st, err := os.Stat(d); err == nil {
			if !st.IsDir() {
				return &fs.PathError{Op: "mkdir", Path: d, Err: errors.New("not a directory")}
			}
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for _, d := range slices.Backward(missing) {
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		s.made = append(s.made, d)
	}
	s.dirs[s.dir] = len(missing) > 0
	return nil
}

// commit puts the staged files in place. Files that the marker lists under
// one of targets but this run did not produce are removed; files of other
// targets are neither removed nor forgotten; entries of no known target
// (an older marker) are removed only when every target runs. The marker
// then lists the files.
func (s *stager) commit(targets []string) (syncResult, error) {
	var res syncResult
	if err := errors.Join(s.errs...); err != nil {
		s.abort()
		return res, err
	}
	slices.SortFunc(s.staged, func(a, b stagedFile) int { return strings.Compare(a.entry.path, b.entry.path) })
	errs := make([]error, len(s.staged))
	parallel(len(s.staged), func(i int) {
		if sf := s.staged[i]; sf.tmp != "" {
			if errs[i] = os.Rename(sf.tmp, sf.path); errs[i] != nil {
				os.Remove(sf.tmp)
			}
		}
	})
	if err := errors.Join(errs...); err != nil {
		return res, err
	}
	var next genMarker
	produced := make(map[string]bool, len(s.staged))
	for _, sf := range s.staged {
		produced[sf.entry.path] = true
		next.files = append(next.files, sf.entry)
		if sf.stale {
			res.written++
			res.stale = append(res.stale, sf.entry.path)
		} else {
			res.unchanged++
		}
	}
	running := map[string]bool{}
	for _, t := range targets {
		running[t] = true
	}
	everyTarget := len(targets) == len(emitters)
	for _, prev := range readMarker(s.dir).files {
		p := prev.path
		if produced[p] {
			continue
		}
		if !running[prev.target] && (prev.target != "" || !everyTarget) {
			produced[p] = true
			next.files = append(next.files, prev) // another target's file
			continue
		}
		full := filepath.Join(s.dir, filepath.FromSlash(p))
		if _, err := os.Stat(full); err != nil {
			continue
		}
		res.removed++
		res.stale = append(res.stale, p)
		if !s.check {
			if err := os.Remove(full); err != nil {
				return res, err
			}
			removeEmptyParents(s.dir, filepath.Dir(full))
		}
	}
	if !s.check {
		sortEntries(next.files)
		if err := writeIfChanged(filepath.Join(s.dir, emit.OutputMarker), next.encode()); err != nil {
			return res, err
		}
	}
	return res, nil
}

// abort removes the staged temporary files and the directories stage
// made, children first (only those left empty).
func (s *stager) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aborted {
		return
	}
	s.aborted = true
	parallel(len(s.staged), func(i int) {
		if t := s.staged[i].tmp; t != "" {
			os.Remove(t)
		}
	})
	for _, d := range slices.Backward(s.made) {
		os.Remove(d)
	}
}

// parallel calls do(i) for every i below n on the goroutines of the disk
// writes: twice as many as cores, as the calls mostly wait for the file
// system.
func parallel(n int, do func(i int)) {
	var wg sync.WaitGroup
	work := make(chan int)
	for range min(runtime.GOMAXPROCS(0)*2, n) {
		wg.Go(func() {
			for i := range work {
				do(i)
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}
