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

// floor measures, in the harness's own process on every core, the two
// parts of `udtc gen` that no change to udtc removes while it decodes
// YAML with go.yaml.in/yaml/v3 and writes its Go client with jennifer
// (both fixed by the design): decoding the catalog's manifests into YAML
// nodes, and go/format over the Go that gen wrote (jennifer's Render
// formats every file it renders; formatting gofmt'ed text, as here, is
// the cheaper case). Their sum, which it returns (0 when either part
// failed), is a lower bound of gen's wall time with every target, before
// anything is checked, rendered or written: the shapes section judges
// each cold gen by its ratio to the floor of the same catalog, measured
// in the same run. Its rows go to the floor table, labelled profile.
func (b *bench) floor(profile, catalog, out string) time.Duration {
	t := b.table("Floor of `udtc gen`", fmt.Sprintf("Two parts of `udtc gen` of the 1,000-type catalogs that no change to udtc can remove while YAML is decoded with go.yaml.in/yaml/v3 and the Go client is written with jennifer, whose Render runs go/format over every file: each measured in the harness's own process on all %d cores (median of %d runs), over the catalog's manifests and over the Go files gen wrote, right after that catalog's gen. Their sum is a lower bound of gen's wall time with every target, before anything is checked, rendered or written; the target is a cold gen within 4× of it.", runtime.GOMAXPROCS(0), b.cfg.runs),
		"Profile", "Work", "Files", "Size", "Wall")
	yamlFiles, yerr := readManifests(catalog)
	goFiles, gerr := readGoFiles(out)
	var sum time.Duration
	for _, w := range []struct {
		name  string
		files [][]byte
		err   error
		do    func([]byte) error
	}{
		{"yaml.v3: decode every manifest into nodes", yamlFiles, yerr, decodeYAML},
		{"go/format of the generated Go", goFiles, gerr, func(src []byte) error { _, err := format.Source(src); return err }},
	} {
		size := 0
		for _, f := range w.files {
			size += len(f)
		}
		if w.err == nil && len(w.files) == 0 {
			w.err = errors.New("no files")
		}
		if w.err != nil {
			t.Rows = append(t.Rows, []string{profile, w.name, "—", "—", w.err.Error()})
			sum = -1
			continue
		}
		wall, err := medianWall(b.cfg.runs, w.files, w.do)
		if err != nil {
			t.Rows = append(t.Rows, []string{profile, w.name, num(len(w.files)), harness.MB(int64(size)), err.Error()})
			sum = -1
			continue
		}
		t.Rows = append(t.Rows, []string{profile, w.name, num(len(w.files)), harness.MB(int64(size)), harness.Seconds(wall)})
		if sum >= 0 {
			sum += wall
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

// medianWall runs do over every file on every core (par.EachErr), runs
// times, and returns the median wall time; an error stops it.
func medianWall(runs int, files [][]byte, do func([]byte) error) (time.Duration, error) {
	var walls []time.Duration
	for range max(runs, 1) {
		runtime.GC()
		start := time.Now()
		if err := par.EachErr(len(files), func(i int) error { return do(files[i]) }); err != nil {
			return 0, err
		}
		walls = append(walls, time.Since(start))
	}
	return harness.Median(walls), nil
}
