package generator

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/par"
)

// Options tune Compile.
type Options struct {
	// Strict turns every warning into an error.
	Strict bool
	// FilePrefix is put in front of every file name in spans (CompileFS
	// only), e.g. "HEAD~1:" for the files of a git revision.
	FilePrefix string
	// Only, when set, compiles only the inputs it accepts (their paths as
	// Expand lists them): an incremental gen compiles the namespaces
	// whose manifests changed (outdir.Run.Compiles).
	Only func(path string) bool
	// Contents, when set, returns the bytes of an input (its path as
	// Expand lists it) that the caller has read already, so that Compile
	// does not read the file again (gen reads every input once, to hash
	// it and to compile it: outdir.ReadInputs); ok false reads the file.
	// Compile only; CompileFS reads its file system.
	Contents func(path string) (data []byte, ok bool)
	// Inputs, when set, are the files to compile as Expand lists them for
	// paths, which the caller has expanded already (udtc check sizes the
	// collector's memory limit by them, gen hashes them): Compile does not
	// walk paths again. Compile only; CompileFS walks its file system.
	Inputs []Input
	// NoBaseProperties leaves Radius's base resource properties out of
	// every schema (check.Options.NoBase): for a Radius from before the
	// base resource manifest (radius-project/radius #12252) or none.
	NoBaseProperties bool
	// Radius checks as today's Radius does (check.Options.Radius): the
	// CLI's default (udtc.yaml `target: radius`). The zero value checks the
	// design's subset, udtc's extensions included, as udtc serve takes it.
	Radius bool
	// Lifecycle is udtc.yaml's lifecycle (project.Project.Lifecycle):
	// checked against the catalog and attached to its API versions
	// (check.ApplyLifecycle).
	Lifecycle []check.LifecycleDecl
	// Outline compiles for the diagnostics and the catalog's outline
	// (check.Options.Outline): every API version's Schema and Source are
	// nil. `udtc check` needs no more, and holds far less memory.
	Outline bool
	// NoSource compiles without each API version's Source, the schema as
	// registered (check.Options.NoSource): for the outputs made from the
	// model alone (gen's bicep, go and docs targets); the diagnostics are
	// the same.
	NoSource bool
	// Excerpts, when set, keeps the lines the diagnostics of each file
	// point at as the file is checked (diag.Excerpts.Keep), for printing
	// them (diag.TextOptions.Kept) without reading the files again.
	Excerpts *diag.Excerpts
	// Icons are the types' icons (project.Project.Icons): SVG text by
	// NAMESPACE/TYPE, set on the model's types (model.ResourceType.Icon);
	// a name no manifest declares is an error.
	Icons map[string]string
}

// Compile reads the manifests named by paths (files, or directories searched
// recursively as Expand describes), checks them and returns the catalog with
// its diagnostics, sorted. A file found in a directory that is clearly not a
// manifest (see manifest.IsManifest) is skipped with a note, or silently
// when it is a known project file (manifest.IsProjectFile); a file named in
// paths is always checked. The catalog is nil when any error diagnostic was
// found. The error is for usage and I/O failures only (a missing path, an
// unreadable file).
func Compile(ctx context.Context, paths []string, opts Options) (*model.Catalog, diag.List, error) {
	inputs := opts.Inputs
	if inputs == nil {
		var err error
		if inputs, err = Expand(paths); err != nil {
			return nil, nil, err
		}
	}
	read := readLimited
	if opts.Contents != nil {
		read = func(path string) ([]byte, error) {
			if data, ok := opts.Contents(path); ok {
				return data, nil
			}
			return readLimited(path)
		}
	}
	return compileInputs(ctx, inputs, read, opts)
}

// CompileFS is Compile over a file system other than the disk (a git
// revision, see generator/source): paths are slash-separated and relative to
// fsys's root, walked as ExpandFS describes. Spans name each file as
// opts.FilePrefix + its path in fsys.
func CompileFS(ctx context.Context, fsys fs.FS, paths []string, opts Options) (*model.Catalog, diag.List, error) {
	inputs, err := ExpandFS(fsys, paths)
	if err != nil {
		return nil, nil, err
	}
	read := func(path string) ([]byte, error) {
		data, err := readLimitedFrom(fsys, strings.TrimPrefix(path, opts.FilePrefix))
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
		}
		return data, nil
	}
	for i := range inputs {
		inputs[i].Path = opts.FilePrefix + inputs[i].Path
	}
	return compileInputs(ctx, inputs, read, opts)
}

