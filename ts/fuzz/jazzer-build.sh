#!/usr/bin/env bash
# Makes what `jazzer fuzz/jazzer.cjs` needs (run from ts/, after `make ts-build`):
#  1. Jazzer.js's native addon. Its npm package (@jazzer.js/fuzzer 2.1.0, pinned in
#     package-lock.json, installed with --ignore-scripts) would fetch a prebuilt addon or
#     LLVM's sources from GitHub at install; instead its C++ sources are compiled here
#     against Debian's libFuzzer (libclang-rt-14-dev) and the Node-API headers of the npm
#     package node-api-headers, with shim/ supplying what Jazzer's fork of libFuzzer adds.
#     (4.0, the newest, ships only a prebuilt addon that needs glibc 2.38; Debian 12 has 2.36.)
#  2. A CommonJS build of the runtime and of the generated code (build/ts/cjs): Jazzer.js
#     2.x instruments what `require` loads, not ES modules.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(cd .. && pwd)
OUT=$ROOT/build/ts/cjs
FUZZER=node_modules/@jazzer.js/fuzzer
ADDON=$FUZZER/build/Release/jazzerjs.node
LIBFUZZER=${LIBFUZZER:-$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | sort -V | tail -1)}
if [ -z "$LIBFUZZER" ]; then
  echo "jazzer-build: libclang_rt.fuzzer_no_main-x86_64.a not found (Debian: libclang-rt-14-dev)" >&2
  exit 1
fi

sources=("$FUZZER"/*.cpp "$FUZZER"/shared/*.cpp fuzz/shim/upstream.cpp)
if [ ! -f "$ADDON" ] || [ -n "$(find "${sources[@]}" fuzz/shim/fuzzer/FuzzerDefs.h "$LIBFUZZER" -newer "$ADDON")" ]; then
  mkdir -p "$(dirname "$ADDON")"
  echo "jazzer-build: compiling Jazzer.js's addon against $LIBFUZZER"
  ${CXX:-g++} -O2 -fPIC -shared -std=c++17 -DNAPI_VERSION=4 -DNAPI_CPP_EXCEPTIONS \
    -Inode_modules/node-api-headers/include -Inode_modules/node-addon-api -Ifuzz/shim \
    "${sources[@]}" -Wl,--whole-archive "$LIBFUZZER" -Wl,--no-whole-archive -lpthread -o "$ADDON.tmp"
  mv "$ADDON.tmp" "$ADDON"
fi

# the CommonJS flavor: the runtime in runtime/, the generated code in gen/ requiring it
if [ ! -f "$OUT/stamp" ] || [ -n "$(find src "$ROOT/build/ts/gen" -newer "$OUT/stamp" -name '*.[jt]s' | head -1)" ]; then
  rm -rf "$OUT" && mkdir -p "$OUT/runtime" "$OUT/gen"
  printf '{"type": "commonjs"}\n' > "$OUT/package.json"
  ./node_modules/.bin/tsc -p tsconfig.json --module commonjs --moduleResolution node10 --declaration false \
    --outDir "$OUT/runtime"
  ./node_modules/.bin/tsc --allowJs --module commonjs --moduleResolution node10 --target ES2022 --skipLibCheck \
    --types node --typeRoots node_modules/@types --outDir "$OUT/gen" "$ROOT"/build/ts/gen/*.js
  sed -i 's#require("@fastwire/runtime")#require("../runtime/index.js")#' "$OUT"/gen/*.js
  touch "$OUT/stamp"
fi
