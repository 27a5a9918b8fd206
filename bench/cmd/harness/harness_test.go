package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/udtc/udtc/bench/harness"
)

// TestMain lets the test binary act as the harness's launcher (run measures
// commands through os.Executable).
func TestMain(m *testing.M) {
	harness.ServeLauncher()
	os.Exit(m.Run())
}

func TestParseFlags(t *testing.T) {
	var errb bytes.Buffer
	c, err := parseFlags([]string{"-sizes", "5000, 100,1000,100", "-runs", "2", "-skip", "gobench,profile"}, &errb)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.sizes, []int{100, 1000, 5000}) || c.runs != 2 || !c.skip["gobench"] || !c.skip["profile"] || c.skip["gen"] {
		t.Errorf("parsed %+v", c)
	}
	for _, bad := range [][]string{
		{"-sizes", "10,x"}, {"-sizes", "0"}, {"-runs", "0"}, {"-skip", "everything"}, {"extra"}, {"-clients", "0"},
	} {
		if _, err := parseFlags(bad, &errb); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		}
	}
}

// TestHarnessSmoke runs the real harness end to end on a tiny catalog
// with the slow sections skipped. Commands udtc lacks must show up as "not
// available" in the report rather than fail the run.
func TestHarnessSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds udtc; skipped with -short")
	}
	out := filepath.Join(t.TempDir(), "benchmarks.md")
	var stdout, stderr bytes.Buffer
	args := []string{"-sizes", "30", "-runs", "1", "-namespaces", "3", "-providers", "20",
		"-get-requests", "200", "-put-requests", "50", "-load-time", "2s",
		"-skip", "gobench,profile,gocompile", "-radius", fakeRadius(t), "-out", out}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	for _, want := range []string{"# Benchmarks", "## Targets", "## Catalogs", "| 30 | 3 | 60 |", "## Compiler", "udtc check", "## Catalog shapes (30 types)", "## Static catalog", "| 30 | deep | 64 |", "| deep | udtc gen (one description changed) |", "| deep | Radius's validator | 1 |", "| flat | Radius's manifest-to-bicep | 1 |", "## Registry load", "## Resources", "| PUT resource (admission + durable write) | 50 | 0 |", "## Publish"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	// Without the 1,000-type catalog every gen and publish target is
	// unmeasured, and says why.
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "| `udtc publish` of 1,000 types into an empty registry") && !strings.Contains(line, "not available") {
			t.Errorf("publish target measured without its catalog: %s", line)
		}
	}
}

func TestNaiveTypesSize(t *testing.T) {
	// Two resource types share object #2, which holds string #3.
	data := []byte(`[{"$type":"ResourceType","body":{"$ref":"#/2"}},{"$type":"ResourceType","body":{"$ref":"#/2"}},{"$type":"ObjectType","p":{"type":{"$ref":"#/3"}}},{"$type":"StringType"}]`)
	var parts []json.RawMessage
	if err := json.Unmarshal(data, &parts); err != nil {
		t.Fatal(err)
	}
	obj, str := int64(len(parts[2])), int64(len(parts[3]))
	want := int64(len(parts[0])+len(parts[1])) + 2*(obj+str)
	got, err := naiveTypesSize(data)
	if err != nil || got != want {
		t.Errorf("naiveTypesSize = %d, %v; want %d", got, err, want)
	}
	if _, err := naiveTypesSize([]byte(`[{"$type":"ResourceType","body":{"$ref":"#/0"}}]`)); err == nil {
		t.Error("a self-reference was accepted")
	}
	if _, err := naiveTypesSize([]byte(`[{"$type":"ResourceType","body":{"$ref":"#/9"}}]`)); err == nil {
		t.Error("a dangling reference was accepted")
	}
}

