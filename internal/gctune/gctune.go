// Package gctune sets Go's garbage collector for a command's run: the
// settings udtc gen and udtc serve measured as best for their heaps,
// unless $GOGC or $GOMEMLIMIT say otherwise.
package gctune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Set sets Go's collector for a command: the GC percent unless
// lookupEnv (os.LookupEnv) finds GOGC, and the soft memory limit that
// limit returns unless it finds GOMEMLIMIT (limit is not called then: gen's
// measures the live heap), each on its own (0 leaves a setting alone). It
// returns the function that restores the previous settings.
func Set(lookupEnv func(string) (string, bool), percent int, limit func() int64) (restore func()) {
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
// (about 93 MB for the 23.8 MB of YAML of the 1,000-type catalog, 5 times
// that for 5,000 types) while the targets allocate their output around it.
// At the default GOGC=100 the heap may grow to twice the live heap, and gen
// of 1,000 types peaked at 410 MB. GenMemoryLimit lets the heap grow to the
// model plus GenHeadroom, or to 2.5 times the model when that is more: the
// 1,000-type catalog peaks under 300 MB, and a large catalog keeps more
// room than GOGC=100 gives, so the collector never thrashes (a limit of 6
// times the YAML, 846 MB at 5,000 types, took 65 s of CPU; twice the model,
// 42 s; 2.5 times, 36 s, about five times the 1,000-type run, at 1.3 GB
// against 2.1 GB at GOGC=100). GOGC=200 lets the small heaps of the later
// targets go twice as long between collections, which pays for the extra
// collections near the limit.
const (
	GenPercent  = 200
	GenHeadroom = 160 << 20
)

// GenMemoryLimit is gen's soft memory limit: GenLimitFor the live heap it
// measures (liveHeap, a collection).
func GenMemoryLimit() int64 { return GenLimitFor(liveHeap()) }

// GenLimitFor is gen's soft memory limit for a live heap of live bytes.
func GenLimitFor(live uint64) int64 { return int64(max(live+GenHeadroom, live*5/2)) }

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

// The compiler's collector settings (udtc check, and gen until it sets
// its own), unless $GOGC or $GOMEMLIMIT set them. The figures below
// were taken with udtc check when it kept the model, as gen's compile
// does; udtc check keeps none now (generator.Options.Outline), so
// its live heap is the trees being parsed, a few MB, and it collects every
// few tens of MB at a fraction of the cost. Compiling builds the
// model while each core parses a file into a YAML tree that is garbage
// once the file is checked: the live heap grows from nothing to the model,
// about 4 times the YAML (3.8 times for the flat 1,000-type synthetic
// catalog, 4.1 times for the deep one). At GOGC=100 the collector ran 23-25
// times on the way and took 0.27-0.35 s of CPU. At CompilePercent it runs
// mostly as the heap nears the soft limit, CompileLimitFor the input: room
// for the model at 7 times the YAML plus CompileHeadroom for the trees
// being parsed; 7-8 collections, 0.15-0.25 s, at the same peak memory
// (190-235 MB). A larger headroom (128 MiB) collected less still but
// touched 20-50 MB more fresh memory, whose page faults cost more than
// the collections saved; 32 MiB collected more often again.
//
// Since Radius's base properties are merged into every schema the model
// is 4.2 times the YAML, and 5 times left the heap at the limit for the
// second half of the compile: 10 collections with mark assists, 1.85-2.04
// s of CPU for `udtc check` of the flat 1,000-type catalog (27.5 MB of
// YAML), 197 MB peak. At 7 times: 7 collections, 1.41-1.49 s, 250-270 MB
// peak (GOMEMLIMIT=230MiB and 250MiB, `/usr/bin/time`, three runs each).
const (
	CompilePercent  = 800
	CompileHeadroom = 64 << 20
)

// CompileLimitFor is the compiler's soft memory limit for inputBytes of
// manifests.
func CompileLimitFor(inputBytes int64) int64 { return 7*max(inputBytes, 0) + CompileHeadroom }

// The server's garbage collector settings, unless $GOGC or $GOMEMLIMIT
// set them. Its live heap is small (tens of MB: caches, statements,
// connections), but a PUT of an API version allocates about 30 times its
// schema in the check; at the default GOGC=100 the collector ran every
// few PUTs and took a quarter of the CPU of each. At 400 it runs a fifth
// as often for a heap of a few tens of MB more under a steady load. It
// does let a burst of large schemas cost more memory than at 100: the heap
// may grow to five times the live heap between collections instead of
// twice, up to the soft memory limit, near which the collector runs as
// often as it needs to again (a soft limit: a live heap above 512 MiB
// still passes it).
const (
	ServePercent     = 400
	ServeMemoryLimit = 512 << 20
)
