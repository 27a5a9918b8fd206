package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/bench/harness"
	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/internal/par"
)

// floorWork is the floor of one catalog: the two parts of `udtc gen` that
// no change to udtc removes while it decodes YAML with go.yaml.in/yaml/v3
// and writes its Go client with jennifer (both fixed by the design):
// decoding the catalog's manifests into YAML nodes, and go/format over the
// Go that gen wrote (jennifer's Render formats every file it renders;
// formatting gofmt'ed text, as here, is the cheaper case). Their sum is a
// lower bound of gen's wall time with every target, before anything is
// checked, rendered or written: the shapes section judges each cold gen by
// its ratio to the floor of the same catalog, measured in the harness's
// own process on every core, alternating with the gens it judges
// (shapes.go, coldGen).
type floorWork []floorPart

// floorPart is one part of the floor: do over each of files. err is why
// the part cannot be measured (its files could not be read).
type floorPart struct {
	name  string
	files [][]byte
	err   error
	do    func([]byte) error
}

// newFloorWork reads the manifests of catalog and the Go files gen wrote
// to out.
func newFloorWork(catalog, out string) floorWork {
	yamlFiles, yerr := readManifests(catalog)
	goFiles, gerr := readGoFiles(out)
	w := floorWork{
		{"yaml.v3: decode every manifest into nodes", yamlFiles, yerr, decodeYAML},
		{"go/format of the generated Go", goFiles, gerr, func(src []byte) error { _, err := format.Source(src); return err }},
	}
	for i := range w {
		if w[i].err == nil && len(w[i].files) == 0 {
			w[i].err = errors.New("no files")
		}
	}
	return w
}

// floorRun is one measurement of a floorWork: each part's wall time, or
// why it failed.
type floorRun struct {
	walls []time.Duration
	errs  []error
}

// run measures each part once, over every file on every core (par.EachErr).
func (w floorWork) run() floorRun {
	r := floorRun{walls: make([]time.Duration, len(w)), errs: make([]error, len(w))}
	for i, p := range w {
		if r.errs[i] = p.err; p.err != nil {
			continue
		}
		runtime.GC()
		start := time.Now()
		r.errs[i] = par.EachErr(len(p.files), func(j int) error { return p.do(p.files[j]) })
		r.walls[i] = time.Since(start)
	}
	return r
}

// sum is the floor of one run: the sum of its parts, 0 when one failed.
func (r floorRun) sum() time.Duration {
	var s time.Duration
	for i, w := range r.walls {
		if r.errs[i] != nil {
			return 0
		}
		s += w
	}
	return s
}

// floor writes the floor table's rows of w for runs, labelled profile:
// each part's median wall and their sum, which it returns (0 when a part
// failed, its error in its row).
func (b *bench) floor(profile string, w floorWork, runs []floorRun) time.Duration {
	t := b.table("Floor of `udtc gen`", fmt.Sprintf("Two parts of `udtc gen` of the 1,000-type catalogs that no change to udtc can remove while YAML is decoded with go.yaml.in/yaml/v3 and the Go client is written with jennifer, whose Render runs go/format over every file: each measured in the harness's own process on all %d cores, over the catalog's manifests and over the Go files gen wrote, once after each cold gen of the catalog (gen, floor, gen, floor: the two see the same machine), medians of %d runs. Their sum is a lower bound of gen's wall time with every target, before anything is checked, rendered or written; the target is a cold gen within 4× of it, the median of each gen's ratio to the floor measured right after it.", runtime.GOMAXPROCS(0), len(runs)),
		"Profile", "Work", "Files", "Size", "Wall")
	var sum time.Duration
	for i, p := range w {
		size := 0
		for _, f := range p.files {
			size += len(f)
		}
		var walls []time.Duration
		var err error
		for _, r := range runs {
			if err = r.errs[i]; err != nil {
				break
			}
			walls = append(walls, r.walls[i])
		}
		switch {
		case p.err != nil:
			t.Rows = append(t.Rows, []string{profile, p.name, "—", "—", p.err.Error()})
			sum = -1
		case err != nil:
			t.Rows = append(t.Rows, []string{profile, p.name, num(len(p.files)), harness.MB(int64(size)), err.Error()})
			sum = -1
		default:
			wall := harness.Median(walls)
			t.Rows = append(t.Rows, []string{profile, p.name, num(len(p.files)), harness.MB(int64(size)), harness.Seconds(wall)})
			if sum >= 0 {
				sum += wall
			}
		}
	}
	if sum <= 0 {
		return 0
	}
	t.Rows = append(t.Rows, []string{profile, "Sum: the least wall time of `udtc gen` of all targets", "", "", harness.Seconds(sum)})
	return sum
}

// readManifests reads the YAML files gen takes as inputs in dir
// (generator.Expand's; JSON manifests are not decoded with yaml.v3).
func readManifests(dir string) ([][]byte, error) {
	inputs, err := generator.Expand([]string{dir})
	if err != nil {
		return nil, err
	}
	inputs = slices.DeleteFunc(inputs, func(in generator.Input) bool { return strings.HasSuffix(in.Path, ".json") })
	return readAll(len(inputs), func(i int) string { return inputs[i].Path })
}

// readGoFiles reads the .go files below dir, in path order.
func readGoFiles(dir string) ([][]byte, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return readAll(len(paths), func(i int) string { return paths[i] })
}

// readAll reads the n files that path names.
func readAll(n int, path func(int) string) ([][]byte, error) {
	out := make([][]byte, n)
	for i := range out {
		var err error
		if out[i], err = os.ReadFile(path(i)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeYAML decodes every document of src into YAML nodes, as the
// manifest loader does before it builds the model.
func decodeYAML(src []byte) error {
	d := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var n yaml.Node
		if err := d.Decode(&n); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}
