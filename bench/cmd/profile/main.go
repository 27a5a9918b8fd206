// Command profile runs the compiler in-process on a catalog under the CPU
// profiler, so `make bench` can name the hot spots of udtc check and gen:
//
//	go run ./bench/cmd/profile -cpuprofile cpu.prof [-memprofile mem.prof] CATALOG...
//	go tool pprof -top cpu.prof
//
// It runs generator.Compile and then the Bicep and Go client emitters, the
// same work as `udtc gen` minus the writes, and prints the phase timings.
package main

import (
	"context"
	"os"
)

func main() { os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)) }
