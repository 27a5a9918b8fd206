package main

import (
	"bufio"
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

	"github.com/urfave/cli/v2"
	"golang.org/x/mod/module"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/docs"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/emit/registration"
	"github.com/udtc/udtc/generator/model"
)

// genFlags are the flags of `udtc gen`.
type genFlags struct {
	compileFlags
	out              string
	targets          cli.StringSlice
	extensionName    string
	extensionVersion string
	goImportPrefix   string
	check            bool
	force            bool
	w                watchFlags // watch.go
}

// emitter is one output target: the composition root lists them all.
type emitter struct {
	name string
	emit func(cat *model.Catalog, f *genFlags) ([]emit.File, diag.List, error)
}

var emitters = []emitter{
	{"bicep", func(cat *model.Catalog, f *genFlags) ([]emit.File, diag.List, error) {
		return bicep.Emit(cat, bicep.Options{ExtensionName: f.extensionName, ExtensionVersion: f.extensionVersion})
	}},
	{"go", func(cat *model.Catalog, f *genFlags) ([]emit.File, diag.List, error) {
		return goclient.Emit(cat, goclient.Options{ImportPrefix: f.goImportPrefix})
	}},
	{"docs", func(cat *model.Catalog, f *genFlags) ([]emit.File, diag.List, error) {
		return docs.Emit(cat, docs.Options{ExtensionName: f.extensionName, ExtensionVersion: f.extensionVersion})
	}},
	{"registration", func(cat *model.Catalog, _ *genFlags) ([]emit.File, diag.List, error) {
		return registration.Emit(cat, registration.Options{})
	}},
	{"site", siteFiles}, // site.go: the registry's catalog pages as static files
}

// emitterNames names emitters, by default all of them.
func emitterNames(list ...emitter) []string {
	if len(list) == 0 {
		list = emitters
	}
	names := make([]string, len(list))
	for i, e := range list {
		names[i] = e.name
	}
	return names
}

func genCommand(e *env) *cli.Command {
	f := &genFlags{}
	return &cli.Command{
		Name:      "gen",
		Usage:     "generate the Bicep extension, Go client and docs from manifests",
		ArgsUsage: "PATH...",
		Description: "Compiles the manifests (nothing is written when they have errors) and writes the outputs\n" +
			"under --out. Files whose content is unchanged are not rewritten; files that an earlier run of\n" +
			"a selected target wrote and this run no longer produces are removed (other targets' files are\n" +
			"left alone). --out/.udtc-generated lists what was written. Directories holding .udtc-generated\n" +
			"are never read as inputs. --check writes nothing and exits 1 when the output directory is not\n" +
			"up to date.",
		Flags: append(append(f.flags(),
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Value: "out", Usage: "output directory", Destination: &f.out},
			&cli.StringSliceFlag{Name: "target", Usage: "targets to generate: " + strings.Join(emitterNames(), ", ") + " (default: all)", Destination: &f.targets},
			&cli.StringFlag{Name: "extension-name", Usage: "put every namespace into one Bicep extension of this name (default: one per namespace)", Destination: &f.extensionName},
			&cli.StringFlag{Name: "extension-version", Value: bicep.DefaultVersion, Usage: "Bicep extension version", Destination: &f.extensionVersion},
			&cli.StringFlag{Name: "go-import-prefix", Usage: "Go import path of --out (default: from the go.mod above --out, else " + fallbackImportPrefix + ")", Destination: &f.goImportPrefix},
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 when --out is not up to date", Destination: &f.check},
			&cli.BoolFlag{Name: "force", Usage: "regenerate even when the inputs are unchanged since the last run", Destination: &f.force},
		), f.w.flags()...),
		Action: func(c *cli.Context) error { return f.run(c, e) },
	}
}

