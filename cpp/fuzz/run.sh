#!/usr/bin/env bash
# Builds the libFuzzer targets with clang++-14 (-fsanitize=fuzzer,address,undefined) and
# runs each for a bounded time on a seed corpus made from tests/vectors/. Exits non-zero
# on any finding (crash, sanitizer report, leak, timeout, out-of-memory), leaving the
# reproducer in build/fuzz/findings/.
#
#   cpp/fuzz/run.sh            # 30 s per target (make test)
#   cpp/fuzz/run.sh 3600       # an hour per target (make fuzz FUZZ_SECONDS=3600)
#
# Targets run FUZZ_JOBS at a time (default 2, the cores this machine has), so the wall
# time is about ceil(4 / FUZZ_JOBS) x seconds: one minute for `make test`.
#
# Regressions: a finding's reproducer, once fixed, goes into cpp/fuzz/regressions/<target>/
# (and into a GoogleTest in cpp/tests/); every run replays those first.
set -euo pipefail
seconds="${1:-30}"
jobs="${FUZZ_JOBS:-2}"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build="${FASTWIRE_FUZZ_BUILD:-$repo/build/fuzz}"
vectors="$repo/tests/vectors"
targets=(final versioned receiver json)

CXX="${CXX_FUZZ:-clang++-14}" cmake -S "$here" -B "$build" -G Ninja >/dev/null
cmake --build "$build" -j2

# Seed corpora. receiver: the golden streams and models behind a chunking byte. versioned,
# final: each golden model behind the byte that picks its type (roundtrip.h: 0 Account,
# 1 Order, 2 Balance). json: the golden JSON texts.
mkdir -p "$build/findings"
for t in "${targets[@]}"; do mkdir -p "$build/corpus/$t"; done
for f in "$vectors"/*.hex; do
  name="$(basename "$f" .hex)"
  { printf '\x05'; xxd -r -p "$f"; } > "$build/corpus/receiver/$name"
done
for pair in account:00 order:01 balance:02; do
  name="${pair%%:*}" pick="${pair##*:}"
  { printf "\\x$pick"; xxd -r -p "$vectors/$name.fbe.hex"; } > "$build/corpus/versioned/$name"
  { printf "\\x$pick"; xxd -r -p "$vectors/$name.final.hex"; } > "$build/corpus/final/$name"
done
cp "$vectors"/*.json "$build/corpus/json/"
printf '{"f_map":{"1":"a"},"f_hash":{"123e4567-e89b-12d3-a456-426655440000":"AQ=="},"f_hash_struct_key":[[{"uid":1},{}]]}' \
  > "$build/corpus/json/collections.json"

run_one() {
  local t="$1" dirs=("$build/corpus/$1")
  [ -d "$here/regressions/$t" ] && dirs+=("$here/regressions/$t")
  local rc=0
  "$build/fuzz_$t" "${dirs[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -artifact_prefix="$build/findings/$t-" -print_final_stats=1 >"$build/fuzz_$t.log" 2>&1 || rc=$?
  echo "$rc" >"$build/fuzz_$t.rc"
}

echo "fuzzing ${#targets[@]} targets, ${seconds} s each, ${jobs} at a time"
status=0
running=0
for t in "${targets[@]}"; do
  rm -f "$build/fuzz_$t.rc"
  run_one "$t" &
  running=$((running + 1))
  if (( running == jobs )); then
    wait
    running=0
  fi
done
wait
for t in "${targets[@]}"; do
  if [ "$(cat "$build/fuzz_$t.rc" 2>/dev/null || echo missing)" != 0 ]; then
    echo "fuzz_$t: FINDING (see $build/fuzz_$t.log and $build/findings/)"
    tail -40 "$build/fuzz_$t.log"
    status=1
  else
    runs="$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$build/fuzz_$t.log" | grep -oE '[0-9]+$' || echo '?')"
    cov="$(grep -oE 'cov: [0-9]+' "$build/fuzz_$t.log" | tail -1 | grep -oE '[0-9]+$' || echo '?')"
    echo "fuzz_$t: ok, ${runs} runs, coverage ${cov} edges"
  fi
done
exit $status