func TestOverBudget(t *testing.T) {
	b := &bench{cfg: &config{budget: time.Minute}, last: map[string]sizeWall{}}
	if why := b.overBudget("gen", 5000); why != "" {
		t.Errorf("nothing measured yet, but skipped: %s", why)
	}
	b.measured("gen", 1000, 10*time.Second) // predicts 50 s at 5,000
	if why := b.overBudget("gen", 5000); why != "" {
		t.Errorf("50 s predicted, budget 1 min, but skipped: %s", why)
	}
	b.measured("gen", 1000, 20*time.Second) // predicts 100 s
	if why := b.overBudget("gen", 5000); !strings.Contains(why, "about 100 s") {
		t.Errorf("100 s predicted: got %q", why)
	}
	if why := b.overBudget("check", 5000); why != "" {
		t.Errorf("another command is not affected: %s", why)
	}
}

func TestBicepSizes(t *testing.T) {
	dir := t.TempDir()
	pretty := "[\n  {\"$type\": \"ResourceType\", \"body\": {\"$ref\": \"#/1\"}},\n  {\"$type\": \"StringType\"}\n]\n"
	if err := os.MkdirAll(filepath.Join(dir, "bicep", "ns"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bicep", "ns", "types.json"), []byte(pretty), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := bicepSizes(dir)
	if err != nil {
		t.Fatal(err)
	}
	compact := `[{"$type":"ResourceType","body":{"$ref":"#/1"}},{"$type":"StringType"}]`
	want := bicepTypes{files: 1, written: int64(len(pretty)), compact: int64(len(compact)),
		naive: int64(len(`{"$type":"ResourceType","body":{"$ref":"#/1"}}`) + len(`{"$type":"StringType"}`))}
	if got != want {
		t.Errorf("bicepSizes = %+v, want %+v", got, want)
	}
}

func TestFailure(t *testing.T) {
	out := "goos: linux\nBenchmarkEmit-2 1 5 ns/op\n--- FAIL: BenchmarkBuild\n    build_test.go:9: go build: exit 1\nFAIL\n"
	if got, want := failure(out), "--- FAIL: BenchmarkBuild build_test.go:9: go build: exit 1"; got != want {
		t.Errorf("failure = %q, want %q", got, want)
	}
	if got := failure("just one line"); got != "just one line" {
		t.Errorf("failure without FAIL = %q", got)
	}
}

func TestKeptHandWritten(t *testing.T) {
	old := "# Benchmarks\n\n## Targets\n\nold figures\n\n" + keptMarker + "\n\n## By hand\n\nkept text\n"
	if got, want := kept(old), "\n"+keptMarker+"\n\n## By hand\n\nkept text\n"; got != want {
		t.Errorf("kept = %q, want %q", got, want)
	}
	if got := kept("# Benchmarks\n\nno marker\n"); got != "" {
		t.Errorf("kept without a marker = %q, want empty", got)
	}
}

// The floor table times YAML decoding and go/format over the files it is
// given and sums their medians; a file either cannot handle is its row's
// note, and then there is no sum, nor a ratio.
func TestFloor(t *testing.T) {
	write := func(dir, name, data string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, out := t.TempDir(), t.TempDir()
	write(cat, "a.yaml", "namespace: A.B\ntypes: {}\n---\nnamespace: C.D\n")
	write(cat, "notes.txt", "not a manifest: [")
	write(out, "a_gen.go", "package a\n\nconst A = 1\n")
	b := &bench{cfg: &config{runs: 3}, tables: map[string]*harness.Table{}}
	w := newFloorWork(cat, out)
	runs := []floorRun{w.run(), w.run(), w.run()}
	sum := b.floor("flat", w, runs)
	rows := b.tables["Floor of `udtc gen`"].Rows
	if len(rows) != 3 || rows[0][2] != "1" || rows[1][2] != "1" || !strings.HasSuffix(rows[2][4], " s") || sum <= 0 || rows[2][0] != "flat" {
		t.Fatalf("rows %q, sum %v; want YAML and Go of one file each, and their sum", rows, sum)
	}
	gens := []harness.Sample{{Wall: 4 * runs[0].sum()}, {Wall: 3 * runs[1].sum()}, {Wall: 5 * runs[2].sum()}}
	if r := floorRatio(gens, runs); r < 3.99 || r > 4.01 {
		t.Errorf("floorRatio = %v, want 4, the median of each gen over the floor after it", r)
	}

	write(out, "b_gen.go", "package b\n\nfunc {")
	write(cat, "b.yml", "a: [")
	b = &bench{cfg: &config{runs: 1}, tables: map[string]*harness.Table{}}
	w = newFloorWork(cat, out)
	runs = []floorRun{w.run()}
	sum = b.floor("deep", w, runs)
	rows = b.tables["Floor of `udtc gen`"].Rows
	if len(rows) != 2 || !strings.Contains(rows[0][4], "yaml") || !strings.Contains(rows[1][4], "expected") || sum != 0 {
		t.Errorf("rows %q, sum %v; want each failure in its row and no sum", rows, sum)
	}
	if r := floorRatio([]harness.Sample{{Wall: time.Second}}, runs); r != 0 {
		t.Errorf("floorRatio over a failed floor = %v, want 0", r)
	}
	w = newFloorWork(t.TempDir(), out)
	if sum := b.floor("deep", w, []floorRun{w.run()}); sum != 0 || b.tables["Floor of `udtc gen`"].Rows[2][2] != "—" {
		t.Errorf("sum %v, rows %q; want no sum for a catalog without manifests", sum, b.tables["Floor of `udtc gen`"].Rows)
	}
}

func TestEditDescription(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.yaml")
	in := "types:\n  a:\n    description: |\n      block\n    x:\n              description: 'first.'\n              description: 'second.'\n"
	if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		if err := editDescription(p, n); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := os.ReadFile(p)
	want := strings.Replace(in, "'first.'", "'first. (edit 1) (edit 2)'", 1)
	if string(got) != want {
		t.Errorf("edited:\n%s\nwant:\n%s", got, want)
	}
	if err := os.WriteFile(p, []byte("description: |\n  x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := editDescription(p, 1); err == nil {
		t.Error("a file without a quoted description was edited")
	}
}

// measureSite counts the files, directories and bytes of out/site and
// fills the shape's targets at the reference size only.
func TestMeasureSite(t *testing.T) {
	out := t.TempDir()
	for p, data := range map[string]string{
		"site/index.html": "home", "site/index.json": "{}", "site/assets/catalog.css": "css",
		"site/types/Ns/a@2025-01-01.html": "page a", "site/types/Ns/b@2025-01-01.html": "page bb",
		"bicep/ns/types.json": "not the site's",
	} {
		p = filepath.Join(out, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := &bench{tables: map[string]*harness.Table{}}
	b.measureSite("deep", 30, out)
	if st := b.siteTargetsFor("deep"); st.size.Have || st.count.Have {
		t.Error("a catalog of 30 types filled the 1,000-type targets")
	}
	b.measureSite("deep", reference, out)
	st := b.siteTargetsFor("deep")
	if !st.size.Have || st.size.Value*1e6 != 22 || !st.count.Have || st.count.Value != 5+4 {
		t.Errorf("size %+v, count %+v; want 22 bytes and 5 files + 4 directories", *st.size, *st.count)
	}
	if flat := b.siteTargetsFor("flat"); flat.size.Have || flat.size.Why != "not measured" {
		t.Errorf("the flat target: %+v", *flat.size)
	}
	rows := b.tables["Static catalog"].Rows
	if want := []string{"1,000", "deep", "5", "4", "0.000022 MB", "2", "0.0065 kB"}; len(rows) != 2 || !slices.Equal(rows[1][:4], want[:4]) || rows[1][5] != "2" {
		t.Errorf("rows %q, want the second %q", rows, want)
	}
}
