#!/usr/bin/env bash
# Instructions per iteration of each account benchmark, under callgrind: repeatable on a
# loaded machine, so a before/after comparison of a runtime change can be exact.
#
#   cpp/bench/callgrind.sh [build/release/cpp/bench/fastwire_account_bench]
#
# Each benchmark runs twice, for 1000 and for 11000 iterations (FASTWIRE_BENCH_ITERATIONS),
# counting only inside the benchmark's function; the difference / 10000 is the cost of one
# iteration with the one-off setup cancelled out.
set -euo pipefail
bin=${1:-build/release/cpp/bench/fastwire_account_bench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v valgrind >/dev/null || { echo "callgrind.sh: needs valgrind" >&2; exit 1; }

count() {  # name function iterations -> Ir
  FASTWIRE_BENCH_ITERATIONS=$3 valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
    --toggle-collect="*::$2<*" "$bin" --benchmark_filter="^$1(/|\$)" >/dev/null 2>&1
  awk '/^summary:/ {print $2}' "$tmp/out"
}

printf '%-30s %12s\n' benchmark 'Ir/iteration'
for entry in BM_Serialize:Serialize BM_Deserialize:Deserialize BM_DeserializeNewTarget:DeserializeNewTarget \
             BM_Verify:Verify BM_FinalSerialize:Serialize BM_FinalDeserialize:Deserialize \
             BM_FinalDeserializeNewTarget:DeserializeNewTarget BM_FinalVerify:Verify; do
  name=${entry%%:*} fn=${entry#*:}
  a=$(count "$name" "$fn" 1000)
  b=$(count "$name" "$fn" 11000)
  printf '%-30s %12s\n' "$name" "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.1f", (b - a) / 10000}')"
done
