// What the Jazzer.js addon (utils.cpp) declares from LLVM's compiler-rt sources, which
// Debian does not ship: libFuzzer's entry point. Its calls are routed to
// JazzerUpstreamDriver (upstream.cpp), which runs upstream's libFuzzer as Jazzer's fork.
#pragma once
#include <cstddef>
#include <cstdint>
namespace fuzzer {
typedef int (*UserCallback)(const uint8_t* Data, size_t Size);
int FuzzerDriver(int* argc, char*** argv, UserCallback Callback);
int JazzerUpstreamDriver(int* argc, char*** argv, UserCallback Callback);
}  // namespace fuzzer
#define FuzzerDriver JazzerUpstreamDriver
