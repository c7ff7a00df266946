// fastwire/internal/scalar.h - the bytes of a value, the same in both wire formats.
//
// Where a value sits differs between the versioned format (versioned.h: slots, offsets,
// a heap) and the final one (final.h: everything inline), but its own bytes do not. Each
// is written here once and both codecs call it:
// - fixed_value<T>: numbers, bool, char, wchar, enums and flags (the wire integer or
//   float), decimal (16 bytes, scale checked) and uuid (16 bytes as they are);
// - the payload of a string or bytes value, [u32 length][bytes];
// - a vector<bool>, one byte per element;
// - bulk copies of arrays and vectors whose C++ representation is the wire one.
//
//   using V = fastwire::internal::fixed_value<std::int32_t>;
//   V::size;                 // 4
//   V::store(p, 42);         // 2A 00 00 00
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <string>
#include <type_traits>
#include <vector>

#include <fastwire/decimal.h>
#include <fastwire/endian.h>
#include <fastwire/internal/kinds.h>
#include <fastwire/internal/wire.h>
#include <fastwire/status.h>
#include <fastwire/uuid.h>

namespace fastwire {
namespace internal {

// A value of fixed wire size with no data elsewhere. Every specialisation has:
//   static constexpr std::size_t size;     // bytes on the wire
//   static constexpr bool checked;         // load() can fail and valid() checks the bytes
//   static constexpr bool memcpy_ok;       // C++ values are the wire bytes (bulk copies)
//   static void store(std::uint8_t* p, const T&) noexcept;   // stores all size bytes
//   static void load(const std::uint8_t* p, T& out) noexcept;   (checked: returns errc)
//   static bool valid(const std::uint8_t* p) noexcept;          (checked only)
// The primary template is empty: is_fixed_value_v<T> is false for every other type.
template <class T, class = void>
struct fixed_value {};

template <class T, class = void>
struct is_fixed_value : std::false_type {};
template <class T>
struct is_fixed_value<T, std::void_t<decltype(fixed_value<T>::size)>> : std::true_type {};
template <class T>
inline constexpr bool is_fixed_value_v = is_fixed_value<T>::value;

// Numbers, bool, char, wchar, enums and flags: the value itself as its wire type.
template <class T>
struct fixed_value<T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>>> {
    using wire = typename enum_wire<T>::type;
    static constexpr std::size_t size = sizeof(wire);
    static constexpr bool checked = false;
    static constexpr bool memcpy_ok = host_little_endian && sizeof(T) == sizeof(wire) && !std::is_same_v<T, bool>;

    static FASTWIRE_INLINE void store(std::uint8_t* p, const T& v) noexcept {
        if constexpr (std::is_same_v<T, bool>) {
            *p = v ? 1 : 0;
        } else if constexpr (std::is_enum_v<T>) {
            store_le<wire>(p, static_cast<wire>(static_cast<std::underlying_type_t<T>>(v)));
        } else {
            store_le<wire>(p, static_cast<wire>(v));
        }
    }

    static FASTWIRE_INLINE void load(const std::uint8_t* p, T& out) noexcept {
        if constexpr (std::is_same_v<T, bool>) {
            out = *p != 0;  // any nonzero byte is true
        } else if constexpr (std::is_enum_v<T>) {
            out = static_cast<T>(static_cast<std::underlying_type_t<T>>(load_le<wire>(p)));  // unknown values kept
        } else {
            out = static_cast<T>(load_le<wire>(p));
        }
    }
};

// decimal: [u32 lo][u32 mid][u32 hi][u32 flags] (.NET GetBits order); scale <= 28.
template <>
struct fixed_value<decimal> {
    static constexpr std::size_t size = 16;
    static constexpr bool checked = true;
    static constexpr bool memcpy_ok = false;

    static FASTWIRE_INLINE void store(std::uint8_t* p, const decimal& v) noexcept {
        store_le<std::uint32_t>(p, v.lo32());
        store_le<std::uint32_t>(p + 4, v.mid32());
        store_le<std::uint32_t>(p + 8, v.hi32());
        store_le<std::uint32_t>(p + 12, v.flags());
    }
    static FASTWIRE_INLINE errc load(const std::uint8_t* p, decimal& out) noexcept {
        return decimal::from_bits(load_le<std::uint32_t>(p), load_le<std::uint32_t>(p + 4),
                                  load_le<std::uint32_t>(p + 8), load_le<std::uint32_t>(p + 12), out);
    }
    static FASTWIRE_INLINE bool valid(const std::uint8_t* p) noexcept {
        return ((load_le<std::uint32_t>(p + 12) >> 16) & 0xFFu) <= decimal::max_scale;
    }
};

// uuid: the 16 bytes as they are.
template <>
struct fixed_value<uuid> {
    static constexpr std::size_t size = 16;
    static constexpr bool checked = false;
    static constexpr bool memcpy_ok = true;

