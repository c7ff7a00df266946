#!/usr/bin/env bash
# Builds the Rust fuzz target with the nightly toolchain, libFuzzer (libfuzzer-sys) and
# AddressSanitizer, the flags cargo-fuzz passes, and runs it for SECONDS (default 30).
# Seeds: the golden vectors, each behind the type/format byte. Without a nightly
# toolchain it says so and exits 0 (make test must not fail where nightly is absent).
#   rust/fuzz/run.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_TO_RUN=${1:-30}
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "fuzz-rust: no nightly toolchain (rustup toolchain install nightly): skipped" >&2
    exit 0
fi
REPO=$(cd ../.. && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/build/rust/fuzz-target}
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions -Zsanitizer=address"
TARGET=$(rustc +nightly -vV | sed -n 's/^host: //p')
cargo +nightly build -q --release --target "$TARGET" -j "${JOBS:-2}" --bin decode
BIN=$CARGO_TARGET_DIR/$TARGET/release/decode
CORPUS=$REPO/build/rust/fuzz-corpus/decode
mkdir -p "$CORPUS"
python3 - "$REPO" "$CORPUS" <<'PY'
import os, sys
repo, corpus = sys.argv[1], sys.argv[2]
vec = os.path.join(repo, "tests", "vectors")
def data(name):
    return bytes.fromhex(open(os.path.join(vec, name)).read())
# pick = 3 * type index + mode (type 0: proto.Account, 1: proto.Order)
seeds = {"account.v": bytes([0]) + data("account.fbe.hex"),
         "account.f": bytes([1]) + data("account.final.hex"),
         "account.j": bytes([2]) + open(os.path.join(vec, "account.json"), "rb").read(),
         "order.v": bytes([3]) + data("order.fbe.hex"),
         "order.f": bytes([4]) + data("order.final.hex")}
for k, v in seeds.items():
    open(os.path.join(corpus, k), "wb").write(v)
PY
REGRESSIONS=$(pwd)/regressions
mkdir -p "$REGRESSIONS"
"$BIN" -runs=0 "$REGRESSIONS" >/dev/null 2>&1 || { echo "fuzz-rust: a regression input fails" >&2; exit 1; }
echo "fuzz-rust: decode for ${SECONDS_TO_RUN}s" >&2
ARTIFACTS=$REPO/build/rust/fuzz-artifacts/
mkdir -p "$ARTIFACTS"
# A finding is written to $ARTIFACTS; keep it in rust/fuzz/regressions/ once fixed.
"$BIN" -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -print_final_stats=0 \
    -artifact_prefix="$ARTIFACTS" "$CORPUS" > "$ARTIFACTS/last.log" 2>&1 || {
    tail -40 "$ARTIFACTS/last.log" >&2
    echo "fuzz-rust: a finding; its input is in $ARTIFACTS" >&2
    exit 1
}
tail -1 "$ARTIFACTS/last.log" >&2
