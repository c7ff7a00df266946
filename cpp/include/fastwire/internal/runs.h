// fastwire/internal/runs.h - runs of a struct's fields copied as one block.
//
// A field whose C++ value is its wire bytes (its codec's memcpy_ok: numbers, enums, uuid
// on a little-endian host) is stored with one move of its size. When several such fields
// follow each other with no padding in the C++ struct, as they do on the wire, the struct
// codecs (final.h, versioned.h) copy the whole run with one memcpy of its length: the
// five fields of {int64, int64, int64, int32, int32} are two 16-byte moves instead of
// five loads and five stores.
//
// Where a member sits in the C++ struct is known only to the compiler (there is no
// constexpr offsetof through a member pointer), so offsets are taken from addresses
// inside the value, which the optimiser folds to constants: joins() and length() compile
// to constants and the memcpy to fixed-size moves. The wire side needs no test: fields of
// fixed size sit back to back in both formats.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <tuple>

#include <fastwire/internal/wire.h>  // FASTWIRE_INLINE (not inlined at -O0: see there)

namespace fastwire {
namespace internal {

// L describes a struct's field list: L::count, L::raw[i] (field i's codec is memcpy_ok;
// the array has count + 1 entries, the last false), L::bytes[i] (field i's wire size, the
// C++ size when raw) and L::member<i> (its member pointer).
template <class L>
struct runs {
    // Field I's offset in the C++ struct (a constant once inlined).
    template <std::size_t I, class S>
    static FASTWIRE_INLINE std::size_t offset(const S& v) noexcept {
        return static_cast<std::size_t>(reinterpret_cast<const unsigned char*>(&(v.*L::template member<I>)) -
                                        reinterpret_cast<const unsigned char*>(&v));
    }

    // True when field I continues the run of field I - 1 (both raw, no gap between them).
    template <std::size_t I, class S>
    static FASTWIRE_INLINE bool joins([[maybe_unused]] const S& v) noexcept {
        if constexpr (I == 0 || I >= L::count) {
            return false;
        } else if constexpr (!L::raw[I - 1] || !L::raw[I]) {
            return false;
        } else {
            return offset<I>(v) == offset<I - 1>(v) + L::bytes[I - 1];
        }
    }

    // The bytes of the run that starts at raw field I.
    template <std::size_t I, class S>
    static FASTWIRE_INLINE std::size_t length([[maybe_unused]] const S& v) noexcept {
        if constexpr (I + 1 < L::count && L::raw[I + 1]) {
            if (joins<I + 1>(v)) return L::bytes[I] + length<I + 1>(v);
        }
        return L::bytes[I];
    }

    // The run that starts at raw field I, stored at p (nothing when I continues a run:
    // its bytes went with the run's first field). Returns the bytes stored.
    template <std::size_t I, class S>
    static FASTWIRE_INLINE std::size_t store(std::uint8_t* p, const S& v) noexcept {
        if (joins<I>(v)) return 0;
        const std::size_t n = length<I>(v);
        std::memcpy(p, reinterpret_cast<const unsigned char*>(&v) + offset<I>(v), n);
        return n;
    }

    // The run that starts at raw field I, loaded from p into `out`. Returns the bytes read.
    template <std::size_t I, class S>
    static FASTWIRE_INLINE std::size_t load(const std::uint8_t* p, S& out) noexcept {
        if (joins<I>(out)) return 0;
        const std::size_t n = length<I>(out);
        std::memcpy(reinterpret_cast<unsigned char*>(&out) + offset<I>(out), p, n);
        return n;
    }
};

// Member pointer I of Ms.
template <std::size_t I, auto... Ms>
inline constexpr auto member_at = std::get<I>(std::make_tuple(Ms...));

}  // namespace internal
}  // namespace fastwire
