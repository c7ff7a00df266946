// Jazzer.js 2.x links against Code Intelligence's fork of libFuzzer; Debian's libFuzzer
// (libclang-rt-14-dev) is upstream's. What the fork adds, on upstream's:
//  - a callback returning -2 ends the fuzzing loop and returns from FuzzerDriver (Jazzer
//    returns it when the target threw: the JavaScript side then reports the finding and
//    exits). Upstream ignores the value, so the driver below leaves the loop by longjmp;
//    the process exits right after, so the frames skipped are never needed again.
//  - the death callback (print and save the crashing input) is handed to Jazzer through
//    __jazzer_set_death_callback; upstream hands it to __sanitizer_set_death_callback.
//  - comparisons and indirect calls reported with an explicit call site (_with_pc);
//    upstream takes its caller's address, so here they share one site (the values still
//    feed libFuzzer's table of compared values, which guides its mutations).
#include <csetjmp>
#include <cstddef>
#include <cstdint>

namespace libfuzzer {
extern void (*PrintCrashingInput)();
}
namespace fuzzer {
typedef int (*UserCallback)(const uint8_t* Data, size_t Size);
int FuzzerDriver(int* argc, char*** argv, UserCallback Callback);
}  // namespace fuzzer

namespace {
fuzzer::UserCallback gCallback = nullptr;
std::jmp_buf gStop;

int Callback(const uint8_t* data, size_t size) {
    int result = gCallback(data, size);
    if (result == -2) std::longjmp(gStop, 1);
    return result == -1 ? -1 : 0;
}
}  // namespace

namespace fuzzer {
int JazzerUpstreamDriver(int* argc, char*** argv, UserCallback callback) {
    gCallback = callback;
    if (setjmp(gStop) == 0) return FuzzerDriver(argc, argv, Callback);
    return 0;
}
}  // namespace fuzzer

extern "C" {
void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b);
void __sanitizer_cov_trace_pc_indir(uintptr_t callee);
void __sanitizer_set_death_callback(void (*callback)()) { libfuzzer::PrintCrashingInput = callback; }
void __sanitizer_cov_trace_const_cmp8_with_pc(uintptr_t, uint64_t a, uint64_t b) {
    __sanitizer_cov_trace_const_cmp8(a, b);
}
void __sanitizer_cov_trace_pc_indir_with_pc(void*, uintptr_t callee) { __sanitizer_cov_trace_pc_indir(callee); }
}
