// fastwire/uuid.h - the schema's `uuid`: 16 bytes in canonical (RFC 4122 text) order.
//
// The wire holds the bytes exactly in the order they appear in the 8-4-4-4-12 text, with
// no byte swapping. Parsing is strict: exactly 36 characters, hyphens at 8, 13, 18 and
// 23, hex digits elsewhere (either case); anything else is an error and the output is
// left untouched. Formatting is lowercase.
//
//   fastwire::uuid id;
//   fastwire::uuid::parse("123e4567-e89b-12d3-a456-426655440000", id);   // errc::ok
//   id.to_string();                        // "123e4567-e89b-12d3-a456-426655440000"
//   fastwire::uuid a = fastwire::uuid::v4();   // random
//   fastwire::uuid b = fastwire::uuid::v1();   // time-based
//   constexpr auto c = fastwire::uuid::literal("123e4567-e89b-12d3-a456-426655440000");
//
// Generation without global mutable state: uuid_v1_generator and uuid_v4_generator are
// ordinary objects (not thread-safe; use one per thread). uuid::v1() and uuid::v4() use
// one generator per thread (thread_local), so they are safe to call from any thread.
// v1 uses a random 48-bit node id with the multicast bit set (RFC 4122 §4.5, no MAC
// address is read) and a random clock sequence; timestamps from one generator strictly
// increase, so two uuids from the same generator never collide.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fastwire/status.h>

namespace fastwire {

class uuid {
public:
    using bytes_type = std::array<std::uint8_t, 16>;

    // The nil uuid (all zeros).
    constexpr uuid() noexcept = default;
    constexpr explicit uuid(const bytes_type& bytes) noexcept : bytes_(bytes) {}

    static constexpr uuid nil() noexcept { return uuid(); }

    // Strict parse (see the banner). `out` is untouched on error.
    static constexpr errc parse(std::string_view text, uuid& out) noexcept {
        if (text.size() != 36) return errc::invalid_argument;
        bytes_type b{};
        std::size_t n = 0;
        for (std::size_t i = 0; i < 36;) {
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (text[i] != '-') return errc::invalid_argument;
                ++i;
                continue;
            }
            const int hi = hex_value(text[i]);
            const int lo = hex_value(text[i + 1]);
            if (hi < 0 || lo < 0) return errc::invalid_argument;
            b[n++] = static_cast<std::uint8_t>(hi * 16 + lo);
            i += 2;
        }
        out.bytes_ = b;
        return errc::ok;
    }
    static constexpr std::optional<uuid> from_string(std::string_view text) noexcept {
        uuid u;
        if (parse(text, u) != errc::ok) return std::nullopt;
        return u;
    }
    // For literals in generated code; throws std::invalid_argument on bad text, which is
    // a compile-time error in a constant expression.
    static constexpr uuid literal(std::string_view text) {
        uuid u;
        if (parse(text, u) != errc::ok) throw std::invalid_argument("fastwire::uuid: bad literal");
        return u;
    }

    // A random (version 4) and a time-based (version 1) uuid from this thread's generator.
    static uuid v4();
    static uuid v1();

    std::string to_string() const {
        static constexpr char digits[] = "0123456789abcdef";
        std::string s(36, '-');
        std::size_t j = 0;
        for (std::size_t i = 0; i < 16; ++i) {
            if (j == 8 || j == 13 || j == 18 || j == 23) ++j;
            s[j++] = digits[bytes_[i] >> 4];
            s[j++] = digits[bytes_[i] & 0xF];
        }
        return s;
    }

    constexpr const bytes_type& bytes() const noexcept { return bytes_; }
    constexpr const std::uint8_t* data() const noexcept { return bytes_.data(); }
    std::uint8_t* data() noexcept { return bytes_.data(); }
    constexpr bool is_nil() const noexcept {
        for (std::uint8_t b : bytes_)
            if (b != 0) return false;
        return true;
    }
    constexpr int version() const noexcept { return bytes_[6] >> 4; }

    // Byte-wise (lexicographic) order of the canonical bytes.
    static constexpr int compare(const uuid& a, const uuid& b) noexcept {
        for (std::size_t i = 0; i < 16; ++i)
            if (a.bytes_[i] != b.bytes_[i]) return a.bytes_[i] < b.bytes_[i] ? -1 : 1;
        return 0;
    }
    friend constexpr bool operator==(const uuid& a, const uuid& b) noexcept { return compare(a, b) == 0; }
    friend constexpr bool operator!=(const uuid& a, const uuid& b) noexcept { return compare(a, b) != 0; }
    friend constexpr bool operator<(const uuid& a, const uuid& b) noexcept { return compare(a, b) < 0; }
    friend constexpr bool operator<=(const uuid& a, const uuid& b) noexcept { return compare(a, b) <= 0; }
    friend constexpr bool operator>(const uuid& a, const uuid& b) noexcept { return compare(a, b) > 0; }
    friend constexpr bool operator>=(const uuid& a, const uuid& b) noexcept { return compare(a, b) >= 0; }

