# fastwire: the two commands a newcomer needs are `make bench` and `make test`.
# Every target runs scripts/bootstrap first, which installs only what is missing.

SHELL := /bin/bash
PYTHON ?= python3
JOBS ?= 2
export PYTHONPATH := $(CURDIR)/compiler$(if $(PYTHONPATH),:$(PYTHONPATH))

.PHONY: all bootstrap build test test-compiler bench examples clean

all: build

bootstrap:
	@scripts/bootstrap

build: bootstrap
	$(PYTHON) -m fastwire check schemas/proto.fbe schemas/protoex.fbe schemas/everything.fbe

test: bootstrap test-compiler

test-compiler:
	$(PYTHON) -m pytest -q compiler/tests

bench: bootstrap
	$(PYTHON) -m fastwire compile schemas/proto.fbe --emit ir-json -o build/ir

examples: bootstrap

clean:
	rm -rf build
