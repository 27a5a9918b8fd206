// Package harness is the measuring side of `make bench`: whole-process
// timings (wall, user+sys CPU, peak RSS) with medians over runs, a bounded
// concurrent HTTP load loop with latency percentiles, a parser for
// `go test -bench` output, machine facts, targets with met/missed verdicts,
// and the Markdown report written to docs/benchmarks.md.
//
// It knows nothing about udtc's commands: bench/cmd/harness drives them.
package harness
