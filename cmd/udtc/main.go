// Command udtc compiles user-defined resource type manifests, serves the
// resource type registry and publishes manifests into it.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
)

func main() {
	stop := profile(os.Getenv("UDTC_CPUPROFILE"))
	code := run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// profile starts a CPU profile into path when it is not empty, for
// `go tool pprof` (docs/benchmarks.md); the returned func ends it.
func profile(path string) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "udtc: UDTC_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "udtc: UDTC_CPUPROFILE: %v\n", err)
		}
	}
}
