package bicep_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/internal/goldentest"
)

// TestArchives emits every valid fixture and unpacks each extension
// archive: its layout and its index.json and types.json must match the
// emitted files. (The files themselves are compared with golden/ by the
// golden driver, cmd/udtc's TestGolden.)
func TestArchives(t *testing.T) {
	for _, name := range goldentest.ValidCases(t) {
		t.Run(name, func(t *testing.T) {
			files, diags, err := bicep.Emit(goldentest.Compile(t, name), bicep.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diags.HasErrors() {
				t.Fatalf("Emit reported errors: %v", diags)
			}
			archives := 0
			for _, f := range files {
				if strings.HasSuffix(f.Path, ".tgz") {
					archives++
					checkArchive(t, f, files)
				}
			}
			if archives == 0 {
				t.Error("no extension archive")
			}
		})
	}
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
	corpus := goldentest.Corpus(t)
	for _, sub := range []string{"resource-types-contrib", "radius-built-in"} {
		t.Run(sub, func(t *testing.T) {
			cat := goldentest.CompilePaths(t, filepath.Join(corpus, sub))
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
			// A description that states its default ("Defaults to `S` if
			// not provided.") does not get "Defaults to 'S'." as well.
			for _, f := range files {
				if path.Base(f.Path) != "types.json" {
					continue
				}
				for _, d := range regexp.MustCompile(`"description":\s*"((?:[^"\\]|\\.)*)"`).FindAllStringSubmatch(string(f.Data), -1) {
					if n := strings.Count(strings.ToLower(d[1]), "defaults to"); n > 1 {
						t.Errorf("%s: a description says its default %d times: %s", f.Path, n, d[1])
					}
				}
			}
		})
	}
}