    friend std::ostream& operator<<(std::ostream& os, const uuid& u) { return os << u.to_string(); }

private:
    static constexpr int hex_value(char c) noexcept {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }

    bytes_type bytes_{};
};

namespace internal {
// A 64-bit engine seeded with 256 bits from std::random_device.
inline std::mt19937_64 seeded_engine() {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
    return std::mt19937_64(seq);
}
}  // namespace internal

// Random (version 4) uuids. Not thread-safe: one object per thread.
class uuid_v4_generator {
public:
    uuid_v4_generator() : engine_(internal::seeded_engine()) {}
    explicit uuid_v4_generator(std::uint64_t seed) : engine_(seed) {}  // reproducible, for tests

    uuid operator()() {
        uuid::bytes_type b;
        const std::uint64_t x = engine_(), y = engine_();
        for (int i = 0; i < 8; ++i) {
            b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(x >> (8 * i));
            b[static_cast<std::size_t>(i) + 8] = static_cast<std::uint8_t>(y >> (8 * i));
        }
        b[6] = static_cast<std::uint8_t>((b[6] & 0x0F) | 0x40);  // version 4
        b[8] = static_cast<std::uint8_t>((b[8] & 0x3F) | 0x80);  // RFC 4122 variant
        return uuid(b);
    }

private:
    std::mt19937_64 engine_;
};

// Time-based (version 1) uuids. Not thread-safe: one object per thread.
class uuid_v1_generator {
public:
    uuid_v1_generator() {
        std::mt19937_64 e = internal::seeded_engine();
        const std::uint64_t r = e();
        for (int i = 0; i < 6; ++i) node_[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(r >> (8 * i));
        node_[0] |= 0x01;  // multicast bit: a random node id, not a MAC address
        clock_seq_ = static_cast<std::uint16_t>((r >> 48) & 0x3FFF);
    }

    uuid operator()() {
        // 100 ns intervals since 1582-10-15 00:00:00 UTC (the Gregorian reform).
        constexpr std::uint64_t gregorian_offset = 0x01B21DD213814000ull;
        const auto now = std::chrono::system_clock::now().time_since_epoch();
        std::uint64_t t =
            static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count() / 100) +
            gregorian_offset;
        if (t <= last_) t = last_ + 1;  // strictly increasing, even within one clock tick
        last_ = t;

        uuid::bytes_type b;
        const auto time_low = static_cast<std::uint32_t>(t);
        const auto time_mid = static_cast<std::uint16_t>(t >> 32);
        const auto time_hi = static_cast<std::uint16_t>(((t >> 48) & 0x0FFF) | 0x1000);  // version 1
        b[0] = static_cast<std::uint8_t>(time_low >> 24);
        b[1] = static_cast<std::uint8_t>(time_low >> 16);
        b[2] = static_cast<std::uint8_t>(time_low >> 8);
        b[3] = static_cast<std::uint8_t>(time_low);
        b[4] = static_cast<std::uint8_t>(time_mid >> 8);
        b[5] = static_cast<std::uint8_t>(time_mid);
        b[6] = static_cast<std::uint8_t>(time_hi >> 8);
        b[7] = static_cast<std::uint8_t>(time_hi);
        b[8] = static_cast<std::uint8_t>(((clock_seq_ >> 8) & 0x3F) | 0x80);  // RFC 4122 variant
        b[9] = static_cast<std::uint8_t>(clock_seq_);
        for (std::size_t i = 0; i < 6; ++i) b[10 + i] = node_[i];
        return uuid(b);
    }

private:
    std::array<std::uint8_t, 6> node_{};
    std::uint16_t clock_seq_ = 0;
    std::uint64_t last_ = 0;
};

inline uuid uuid::v4() {
    thread_local uuid_v4_generator generator;
    return generator();
}

inline uuid uuid::v1() {
    thread_local uuid_v1_generator generator;
    return generator();
}

}  // namespace fastwire

namespace std {
template <>
struct hash<fastwire::uuid> {
    std::size_t operator()(const fastwire::uuid& u) const noexcept {
        std::uint64_t a = 0, b = 0;
        for (int i = 0; i < 8; ++i) {
            a = (a << 8) | u.bytes()[static_cast<std::size_t>(i)];
            b = (b << 8) | u.bytes()[static_cast<std::size_t>(i) + 8];
        }
        return std::hash<std::uint64_t>()(a ^ (b * 0x9e3779b97f4a7c15ull));
    }
};
}  // namespace std
