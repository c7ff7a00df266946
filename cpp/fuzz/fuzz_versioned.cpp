// libFuzzer target: the versioned format. verify -> deserialize -> serialize -> verify on
// arbitrary bytes, for every kind of type (roundtrip.h). Seeds: the golden .fbe.hex
// vectors, each behind the byte that picks its type.
#include "roundtrip.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::one_input<fastwire::versioned::model>(data, size);
}
