package outdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/internal/par"
)

// Result counts what a Stager's Commit did (or, with Check, would do).
type Result struct {
	Written, Unchanged, Removed int
	Stale                       []string // paths that differ, are missing or would be removed
}

// Changed reports whether the commit wrote or removed a file.
func (r Result) Changed() bool { return r.Written > 0 || r.Removed > 0 }

// Stager makes an output directory hold the files of a gen run in two
// steps, so that no target's files wait in memory for the other targets:
// Stage takes a batch of a target's files as soon as its emitter makes
// it, compares each with the file on disk and writes the ones that differ below one
// stage directory of the run, DIR/.udtc-stage-*, at their paths relative
// to DIR (only their marker entries are kept); Commit, once every emitter
// is done and no diagnostic is an error, renames them into place (the
// stage directory is on the same file system), removes what the run no
// longer produces, writes the marker and removes the stage directory.
// Abort instead removes the stage directory and the parents of DIR that
// Stage made, so a failed run changes nothing in DIR; after a Commit it
// does nothing. RemoveLeftovers removes what killed runs left. With
// Options.Check nothing is written.
type Stager struct {
	dir  string
	opts Options

	mu     sync.Mutex // guards staged and errs; dirMu guards what follows it
	staged []stagedFile
	errs   []error

	// absent caches which directories below DIR (and DIR) were found
	// missing (true) or there (false): a file below a missing one is new
	// and not read to compare (a cold gen reads nothing).
	absentMu sync.Mutex
	absent   map[string]bool

	dirMu     sync.Mutex
	stageDir  string          // "" until the first file is staged
	stageDirs map[string]bool // directories below stageDir known to exist
	made      []string        // DIR and its parents when this run made them, parents first
	done      bool            // committed or aborted
	others    int             // listed files of targets that did not run (markers)
}

// stagedFile is one file of the run.
type stagedFile struct {
	entry markerEntry
	path  string // on disk
	tmp   string // the new contents, to rename to path; "" when path is up to date
	stale bool   // path is missing or differs
	found bool   // path is there (a file gen replaces if stale)
}

// stagePrefix starts the name of a run's stage directory in DIR.
const stagePrefix = ".udtc-stage-"

// Options tune a Stager.
type Options struct {
	// Check writes nothing: Commit only reports what it would do.
	Check bool
	// Targets names every target there is (gen's emitter table): marker
	// entries of no known target, left by an older udtc, are removed only
	// by a Commit of all of them.
	Targets []string
	// Keep, when set, keeps a listed file of a running target that the
	// run did not produce (an incremental run keeps the files of the
	// namespaces it did not redo, Run.Keeps) instead of removing it;
	// Commit counts it as unchanged.
	Keep func(target, path string) bool
}

// NewStager returns a Stager for dir.
func NewStager(dir string, opts Options) *Stager {
	return &Stager{dir: filepath.Clean(dir), opts: opts, stageDirs: map[string]bool{}, absent: map[string]bool{}}
}

// RemoveLeftovers removes what runs that were killed before their commit
// or abort left in dir: stage directories, and atomicfile's temporary
// files (".udtc-" and digits) at its top. With check it removes nothing. It returns their
// paths; a failure to remove is left for the next run.
func RemoveLeftovers(dir string, check bool) []string {
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(dir, name)
		switch {
		case strings.HasPrefix(name, stagePrefix) && e.IsDir():
			if !check {
				os.RemoveAll(p)
			}
		case atomicfile.IsTempName(name) && e.Type().IsRegular():
			if !check {
				os.Remove(p)
			}
		default:
			continue
		}
		left = append(left, p)
	}
	return left
}