func compileInputs(ctx context.Context, inputs []Input, read func(string) ([]byte, error), opts Options) (*model.Catalog, diag.List, error) {
	if opts.Only != nil {
		// A new list: inputs may be the caller's (Options.Inputs).
		var only []Input
		for _, in := range inputs {
			if opts.Only(in.Path) {
				only = append(only, in)
			}
		}
		inputs = only
	}
	results, diags, err := loadAndCheck(ctx, inputs, read, check.Options{NoBase: opts.NoBaseProperties, Radius: opts.Radius, Outline: opts.Outline, NoSource: opts.NoSource}, opts.Excerpts)
	if err != nil {
		return nil, nil, err
	}
	cat, more := check.Merge(results)
	diags = append(diags, more...)
	if cat != nil && len(opts.Lifecycle) > 0 {
		diags = append(diags, check.ApplyLifecycle(cat, opts.Lifecycle, opts.Only != nil)...)
	}
	if cat != nil && len(opts.Icons) > 0 {
		if unknown := applyIcons(cat, opts.Icons); len(unknown) > 0 && opts.Only == nil {
			return nil, nil, fmt.Errorf("udtc.yaml: icons: no manifest declares %s", strings.Join(unknown, ", "))
		}
	}
	if opts.Strict {
		diags = diags.Promote()
	}
	diags = diags.Sorted()
	if diags.HasErrors() {
		return nil, diags, nil
	}
	return cat, diags, nil
}

// InputBytes returns the size of the files inputs (Expand's) name, the sum
// of what os.Stat says: enough to size the collector's memory limit before
// compiling them (internal/gctune).
func InputBytes(inputs []Input) int64 {
	var n int64
	for _, in := range inputs {
		if st, err := os.Stat(in.Path); err == nil {
			n += st.Size()
		}
	}
	return n
}

// Input is one file Expand found.
type Input struct {
	Path string
	// Named is true when the file was named in paths rather than found by
	// walking a directory: it is checked even when it is not a manifest.
	Named bool
}

// Expand lists the input files named by paths: files as given, and the
// *.yaml, *.yml and *.json files below directories, sorted by path and
// without duplicates. The walk skips hidden directories, node_modules, and
// every directory holding emit.OutputMarker (the output of `udtc gen`, which
// is never an input: `udtc gen . --out out` must not read out/).
func Expand(paths []string) ([]Input, error) {
	return inputTree{
		stat:      os.Stat,
		walk:      filepath.WalkDir,
		isOutput:  isOutputDir,
		clean:     filepath.Clean,
		needFiles: true,
	}.expand(paths)
}

// ExpandFS is Expand over fsys: paths are slash-separated, relative to the
// root of fsys ("." for all of it), and the walk skips the same files.
func ExpandFS(fsys fs.FS, paths []string) ([]Input, error) {
	return inputTree{
		stat:     func(name string) (fs.FileInfo, error) { return fs.Stat(fsys, name) },
		walk:     func(root string, fn fs.WalkDirFunc) error { return fs.WalkDir(fsys, root, fn) },
		isOutput: func(dir string) bool { return isOutputDirFS(fsys, dir) },
		clean:    path.Clean,
	}.expand(paths)
}

// inputTree is the file tree Expand (the OS's) or ExpandFS (an fs.FS)
// lists inputs from.
type inputTree struct {
	stat     func(name string) (fs.FileInfo, error)
	walk     func(root string, fn fs.WalkDirFunc) error
	isOutput func(dir string) bool
	clean    func(name string) string
	// needFiles makes a directory holding no manifests an error.
	needFiles bool
}

func (t inputTree) expand(paths []string) ([]Input, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no manifest paths given")
	}
	var files []Input
	for _, p := range paths {
		st, err := t.stat(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", p, unwrapPath(err))
		}
		if !st.IsDir() {
			files = append(files, Input{Path: t.clean(p), Named: true})
			continue
		}
		if t.isOutput(p) {
			return nil, fmt.Errorf("%s is the output of udtc gen (it holds %s), not manifests", p, emit.OutputMarker)
		}
		before := len(files)
		err = t.walk(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if name != p && (skipDir(d.Name()) || t.isOutput(name)) {
					return fs.SkipDir
				}
				return nil
			}
			if isInput(d.Name()) {
				files = append(files, Input{Path: t.clean(name)})
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", p, unwrapPath(err))
		}
		if t.needFiles && len(files) == before {
			return nil, fmt.Errorf("%s holds no manifests (*.yaml, *.yml, *.json)", p)
		}
	}
	return sortInputs(files), nil
}

