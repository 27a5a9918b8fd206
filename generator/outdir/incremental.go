package outdir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/atomicfile"
	"github.com/udtc/udtc/internal/naming"
)

// Run is one gen run into an output directory: its inputs, what it must
// redo, and what it records for the next run (Save).
//
// A run is incremental when the last run into the directory used the same
// options (Inputs.Options), left files that are still as it wrote them,
// and only some namespaces' manifests changed since: it compiles the
// manifests of those namespaces (Compiles), emits only them, keeps the
// files of the others (Keeps) and their diagnostics (Diagnostics). What it
// writes is what a run of everything would write. Accept turns it into a
// run of everything when the changed namespaces reach past themselves: a
// namespace or type added, renamed or removed, a reference into another
// namespace, a manifest moved between namespaces.
type Run struct {
	dir  string
	in   *Inputs
	prev incState
	// dirty is nil for a run of everything, else the lower-cased
	// namespaces to redo; changed holds the inputs new or changed since
	// the last run.
	dirty   map[string]bool
	changed map[string]bool
	owners  map[string]string // path segment naming a namespace → lower-cased namespace

	// lastCache is the last run's gen cache: the source of each Go file
	// it wrote (FormatGo). goSources are this run's, by path; mu guards
	// them, which FormatGo's callers fill at once.
	lastCache genCache
	mu        sync.Mutex
	goSources map[string]string

	next incState
}

// incState is what a run records in the user cache for the next one.
type incState struct {
	Options     string                  `json:"options"`
	Inputs      map[string]incInput     `json:"inputs"`     // by path
	Namespaces  map[string]incNamespace `json:"namespaces"` // by lower-cased name
	Diagnostics diag.List               `json:"diagnostics"`
}

type incInput struct {
	Sum       string `json:"sum"`
	Namespace string `json:"namespace,omitempty"` // lower-cased; "" when it declares none
}

type incNamespace struct {
	Name  string   `json:"name"`
	Types []string `json:"types"` // sorted
}

// statePath is where the run into dir keeps its incState.
func statePath(dir string) string {
	if p := cachePath(dir); p != "" {
		return p + ".state"
	}
	return ""
}

// Plan returns the run of in into dir: incremental when allowed (no
// --force, --check or single Bicep extension) and the last run's record
// permits it, else a run of everything.
func Plan(dir string, in *Inputs, allowed bool) *Run {
	r := &Run{dir: dir, in: in}
	if !allowed || !r.load() {
		return r
	}
	r.changed = map[string]bool{}
	r.dirty = map[string]bool{}
	seen := map[string]bool{}
	for i, input := range in.List {
		seen[input.Path] = true
		prev, ok := r.prev.Inputs[input.Path]
		if ok && prev.Sum == in.Sums[i] {
			continue
		}
		r.changed[input.Path] = true
		if prev.Namespace != "" {
			r.dirty[prev.Namespace] = true
		}
	}
	for p, prev := range r.prev.Inputs {
		if !seen[p] && prev.Namespace != "" {
			r.dirty[prev.Namespace] = true
		}
	}
	if len(r.changed) == 0 && len(r.dirty) == 0 || len(r.dirty) >= len(r.prev.Namespaces) || !r.ownersKnown() {
		r.dirty, r.changed = nil, nil
	}
	return r
}

// load reads the last run's record and checks that it applies: same
// options, and every file it listed as it left it.
func (r *Run) load() bool {
	p := statePath(r.dir)
	if p == "" {
		return false
	}
	b, err := os.ReadFile(p)
	var prev incState
	if err != nil || json.Unmarshal(b, &prev) != nil || prev.Options != r.in.Options {
		return false
	}
	c, ok := readGenCache(r.dir)
	if !ok {
		return false
	}
	if _, ok := outputsAsLeft(r.dir, c); !ok {
		return false // nothing of the last run is kept through this one
	}
	r.prev, r.lastCache = prev, c
	return true
}

// ownersKnown maps the spellings of every namespace in output paths (as
// written for the registration documents and the site, the Bicep extension
// and docs name, the Go directory) to the namespace; false when two
// namespaces share one, so paths would not say whose they are.
func (r *Run) ownersKnown() bool {
	r.owners = map[string]string{}
	for key, ns := range r.prev.Namespaces {
		for _, s := range slices.Compact([]string{ns.Name, naming.BicepExtension(ns.Name), naming.GoPackageDir(ns.Name)}) {
			if other, ok := r.owners[s]; ok && other != key {
				return false
			}
			r.owners[s] = key
		}
	}
	return true
}