    static FASTWIRE_INLINE void store(std::uint8_t* p, const uuid& v) noexcept { std::memcpy(p, v.data(), 16); }
    static FASTWIRE_INLINE void load(const std::uint8_t* p, uuid& out) noexcept { std::memcpy(out.data(), p, 16); }
};

// Strings and bytes: [u32 n][the n bytes at src] at p; returns the position after them.
// (The caller reads the length once: a store through p may alias the value's own size.)
FASTWIRE_INLINE std::uint8_t* store_text(std::uint8_t* p, const void* src, std::size_t n) noexcept {
    store_le<std::uint32_t>(p, static_cast<std::uint32_t>(n));
    copy_text(p + 4, src, n);
    return p + 4 + n;
}

// Setting the length of a std::pmr::string whose chars were written in place, with no
// library call (C++23's resize_and_overwrite does that; C++17 has nothing): libstdc++'s
// private basic_string::_M_set_length (the length and the terminating NUL), named through
// an explicit instantiation, the one place C++ does not check access. Two caveats, kept
// with open eyes: the instantiation sits in a header, so each translation unit repeats it
// (the standard asks for one per program, no diagnostic required; GCC and Clang emit it
// as a mergeable definition), and it names a libstdc++ internal (present in every
// C++11-ABI string since GCC 5; other libraries take the append path below). The public
// way (make the string anew in place as 15 chars, copy, erase(n)) measured ~25
// instructions a string against ~10 (monsters' arena fresh read: ~3 k more a call).
#if defined(__GLIBCXX__) && defined(_GLIBCXX_USE_CXX11_ABI) && _GLIBCXX_USE_CXX11_ABI
#define FASTWIRE_PMR_SET_LENGTH 1
struct pmr_string_set_length {
    using type = void (std::pmr::string::*)(std::pmr::string::size_type);
    friend type member_of(pmr_string_set_length) noexcept;
};
template <class Tag, typename Tag::type M>
struct grant_member {
    friend typename Tag::type member_of(Tag) noexcept { return M; }
};
template struct grant_member<pmr_string_set_length, &std::pmr::string::_M_set_length>;
#else
#define FASTWIRE_PMR_SET_LENGTH 0
#endif

// An empty string with another allocator (a fresh std::pmr::string on an arena) = the n
// bytes at p. A std::pmr::string with libstdc++ takes the bytes in place (copy_short into
// its inline buffer, or a buffer of exactly n reserved first) and its length set
// directly: no library call but reserve() for a long one, where append() calls the
// library's append and memcpy (~30 instructions more a string). Others reserve exactly n
// and append.
template <class T>
FASTWIRE_INLINE void fill_empty(T& out, const std::uint8_t* p, std::size_t n) {
    if (n > out.capacity()) out.reserve(n);
#if FASTWIRE_PMR_SET_LENGTH
    if constexpr (std::is_same_v<T, std::pmr::string>) {
        copy_short(out.data(), p, n);
        (out.*member_of(pmr_string_set_length{}))(n);
        return;
    }
#endif
    out.append(reinterpret_cast<const char*>(p), n);
}

// out = the n payload bytes at p (the length already checked), reusing out's memory.
template <class T>
FASTWIRE_INLINE void load_text(T& out, const std::uint8_t* p, std::size_t n) {
    if constexpr (std::is_same_v<T, std::string>) {
        assign_chars(out, p, n);
    } else if constexpr (is_string_v<T>) {  // another allocator (std::pmr::string)
        // measured: assign_chars' append paths cost more than assign() for std::pmr strings,
        // but an empty target (a fresh value on an arena) takes reserve + append: ~15
        // instructions less a string than assign's general replace.
        if (n == out.size()) {
            copy_short(&out[0], p, n);
        } else if (out.empty()) {
            fill_empty(out, p, n);
        } else {
            out.assign(reinterpret_cast<const char*>(p), n);
        }
    } else {
        out.assign(p, n);
    }
}

// std::vector<bool> stores bits, so its elements are stored and loaded one by one.
template <class A>
FASTWIRE_INLINE std::uint8_t* store_bools(std::uint8_t* p, const std::vector<bool, A>& v) noexcept {
    for (bool b : v) *p++ = b ? 1 : 0;
    return p;
}
template <class A>
FASTWIRE_INLINE void load_bools(const std::uint8_t* p, std::size_t n, std::vector<bool, A>& out) {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = p[i] != 0;
}

// True when a codec's C++ values may be copied to and from the wire with one memcpy.
template <class C, class = void>
struct bulk_copyable : std::false_type {};
template <class C>
struct bulk_copyable<C, std::enable_if_t<C::memcpy_ok>> : std::true_type {};

// The elements of a vector or array whose element codec is bulk_copyable, in one copy;
// returns the position after them.
template <class Seq>
FASTWIRE_INLINE std::uint8_t* store_bulk(std::uint8_t* p, const Seq& v) noexcept {
    const std::size_t n = v.size() * sizeof(typename Seq::value_type);
    copy_bytes(p, v.data(), n);
    return p + n;
}
// out = count elements copied from p (a vector is resized, an array has count elements).
template <class Seq>
FASTWIRE_INLINE const std::uint8_t* load_bulk(const std::uint8_t* p, std::size_t count, Seq& out) {
    using E = typename Seq::value_type;
    if constexpr (std::is_same_v<Seq, std::vector<E>> && sizeof(E) == 1 && std::is_integral_v<E> &&
                  !std::is_same_v<E, bool>) {
        // Bytes: one allocation of exactly count, copied, with no zero-fill first. (With
        // another allocator, e.g. std::pmr, libstdc++ copies a range one element at a time,
        // ~4 instructions a byte: such a vector takes the path below.)
        if (count != out.size()) {
            const E* first = reinterpret_cast<const E*>(p);
            out.assign(first, first + count);
            return p + count;
        }
    } else if constexpr (!is_std_array<Seq>::value) {
#if FASTWIRE_VECTOR_STORAGE
        // A fresh vector (a new value, or one on an arena): one allocation and the elements
        // copied in, with no value-initialisation (a memset call) first.
        if (out.capacity() == 0 && count != 0) {
            fill_fresh(out, p, count);
            return p + count * sizeof(E);
        }
#endif
        resize_for_read(out, count);
    }
    const std::size_t n = count * sizeof(typename Seq::value_type);
    copy_short(out.data(), p, n);  // short vectors (the usual case) with no library call
    return p + n;
}

}  // namespace internal
}  // namespace fastwire