// validate checks the flag values before anything is read: a bad value is
// a usage error that names the flag.
func (f *genFlags) validate() error {
	if err := f.compileFlags.validate(); err != nil {
		return err
	}
	if f.extensionName != "" {
		if p := bicep.ExtensionNameProblem(f.extensionName); p != "" {
			return usageErrorf("--extension-name %q %s", f.extensionName, p)
		}
	}
	if strings.TrimSpace(f.extensionVersion) == "" {
		return usageErrorf("--extension-version must not be empty (default %s)", bicep.DefaultVersion)
	}
	if f.goImportPrefix != "" {
		if err := module.CheckImportPath(f.goImportPrefix); err != nil {
			return usageErrorf("--go-import-prefix %q is not a Go import path: %v", f.goImportPrefix, errors.Unwrap(err))
		}
	}
	if strings.TrimSpace(f.out) == "" {
		return usageErrorf("--out must not be empty")
	}
	return nil
}

func (f *genFlags) run(c *cli.Context, e *env) error {
	if err := f.loadProject(); err != nil {
		return err
	}
	f.fromProject(c)
	if err := f.validate(); err != nil {
		return err
	}
	selected, err := f.selected()
	if err != nil {
		return err
	}
	if slices.ContainsFunc(selected, func(em emitter) bool { return em.name == "go" || em.name == "site" }) && f.goImportPrefix == "" {
		prefix, found := importPrefixFor(f.out)
		if !found {
			fmt.Fprintf(e.stderr, "note: no go.mod above %s: the Go client imports itself as %s (set --go-import-prefix to the import path of %s)\n", f.out, prefix, f.out)
		}
		f.goImportPrefix = prefix
	}
	if f.w.watch && f.check {
		return usageErrorf("--watch and --check do not go together")
	}
	return f.w.loop(c.Context, e, f.watchedPaths(c.Args().Slice(), f.out), func() error { return f.generate(c, e, selected) }, func(failed bool) {
		if failed && f.w.watch {
			fmt.Fprintf(e.stderr, "%s keeps the output of the last good run\n", f.out)
		}
	})
}

// generate is one run of gen: compile, emit, write what changed.
func (f *genFlags) generate(c *cli.Context, e *env, selected []emitter) error {
	var err error
	paths := c.Args().Slice()
	if len(paths) == 0 {
		if paths, err = f.inputs(f.out); err != nil {
			return err
		}
	}
	inputs, err := generator.Expand(paths)
	if err != nil {
		return fail(exitUsage, err)
	}
	key, err := inputKey(inputs, append(emitterNames(selected...), f.extensionName, f.extensionVersion, f.goImportPrefix, strconv.FormatBool(f.strict), f.proj.Key())...)
	if err != nil {
		return fail(exitUsage, err)
	}
	if !f.force {
		if n, ok := upToDate(f.out, key); ok {
			fmt.Fprintf(e.stderr, "%s is up to date: inputs unchanged since the last run, nothing written (%s; --force regenerates)\n", f.out, plural(n, "file"))
			return nil
		}
	}
	// One report: the compiler's diagnostics and the emitters' together
	// (JSON and SARIF consumers read exactly one document).
	cat, diags, err := f.collect(c, paths)
	if err != nil {
		return err
	}
	var files []genFile
	if !diags.HasErrors() {
		var more diag.List
		files, more, err = runEmitters(cat, f, selected)
		// udtc.yaml's rule settings and --strict apply to the emitters' too.
		diags = append(diags, f.severities(more)...).Sorted()
	}
	if len(diags) > 0 {
		if perr := printDiagnostics(e, f.format, diags); perr != nil {
			return fail(exitUsage, perr)
		}
	}
	if err != nil {
		return fail(exitFail, err)
	}
	if diags.HasErrors() {
		return fail(exitFail, nil)
	}
	res, err := sync2disk(f.out, files, emitterNames(selected...), f.check)
	if err != nil {
		return fail(exitUsage, err)
	}
	if !f.check {
		saveGenCache(f.out, key)
	}
	if f.check {
		if res.changed() {
			for _, p := range res.stale {
				fmt.Fprintf(e.stderr, "out of date: %s\n", filepath.Join(f.out, p))
			}
			return fail(exitFail, fmt.Errorf("%s is not up to date: run udtc gen without --check", f.out))
		}
		fmt.Fprintf(e.stderr, "%s is up to date (%s)\n", f.out, plural(res.unchanged, "file"))
		return nil
	}
	if res.changed() {
		fmt.Fprintf(e.stderr, "wrote %s to %s (%d unchanged, %d removed)\n", plural(res.written, "file"), f.out, res.unchanged, res.removed)
	} else {
		fmt.Fprintf(e.stderr, "%s is up to date: nothing written (%s unchanged)\n", f.out, plural(res.unchanged, "file"))
	}
	return nil
}

