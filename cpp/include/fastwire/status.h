// fastwire/status.h - error codes and the result of verify() and deserialize().
//
// Nothing in fastwire reports a malformed message by throwing or by undefined
// behaviour: the operation stops and returns an errc. `status` carries that code plus,
// on success, the size of the model that was processed.
//
//   fastwire::status s = model.verify();
//   if (!s) std::cerr << "rejected: " << s.message() << '\n';
//   else    std::cout << s.size() << " bytes are valid\n";
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <cstddef>
#include <cstdint>
#include <ostream>

namespace fastwire {

enum class errc : std::uint8_t {
    ok = 0,
    truncated,         // a size, offset or count reaches past the end of the message
    bad_offset,        // an offset is 0 where a value is required, or points backwards
    bad_size,          // a struct size below 8, a root size below its header, or (final) fields
                       // that do not end exactly at the root's size
    bad_type,          // a struct carries another type number than the schema says
    bad_value,         // a value outside its domain (a decimal scale above 28)
    too_deep,          // structs nested deeper than limits::max_depth
    too_large,         // a message larger than limits::max_message_size
    over_budget,       // more work than the message's size allows: blocks reached more than once,
                       // or more zero-size elements than limits::max_zero_size_elements
    invalid_argument,  // text that does not have the expected syntax
    out_of_range,      // text whose value does not fit the type
};

constexpr const char* message(errc e) noexcept {
    switch (e) {
        case errc::ok: return "ok";
        case errc::truncated: return "truncated: a size, offset or count reaches past the end";
        case errc::bad_offset: return "bad offset: zero where a value is required, or pointing backwards";
        case errc::bad_size:
            return "bad size: a struct or model size is smaller than its header, or does not match its fields";
        case errc::bad_type: return "bad type: unexpected struct type number";
        case errc::bad_value: return "bad value: a value outside its domain";
        case errc::too_deep: return "too deep: structs nested beyond limits::max_depth";
        case errc::too_large: return "too large: message exceeds limits::max_message_size";
        case errc::over_budget: return "over budget: blocks reached repeatedly, or too many zero-size elements";
        case errc::invalid_argument: return "invalid argument: malformed text";
        case errc::out_of_range: return "out of range: value does not fit";
    }
    return "unknown error";
}

inline std::ostream& operator<<(std::ostream& os, errc e) { return os << message(e); }

// The outcome of verify() or deserialize(): an error code, and on success the number of
// bytes of the model (its full_size). Converts to true on success.
class status {
public:
    constexpr status() noexcept = default;
    constexpr status(errc code, std::size_t size = 0) noexcept : code_(code), size_(size) {}

    constexpr explicit operator bool() const noexcept { return code_ == errc::ok; }
    constexpr bool ok() const noexcept { return code_ == errc::ok; }
    constexpr errc code() const noexcept { return code_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr const char* message() const noexcept { return fastwire::message(code_); }

    friend constexpr bool operator==(const status& a, errc b) noexcept { return a.code_ == b; }
    friend constexpr bool operator!=(const status& a, errc b) noexcept { return a.code_ != b; }

private:
    errc code_ = errc::ok;
    std::size_t size_ = 0;
};

inline std::ostream& operator<<(std::ostream& os, const status& s) { return os << s.message(); }

}  // namespace fastwire
