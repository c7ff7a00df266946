# Go: the runtime's tests (go/), bounded fuzzing, the conformance suite, and the
# examples (the C++ server <-> Go client exchange). `make fuzz-go GO_FUZZ_SECONDS=3600`
# fuzzes as long as asked (go/fuzz.sh runs one target and tells Go 1.26's end-of-run
# deadline race from a finding); `make bench-go` runs the benchmarks (benchstat-style medians).
GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
GO_ENV = GOTOOLCHAIN=local GOFLAGS=-mod=mod GOMAXPROCS=2
GO_FUZZ_SECONDS ?= 10
GO_FUZZ_TARGETS = FuzzVersioned FuzzFinal FuzzJSON

.PHONY: test-go fuzz-go bench-go lint-go

# make lint: gofmt over every hand-written Go file (the runtime, its tests, the examples,
# the conformance testee), go vet over the runtime and the examples (their code generated first).
GOFMT ?= $(dir $(GO))gofmt
lint-go:
	@$(BOOTSTRAP) go
	@out=$$(git ls-files '*.go' | grep -v '^tests/golden/' | xargs $(GOFMT) -l) || exit 1; \
	    if [ -n "$$out" ]; then echo "gofmt -l: not formatted:"; echo "$$out"; exit 1; fi
	go/generate.sh
	cd go && $(GO_ENV) $(GO) vet ./...
	examples/go/generate.sh
	cd examples/go && $(GO_ENV) $(GO) vet ./...
LANGUAGE_LINTS += lint-go

test-go:
	@$(BOOTSTRAP) go
	go/generate.sh
	cd go && $(GO_ENV) $(GO) vet ./...
	cd go && $(GO_ENV) FASTWIRE_CPP_SERVER=$(CURDIR)/$(BUILD)/examples/cpp/server $(GO) test -count=1 ./...
	go/fuzz_test.sh
	@for t in $(GO_FUZZ_TARGETS); do \
	    $(GO_ENV) GO=$(GO) go/fuzz.sh $$t $(GO_FUZZ_SECONDS) || exit 1; done
	$(LANG_CONFORMANCE) go
	examples/go/exchange.sh $(CURDIR)/$(BUILD)/examples/cpp/server
LANGUAGE_TESTS += test-go

fuzz-go:
	go/generate.sh
	@for t in $(GO_FUZZ_TARGETS); do \
	    $(GO_ENV) GO=$(GO) go/fuzz.sh $$t $(FUZZ_SECONDS) || exit 1; done

# Medians of 10 runs (wall time and CPU time per op) by benchstat (pinned; fetched through the Go module proxy once), and
# fastwire C++'s account benchmark in the same session for scale.
BENCHSTAT = golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
bench-go:
	@$(BOOTSTRAP) go
	go/generate.sh
	@mkdir -p build
	$(BENCH_RECORD) go --toolchain '$(GO) version' $(CPP_PEER) -- bash -c '\
	    cd go && $(GO_ENV) $(GO) test -run "^$$" -bench Account -benchmem -count 10 . > $(CURDIR)/build/go-bench.txt && \
	    $(GO_ENV) $(GO) run $(BENCHSTAT) $(CURDIR)/build/go-bench.txt && cd $(CURDIR) && \
	    if [ -x $(CPP_ACCOUNT_BENCH) ]; then $(CPP_ACCOUNT_BENCH) \
	        --benchmark_repetitions=10 --benchmark_report_aggregates_only=true | grep median; fi' 
LANGUAGE_BENCHES += bench-go

# `make fuzz FUZZ_SECONDS=N` fuzzes the Go targets too, N seconds each.
fuzz: fuzz-go
