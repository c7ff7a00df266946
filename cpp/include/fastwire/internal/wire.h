// fastwire/internal/wire.h - pieces both wire formats share (versioned.h, final.h).
//
// The wire type of each scalar C++ type (bool and char travel as one byte, wchar_t as a
// u32, an enum as its underlying type), short-copy helpers that avoid library calls for
// the few-byte strings messages are made of, and the attribute macros the codecs use.
//
//   using W = fastwire::internal::enum_wire<wchar_t>::type;   // std::uint32_t
//   fastwire::internal::assign_chars(s, p, n);                 // s = n bytes at p, in place
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

// FASTWIRE_INLINE forces inlining only when optimising. Without optimisation (-O0, the
// sanitizer builds) an always-inlined helper's locals (with ASan, each with its redzones)
// would stay in the frame of the recursive walk that calls it, a frame the walk holds once
// per nesting level: max_depth_cap's 4096 levels must fit an 8 MiB stack there too
// (limits.h). Not inlined, a helper's frame is gone before the walk recurses.
#if defined(__GNUC__) || defined(__clang__)
#define FASTWIRE_COLD __attribute__((cold, noinline))
#define FASTWIRE_NOINLINE __attribute__((noinline))
#define FASTWIRE_LIKELY(x) __builtin_expect(!!(x), 1)
#if defined(__OPTIMIZE__)
#define FASTWIRE_INLINE inline __attribute__((always_inline))
#define FASTWIRE_INLINE_LAMBDA __attribute__((always_inline))  // [&](int x) FASTWIRE_INLINE_LAMBDA {…}
#else
#define FASTWIRE_INLINE inline
#define FASTWIRE_INLINE_LAMBDA
#endif
#else
#define FASTWIRE_COLD
#define FASTWIRE_NOINLINE
#define FASTWIRE_LIKELY(x) (x)
#define FASTWIRE_INLINE inline
#define FASTWIRE_INLINE_LAMBDA
#endif