// Stage takes files that target produced (all of them, or a batch). It
// returns the first error of the batch; Commit returns it too. It is safe
// for concurrent use.
func (s *Stager) Stage(target string, files []emit.File) error {
	out := make([]stagedFile, len(files))
	for i, f := range files {
		out[i].path = filepath.Join(s.dir, filepath.FromSlash(f.Path))
		out[i].entry = newMarkerEntry(target, f)
	}
	errs := make([]error, len(files))
	parallel(len(files), func(i int) {
		sf := &out[i]
		if s.missingDir(filepath.Dir(sf.path)) {
			sf.stale = true
			return
		}
		old, err := os.ReadFile(sf.path)
		sf.found = !errors.Is(err, fs.ErrNotExist)
		if err == nil && bytes.Equal(old, files[i].Data) {
			return
		}
		sf.stale = true
	})
	if !s.opts.Check {
		var rels []string
		for i := range out {
			if out[i].stale {
				rels = append(rels, filepath.FromSlash(files[i].Path))
			}
		}
		stageDir, err := s.makeStageDirs(rels)
		if err != nil {
			s.fail(err)
			return err
		}
		parallel(len(files), func(i int) {
			if sf := &out[i]; sf.stale {
				sf.tmp = filepath.Join(stageDir, filepath.FromSlash(files[i].Path))
				errs[i] = atomicfile.WriteNew(sf.tmp, files[i].Data, 0o644)
			}
		})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.staged = append(s.staged, out...)
	err := errors.Join(errs...)
	if err != nil {
		s.errs = append(s.errs, err)
	}
	return err
}

// missingDir reports whether directory d, DIR or below it, is missing:
// it or a parent up to DIR was not there when first asked about.
func (s *Stager) missingDir(d string) bool {
	s.absentMu.Lock()
	missing, known := s.absent[d]
	s.absentMu.Unlock()
	if known {
		return missing
	}
	if d != s.dir && len(d) > len(s.dir) && s.missingDir(filepath.Dir(d)) {
		missing = true
	} else {
		_, err := os.Stat(d)
		missing = errors.Is(err, fs.ErrNotExist)
	}
	s.absentMu.Lock()
	s.absent[d] = missing
	s.absentMu.Unlock()
	return missing
}

func (s *Stager) fail(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.errs = append(s.errs, err)
}

// makeStageDirs makes the run's stage directory (and DIR first) when it
// does not exist yet, and the directories of rels, paths relative to it;
// it returns the stage directory.
func (s *Stager) makeStageDirs(rels []string) (string, error) {
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if s.stageDir == "" {
		if err := s.makeRoot(); err != nil {
			return "", err
		}
		d, err := os.MkdirTemp(s.dir, stagePrefix+"*")
		if err != nil {
			return "", err
		}
		s.stageDir = d
	}
	// Every directory not made yet, parents included, made one level at a
	// time (each level at once, parents first): one mkdir per directory,
	// not os.MkdirAll's stat of it and of its parents.
	var levels [][]string
	for _, r := range rels {
		for d := filepath.Dir(r); d != "." && !s.stageDirs[d]; d = filepath.Dir(d) {
			s.stageDirs[d] = true
			depth := strings.Count(d, string(filepath.Separator))
			for len(levels) <= depth {
				levels = append(levels, nil)
			}
			levels[depth] = append(levels[depth], d)
		}
	}
	var errs []error
	for _, dirs := range levels {
		errs = slices.Grow(errs, len(dirs))[:len(errs)+len(dirs)]
		level := errs[len(errs)-len(dirs):]
		parallel(len(dirs), func(i int) {
			level[i] = os.Mkdir(filepath.Join(s.stageDir, dirs[i]), 0o755)
		})
	}
	return s.stageDir, errors.Join(errs...)
}

// makeRoot makes s.dir and its missing parents, remembering which it made.
func (s *Stager) makeRoot() error {
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
	return nil
}

// Commit puts the staged files in place. Files that the marker lists under
// one of targets but this run did not produce are removed; files of other
// targets are neither removed nor forgotten; entries of no known target
// (an older marker) are removed only when every target runs. The marker
// then lists the files. Once it returns nil, Abort does nothing.
//
// A commit that fails part way puts DIR back as it was before returning
// the error: each file it replaces or removes, the marker included, is
// kept first (a hard link, or the file itself moved aside where links are
// not supported) in a directory beside the stage, and a failure moves the
// kept files back and removes the new ones (rollback). Before anything
// moves, the marker lists the old files and the new ones, so that a run
// killed part way leaves no file the next run does not know of: it
// removes those it does not produce.
func (s *Stager) Commit(targets []string) (Result, error) {
	if err := errors.Join(s.errs...); err != nil {
		return Result{}, err
	}
	res := s.tally()
	markerPath := filepath.Join(s.dir, emit.OutputMarker)
	marker, _ := os.ReadFile(markerPath) // the marker in DIR, as the commit goes
	next, gone, union := s.markers(parseMarker(marker), targets)
	res.Unchanged += len(next.files) - len(s.staged) - s.others
	var j *journal
	if !s.opts.Check {
		var err error
		if j, err = s.newJournal(); err != nil {
			return res, err
		}
		defer j.close()
		if data := union.encode(); !bytes.Equal(data, marker) {
			if err := j.replaceMarker(markerPath, data, marker); err != nil {
				return res, j.rollback(err)
			}
			marker = data
		}
	}
	if err := s.putInPlace(j); err != nil {
		return res, j.rollback(err)
	}
	emptied, err := s.removeGone(j, gone, &res)
	if err != nil {
		return res, j.rollback(err)
	}
	if !s.opts.Check {
		if data := next.encode(); !bytes.Equal(data, marker) {
			if err := atomicfile.Replace(markerPath, data, 0o644, renameFile); err != nil {
				return res, j.rollback(err)
			}
		}
		for _, d := range emptied {
			removeEmptyParents(s.dir, d)
		}
	}
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if s.stageDir != "" {
		if err := os.RemoveAll(s.stageDir); err != nil {
			return res, err
		}
	}
	s.done = true
	return res, nil
}

// tally sorts the staged files by path and counts them in a Result.
func (s *Stager) tally() Result {
	var res Result
	slices.SortFunc(s.staged, func(a, b stagedFile) int { return strings.Compare(a.entry.path, b.entry.path) })
	for _, sf := range s.staged {
		if sf.stale {
			res.Written++
			res.Stale = append(res.Stale, sf.entry.path)
		} else {
			res.Unchanged++
		}
	}
	return res
}

// putInPlace renames the staged files into place: new directories whole
// (moveNewDirs), the other files one by one, each keeping the file it
// replaces in the journal j (nil with Check, when nothing is staged).
func (s *Stager) putInPlace(j *journal) error {
	inPlace, moves, err := s.moveNewDirs()
	if j != nil {
		j.moves = moves
		j.replaced = make([]keptFile, len(s.staged))
	}
	if err != nil {
		return err
	}
	errs := make([]error, len(s.staged))
	parallel(len(s.staged), func(i int) {
		if sf := s.staged[i]; sf.tmp != "" && !inPlace[filepath.Dir(sf.path)] {
			j.replaced[i], errs[i] = j.keep(sf.tmp, sf.path, filepath.Join(j.dir, strconv.Itoa(i)))
		}
	})
	return errors.Join(errs...)
}

// removeGone removes the files of gone, those the marker lists and the run
// no longer produces, moving each into the journal j (with Check it only
// counts them in res). It returns the directories they were in.
func (s *Stager) removeGone(j *journal, gone []markerEntry, res *Result) (emptied []string, err error) {
	isProduced := s.producedAs(s.staged)
	for _, prev := range gone {
		full := filepath.Join(s.dir, filepath.FromSlash(prev.path))
		st, err := os.Stat(full)
		if err != nil || isProduced(st, prev.path) {
			continue // gone already, or the run's own file under another case
		}
		if lst, err := os.Lstat(full); err != nil || lst.IsDir() {
			continue // no longer gen's file
		}
		res.Removed++
		res.Stale = append(res.Stale, prev.path)
		if !s.opts.Check {
			if err := j.remove(full); err != nil {
				return nil, err
			}
			emptied = append(emptied, filepath.Dir(full))
		}
	}
	return emptied, nil
}

// markers returns, from old, the marker DIR had, and the staged files: the
// marker of the committed output (next: the staged files, and the files
// of targets that did not run), the listed files that are gone from the
// output (of a running target, not produced), and the marker the commit
// writes before anything moves (union): every file it may leave in DIR,
// the listed ones and the new ones. A file in DIR at a staged path that
// no marker lists is not gen's until the rename replaces it, so union
// leaves it out (a run killed before that must leave it unlisted).
func (s *Stager) markers(old genMarker, targets []string) (next genMarker, gone []markerEntry, union genMarker) {
	found := make(map[string]bool, len(s.staged)) // staged path → a file was there
	for _, sf := range s.staged {
		found[sf.entry.path] = sf.found
		next.files = append(next.files, sf.entry)
	}
	running := map[string]bool{}
	for _, t := range targets {
		running[t] = true
	}
	everyTarget := len(targets) == len(s.opts.Targets)
	listed := map[string]bool{}
	for _, prev := range old.files {
		if _, staged := found[prev.path]; staged || listed[prev.path] {
			listed[prev.path] = true
			continue // produced, or listed twice
		}
		listed[prev.path] = true
		if !running[prev.target] && (prev.target != "" || !everyTarget) {
			next.files = append(next.files, prev) // another target's file
			s.others++
		} else if s.opts.Keep != nil && running[prev.target] && s.opts.Keep(prev.target, prev.path) {
			next.files = append(next.files, prev)
		} else {
			gone = append(gone, prev)
		}
	}
	union.files = slices.Clone(gone)
	for _, e := range next.files {
		if wasThere, staged := found[e.path]; listed[e.path] || !staged || !wasThere {
			union.files = append(union.files, e)
		}
	}
	sortEntries(next.files)
	sortEntries(union.files)
	return next, gone, union
}

// journal is what a commit changed in DIR, so that rollback can take it
// back: the marker, the directories moved whole, the files renamed into
// place (each with the old file it replaced, kept in dir) and the files
// removed (moved into dir).
type journal struct {
	dir      string // beside the stage, named like it (RemoveLeftovers removes it)
	marker   keptFile
	moves    [][2]string
	replaced []keptFile // by staged file

	mu      sync.Mutex
	removed [][2]string // path, kept as
}

// keptFile is a file the commit renamed into place: kept is the file it
// replaced ("" when there was none); done is false until the rename.
type keptFile struct {
	path, kept string
	done       bool
}

func (s *Stager) newJournal() (*journal, error) {
	if err := s.makeRoot(); err != nil {
		return nil, err
	}
	d, err := os.MkdirTemp(s.dir, stagePrefix+"old-*")
	if err != nil {
		return nil, err
	}
	return &journal{dir: d}, nil
}

// linkFile is os.Link (a variable for tests).
var linkFile = os.Link

// renameFile is os.Rename (a variable for tests).
var renameFile = os.Rename

// replaceMarker writes data as the marker at path, whose content is old
// (nil when there is none), keeping a copy of old: the marker is never
// moved aside, so DIR always has one.
func (j *journal) replaceMarker(path string, data, old []byte) error {
	tmp := filepath.Join(j.dir, "marker.new")
	if err := atomicfile.WriteNew(tmp, data, 0o644); err != nil {
		return err
	}
	k := keptFile{path: path}
	if old != nil {
		k.kept = filepath.Join(j.dir, "marker")
		if err := atomicfile.WriteNew(k.kept, old, 0o644); err != nil {
			return err
		}
	}
	if err := renameFile(tmp, path); err != nil {
		return err
	}
	k.done = true
	j.marker = k
	return nil
}

// keep renames tmp, the new content of path, to path, keeping the file it
// replaces as kept. It returns what rollback needs to take that back.
func (j *journal) keep(tmp, path, kept string) (keptFile, error) {
	err := linkFile(path, kept)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		kept = ""
	case err != nil:
		st, lerr := os.Lstat(path)
		switch {
		case errors.Is(lerr, fs.ErrNotExist):
			kept = ""
		case lerr != nil:
			return keptFile{}, lerr
		case st.IsDir(): // not gen's: it stays, and the commit fails
			return keptFile{}, &fs.PathError{Op: "replace", Path: path, Err: errors.New("is a directory")}
		default:
			// No hard links here (some network and FAT file systems):
			// the old file itself moves aside, for the time of one rename.
			if err := os.Rename(path, kept); err != nil {
				return keptFile{}, err
			}
		}
	}
	if err := renameFile(tmp, path); err != nil {
		if kept == "" {
			return keptFile{}, err
		}
		// With a link, path is still there and this is a no-op; a file
		// moved aside goes back, and if it cannot, rollback tries again
		// and reports it.
		if rerr := os.Rename(kept, path); rerr != nil {
			return keptFile{path: path, kept: kept, done: true}, err
		}
		return keptFile{}, err
	}
	return keptFile{path: path, kept: kept, done: true}, nil
}

