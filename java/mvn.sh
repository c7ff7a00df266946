#!/usr/bin/env bash
# Maven for the JVM build: quiet, batch, one thread, niced; offline (-o) once every
# dependency is cached in ~/.m2, online only when the offline run says something is
# missing (a clean machine's first build fetches from Maven Central).
set -uo pipefail
cd "$(dirname "$0")"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
nice -n 5 mvn -q -B -T 1 -o "$@" >"$log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "offline mode" "$log"; then
    nice -n 5 mvn -q -B -T 1 "$@"
    exit $?
fi
cat "$log"
exit $rc
