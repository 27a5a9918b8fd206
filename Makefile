# udtc: `make run` shows the whole job, `make test` runs the tests (Go only).
# `make check` is what CI adds: formatting, go.mod tidiness, vet, staticcheck,
# race tests, the golden Go module, every Go benchmark once (so that none
# breaks unseen; timings are make bench's) and a short fuzz run.

GO          ?= go
BIN         := bin/udtc
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME    ?= 15s

.PHONY: build test check run fmt golden fuzz clean

# The fuzz targets, PACKAGE:FUNCTION: make check runs each for FUZZTIME,
# make fuzz for five minutes.
FUZZ_TARGETS = ./generator:FuzzCheck ./generator/manifest:FuzzLoadJSON ./generator/manifest:FuzzFormat ./schema:FuzzDecode ./schema:FuzzCompareNumbers \
	./registry/admission:FuzzAdmit ./registry/server:FuzzResourcePut ./registry/server:FuzzBatch \
	./registry/egress:FuzzParse ./schema:FuzzImplyObjectTypes ./schema/pattern:FuzzTranslate ./schema/pattern:FuzzCost ./schema/example:FuzzOf \
	./schema:FuzzMembers ./internal/jsonindent:FuzzAppend

# fuzz-all runs every fuzz target for $(1). A run that fails with a bare
# "context deadline exceeded" and writes no failing input is a race in Go
# 1.26's fuzzing coordinator at the end of -fuzztime (go.dev/issue/75804),
# not a finding: it says so and runs the target once more.
define fuzz-all
	@set -e; log=$$(mktemp); \
	for t in $(FUZZ_TARGETS); do \
		for try in 1 2; do \
			echo "fuzz $$t for $(1)"; \
			{ $(GO) test $${t%%:*} -run '^$$' -fuzz "^$${t##*:}$$" -fuzztime $(1) && echo 0 >$$log.rc || echo 1 >$$log.rc; } 2>&1 | tee $$log; \
			[ "$$(cat $$log.rc)" != 0 ] || break; \
			if [ $$try = 2 ] || grep -q 'Failing input written to' $$log || ! grep -q '^    context deadline exceeded$$' $$log; then exit 1; fi; \
			echo "fuzz $$t: no failing input, only Go's race at the end of -fuzztime (go.dev/issue/75804): once more"; \
		done; \
	done; rm -f $$log $$log.rc
endef

# The first build compiles udtc and its dependencies: a minute or two
# without output, so it says so first.
build:
	@[ -x $(BIN) ] || echo "Building $(BIN) for the first time: compiling udtc and its dependencies takes a minute or two..."
	$(GO) build -o $(BIN) ./cmd/udtc

# TESTTIMEOUT replaces go test's 10-minute default per package: cmd/udtc's
# tests take about 400 s under -race on 2 busy cores, and a busy machine
# must not fail make test or make check.
TESTTIMEOUT ?= 30m

test:
	$(GO) test -timeout $(TESTTIMEOUT) ./...
	cd golden && $(GO) vet ./... && $(GO) test ./...

check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) mod tidy -diff
	cd golden && $(GO) mod tidy -diff
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) test -race -timeout $(TESTTIMEOUT) ./...
	cd golden && $(GO) vet ./... && $(GO) test ./...
	$(GO) test -timeout $(TESTTIMEOUT) -run '^$$' -bench . -benchtime 1x -skip '^BenchmarkBuildGenerated$$' ./...
	$(call fuzz-all,$(FUZZTIME))

# Rewrite every golden file after an intended output change, and review the
# diff: golden/<case>/ from udtc's own commands on fixtures/<case>/ (the
# golden driver, cmd/udtc/golden_test.go), and the generated docs
# (docs/manifest.schema.json, docs/project.schema.json, docs/rules.md).
golden:
	$(GO) test ./cmd/udtc -run '^TestGolden' -update

run: build
	./scripts/demo.sh

fuzz:
	$(call fuzz-all,5m)

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin out

-include bench/bench.mk