// remove moves path, a stale file, into the journal. A file on another
// file system than DIR (below a symbolic link in DIR) cannot move there:
// it is removed, and a rollback cannot bring it back.
func (j *journal) remove(path string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	kept := filepath.Join(j.dir, "r"+strconv.Itoa(len(j.removed)))
	err := renameFile(path, kept)
	if errors.Is(err, syscall.EXDEV) {
		return os.Remove(path)
	}
	if err != nil {
		return err
	}
	j.removed = append(j.removed, [2]string{path, kept})
	return nil
}

// rollback takes back what the commit did, last first, and returns the
// commit's error err. When something cannot be put back (a second failure
// of the file system) the error names it, and the journal, with the old
// files it keeps, stays in DIR under a name no later run removes.
func (j *journal) rollback(err error) error {
	if j == nil {
		return err
	}
	var failed []string
	for _, r := range slices.Backward(j.removed) {
		if os.Rename(r[1], r[0]) != nil {
			failed = append(failed, r[0])
		}
	}
	for _, f := range slices.Backward(j.replaced) {
		if !f.restore() {
			failed = append(failed, f.path)
		}
	}
	failed = append(failed, undoMoves(j.moves)...)
	// The marker last, and only when all else is back: while anything
	// new is left, the marker that lists it stays, so a later run
	// removes it.
	if len(failed) == 0 && !j.marker.restore() {
		failed = append(failed, j.marker.path)
	}
	if len(failed) == 0 {
		return err
	}
	where := filepath.Join(filepath.Dir(j.dir), keptPrefix+strings.TrimPrefix(filepath.Base(j.dir), stagePrefix+"old-"))
	if os.Rename(j.dir, where) != nil {
		where = j.dir + " until the next gen removes it"
	}
	j.dir = "" // close leaves it
	return fmt.Errorf("%w; putting the output directory back failed too, for %s: the old files are kept in %s",
		err, strings.Join(failed, ", "), where)
}

