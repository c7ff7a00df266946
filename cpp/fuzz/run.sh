#!/usr/bin/env bash
# Builds the libFuzzer targets with clang++-14 and runs each for a bounded time (default
# 30 s) on a seed corpus made from tests/vectors/. Exits non-zero on any finding (crash,
# sanitizer report, leak, timeout), leaving the reproducer in build/fuzz/findings/.
#
#   cpp/fuzz/run.sh            # 30 s per target
#   cpp/fuzz/run.sh 300        # longer
set -euo pipefail
seconds="${1:-30}"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${FASTWIRE_FUZZ_BUILD:-$repo/build/fuzz}"
vectors="$repo/tests/vectors"

CXX="${CXX_FUZZ:-clang++-14}" cmake -S "$here" -B "$build" -G Ninja >/dev/null
cmake --build "$build" -j2

# Seed corpora: the golden streams and models (binary, with a leading chunking byte) and
# the golden JSON texts.
mkdir -p "$build/corpus/receiver" "$build/corpus/json" "$build/findings"
for f in "$vectors"/*.hex; do
  name="$(basename "$f" .hex)"
  { printf '\x05'; xxd -r -p "$f"; } > "$build/corpus/receiver/$name"
done
cp "$vectors"/*.json "$build/corpus/json/"
printf '{"f_map":{"1":"a"},"f_hash":{"123e4567-e89b-12d3-a456-426655440000":"AQ=="},"f_hash_struct_key":[[{"uid":1},{}]]}' \
  > "$build/corpus/json/collections.json"

status=0
for target in receiver json; do
  # Every past finding first: each must now run clean.
  shopt -s nullglob
  regressions=("$here/regressions/$target"-*)
  shopt -u nullglob
  if ((${#regressions[@]})) && ! "$build/fuzz_$target" "${regressions[@]}" 2>"$build/fuzz_$target.regressions.log"; then
    echo "fuzz_$target: a past finding fails again (see $build/fuzz_$target.regressions.log)"
    tail -20 "$build/fuzz_$target.regressions.log"
    status=1
  fi
  echo "fuzz_$target: ${seconds} s"
  if ! "$build/fuzz_$target" "$build/corpus/$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
       -timeout=10 -artifact_prefix="$build/findings/${target}-" -print_final_stats=1 2>"$build/fuzz_$target.log"; then
    echo "fuzz_$target: FINDING (see $build/fuzz_$target.log and $build/findings/)"
    tail -40 "$build/fuzz_$target.log"
    status=1
  else
    grep -E 'stat::number_of_executed_units|Done' "$build/fuzz_$target.log" | tail -2 || true
  fi
done
exit $status
