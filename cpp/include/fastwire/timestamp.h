// fastwire/timestamp.h - the schema's `timestamp`: nanoseconds since the Unix epoch.
//
// A timestamp is a plain uint64_t in C++ (same wire form as uint64). These helpers give
// the values that schema defaults name: `epoch` is 0 and `utc` is the current time.
//
//   uint64_t t = fastwire::utc();          // now, ns since 1970-01-01T00:00:00Z
//   uint64_t e = fastwire::epoch();        // 0
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <chrono>
#include <cstdint>

namespace fastwire {

constexpr std::uint64_t epoch() noexcept { return 0; }

// The current UTC time in nanoseconds since the epoch (0 for a clock before 1970).
inline std::uint64_t utc() noexcept {
    const auto ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    return ns > 0 ? static_cast<std::uint64_t>(ns) : 0;
}

}  // namespace fastwire
