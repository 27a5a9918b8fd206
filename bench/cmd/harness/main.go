// Command harness is `make bench`: it builds udtc, generates synthetic
// catalogs, times udtc check, gen and publish as whole processes, drives the
// registry with concurrent clients over loopback, runs the repository's Go
// benchmarks, and writes docs/benchmarks.md.
//
//	go run ./bench/cmd/harness [-runs 3] [-sizes 100,1000,5000] [-out docs/benchmarks.md]
//
// Commands udtc does not have yet are reported as "not available".
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/udtc/udtc/bench/harness"
)

func main() {
	harness.ServeLauncher() // when the harness measures a command through itself
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
