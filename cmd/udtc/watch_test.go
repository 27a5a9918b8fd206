package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// watcher runs `udtc args...` in-process until stop is called.
func watcher(t *testing.T, args ...string) (stderr *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout syncBuffer
	stderr = &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"udtc"}, args...), strings.NewReader(""), &stdout, stderr) }()
	return stderr, func() int { cancel(); return <-done }
}

// waitFor waits until s holds want n times (generous bound: the watch polls).
func waitFor(t *testing.T, s *syncBuffer, want string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for strings.Count(s.String(), want) < n {
		if time.Now().After(deadline) {
			t.Fatalf("no %d× %q after 20s:\n%s", n, want, s.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// writeLater writes a file so that its modification time differs from the
// last write's even on coarse clocks.
func writeLater(t *testing.T, path, data string) {
	t.Helper()
	later := time.Now()
	if st, err := os.Stat(path); err == nil && !st.ModTime().Before(later.Add(-time.Second)) {
		later = st.ModTime().Add(time.Second)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

const watchGood = "namespace: Contoso.Watch\ntypes:\n  widgets:\n    apiVersions:\n      '2025-01-01':\n        schema: {type: object, properties: {size: {type: string}}}\n"

func TestCheckWatch(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "m.yaml")
	writeLater(t, m, watchGood)
	stderr, stop := watcher(t, "check", "--watch", "--watch-interval", "20ms", dir)
	waitFor(t, stderr, "ok: 1 file,", 1)
	writeLater(t, m, strings.Replace(watchGood, "type: string", "type: strnig", 1))
	waitFor(t, stderr, "error[type-invalid]", 1)
	// A new file is seen too.
	writeLater(t, m, watchGood)
	writeLater(t, filepath.Join(dir, "n.yaml"), strings.Replace(watchGood, "Contoso.Watch", "Contoso.Other", 1))
	waitFor(t, stderr, "ok: 2 files,", 1)
	if code := stop(); code != 0 {
		t.Errorf("stopping the watch: exit %d", code)
	}
	if n := strings.Count(stderr.String(), "watching "); n < 3 {
		t.Errorf("%d runs, want at least 3:\n%s", n, stderr.String())
	}
}

func TestGenWatchKeepsTheLastGoodOutput(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "in", "m.yaml")
	os.MkdirAll(filepath.Dir(m), 0o755)
	writeLater(t, m, watchGood)
	out := filepath.Join(dir, "out")
	stderr, stop := watcher(t, "gen", "--watch", "--watch-interval", "20ms", "--target", "registration", "--out", out, filepath.Dir(m))
	waitFor(t, stderr, "wrote ", 1)
	files := listFiles(t, out)
	writeLater(t, m, strings.Replace(watchGood, "type: string", "type: strnig", 1))
	waitFor(t, stderr, out+" keeps the output of the last good run", 1)
	if got := listFiles(t, out); len(got) != len(files) {
		t.Errorf("a failed run changed the output: %d files, were %d", len(got), len(files))
	}
	writeLater(t, m, strings.Replace(watchGood, "type: string", "type: integer", 1))
	waitFor(t, stderr, "wrote ", 2)
	if code := stop(); code != 0 {
		t.Errorf("stopping the watch: exit %d", code)
	}
	if code, _, stderr := runCLI(t, "gen", "--watch", "--check", "--out", out, filepath.Dir(m)); code != 2 || !strings.Contains(stderr, "--watch and --check") {
		t.Errorf("gen --watch --check: exit %d %s", code, stderr)
	}
}

// Ctrl-C (SIGINT) ends a watch normally, exit 0, for check as for gen: a
// real udtc process (this test binary acting as one) and a real signal.
func TestWatchEndsOnInterrupt(t *testing.T) {
	dir := t.TempDir()
	writeLater(t, filepath.Join(dir, "m.yaml"), watchGood)
	for _, args := range [][]string{
		{"check", "--watch", dir},
		{"gen", "--watch", "--target", "registration", "--out", filepath.Join(dir, "out"), dir},
	} {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "UDTC_TEST_AS_UDTC=1")
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, &stderr, "watching ", 1)
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("udtc %s, interrupted: %v; want exit 0\n%s", args[0], err, stderr.String())
		}
	}
}
