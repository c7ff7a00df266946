# fastwire: the two commands a newcomer needs are `make bench` and `make test`.
# Each target first runs `scripts/bootstrap GROUP` for what it needs (build, python, lint,
# fuzz, bench), which installs only what is missing; `make test` and `make bench` set up
# everything they run on a fresh machine.

SHELL := /bin/bash
PYTHON ?= python3
JOBS ?= 2
BUILD ?= build/release
ASAN_BUILD ?= build/asan
FUZZ_SECONDS ?= 30
FUZZ_SCHEMAS ?= 200
SOAK_SCHEMAS ?= 100
export PYTHONPATH := $(CURDIR)/compiler$(if $(PYTHONPATH),:$(PYTHONPATH))

BOOTSTRAP = scripts/bootstrap

.PHONY: all bootstrap build lint format test test-compiler test-python test-cpp test-cpp-asan \
        test-fuzz test-conformance test-bench test-install test-bootstrap test-docs bench bench-transport \
        examples fuzz soak soak-compiler clean

all: build

bootstrap:
	@$(BOOTSTRAP) all

# The C++ runtime's tests, benchmarks and examples, with code generated from schemas/.
build:
	@$(BOOTSTRAP) build
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

# Lint and format checks: ruff (Python), clang-format (C++), mypy (types; mypy.ini),
# clang-tidy (the runtime headers; .clang-tidy). `make format` applies the C++ style.
# Then each language's lint-<language> from its lang.mk (LANGUAGE_LINTS): gofmt and go vet;
# prettier, eslint and tsc; Checkstyle, ktlint and javac -Xlint:all; rustfmt; RuboCop.
# (Clippy runs in test-rust, C#'s warnings-as-errors build in test-csharp: both compile.)
# mypy runs once per group: each has top-level modules of its own (two conftest.py).
# The generated Python is checked too: schemas/ and hostile.fbe compiled into a package
# (build/lint/package/fastwire_generated, `mypy -p`), and side by side (build/lint/modules),
# where the tests and the benchmark import it with its real types.
CPP_SOURCES = git ls-files '*.h' '*.cpp' | grep -v '^tests/golden/'
LINT_GEN = build/lint
lint:
	@$(BOOTSTRAP) lint
	ruff check .
	$(CPP_SOURCES) | xargs clang-format-14 --dry-run -Werror
	rm -rf $(LINT_GEN) && mkdir -p $(LINT_GEN)/package
	$(PYTHON) -m fastwire compile schemas/*.fbe conformance/schemas/hostile.fbe --lang python \
	    --final --json --proto -q -o $(LINT_GEN)/modules
	cp -r $(LINT_GEN)/modules $(LINT_GEN)/package/fastwire_generated
	touch $(LINT_GEN)/package/fastwire_generated/__init__.py
	MYPYPATH=$(LINT_GEN)/package mypy -p fastwire_generated
	MYPYPATH=$(LINT_GEN)/modules mypy python/fastwire_runtime python/bench conformance \
	    --exclude 'conformance/[^/]+/build\.py$$'
	@# each language's testee build script alone: they share the module name "build"
	@for f in conformance/*/build.py; do echo "mypy $$f"; mypy $$f || exit 1; done
	MYPYPATH=$(LINT_GEN)/modules mypy python/tests
	mypy bench
	mypy docs/tests
	mypy compiler/fastwire
	@for h in $$(cd cpp/include && ls fastwire/*.h fastwire/internal/*.h); do \
	    grep -q "<$$h>" cpp/lint/headers.cpp || { echo "lint: cpp/lint/headers.cpp does not include $$h"; exit 1; }; done
	clang-tidy-14 --quiet cpp/lint/headers.cpp -- -std=c++17 -Icpp/include
	$(if $(LANGUAGE_LINTS),@$(MAKE) --no-print-directory $(LANGUAGE_LINTS))

format:
	@$(BOOTSTRAP) lint
	$(CPP_SOURCES) | xargs clang-format-14 -i
	ruff check --fix --select I .

# Each language beyond C++ and Python brings its own targets in <language>/lang.mk: test-<language>
# (added to LANGUAGE_TESTS), lint-<language> (LANGUAGE_LINTS, run by make lint), and
# bench-<language> where it has one (LANGUAGE_BENCHES).
LANGUAGE_TESTS :=
LANGUAGE_LINTS :=
# A language's bench-<language> runs its measurement through bench/record.py, which writes
# bench/results/<language>.md (the output, the machine, the date, the load, the peers).
BENCH_RECORD = $(PYTHON) bench/record.py
CPP_ACCOUNT_BENCH = $(BUILD)/cpp/bench/fastwire_account_bench
CPP_PEER = $(if $(wildcard $(CPP_ACCOUNT_BENCH)),--peer 'fastwire C++ ($(CPP_ACCOUNT_BENCH), the same session)')
LANGUAGE_BENCHES :=
# A language's test target runs its own conformance cases with $(LANG_CONFORMANCE) <lang>;
# under `make test` that step is a no-op, since test-conformance runs every language once.
LANG_CONFORMANCE = $(PYTHON) conformance/run.py --lang
test: LANG_CONFORMANCE = : conformance runs in test-conformance:
include $(wildcard go/lang.mk rust/lang.mk ts/lang.mk java/lang.mk csharp/lang.mk ruby/lang.mk)

# Every test, every language.
test: test-bootstrap lint test-compiler test-python test-cpp test-cpp-asan test-fuzz $(LANGUAGE_TESTS) \
      test-conformance test-bench test-install test-docs

test-bootstrap:
	@$(BOOTSTRAP) test

test-compiler:
	@$(BOOTSTRAP) python
	$(PYTHON) -m pytest -q compiler/tests

# The Markdown files: every repository path they name exists, every block marked
# `<!-- example: NAME -->` compiles and runs and prints its `<!-- output: NAME -->` block
# (docs/tests/test_docs.py says how; C++ examples build in build/docs-examples).
test-docs:
	@$(BOOTSTRAP) build python
	JOBS=$(JOBS) $(PYTHON) -m pytest -q docs/tests

test-python:
	@$(BOOTSTRAP) python
	$(PYTHON) -m pytest -q python/tests

# A fresh venv installs both wheels (fastwire-fbe, fastwire-fbe-runtime) and runs the README.
test-install:
	@$(BOOTSTRAP) python
	$(PYTHON) -m pytest -q tests/install

test-cpp: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

# The same C++ tests under AddressSanitizer and UndefinedBehaviorSanitizer.
test-cpp-asan:
	@$(BOOTSTRAP) build
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DFASTWIRE_SANITIZE=ON \
	      -DFASTWIRE_BUILD_BENCH=OFF >/dev/null
	cmake --build $(ASAN_BUILD) -j$(JOBS)
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j$(JOBS)

# Each libFuzzer target for a bounded time; a finding fails the run.
test-fuzz:
	@$(BOOTSTRAP) build fuzz
	cpp/fuzz/run.sh $(FUZZ_SECONDS)

# As long as asked: make fuzz FUZZ_SECONDS=3600 FUZZ_SCHEMAS=1000 (random valid schemas whose
# generated code must build in every language; make test runs 20, make soak SOAK_SCHEMAS)
fuzz:
	@$(BOOTSTRAP) build fuzz
	FASTWIRE_FUZZ_SCHEMAS=$(FUZZ_SCHEMAS) $(PYTHON) -m pytest -q compiler/tests/test_generated_code.py -k random \
	    --durations=0
	cpp/fuzz/run.sh $(FUZZ_SECONDS)

# One suite, every language: each testee must give the bytes the cases expect. First:
# are the checked-in cases what make_cases.py (driving the C++ testee) writes today?
test-conformance:
	@$(BOOTSTRAP) build python
	$(PYTHON) conformance/make_cases.py --check
	$(PYTHON) conformance/run.py --all

# The benchmark's smoke run: every peer round-trips every data set (no timing kept).
test-bench:
	@$(BOOTSTRAP) bench
	bench/run --quick
	$(PYTHON) -m pytest -q bench/tests

# The comparison table: fastwire against the peers on the seed data sets (C++; writes
# bench/results/latest.md). Python's: make bench-python (bench/results/python.md).
.PHONY: bench-python
bench-python:
	@$(BOOTSTRAP) python
	$(BENCH_RECORD) python --toolchain '$(PYTHON) --version' -- $(PYTHON) python/bench/account_bench.py --repeat 51

bench:
	@$(BOOTSTRAP) bench
	bench/run

# The transport's benchmark (docs/transport.md, "Throughput and latency"): fastwire::net
# request/response on loopback against raw sockets and Cap'n Proto RPC; median of 5 runs.
# make test builds it and runs its smoke mode (--quick) under ctest.
bench-transport: build
	$(BUILD)/cpp/bench/fastwire_transport_bench

examples: build
	$(BUILD)/examples/cpp/account
	$(BUILD)/examples/cpp/protocol
	ctest --test-dir $(BUILD) -R '^example_' --output-on-failure

# The transport's load test at full size (docs/transport.md, "Load"): 1000 clients x 1000
# rounds against examples/cpp/server, then 1000 Python asyncio clients x 50 rounds; then
# SOAK_SCHEMAS random valid schemas (make test: 20) built in every language, with each
# language's time; then the compiler at scale (soak-compiler).
soak: build
	$(BUILD)/cpp/tests/transport/fastwire_transport_load --server $(BUILD)/examples/cpp/server \
	    --clients 1000 --rounds 1000 --limit-seconds 600
	FASTWIRE_LOAD_CLIENTS=1000 FASTWIRE_LOAD_ROUNDS=50 $(PYTHON) -m pytest -q -s python/tests/test_transport.py -k load
	@$(BOOTSTRAP) test
	FASTWIRE_FUZZ_SCHEMAS=$(SOAK_SCHEMAS) $(PYTHON) -m pytest -q compiler/tests/test_generated_code.py -k random \
	    --durations=0
	$(MAKE) soak-compiler

# The compiler on a ~10 MB schema of many types and on a struct of 100,000 fields: check and
# generation per language, seconds and peak RSS (the goal: each under 10 s and 1 GiB).
soak-compiler:
	$(PYTHON) compiler/bench/scale.py

clean:
	rm -rf build