// skipDir reports the directories a walk never enters (besides output
// directories): hidden ones and node_modules.
func skipDir(name string) bool { return strings.HasPrefix(name, ".") || name == "node_modules" }

// isInput reports whether a file found by a walk is read: *.yaml, *.yml, *.json.
func isInput(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func isOutputDirFS(fsys fs.FS, dir string) bool {
	_, err := fs.Stat(fsys, path.Join(dir, emit.OutputMarker))
	return err == nil
}

// sortInputs sorts by path, a named file before the same file found by a
// walk, and keeps the first of each path.
func sortInputs(files []Input) []Input {
	slices.SortFunc(files, func(a, b Input) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Named == b.Named {
			return 0
		}
		if a.Named {
			return -1
		}
		return 1
	})
	return slices.CompactFunc(files, func(a, b Input) bool { return a.Path == b.Path })
}

// isOutputDir reports whether dir holds the marker of `udtc gen` output.
func isOutputDir(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, emit.OutputMarker))
	return err == nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

// loadAndCheck reads, parses and checks files concurrently, one worker per
// core, each taking a whole file through every step so its syntax tree is
// garbage as soon as the file is checked. Results keep the files' order.
// When excerpts is not nil it keeps the lines each file's diagnostics
// point at.
func loadAndCheck(ctx context.Context, files []Input, read func(string) ([]byte, error), opts check.Options, excerpts *diag.Excerpts) ([]*check.FileResult, diag.List, error) {
	results := make([]*check.FileResult, len(files))
	diags := make([]diag.List, len(files))
	errs := make([]error, len(files))
	patterns := &check.Patterns{}
	par.Each(len(files), func(i int) {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			return
		}
		data, err := read(files[i].Path)
		if err != nil {
			errs[i] = err
			return
		}
		doc, d := manifest.Load(files[i].Path, data)
		if doc != nil && !files[i].Named && !manifest.IsManifest(doc) {
			// Not a manifest: skipped, whatever Load said of it (a
			// Kubernetes file's several documents).
			if !manifest.IsProjectFile(files[i].Path) {
				diags[i].Add(manifest.NotManifest(doc))
			}
			return
		}
		diags[i] = d
		if doc != nil && !d.HasErrors() {
			results[i] = check.CheckFile(doc, patterns, opts)
		}
		if excerpts != nil {
			reported := d // the file indexed once, for both lists
			if results[i] != nil {
				reported = append(slices.Clip(d), results[i].Diagnostics()...)
			}
			excerpts.Keep(files[i].Path, data, reported)
		}
	})
	var all diag.List
	var checked []*check.FileResult
	for i := range files {
		if errs[i] != nil {
			return nil, nil, errs[i]
		}
		all = append(all, diags[i]...)
		if results[i] != nil {
			checked = append(checked, results[i])
		}
	}
	return checked, all, nil
}

// readLimitedFrom reads a file of fsys, stopping just past the size limit.
func readLimitedFrom(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, manifest.MaxFileSize+1))
}

// readLimited reads a file, stopping just past the size limit so a huge file
// is rejected without reading it whole.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	size := int64(512)
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		size = min(st.Size(), manifest.MaxFileSize) + 1
	}
	// Read into a buffer of the file's size (one allocation, as
	// os.ReadFile does), stopping just past the limit.
	lr := io.LimitReader(f, manifest.MaxFileSize+1)
	data := make([]byte, 0, size)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		var n int
		n, err = lr.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, unwrapPath(err))
	}
	return data, nil
}

// applyIcons sets each type's icon from icons (NAMESPACE/TYPE, ignoring
// case as the registry does) and returns the names no type of cat has.
func applyIcons(cat *model.Catalog, icons map[string]string) []string {
	found := map[string]bool{}
	for _, p := range cat.Providers {
		for _, t := range p.Types {
			for name, svg := range icons {
				if strings.EqualFold(name, t.FullName()) {
					t.Icon, found[name] = svg, true
				}
			}
		}
	}
	var unknown []string
	for _, name := range slices.Sorted(maps.Keys(icons)) {
		if !found[name] {
			unknown = append(unknown, name)
		}
	}
	return unknown
}
