# udtc: `make run` shows the whole job, `make test` runs the tests (Go only).
# `make check` is what CI adds: formatting, go.mod tidiness, vet, staticcheck,
# race tests, the golden Go module and a short fuzz run.

GO          ?= go
BIN         := bin/udtc
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME    ?= 15s

.PHONY: build test check run fmt golden fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/udtc

test:
	$(GO) test ./...
	cd golden && $(GO) vet ./... && $(GO) test ./...

check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) mod tidy -diff
	cd golden && $(GO) mod tidy -diff
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) test -race ./...
	cd golden && $(GO) vet ./... && $(GO) test ./...
	$(GO) test ./generator -run '^$$' -fuzz FuzzCheck -fuzztime $(FUZZTIME)
	$(GO) test ./generator/manifest -run '^$$' -fuzz FuzzLoadJSON -fuzztime $(FUZZTIME)
	$(GO) test ./registry/admission -run '^$$' -fuzz FuzzAdmit -fuzztime $(FUZZTIME)
	$(GO) test ./registry/server -run '^$$' -fuzz FuzzResourcePut -fuzztime $(FUZZTIME)
	$(GO) test ./registry/egress -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME)

# Rewrite every golden file after an intended output change, and review the
# diff: golden/<case>/ from udtc's own commands on fixtures/<case>/ (the
# golden driver, cmd/udtc/golden_test.go), and the generated docs
# (docs/manifest.schema.json, docs/project.schema.json, docs/rules.md).
golden:
	$(GO) test ./cmd/udtc -run '^TestGolden' -update

run: build
	./scripts/demo.sh

fuzz:
	$(GO) test ./generator -run '^$$' -fuzz FuzzCheck -fuzztime 5m
	$(GO) test ./generator/manifest -run '^$$' -fuzz FuzzLoadJSON -fuzztime 5m
	$(GO) test ./registry/admission -run '^$$' -fuzz FuzzAdmit -fuzztime 5m
	$(GO) test ./registry/server -run '^$$' -fuzz FuzzResourcePut -fuzztime 5m
	$(GO) test ./registry/egress -run '^$$' -fuzz FuzzParse -fuzztime 5m

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin out

-include bench/bench.mk
