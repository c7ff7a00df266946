#!/usr/bin/env bash
# Tests go/fuzz.sh's verdicts with a stand-in for `go` that prints what Go's fuzzing prints
# in each case (the race itself cannot be made to happen on demand):
#   a clean run passes; the bare deadline race passes only if the replay passes and no input
#   was written; a written input, a panic beside the deadline line, or a failed check fails; bad arguments are a
#   usage error (exit 2).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
TARGET=FuzzStandIn  # a name no real target has: its stored inputs are this test's own
trap 'rm -rf "$TMP" "$HERE/testdata/fuzz/$TARGET"; rmdir "$HERE/testdata/fuzz" "$HERE/testdata" 2>/dev/null' EXIT

cat > "$TMP/go" <<'GO'
#!/usr/bin/env bash
# FUZZ: pass | race | written | race-written | panic | check; REPLAY: pass | fail
if [[ " $* " == *" -fuzz "* ]]; then
    echo "fuzz: elapsed: 1s, execs: 34000 (34000/sec), new interesting: 0 (total: 94)"
    case $FUZZ in
    pass) printf 'PASS\nok  \tgithub.com/fastwire-fbe/fastwire/go\t1.0s\n'; exit 0 ;;
    race) printf -- '--- FAIL: FuzzStandIn (1.01s)\n    context deadline exceeded\nFAIL\nexit status 1\n' ;;
    written) mkdir -p testdata/fuzz/FuzzStandIn && echo 'go test fuzz v1' > testdata/fuzz/FuzzStandIn/0123abcd
        printf -- '--- FAIL: FuzzStandIn (0.20s)\n    --- FAIL: FuzzStandIn (0.00s)\n        fuzz_test.go:9: bad\n\n'
        printf -- '    Failing input written to testdata/fuzz/FuzzStandIn/0123abcd\nFAIL\nexit status 1\n' ;;
    race-written) mkdir -p testdata/fuzz/FuzzStandIn && echo 'go test fuzz v1' > testdata/fuzz/FuzzStandIn/0123abcd
        printf -- '--- FAIL: FuzzStandIn (1.01s)\n    context deadline exceeded\nFAIL\n' ;;
    panic) printf -- '--- FAIL: FuzzStandIn (1.01s)\n    context deadline exceeded\n    panic: boom\nFAIL\n' ;;
    check) printf -- '--- FAIL: FuzzStandIn (0.10s)\n    fuzz_test.go:9: the JSON did not round-trip\nFAIL\n' ;;
    esac
    exit 1
fi
[ "$REPLAY" = pass ]
GO
chmod +x "$TMP/go"

failures=0
expect() {  # expect RC FUZZ REPLAY [ARGS...]: ARGS default to "$TARGET 1"; "-" alone is none
    local want=$1 fuzz=$2 replay=$3; shift 3
    [ $# -gt 0 ] || set -- "$TARGET" 1
    [ "$*" != - ] || set --
    FUZZ=$fuzz REPLAY=$replay GO="$TMP/go" "$HERE/fuzz.sh" "$@" >/dev/null 2>&1
    local got=$?
    rm -rf "$HERE/testdata/fuzz/$TARGET"
    if [ "$got" != "$want" ]; then
        echo "fuzz_test.sh: fuzz=$fuzz replay=$replay args=[$*]: exit $got, expected $want" >&2
        failures=$((failures + 1))
    fi
}
expect 0 pass pass
expect 0 race pass
expect 1 race fail
expect 1 written pass
expect 1 race-written pass
expect 1 panic pass
expect 1 check pass
expect 2 pass pass -
expect 2 pass pass "$TARGET"
expect 2 pass pass "$TARGET" 0
expect 2 pass pass "$TARGET" 10s
expect 2 pass pass "$TARGET" 1 extra
expect 2 pass pass "-run=." 1
[ "$failures" = 0 ] && echo "go/fuzz_test.sh: 13 verdicts as expected"