// selected returns the emitters named by --target, in table order.
func (f *genFlags) selected() ([]emitter, error) {
	names := map[string]bool{}
	for _, v := range f.targets.Value() {
		for _, n := range strings.Split(v, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names[n] = true
			}
		}
	}
	if len(names) == 0 || names["all"] {
		return emitters, nil
	}
	var out []emitter
	for _, em := range emitters {
		if names[em.name] {
			out = append(out, em)
			delete(names, em.name)
		}
	}
	for n := range names {
		return nil, usageErrorf("unknown --target %q: choose from %s", n, strings.Join(emitterNames(), ", "))
	}
	return out, nil
}

// genFile is an emitted file and the target that produced it.
type genFile struct {
	target string
	emit.File
}

// runEmitters runs the selected emitters concurrently and merges their files
// (sorted by path) and diagnostics deterministically.
func runEmitters(cat *model.Catalog, f *genFlags, selected []emitter) ([]genFile, diag.List, error) {
	files := make([][]emit.File, len(selected))
	diags := make([]diag.List, len(selected))
	errs := make([]error, len(selected))
	var wg sync.WaitGroup
	for i, em := range selected {
		wg.Go(func() {
			files[i], diags[i], errs[i] = em.emit(cat, f)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s: %w", em.name, errs[i])
			}
		})
	}
	wg.Wait()
	var all []genFile
	var ds diag.List
	for i, em := range selected {
		for _, file := range files[i] {
			all = append(all, genFile{em.name, file})
		}
		ds = append(ds, diags[i]...)
	}
	slices.SortFunc(all, func(a, b genFile) int { return strings.Compare(a.Path, b.Path) })
	return all, ds.Sorted(), errors.Join(errs...)
}

// fallbackImportPrefix is the Go import path of --out when no go.mod is
// found above it (gen says so).
const fallbackImportPrefix = "example.com/udtc/gen"

// importPrefixFor derives the Go import path of dir from the nearest go.mod
// above it; found is false when there is none and the placeholder
// fallbackImportPrefix is returned.
func importPrefixFor(dir string) (prefix string, found bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fallbackImportPrefix, false
	}
	for d := abs; ; d = filepath.Dir(d) {
		if mod := modulePath(filepath.Join(d, "go.mod")); mod != "" {
			rel, err := filepath.Rel(d, abs)
			if err != nil || rel == "." {
				return mod, true
			}
			return mod + "/" + filepath.ToSlash(rel), true
		}
		if filepath.Dir(d) == d {
			return fallbackImportPrefix, false
		}
	}
}