// restore takes back the rename of f: the kept file returns, or the new
// one is removed; false when that fails.
func (f keptFile) restore() bool {
	switch {
	case !f.done:
		return true
	case f.kept != "":
		return os.Rename(f.kept, f.path) == nil
	default:
		return os.Remove(f.path) == nil
	}
}

// keptPrefix starts the name of a journal that a failed rollback leaves in
// DIR for the user (RemoveLeftovers leaves it alone).
const keptPrefix = ".udtc-kept-"

// close removes the journal's directory: the files it keeps are not
// needed once the commit is done or taken back.
func (j *journal) close() {
	if j.dir != "" {
		os.RemoveAll(j.dir)
	}
}

// producedAs returns a test of whether the file st at path p, which the
// marker lists but this run did not produce under that name, is one the run
// produced under another (staged, by slash path): on a case-insensitive
// file system (macOS, Windows) a namespace whose case changed
// ("Contoso.Apps" to "contoso.apps") names the new file by the old path
// too, and removing the old path would remove the new file.
func (s *Stager) producedAs(staged []stagedFile) func(st fs.FileInfo, p string) bool {
	var folded map[string][]string
	return func(st fs.FileInfo, p string) bool {
		if folded == nil {
			folded = make(map[string][]string, len(staged))
			for _, sf := range staged {
				k := strings.ToLower(sf.entry.path)
				folded[k] = append(folded[k], sf.entry.path)
			}
		}
		for _, q := range folded[strings.ToLower(p)] {
			if qs, err := os.Stat(filepath.Join(s.dir, filepath.FromSlash(q))); err == nil && os.SameFile(st, qs) {
				return true
			}
		}
		return false
	}
}

