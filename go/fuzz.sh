#!/usr/bin/env bash
# Fuzzes one Go target for SECONDS with `go test -fuzz`:
#   go/fuzz.sh TARGET SECONDS
#
# Go 1.26's fuzzing coordinator can end a healthy run with a bare
#   --- FAIL: FuzzX (10.08s)
#       context deadline exceeded
# when -fuzztime's deadline fires while a worker is between inputs (golang/go#75804,
# fixed in Go 1.27). That failure names no input and writes none. So a run that fails
# with exactly that and nothing else, and wrote no new input under testdata/fuzz/TARGET,
# is replayed over its seeds and stored inputs (`go test -run '^TARGET$'`) and passes
# when they pass. Any other failure (a panic, a failed check, a written input) fails.
set -uo pipefail
if [ $# -ne 2 ] || ! [[ $1 =~ ^Fuzz[A-Za-z0-9_]*$ ]] || ! [[ $2 =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: go/fuzz.sh FuzzTARGET SECONDS   (SECONDS a whole number above 0)" >&2
    exit 2
fi
cd "$(dirname "$0")"
TARGET=$1
SECS=$2
GO=${GO:-go}
STORED=testdata/fuzz/$TARGET
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

inputs() { [ -d "$STORED" ] && ls "$STORED"; true; }
BEFORE=$(inputs)
"$GO" test -run '^$' -fuzz "^$TARGET\$" -fuzztime "${SECS}s" . 2>&1 | tee "$LOG"
RC=${PIPESTATUS[0]}
[ "$RC" = 0 ] && exit 0

if [ "$(inputs)" != "$BEFORE" ]; then
    echo "fuzz-go: $TARGET wrote a failing input under go/$STORED" >&2
    exit 1
fi
# The lines between "--- FAIL: TARGET" and the package's closing FAIL, blanks dropped.
REASON=$(awk -v t="--- FAIL: $TARGET " '
    index($0, t) == 1 { on = 1; next }
    on && /^(FAIL|exit status)/ { on = 0 }
    on && NF { sub(/^[ \t]+/, ""); print }' "$LOG")
if [ "$REASON" != "context deadline exceeded" ]; then
    exit 1
fi
echo "fuzz-go: $TARGET ended on Go's fuzzing-deadline race (golang/go#75804), no input written;" \
    "replaying its seeds and stored inputs" >&2
"$GO" test -count=1 -run "^$TARGET\$" . || exit 1
echo "fuzz-go: $TARGET replay passed" >&2
