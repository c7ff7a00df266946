#!/usr/bin/env bash
# Generates go/internal/gen (the code the runtime's tests, benchmarks and fuzzers use)
# from the repository's schemas. Not checked in (tests/golden/go is the reviewed copy):
# make test-go, fuzz-go and bench-go run this first; by hand, run it (or `go generate`)
# before `go test`. TestGeneratedCodeIsCurrent fails when the copy in use is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf go/internal/gen
PYTHONPATH=$PWD/compiler python3 -m fastwire compile schemas/protocol.fbe schemas/everything.fbe \
    conformance/schemas/hostile.fbe schemas/service.fbe --lang go --final --json --proto -q \
    --go-import github.com/fastwire-fbe/fastwire/go/internal/gen -o go/internal/gen
