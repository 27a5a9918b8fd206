# make bench: whole-process timings of udtc check/gen/publish, registry load
# over loopback, Go benchmarks, and a CPU profile of the compiler, written to
# docs/benchmarks.md. Not part of `make test`; takes about 15-20 minutes on 2
# cores. Radius's validator and manifest-to-bicep are built from ../radius (a
# clone of github.com/radius-project/radius; -radius DIR for another) and timed
# beside udtc; without it the ratios use recorded times. Tune with BENCHFLAGS,
# e.g.
#   make bench BENCHFLAGS='-runs 1 -sizes 100,1000 -skip gobench'
# Flags: go run ./bench/cmd/harness -h

GO ?= go
BENCHFLAGS ?=

.PHONY: bench bench-catalog
bench:
	$(GO) run ./bench/cmd/harness $(BENCHFLAGS)

# bench-catalog writes the reference catalog (1,000 types x 2 versions x 10
# namespaces) to out/catalog-1000 for profiling by hand.
bench-catalog:
	$(GO) run ./bench/cmd/synth -types 1000 -versions 2 -namespaces 10 -seed 1 -force -out out/catalog-1000
