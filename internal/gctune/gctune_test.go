package gctune

import (
	"runtime/debug"
	"slices"
	"testing"
)

func TestServeSettingsUnlessTheEnvironmentDoes(t *testing.T) {
	env := func(set ...string) func(string) (string, bool) {
		return func(k string) (string, bool) { return "", slices.Contains(set, k) }
	}
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	beforeLimit := debug.SetMemoryLimit(-1)

	restore := Set(env(), ServePercent, func() int64 { return ServeMemoryLimit })
	if got := debug.SetGCPercent(ServePercent); got != ServePercent {
		t.Errorf("GC percent = %d, want %d", got, ServePercent)
	}
	if got := debug.SetMemoryLimit(-1); got != ServeMemoryLimit {
		t.Errorf("memory limit = %d, want %d", got, ServeMemoryLimit)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("restored GC percent = %d, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != beforeLimit {
		t.Errorf("restored memory limit = %d, want %d", got, beforeLimit)
	}

	// $GOGC and $GOMEMLIMIT win.
	restore = Set(env("GOGC", "GOMEMLIMIT"), ServePercent, func() int64 {
		t.Error("with $GOMEMLIMIT the limit is not computed")
		return ServeMemoryLimit
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with $GOGC: GC percent = %d, want 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != beforeLimit {
		t.Errorf("with $GOMEMLIMIT: memory limit = %d, want %d", got, beforeLimit)
	}
	restore()
}

func TestCompileLimitGrowsWithTheInput(t *testing.T) {
	if got := CompileLimitFor(0); got != CompileHeadroom {
		t.Errorf("CompileLimitFor(0) = %d, want the headroom %d", got, CompileHeadroom)
	}
	if got := CompileLimitFor(-1); got != CompileHeadroom {
		t.Errorf("CompileLimitFor(-1) = %d, want the headroom %d", got, CompileHeadroom)
	}
	// 27.5 MB of flat catalog compiles to a 115 MB model: the limit leaves
	// room above it.
	if got := CompileLimitFor(24 << 20); got != 168<<20+CompileHeadroom || got < 4*(24<<20)+CompileHeadroom {
		t.Errorf("CompileLimitFor(24 MiB) = %d MiB, want %d MiB", got>>20, (168<<20+CompileHeadroom)>>20)
	}
}
