package main

import "runtime/debug"

// tuneGC sets Go's collector for a command: the GC percent unless
// lookupEnv (os.LookupEnv) finds GOGC, and the soft memory limit unless it
// finds GOMEMLIMIT, each on its own (0 leaves a setting alone). It returns
// the function that restores the previous settings.
func tuneGC(lookupEnv func(string) (string, bool), percent int, limit int64) (restore func()) {
	var undo []func()
	if _, set := lookupEnv("GOGC"); !set && percent > 0 {
		old := debug.SetGCPercent(percent)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if _, set := lookupEnv("GOMEMLIMIT"); !set && limit > 0 {
		old := debug.SetMemoryLimit(limit)
		undo = append(undo, func() { debug.SetMemoryLimit(old) })
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

// gen's collector settings for inputs of n bytes, unless $GOGC or
// $GOMEMLIMIT set them. Compiling decodes every manifest at once and the
// model it builds stays live through every target: about 4.5 times the YAML
// (100 MB for the 23.8 MB of the 1,000-type catalog), while the targets
// allocate their output around it. At the default GOGC=100 the heap goal is
// twice that, and the process peaked at 410 MB. A soft limit of 128 MiB
// plus 6 times the input holds it under 300 MB there; alone it made the
// collector run more often near the peak (about 12% more CPU), so GOGC=200
// lets the small heaps of the later targets go twice as long between
// collections, which pays that back (CPU as at GOGC=100, measured with
// /usr/bin/time over alternating runs). A catalog five times larger gets a
// limit five times larger: the limit always leaves room above the live model,
// so the collector never thrashes.
const genGCPercent = 200

func genMemoryLimit(inputBytes int64) int64 { return 128<<20 + 6*inputBytes }
