# fastwire: the two commands a newcomer needs are `make bench` and `make test`.
# Every target runs scripts/bootstrap first, which installs only what is missing.

SHELL := /bin/bash
PYTHON ?= python3
JOBS ?= 2
export PYTHONPATH := $(CURDIR)/compiler$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: all bootstrap build test test-compiler test-python test-conformance test-bench bench examples clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(PYTHON) -m fastwire check schemas/proto.fbe schemas/protoex.fbe schemas/everything.fbe

# Every test, every language.
test: bootstrap test-compiler test-python test-conformance test-bench

test-compiler:
	$(PYTHON) -m pytest -q compiler/tests

test-python:
	$(PYTHON) -m pytest -q python/tests

# One suite, every language: each testee must give the bytes the cases expect.
test-conformance:
	$(PYTHON) conformance/run.py --all

# The benchmark's smoke run: every peer round-trips every data set (no timing kept).
test-bench:
	bench/run --quick
	$(PYTHON) -m pytest -q bench/tests

# The comparison table: fastwire against the peers on the seed data sets.
bench: bootstrap
	bench/run

examples: bootstrap

clean:
	rm -rf build