// Incremental reports whether the run redoes only some namespaces. The
// query methods (Compiles, Keeps, Previous) treat a nil Run as a run of
// everything.
func (r *Run) Incremental() bool { return r != nil && r.dirty != nil }

// Compiles reports whether the run compiles the input at path: every
// input for a run of everything, else the new and changed ones and those
// of the namespaces to redo (generator.Options.Only).
func (r *Run) Compiles(path string) bool {
	return !r.Incremental() || r.changed[path] || r.dirty[r.prev.Inputs[path].Namespace]
}

// Accept records the compiled catalog of the run. For an incremental run
// it returns false, and the run becomes a run of everything (compile
// again, without Compiles), when cat is nil (the compile found errors:
// those of everything are reported) or reaches past the namespaces
// redone: see Run.
func (r *Run) Accept(cat *model.Catalog) bool {
	if r.dirty != nil && !r.contained(cat) {
		r.dirty, r.changed = nil, nil
		return false // the compile of everything takes what is left
	}
	clear(r.in.contents) // what the compile did not take is not needed again
	if cat == nil {
		return true // errors: nothing is written or recorded
	}
	r.next = incState{Options: r.in.Options, Inputs: map[string]incInput{}, Namespaces: map[string]incNamespace{}}
	declared := map[string]string{}
	for _, p := range cat.Providers {
		key := strings.ToLower(p.Namespace)
		r.next.Namespaces[key] = incNamespace{Name: p.Namespace, Types: typeNames(p)}
		for _, f := range p.Files {
			declared[f] = key
		}
	}
	for i, in := range r.in.List {
		ns, ok := declared[in.Path]
		if !ok && r.dirty != nil && !r.Compiles(in.Path) {
			ns = r.prev.Inputs[in.Path].Namespace
		}
		r.next.Inputs[in.Path] = incInput{Sum: r.in.Sums[i], Namespace: ns}
	}
	for key, ns := range r.prev.Namespaces {
		if r.dirty != nil && !r.dirty[key] {
			r.next.Namespaces[key] = ns
		}
	}
	return true
}

// contained reports whether cat, compiled from the namespaces to redo, is
// exactly those namespaces with the types they had, referring to no type
// outside them.
func (r *Run) contained(cat *model.Catalog) bool {
	if cat == nil || len(cat.Providers) != len(r.dirty) {
		return false
	}
	for _, p := range cat.Providers {
		key := strings.ToLower(p.Namespace)
		prev, ok := r.prev.Namespaces[key]
		if !r.dirty[key] || !ok || prev.Name != p.Namespace || !slices.Equal(prev.Types, typeNames(p)) {
			return false
		}
		for _, t := range p.Types {
			for _, v := range t.APIVersions {
				inside := true
				model.Walk(v.Schema, func(s *model.Schema) bool {
					for _, full := range referenceTypes(s) {
						ns, _, _ := strings.Cut(full, "/")
						inside = inside && r.dirty[strings.ToLower(ns)]
					}
					return inside
				})
				if !inside {
					return false
				}
			}
		}
	}
	return true
}

func referenceTypes(s *model.Schema) []string {
	if s.Reference == nil {
		return nil
	}
	return s.Reference.Types
}

func typeNames(p *model.Provider) []string {
	names := make([]string, len(p.Types))
	for i, t := range p.Types {
		names[i] = t.Name
	}
	slices.Sort(names)
	return names
}

// owner returns the lower-cased namespace whose file the output path p is
// (the first path segment below the target's directory that spells a
// namespace, extension aside), or "" for a file of no namespace.
func (r *Run) owner(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if i == 0 {
			continue
		}
		if i == len(segs)-1 {
			s = strings.TrimSuffix(s, path.Ext(s))
		}
		if ns, ok := r.owners[s]; ok {
			return ns
		}
	}
	return ""
}

