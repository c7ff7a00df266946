#!/usr/bin/env bash
# The cross-language check: the C++ example server ($1, examples/cpp/server) and the Go
# example client exchange the seed messages over loopback, in both formats; then the Go
# account and protocol examples print what the C++ ones print.
set -euo pipefail
server=${1:?usage: exchange.sh PATH-TO-examples/cpp/server}
[ -x "$server" ] || { echo "exchange.sh: the C++ example server $server is missing (make build)" >&2; exit 1; }
cd "$(dirname "$0")"
./generate.sh
export GOTOOLCHAIN=local GOFLAGS=-mod=mod
go build -o ../../build/examples/go/ ./account ./protocol ./client
bin=../../build/examples/go
"$bin/account" | diff - ../cpp/expected_account.txt
"$bin/protocol" | diff - ../cpp/expected_protocol.txt
for flag in "" --final; do
    out=$(mktemp)
    "$server" 127.0.0.1 0 $flag >"$out" 2>/dev/null &
    pid=$!
    for _ in $(seq 100); do [ -s "$out" ] && break; sleep 0.05; done
    port=$(awk '{print $3; exit}' "$out")
    "$bin/client" 127.0.0.1 "$port" $flag | tail -1 | grep -qx ok || { kill $pid; echo "exchange.sh: Go client failed ($flag)" >&2; exit 1; }
    kill -TERM $pid
    wait $pid
    rm -f "$out"
    echo "go client <-> C++ server ${flag:-(versioned)}: ok"
done
