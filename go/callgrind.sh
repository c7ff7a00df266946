#!/usr/bin/env bash
# Instructions per operation of the seed account benchmarks, under callgrind: exact and
# repeatable on a loaded host, so a before/after comparison of a generator or runtime
# change does not depend on the load (timings do).
#
#   go/callgrind.sh            # after go/generate.sh
#
# TestCallgrindLoops (bench_test.go) calls each operation N times inside a function of
# its own; the function's inclusive count / N is one operation.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "callgrind.sh: needs valgrind" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=20000
# No cgo (callgrind trips over its signal set-up), no asynchronous preemption signals.
CGO_ENABLED=0 GOTOOLCHAIN=local GOFLAGS=-mod=mod go test -c -o "$tmp/t.test" .
FASTWIRE_CALLGRIND_N=$n GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
    --callgrind-out-file="$tmp/out" "$tmp/t.test" -test.run '^TestCallgrindLoops$' -test.count 1 >/dev/null 2>&1
callgrind_annotate --inclusive=yes --threshold=100 "$tmp/out" | awk -v n=$n '
    /_test\.cg[A-Za-z]+ \[/ {
        gsub(",", "", $1); name = $0; sub(/.*_test\.cg/, "", name); sub(/ .*/, "", name)
        printf "%-24s %8.1f Ir/op\n", name, $1 / n }'
