// Command synth writes a synthetic resource type catalog for benchmarks:
//
//	go run ./bench/cmd/synth -types 1000 -versions 2 -namespaces 10 -seed 1 -out /tmp/catalog
//
// The same flags always write the same bytes. See package bench/synth.
package main

import (
	"os"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