// moveNewDirs puts in place, each with one rename, the staged directories
// whose destination does not exist yet: all that such a directory holds is
// new, so it can move whole (a first gen into an empty --out renames one
// directory per target instead of every file, and makes no directory
// twice). It returns the destination directories now in place, moved ones
// and those below them, whose files need no rename of their own, and the
// moves in the order made (undoMoves takes them back; on an error, those
// made before it). Every destination is
// looked at before anything moves, so a file where a directory must go
// fails the commit with DIR as it was.
func (s *Stager) moveNewDirs() (map[string]bool, [][2]string, error) {
	// The directories of the renamed files and their parents below DIR,
	// each once, parents first.
	var rels []string
	for _, sf := range s.staged {
		if sf.tmp == "" {
			continue
		}
		rel, err := filepath.Rel(s.dir, filepath.Dir(sf.path))
		if err != nil {
			return nil, nil, err
		}
		for ; rel != "."; rel = filepath.Dir(rel) {
			rels = append(rels, rel)
		}
	}
	slices.Sort(rels)
	inPlace := map[string]bool{}
	var moves [][2]string // stage directory, destination
	for _, rel := range slices.Compact(rels) {
		dst := filepath.Join(s.dir, rel)
		if inPlace[filepath.Dir(dst)] {
			inPlace[dst] = true
			continue
		}
		st, err := os.Stat(dst) // a symbolic link to a directory is one (as for MkdirAll)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			moves = append(moves, [2]string{filepath.Join(s.stageDir, rel), dst})
			inPlace[dst] = true
		case err != nil:
			return nil, nil, err
		case !st.IsDir():
			return nil, nil, &fs.PathError{Op: "mkdir", Path: dst, Err: errors.New("not a directory")}
		}
	}
	for i, m := range moves {
		if err := os.Rename(m[0], m[1]); err != nil {
			return nil, moves[:i], err
		}
	}
	return inPlace, moves, nil
}

