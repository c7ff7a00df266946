// fastwire/internal/wide.h - a small fixed-width unsigned integer for decimal arithmetic.
//
// N 32-bit limbs, least significant first. Only the operations decimal needs: multiply
// by a small factor and add, divide by a small divisor, compare. Portable (no __int128).
//
//   fastwire::internal::wide<3> w;         // 96 bits, zero
//   w.mul_add(10, 7);                      // w = w * 10 + 7; returns the carry out
//   std::uint32_t digit = w.div_small(10); // w /= 10; returns the remainder
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <cstddef>
#include <cstdint>

namespace fastwire {
namespace internal {

template <std::size_t N>
struct wide {
    std::uint32_t limb[N] = {};

    constexpr bool is_zero() const noexcept {
        for (std::size_t i = 0; i < N; ++i)
            if (limb[i] != 0) return false;
        return true;
    }

    // *this = *this * m + add. Returns the carry out of the top limb (0 when it fits).
    constexpr std::uint32_t mul_add(std::uint32_t m, std::uint32_t add) noexcept {
        std::uint64_t carry = add;
        for (std::size_t i = 0; i < N; ++i) {
            const std::uint64_t t = std::uint64_t{limb[i]} * m + carry;
            limb[i] = static_cast<std::uint32_t>(t);
            carry = t >> 32;
        }
        return static_cast<std::uint32_t>(carry);
    }

    // *this /= d (d != 0). Returns the remainder.
    constexpr std::uint32_t div_small(std::uint32_t d) noexcept {
        std::uint64_t rem = 0;
        for (std::size_t i = N; i-- > 0;) {
            const std::uint64_t cur = (rem << 32) | limb[i];
            limb[i] = static_cast<std::uint32_t>(cur / d);
            rem = cur % d;
        }
        return static_cast<std::uint32_t>(rem);
    }

    // The remainder of *this / d, leaving *this unchanged.
    constexpr std::uint32_t mod_small(std::uint32_t d) const noexcept {
        std::uint64_t rem = 0;
        for (std::size_t i = N; i-- > 0;) rem = ((rem << 32) | limb[i]) % d;
        return static_cast<std::uint32_t>(rem);
    }

    // Multiplies by 10^k; returns false on overflow (then *this is unspecified).
    constexpr bool mul_pow10(unsigned k) noexcept {
        while (k >= 9) {
            if (mul_add(1000000000u, 0) != 0) return false;
            k -= 9;
        }
        std::uint32_t f = 1;
        while (k-- > 0) f *= 10;
        return f == 1 || mul_add(f, 0) == 0;
    }

    constexpr int compare(const wide& o) const noexcept {
        for (std::size_t i = N; i-- > 0;) {
            if (limb[i] != o.limb[i]) return limb[i] < o.limb[i] ? -1 : 1;
        }
        return 0;
    }
};

}  // namespace internal
}  // namespace fastwire
