#!/usr/bin/env bash
# Regenerates go/internal/gen (the code the runtime's tests, benchmarks and fuzzers use)
# from the repository's schemas. TestGeneratedCodeIsCurrent fails when it is stale.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf go/internal/gen
PYTHONPATH=$PWD/compiler python3 -m fastwire compile schemas/protocol.fbe schemas/everything.fbe \
    conformance/schemas/hostile.fbe schemas/service.fbe --lang go --final --json --proto -q \
    --go-import github.com/fastwire/fastwire/go/internal/gen -o go/internal/gen
