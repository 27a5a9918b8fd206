package bicep_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/model"
)

var update = flag.Bool("update", false, "rewrite golden/<case>/bicep from the emitter's output")

const repoRoot = "../../.."

// validCases lists fixtures/<case> directories whose name does not start
// with "error_": their manifests compile.
func validCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(repoRoot, "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), "error_") {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no fixtures found")
	}
	return cases
}

func compile(t testing.TB, paths ...string) *model.Catalog {
	t.Helper()
	cat, diags, err := generator.Compile(context.Background(), paths, generator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cat == nil {
		t.Fatalf("%v does not compile: %v", paths, diags)
	}
	return cat
}

// TestGolden emits every valid fixture and compares the files with
// golden/<case>/bicep; -update rewrites them. An absent golden directory
// means "no files".
func TestGolden(t *testing.T) {
	for _, name := range validCases(t) {
		t.Run(name, func(t *testing.T) {
			cat := compile(t, filepath.Join(repoRoot, "fixtures", name))
			files, diags, err := bicep.Emit(cat, bicep.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diags.HasErrors() {
				t.Fatalf("Emit reported errors: %v", diags)
			}
			dir := filepath.Join(repoRoot, "golden", name)
			if *update {
				writeGolden(t, dir, "bicep", files)
			}
			want := readGolden(t, dir, "bicep")
			got := map[string][]byte{}
			for _, f := range files {
				got[f.Path] = f.Data
				if strings.HasSuffix(f.Path, ".tgz") {
					checkArchive(t, f, files)
				}
			}
			compareFiles(t, want, got)
		})
	}
}

func compareFiles(t *testing.T, want, got map[string][]byte) {
	t.Helper()
	if diff := cmp.Diff(keys(want), keys(got)); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	for p, w := range want {
		g, ok := got[p]
		if !ok {
			continue
		}
		if strings.HasSuffix(p, ".tgz") {
			if !bytes.Equal(w, g) {
				t.Errorf("%s: archive bytes differ from golden (%d bytes, want %d)", p, len(g), len(w))
			}
			continue
		}
		if diff := cmp.Diff(string(w), string(g)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", p, diff)
		}
	}
}

func keys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// writeGolden replaces dir/sub with files (whose paths start with sub/).
func writeGolden(t *testing.T, dir, sub string, files []emit.File) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readGolden returns the files below dir/sub by slash path relative to dir.
func readGolden(t *testing.T, dir, sub string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	root := filepath.Join(dir, sub)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// checkArchive unpacks an extension archive and checks its layout: one
// entry types.tgz holding index.json and types.json equal to the emitted
// files, all regular files with bare names.
func checkArchive(t *testing.T, f emit.File, files []emit.File) {
	t.Helper()
	outer, err := untgz(f.Data)
	if err != nil {
		t.Fatalf("%s: %v", f.Path, err)
	}
	if len(outer) != 1 || outer[0].name != "types.tgz" {
		t.Fatalf("%s: entries %v, want [types.tgz]", f.Path, names(outer))
	}
	inner, err := untgz(outer[0].data)
	if err != nil {
		t.Fatalf("%s: types.tgz: %v", f.Path, err)
	}
	if diff := cmp.Diff([]string{"index.json", "types.json"}, names(inner)); diff != "" {
		t.Fatalf("%s: types.tgz entries (-want +got):\n%s", f.Path, diff)
	}
	dir := strings.TrimSuffix(f.Path, ".tgz") + "/"
	for _, e := range inner {
		var want []byte
		for _, g := range files {
			if g.Path == dir+e.name {
				want = g.Data
			}
		}
		if !bytes.Equal(e.data, want) {
			t.Errorf("%s: %s differs from %s%s", f.Path, e.name, dir, e.name)
		}
	}
}

type tarEntry struct {
	name string
	data []byte
}

func names(es []tarEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.name)
	}
	return out
}

func untgz(data []byte) ([]tarEntry, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		return nil, fmt.Errorf("gzip header carries a time or name: %v %q", zr.ModTime, zr.Name)
	}
	tr := tar.NewReader(zr)
	var out []tarEntry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg || h.Name != path.Base(h.Name) || strings.HasPrefix(h.Name, ".") {
			return nil, &fs.PathError{Op: "untar", Path: h.Name, Err: fs.ErrInvalid}
		}
		// Fixed metadata: what makes archives reproducible.
		if !h.ModTime.Equal(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)) || h.Uid != 0 || h.Gid != 0 || h.Uname != "" || h.Mode != 0o644 {
			return nil, fmt.Errorf("%s: unexpected metadata %v %d/%d %q %o", h.Name, h.ModTime, h.Uid, h.Gid, h.Uname, h.Mode)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out = append(out, tarEntry{h.Name, b})
	}
}

// TestCorpus emits every real manifest of ../shared/corpus.
func TestCorpus(t *testing.T) {
	corpus := filepath.Join(repoRoot, "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("corpus not available at %s: %v", corpus, err)
	}
	for _, sub := range []string{"resource-types-contrib", "radius-built-in"} {
		t.Run(sub, func(t *testing.T) {
			cat := compile(t, filepath.Join(corpus, sub))
			files, diags, err := bicep.Emit(cat, bicep.Options{})
			if err != nil || diags.HasErrors() {
				t.Fatalf("Emit: %v %v", err, diags)
			}
			exts := 0
			for _, f := range files {
				if strings.HasSuffix(f.Path, ".tgz") {
					exts++
					checkArchive(t, f, files)
				}
			}
			if exts != len(cat.Providers) {
				t.Errorf("%d extensions for %d namespaces", exts, len(cat.Providers))
			}
		})
	}
}
