package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// tuneGC sets Go's collector for a command: the GC percent unless
// lookupEnv (os.LookupEnv) finds GOGC, and the soft memory limit that
// limit returns unless it finds GOMEMLIMIT (limit is not called then: gen's
// measures the live heap), each on its own (0 leaves a setting alone). It
// returns the function that restores the previous settings.
func tuneGC(lookupEnv func(string) (string, bool), percent int, limit func() int64) (restore func()) {
	var undo []func()
	if _, set := lookupEnv("GOGC"); !set && percent > 0 {
		old := debug.SetGCPercent(percent)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if _, set := lookupEnv("GOMEMLIMIT"); !set {
		if l := limit(); l > 0 {
			old := debug.SetMemoryLimit(l)
			undo = append(undo, func() { debug.SetMemoryLimit(old) })
		}
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

// gen's collector settings once the manifests are compiled, unless $GOGC or
// $GOMEMLIMIT set them. The compiled model stays live through every target
// (about 105 MB for the 23.8 MB of YAML of the 1,000-type catalog, 5 times
// that for 5,000 types) while the targets allocate their output around it.
// At the default GOGC=100 the heap may grow to twice the live heap, and gen
// of 1,000 types peaked at 410 MB. genMemoryLimit lets the heap grow to the
// model plus genHeadroom, or to 2.5 times the model when that is more: the
// 1,000-type catalog peaks under 300 MB, and a large catalog keeps more
// room than GOGC=100 gives, so the collector never thrashes (a limit of 6
// times the YAML, 846 MB at 5,000 types, took 65 s of CPU; twice the model,
// 42 s; 2.5 times, 36 s, about five times the 1,000-type run, at 1.3 GB
// against 2.1 GB at GOGC=100). GOGC=200 lets the small heaps of the later
// targets go twice as long between collections, which pays for the extra
// collections near the limit.
const (
	genGCPercent = 200
	genHeadroom  = 160 << 20
)

// genMemoryLimit is gen's soft memory limit: genLimitFor the live heap it
// measures (liveHeap, a collection).
func genMemoryLimit() int64 { return genLimitFor(liveHeap()) }

// genLimitFor is gen's soft memory limit for a live heap of live bytes.
func genLimitFor(live uint64) int64 { return int64(max(live+genHeadroom, live*5/2)) }

// liveHeap collects garbage and returns the heap found live. Right after
// compiling, that is the model (the YAML trees are garbage by then); the
// last collection's figure could be from halfway through the compile.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
