// fastwire/endian.h - little-endian loads and stores at any address.
//
// Both FBE formats are little-endian with no alignment and no padding. These helpers
// copy bytes with memcpy (never `*(const uint32_t*)p`, which is undefined behaviour on
// unaligned data); compilers turn each call into a single mov on x86 and ARM. On a
// big-endian host the bytes are swapped.
//
//   uint8_t b[4];
//   fastwire::store_le<uint32_t>(b, 252);       // b = fc 00 00 00
//   uint32_t n = fastwire::load_le<uint32_t>(b); // 252
//
// T may be any integer type, float or double. Floating-point values are moved as their
// bit patterns, so NaN payloads survive unchanged.
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace fastwire {
namespace internal {

#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
inline constexpr bool host_little_endian = false;
#else
inline constexpr bool host_little_endian = true;
#endif

// The unsigned integer type with the same size as T.
template <std::size_t N>
struct uint_of_size;
template <>
struct uint_of_size<1> {
    using type = std::uint8_t;
};
template <>
struct uint_of_size<2> {
    using type = std::uint16_t;
};
template <>
struct uint_of_size<4> {
    using type = std::uint32_t;
};
template <>
struct uint_of_size<8> {
    using type = std::uint64_t;
};

template <class U>
constexpr U byteswap(U v) noexcept {
    static_assert(std::is_unsigned_v<U>, "byteswap works on unsigned integers");
    U r = 0;
    for (std::size_t i = 0; i < sizeof(U); ++i) {
        r = static_cast<U>((r << 8) | (v & 0xFFu));
        v = static_cast<U>(v >> 8);
    }
    return r;
}

}  // namespace internal

// Reads a T stored little-endian at p (any alignment).
template <class T>
inline T load_le(const void* p) noexcept {
    static_assert(std::is_arithmetic_v<T>, "load_le reads integers and floating-point values");
    using U = typename internal::uint_of_size<sizeof(T)>::type;
    U bits;
    std::memcpy(&bits, p, sizeof(U));
    if constexpr (!internal::host_little_endian) bits = internal::byteswap(bits);
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
}

// Writes value little-endian at p (any alignment).
template <class T>
inline void store_le(void* p, T value) noexcept {
    static_assert(std::is_arithmetic_v<T>, "store_le writes integers and floating-point values");
    using U = typename internal::uint_of_size<sizeof(T)>::type;
    U bits;
    std::memcpy(&bits, &value, sizeof(T));
    if constexpr (!internal::host_little_endian) bits = internal::byteswap(bits);
    std::memcpy(p, &bits, sizeof(U));
}

}  // namespace fastwire