namespace fastwire {
namespace internal {

// The type a scalar C++ type is stored as on the wire (both formats).
template <class T>
struct wire_of {
    using type = T;
};
template <>
struct wire_of<bool> {
    using type = std::uint8_t;
};
template <>
struct wire_of<char> {
    using type = std::uint8_t;
};
template <>
struct wire_of<wchar_t> {
    using type = std::uint32_t;
};

template <class E, bool = std::is_enum_v<E>>
struct enum_wire {
    using type = typename wire_of<E>::type;
};
template <class E>
struct enum_wire<E, true> {
    using type = typename wire_of<std::underlying_type_t<E>>::type;
};

// The first and the last K bytes of n (K <= n <= 2K) in 16-byte moves, all loads first.
template <std::size_t... I>
FASTWIRE_INLINE void copy_ends(unsigned char* d, const unsigned char* s, std::size_t n,
                               std::index_sequence<I...>) noexcept {
    constexpr std::size_t k = 16 * sizeof...(I);
    struct chunk {
        unsigned char b[16];
    };
    chunk head[sizeof...(I)], tail[sizeof...(I)];
    ((std::memcpy(&head[I], s + 16 * I, 16), std::memcpy(&tail[I], s + n - k + 16 * I, 16)), ...);
    ((std::memcpy(d + 16 * I, &head[I], 16), std::memcpy(d + n - k + 16 * I, &tail[I], 16)), ...);
}
template <std::size_t K>
FASTWIRE_INLINE void copy_ends(unsigned char* d, const unsigned char* s, std::size_t n) noexcept {
    copy_ends(d, s, n, std::make_index_sequence<K / 16>{});
}

template <class T>
FASTWIRE_INLINE void copy_bytes(std::uint8_t* dst, const T* src, std::size_t n) noexcept {
    if (n != 0) std::memcpy(dst, src, n);  // memcpy(…, nullptr, 0) is undefined
}

// Copies n bytes between non-overlapping ranges. Short copies (the common case for
// strings in messages) become a few inline loads and stores instead of a library call:
// up to 64 bytes, 16-byte moves from both ends that overlap in the middle (2 or 4 of
// them), as memcpy itself does once called; longer copies call memcpy, whose 32- and
// 64-byte moves (AVX2, AVX-512: chosen by the library for the CPU, where this code is
// built for any x86-64) beat eight inline 16-byte moves (docs/performance/cpp.md).
// n > 16: from both ends up to 64 bytes, memcpy above.
FASTWIRE_INLINE void copy_long(unsigned char* d, const unsigned char* s, std::size_t n) noexcept {
    if (n > 64)
        std::memcpy(d, s, n);
    else if (n > 32)
        copy_ends<32>(d, s, n);
    else
        copy_ends<16>(d, s, n);
}

FASTWIRE_INLINE void copy_short(void* dst, const void* src, std::size_t n) noexcept {
    auto* d = static_cast<unsigned char*>(dst);
    const auto* s = static_cast<const unsigned char*>(src);
    if (n >= 8) {
        if (n > 16) {
            copy_long(d, s, n);
            return;
        }
        std::uint64_t a, b;  // two overlapping 8-byte moves cover 8..16 bytes
        std::memcpy(&a, s, 8);
        std::memcpy(&b, s + n - 8, 8);
        std::memcpy(d, &a, 8);
        std::memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        std::uint32_t a, b;
        std::memcpy(&a, s, 4);
        std::memcpy(&b, s + n - 4, 4);
        std::memcpy(d, &a, 4);
        std::memcpy(d + n - 4, &b, 4);
    } else if (n != 0) {
        const unsigned char x = s[0], y = s[n / 2], z = s[n - 1];
        d[0] = x;
        d[n / 2] = y;
        d[n - 1] = z;
    }
}

// copy_short with the long cases tested first: what serialize uses for strings and bytes
// (store_text). A copy of more than 16 bytes costs two compares before its moves or its
// memcpy instead of three, a shorter one a compare more (docs/performance/cpp.md has the figures:
// complex and record serialize gain, vec's 8-byte strings pay). The read side keeps
// copy_short: with this order there, g++ 12 stopped inlining the read of account's Order
// into its vector loop (+67 instructions a message).
FASTWIRE_INLINE void copy_text(void* dst, const void* src, std::size_t n) noexcept {
    if (n > 16) {
        copy_long(static_cast<unsigned char*>(dst), static_cast<const unsigned char*>(src), n);
    } else {
        copy_short(dst, src, n);  // n <= 16: its first test (n >= 8) picks the case
    }
}

// out = n bytes that do not fit out's capacity. A fresh (empty) string reserves exactly n
// and appends: assign() goes through the general replace, which rounds a request of less
// than twice the old capacity up to twice it. Out of line, so that assign_chars' in-place paths stay small where
// they are inlined (measured: inlined, the reused deserialize got slower).
FASTWIRE_NOINLINE inline void assign_long(std::string& out, const char* p, std::size_t n) {
    if (out.empty()) {
        out.reserve(n);
        out.append(p, n);
    } else {
        out.assign(p, n);
    }
}

#if defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
// out = n <= 15 bytes at p, where out holds no memory (libstdc++ keeps up to 15 chars in
// the string object and never allocates a buffer that small, so capacity() == 15 means
// this; a fresh string is one). clear() + append() would be an out-of-line call plus a
// memcpy call for the variable n. Here out is made anew in place as 15 zero chars (the
// pointer-and-length constructor with a constant length: a few stores), the n bytes go
// over the first n chars (copy_short) and erase(n) sets the length. Nothing
// allocates or throws, and out had nothing to free, so it is not destroyed first.
// flatten: the library's pieces are inlined here whatever the size of the caller.
#define FASTWIRE_STRING_IN_OBJECT 15
#if defined(__GNUC__) || defined(__clang__)
__attribute__((flatten))
#endif
FASTWIRE_NOINLINE inline void
assign_in_object(std::string& out, const char* p, std::size_t n) noexcept {
    static constexpr char zeros[16] = {};
    ::new (static_cast<void*>(&out)) std::string(zeros, FASTWIRE_STRING_IN_OBJECT);
    copy_short(&out[0], p, n);  // n <= 15: two overlapping 8- or 4-byte moves, or 3 bytes
    out.erase(n);               // n <= 15 = size(): sets the length and the terminator
}
#endif

// out = n bytes that fit out's capacity: a plain append.
FASTWIRE_NOINLINE inline void append_within(std::string& out, const char* p, std::size_t n) {
    out.clear();
    out.append(p, n);
}

// out = n bytes that fit out's capacity, n != size(). Out of line, as assign_long (its
// call in assign_chars is smaller than clear() + append() inline), and with no frame of
// its own: both paths are tail calls.
FASTWIRE_NOINLINE inline void assign_within(std::string& out, const char* p, std::size_t n) {
#ifdef FASTWIRE_STRING_IN_OBJECT
    if (out.capacity() == FASTWIRE_STRING_IN_OBJECT) return assign_in_object(out, p, n);
#endif
    append_within(out, p, n);
}

// out = the n bytes at src, reusing out's capacity. Reading the same shape of message
// again (the common case for a reused target) keeps every string's length, so the bytes
// are copied in place with no library call.
FASTWIRE_INLINE void assign_chars(std::string& out, const std::uint8_t* src, std::size_t n) {
    const char* p = reinterpret_cast<const char*>(src);
    if (n == out.size()) {
        copy_short(&out[0], src, n);
    } else if (n <= out.capacity()) {
        assign_within(out, p, n);
    } else {
        assign_long(out, p, n);
    }
}

}  // namespace internal
}  // namespace fastwire