// undoMoves moves directories moveNewDirs moved back into the stage, last
// first, so that abort removes them with it (best effort: the commit is
// failing already).
func undoMoves(moves [][2]string) (failed []string) {
	for _, m := range slices.Backward(moves) {
		if os.Rename(m[1], m[0]) != nil {
			failed = append(failed, m[1])
		}
	}
	return failed
}

// Abort removes the stage directory and the parents of DIR this run made
// (only those left empty). It does nothing after a commit that returned
// nil, or a second time.
func (s *Stager) Abort() {
	s.dirMu.Lock()
	defer s.dirMu.Unlock()
	if s.done {
		return
	}
	s.done = true
	if s.stageDir != "" {
		os.RemoveAll(s.stageDir)
	}
	for _, d := range slices.Backward(s.made) {
		os.Remove(d)
	}
}

// parallel calls do(i) for every i below n on the goroutines of the disk
// writes: twice as many as cores, as the calls mostly wait for the file
// system.
func parallel(n int, do func(i int)) { par.EachOn(2*runtime.GOMAXPROCS(0), n, do) }

// removeEmptyParents removes dir and its parents below root while they are
// empty.
func removeEmptyParents(root, dir string) {
	root = filepath.Clean(root)
	for dir != root && strings.HasPrefix(dir, root) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