// Keeps reports whether an incremental run keeps the listed file p of a
// target it runs but did not produce: a file of a namespace it did not
// redo, or of none (Options.Keep). A run of everything keeps nothing.
func (r *Run) Keeps(target, p string) bool {
	if !r.Incremental() {
		return false
	}
	ns := r.owner(p)
	return ns == "" || !r.dirty[ns]
}

// Previous returns the file p of the output directory as the last run
// left it when the run is incremental, else nil: the site merges the
// namespaces it redoes into the home page of the last run.
func (r *Run) Previous(p string) []byte {
	if !r.Incremental() {
		return nil
	}
	b, _ := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(p)))
	return b
}

// FormatGo is goclient.Options.Format for the run. gofmt is most of a Go
// file's cost, and the version packages of a namespace an incremental run
// redoes are mostly as they were: a file whose source is the one the last
// run formatted at the same path is answered with that run's file, which
// Plan found as the run left it. Every other file is formatted. Either
// way the source's hash is recorded for the next run (goSource). A nil Run
// formats.
func (r *Run) FormatGo(path string, src []byte, format func([]byte) ([]byte, error)) ([]byte, error) {
	if r == nil {
		return format(src)
	}
	sum := sha256.Sum256(src)
	key := hex.EncodeToString(sum[:16]) // 128 bits tell sources apart
	var out []byte
	if r.Incremental() && r.lastCache.stats[path].source == key {
		out = r.Previous(path)
	}
	if out == nil {
		var err error
		if out, err = format(src); err != nil {
			return nil, err
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.goSources == nil {
		r.goSources = map[string]string{}
	}
	r.goSources[path] = key
	return out, nil
}

// goSource is the source hash of the Go file at path as the run leaves it
// (SaveCache): FormatGo's, or the last run's for a file it kept.
func (r *Run) goSource(path string) string {
	if s, ok := r.goSources[path]; ok {
		return s
	}
	if r.Keeps("go", path) {
		return r.lastCache.stats[path].source
	}
	return ""
}

// Diagnostics returns the run's diagnostics, sorted: fresh, those of what
// it compiled and emitted, and for an incremental run the last run's of
// the inputs it did not compile. It records them for the next run.
func (r *Run) Diagnostics(fresh diag.List) diag.List {
	all := slices.Clone(fresh)
	if r.dirty != nil {
		for _, d := range r.prev.Diagnostics {
			if d.Span.File == "" || !r.Compiles(d.Span.File) {
				all = append(all, d)
			}
		}
	}
	all = all.Sorted()
	r.next.Diagnostics = all
	return all
}

// Save records the run for the next one: its key and the state of the
// files it left (UpToDate), and what it compiled (Plan). Best effort, like
// SaveCache.
func (r *Run) Save() {
	SaveCache(r.dir, r.in.Key, r.goSource)
	p := statePath(r.dir)
	if p == "" || r.next.Inputs == nil {
		return
	}
	var b bytes.Buffer
	if json.NewEncoder(&b).Encode(r.next) == nil {
		_ = atomicfile.WriteFile(p, b.Bytes(), 0o644)
	}
}

// Inputs are the inputs of a gen run with each file's SHA-256, the key of
// the options (Options) and of everything (Key, see InputKey).
type Inputs struct {
	List    []generator.Input
	Sums    []string
	Options string
	Key     string

	// contents are the bytes ReadInputs hashed, by List's index, until
	// the compile takes them (Take); index maps a path to its index.
	contents [][]byte
	index    map[string]int
}

// Take returns the bytes of the input at path as ReadInputs read (and
// hashed) them, and forgets them, so that they are garbage once the
// compile has parsed them; ok is false when they were not kept (a file
// over the manifest size limit) or were taken already. The compile's
// workers may call it at once for different paths
// (generator.Options.Contents).
func (in *Inputs) Take(path string) (data []byte, ok bool) {
	i, found := in.index[path]
	if !found || in.contents[i] == nil {
		return nil, false
	}
	data, in.contents[i] = in.contents[i], nil
	return data, true
}

// CompileOptions are the compiler's options for the run: its inputs
// (Inputs.List, walked once), those it compiles (Compiles) and the bytes
// read already (Inputs.Take).
func (r *Run) CompileOptions() generator.Options {
	return generator.Options{Inputs: r.in.List, Only: r.Compiles, Contents: r.in.Take}
}
