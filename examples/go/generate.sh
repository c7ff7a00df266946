#!/usr/bin/env bash
# Generates examples/go/gen from schemas/proto.fbe and schemas/service.fbe, as a user of
# fastwire would (go/README.md). Not checked in: exchange.sh runs this before it builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf examples/go/gen
PYTHONPATH=$PWD/compiler python3 -m fastwire compile schemas/proto.fbe schemas/service.fbe \
    --lang go --final --json --proto -q --go-import fastwire.examples/gen -o examples/go/gen