func modulePath(gomod string) string {
	b, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// syncResult counts what sync2disk did (or, with check, would do).
type syncResult struct {
	written, unchanged, removed int
	stale                       []string // paths that differ, are missing or would be removed
}

func (r syncResult) changed() bool { return r.written > 0 || r.removed > 0 }

// sync2disk makes dir hold files, produced by the targets named: unchanged
// files are left alone (not even their timestamps change), changed ones are
// replaced atomically, and files that the marker lists under one of these
// targets but this run did not produce are removed. Files of other targets
// are neither removed nor forgotten; entries of no known target (an older
// marker) are removed only when every target runs. The marker then lists
// the files. With check nothing is written.
func sync2disk(dir string, files []genFile, targets []string, check bool) (syncResult, error) {
	var res syncResult
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(dir, filepath.FromSlash(f.Path))
	}
	// The directories are made first, once each, rather than by a
	// MkdirAll per file; a file in a directory this run created is new,
	// so it is written without first reading it.
	var created map[string]bool
	if !check {
		var err error
		if created, err = makeDirs(dir, paths); err != nil {
			return res, err
		}
	}
	differs := make([]bool, len(files))
	errs := make([]error, len(files))
	parallel(len(files), func(i int) {
		if !created[filepath.Dir(paths[i])] {
			old, err := os.ReadFile(paths[i])
			if err == nil && bytes.Equal(old, files[i].Data) {
				return
			}
		}
		differs[i] = true
		if !check {
			errs[i] = replaceFile(paths[i], files[i].Data, 0o644)
		}
	})
	if err := errors.Join(errs...); err != nil {
		return res, err
	}
	var next genMarker
	produced := make(map[string]bool, len(files))
	for i, f := range files {
		produced[f.Path] = true
		next.files = append(next.files, newMarkerEntry(f))
		if differs[i] {
			res.written++
			res.stale = append(res.stale, f.Path)
		} else {
			res.unchanged++
		}
	}
	running := map[string]bool{}
	for _, t := range targets {
		running[t] = true
	}
	everyTarget := len(targets) == len(emitters)
	for _, prev := range readMarker(dir).files {
		p := prev.path
		if produced[p] {
			continue
		}
		if !running[prev.target] && (prev.target != "" || !everyTarget) {
			produced[p] = true
			next.files = append(next.files, prev) // another target's file
			continue
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if _, err := os.Stat(full); err != nil {
			continue
		}
		res.removed++
		res.stale = append(res.stale, p)
		if !check {
			if err := os.Remove(full); err != nil {
				return res, err
			}
			removeEmptyParents(dir, filepath.Dir(full))
		}
	}
	if !check {
		sortEntries(next.files)
		if err := writeIfChanged(filepath.Join(dir, emit.OutputMarker), next.encode()); err != nil {
			return res, err
		}
	}
	return res, nil
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

// makeDirs makes root and the directories of paths (files below root),
// parents before children, and returns those that did not exist before.
func makeDirs(root string, paths []string) (map[string]bool, error) {
	root = filepath.Clean(root)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	seen := map[string]bool{root: true}
	var byDepth [][]string
	for _, p := range paths {
		for d := filepath.Dir(p); !seen[d] && len(d) > len(root); d = filepath.Dir(d) {
			seen[d] = true
			depth := strings.Count(d[len(root):], string(filepath.Separator))
			for len(byDepth) <= depth {
				byDepth = append(byDepth, nil)
			}
			byDepth[depth] = append(byDepth[depth], d)
		}
	}
	created := map[string]bool{}
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
		if err := errors.Join(errs...); err != nil {
			return nil, err
		}
		for i, d := range dirs {
			if made[i] {
				created[d] = true
			}
		}
	}
	return created, nil
}

// writeIfChanged writes data to path unless the file already holds it.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return writeAtomic(path, data)
}

// writeAtomic writes data to path with mode 0644 (see writeAtomicMode).
func writeAtomic(path string, data []byte) error { return writeAtomicMode(path, data, 0o644) }

// writeAtomicMode writes data to path, creating its directory, through a
// temporary file in the same directory and a rename, so a reader never sees
// half a file; the file gets mode perm.
func writeAtomicMode(path string, data []byte, perm fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return replaceFile(path, data, perm)
}

// replaceFile is writeAtomicMode in a directory that exists.
func replaceFile(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".udtc-*")
	if err != nil {
		return err
	}
	// Chmod through the open file: no second lookup of its path.
	merr := tmp.Chmod(perm)
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(merr, werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func removeEmptyParents(root, dir string) {
	root = filepath.Clean(root)
	for dir != root && strings.HasPrefix(dir, root) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
