package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/bench/synth"
	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/bridge"
	"github.com/udtc/udtc/internal/goldentest"
)

// recordEmitters makes every target record the namespaces of each catalog
// it is given (the work a run does), and the Go client the files it
// formats (under "gofmt"), and returns the record, reset by the returned
// function. Not parallel: it swaps the emitter table.
func recordEmitters(t *testing.T) (seen map[string][]string, reset func()) {
	t.Helper()
	seen = map[string][]string{}
	var mu sync.Mutex
	saved := genTargets
	t.Cleanup(func() { genTargets = saved })
	genTargets = func(names []string, o bridge.GenOptions) []generator.Target {
		if inner := o.Go.Format; inner != nil {
			o.Go.Format = func(path string, src []byte, format func([]byte) ([]byte, error)) ([]byte, error) {
				return inner(path, src, func(src []byte) ([]byte, error) {
					mu.Lock()
					seen["gofmt"] = append(seen["gofmt"], path)
					mu.Unlock()
					return format(src)
				})
			}
		}
		targets := saved(names, o)
		for i, tg := range targets {
			targets[i].Emit = func(cat *model.Catalog, put emit.Put) (diag.List, error) {
				for _, p := range cat.Providers {
					seen[tg.Name] = append(seen[tg.Name], p.Namespace)
				}
				return tg.Emit(cat, put)
			}
		}
		return targets
	}
	return seen, func() { clear(seen) }
}

// TestGenIncremental: after one manifest changes, gen redoes only its
// namespace (every target is handed that namespace alone) and leaves the
// output byte for byte as a fresh gen of the same inputs writes it, with
// the same diagnostics; a change that reaches past its namespace (a type
// added) makes it redo everything, still identical to a fresh gen.
func TestGenIncremental(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	// The deep profile has warnings (required-default) in every namespace.
	dir := goldentest.WriteSynthetic(t, synth.Options{Types: 24, Versions: 2, Namespaces: 3, Seed: 3, Profile: synth.ProfileDeep})
	out := filepath.Join(t.TempDir(), "out")
	seen, reset := recordEmitters(t)
	var all []string // the namespaces, one directory each
	for _, d := range must(os.ReadDir(dir)) {
		all = append(all, d.Name())
	}
	if len(all) != 3 {
		t.Fatalf("synthetic catalog has namespaces %v", all)
	}
	gen := func(out string, args ...string) string {
		t.Helper()
		code, _, stderr := runCLI(t, append([]string{"gen", dir, "--out", out, "--go-import-prefix", "example.com/gen"}, args...)...)
		if code != 0 {
			t.Fatalf("gen: exit %d\n%s", code, stderr)
		}
		return stderr
	}
	first := gen(out)
	if !strings.Contains(first, "warning[required-default]") {
		t.Fatalf("no warnings to keep:\n%s", first)
	}
	for _, name := range bridge.TargetNames {
		if !slices.Equal(seen[name], all) {
			t.Fatalf("first run: %s emitted %v, want %v", name, seen[name], all)
		}
	}

	// One description in one manifest of the second namespace.
	edited := firstManifest(t, filepath.Join(dir, all[1]))
	editFile(t, edited, "description: '", "description: 'Edited. ")
	firstFormatted := len(seen["gofmt"]) // the first run formatted every Go file
	reset()
	stderr := gen(out)
	for _, name := range bridge.TargetNames {
		if got := seen[name]; !slices.Equal(got, all[1:2]) {
			t.Errorf("after one edit: %s emitted %v, want only %v", name, got, all[1:2])
		}
	}
	// Of the namespace's Go files, only those whose source changed are
	// formatted again: the edited type's, one per version package.
	if got := seen["gofmt"]; len(got) == 0 || len(got) > 2 || len(got) >= firstFormatted/3 {
		t.Errorf("after one edit, gofmt ran on %v; want the edited type's file in each of its 2 versions", got)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	want := gen(fresh)
	if diff := cmp.Diff(listTree(t, fresh), listTree(t, out)); diff != "" {
		t.Errorf("incremental output differs from a fresh gen (-fresh +incremental):\n%s", diff)
	}
	if diff := cmp.Diff(diagnosticLines(want), diagnosticLines(stderr)); diff != "" {
		t.Errorf("incremental diagnostics differ from a fresh gen's (-fresh +incremental):\n%s", diff)
	}

	// A new type in the first namespace changes what the others may
	// refer to: everything is redone.
	data := must(os.ReadFile(firstManifest(t, filepath.Join(dir, all[0]))))
	added := regexp.MustCompile(`(?m)^  ([a-zA-Z]+)(/[a-zA-Z]+)?:$`).ReplaceAll(data, []byte("  ${1}Extra${2}:"))
	if err := os.WriteFile(filepath.Join(dir, all[0], "extra.yaml"), added, 0o644); err != nil {
		t.Fatal(err)
	}
	reset()
	stderr = gen(out)
	for _, name := range bridge.TargetNames {
		if !slices.Equal(seen[name], all) {
			t.Errorf("after a type was added: %s emitted %v, want %v", name, seen[name], all)
		}
	}
	fresh = filepath.Join(t.TempDir(), "fresh")
	want = gen(fresh)
	if diff := cmp.Diff(listTree(t, fresh), listTree(t, out)); diff != "" {
		t.Errorf("output after a type was added differs from a fresh gen (-fresh +incremental):\n%s", diff)
	}
	if diff := cmp.Diff(diagnosticLines(want), diagnosticLines(stderr)); diff != "" {
		t.Errorf("diagnostics after a type was added differ from a fresh gen's:\n%s", diff)
	}

	// The file removed again: its namespace alone is redone.
	if err := os.Remove(filepath.Join(dir, all[0], "extra.yaml")); err != nil {
		t.Fatal(err)
	}
	reset()
	gen(out)
	fresh = filepath.Join(t.TempDir(), "fresh")
	gen(fresh)
	if diff := cmp.Diff(listTree(t, fresh), listTree(t, out)); diff != "" {
		t.Errorf("output after a file was removed differs from a fresh gen (-fresh +incremental):\n%s", diff)
	}

	// An output file changed by hand since the last run: gen cannot trust
	// what it would keep, and redoes everything (putting the file back).
	editFile(t, filepath.Join(out, "docs", strings.ToLower(strings.ReplaceAll(all[0], ".", ""))+".md"), "#", "# hand-edited")
	editFile(t, edited, "description: '", "description: 'Again. ")
	reset()
	gen(out)
	for _, name := range bridge.TargetNames {
		if !slices.Equal(seen[name], all) {
			t.Errorf("after an output was edited: %s emitted %v, want %v", name, seen[name], all)
		}
	}
	fresh = filepath.Join(t.TempDir(), "fresh")
	gen(fresh)
	if diff := cmp.Diff(listTree(t, fresh), listTree(t, out)); diff != "" {
		t.Errorf("output after an output was edited differs from a fresh gen (-fresh +incremental):\n%s", diff)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// firstManifest returns the first manifest below dir.
func firstManifest(t *testing.T, dir string) string {
	t.Helper()
	var found string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && found == "" && strings.HasSuffix(p, ".yaml") {
			found = p
		}
		return err
	})
	if found == "" {
		t.Fatalf("no manifest below %s", dir)
	}
	return found
}

func editFile(t *testing.T, file, old, new string) {
	t.Helper()
	data := must(os.ReadFile(file))
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s lacks %q", file, old)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// diagnosticLines is the diagnostics part of gen's stderr: every line but
// the last, which says what was written where.
func diagnosticLines(stderr string) []string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	return lines[:len(lines)-1]
}
