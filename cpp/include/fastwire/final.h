// fastwire/final.h - codecs of the final (compact) FBE format (spec §3), one per C++ type.
//
// The final format has no offsets and no struct headers: every value is written inline
// in field order. Strings and bytes are [u32 length][bytes], collections [u32 count]
// followed by their elements, an optional [u8 flag] followed by the value when the flag
// is set, a struct its fields (the base's first). final_model (final_model.h) wraps a root
// struct in [u32 size][u32 type][fields…].
//
//   using C = fastwire::final::codec<std::string>;
//   C::min_size;             // 4: the length word
//   C::size("abc");          // 7: the bytes write() stores
//
// Like the versioned codecs, nothing here is generated per struct: the struct codec expands
// struct_schema<S> at compile time, so a run of fixed-size fields becomes straight-line
// stores and loads at constant distances from a cursor.
//
// The contract every codec<T> meets:
//   static constexpr std::size_t min_size;  // the fewest bytes any T takes on the wire
//   static constexpr bool fixed;            // every T takes exactly min_size bytes
//   static constexpr bool infallible;       // read/verify cannot fail (fixed, nothing to check)
//   static constexpr bool checked;          // (fixed types) verify must look at each value
//   static constexpr std::uint32_t levels;  // (fixed types) struct levels a value contains
//   static std::size_t size(const T&) noexcept;
//       exact number of bytes write() stores
//   static std::uint8_t* write(std::uint8_t* p, const T&) noexcept;
//       stores size(v) bytes at p (every byte: the buffer is not zero-filled); returns the
//       position after them
//   static cursor read(reader&, cursor p, cursor end, std::uint32_t depth, T& out);
//   static cursor verify(reader&, cursor p, cursor end, std::uint32_t depth) noexcept;
//       the caller guarantees p + min_size <= end <= the end of the message: the value may
//       use the bytes [p, end) and no others (`end` leaves room for the fields that
//       follow). Every length and count is checked against that room, so a value never
//       reaches past `end`. `depth` is the number of struct levels that may still be
//       entered. Returns the position after the value, or nullptr on malformed input
//       (reader::error says why). read() reuses out's memory; verify() stores and
//       allocates nothing.
//
// Why `end` instead of the message's end: a struct's fixed-size fields then need no check
// at all. The struct is entered with room for its minimum size; each variable-size field
// (string, collection, optional) checks its own length against `end` minus the minimum
// size of the fields after it, which keeps that invariant for the next field. One
// comparison per length or count; none per scalar.
//
// Checks made on every read and verify (docs/security.md):
// - a length or count fits: count x min_size(element) <= the bytes that remain (minus
//   the room the following fields need), computed without overflow;
// - elements of zero wire size (empty structs) are charged to a per-message budget,
//   limits::max_zero_size_elements, since the bytes cannot bound them;
// - struct nesting is at most limits::max_depth; decimal scales <= 28;
// - the root's fields end exactly at its declared size (final_model.h).
// No block is ever visited twice (there are no offsets), so verify work and deserialize
// allocation are linear in the message size.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fastwire/bytes.h>
#include <fastwire/decimal.h>
#include <fastwire/endian.h>
#include <fastwire/internal/kinds.h>
#include <fastwire/internal/runs.h>
#include <fastwire/internal/scalar.h>
#include <fastwire/internal/wire.h>
#include <fastwire/limits.h>
#include <fastwire/schema.h>
#include <fastwire/status.h>
#include <fastwire/uuid.h>

// Generated structs may mark fields [[deprecated]]; the codecs name every field through
// its member pointer, which must not warn in the user's build.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace fastwire {
namespace final {

// The state of one read or verify walk that is not carried in registers: the remaining
// allowance of zero-size elements and the first error found. Positions are pointers into
// the message passed by value (a codec never needs the message start), so stores into the
// value being read - which may alias anything - do not force them to be reloaded.
class reader {
public:
    explicit reader(const limits& lim) noexcept : zero_left(lim.max_zero_size_elements) {}

    std::size_t zero_left;  // zero-size elements that may still be read
    errc error = errc::ok;

    // Records e; returns nullptr (a failed walk).
    FASTWIRE_COLD const std::uint8_t* fail(errc e) noexcept {
        error = e;
        return nullptr;
    }
};

// A position in the message; nullptr after a failure.
using cursor = const std::uint8_t*;

// The bytes between two positions (first <= last).
FASTWIRE_INLINE std::size_t room(cursor first, cursor last) noexcept { return static_cast<std::size_t>(last - first); }

template <class T, class = void>
struct codec;  // specialised below for every type a schema type maps to

namespace internal {

using fastwire::internal::bulk_copyable;
using fastwire::internal::fixed_value;
using fastwire::internal::member_at;
using fastwire::internal::runs;

// Numbers, enums, decimal, uuid: the value's own bytes (internal/scalar.h).
template <class T>
struct fixed_codec {
    using V = fixed_value<T>;
    static constexpr std::size_t min_size = V::size;
    static constexpr bool fixed = true;
    static constexpr bool infallible = !V::checked;
    static constexpr bool checked = V::checked;
    static constexpr std::uint32_t levels = 0;
    // Arrays and vectors of T may be copied to and from the wire with one memcpy.
    static constexpr bool memcpy_ok = V::memcpy_ok;

    static constexpr std::size_t size(const T&) noexcept { return min_size; }

    static FASTWIRE_INLINE std::uint8_t* write(std::uint8_t* p, const T& v) noexcept {
        V::store(p, v);
        return p + min_size;
    }

    static FASTWIRE_INLINE cursor read([[maybe_unused]] reader& r, cursor p, cursor, std::uint32_t, T& out) noexcept {
        if constexpr (V::checked) {
            const errc e = V::load(p, out);
            return e == errc::ok ? p + min_size : r.fail(e);
        } else {
            V::load(p, out);
            return p + min_size;
        }
    }

    static FASTWIRE_INLINE cursor verify([[maybe_unused]] reader& r, cursor p, cursor, std::uint32_t) noexcept {
        if constexpr (V::checked)
            return V::valid(p) ? p + min_size : r.fail(errc::bad_value);
        else
            return p + min_size;
    }
};

// Strings and bytes: [u32 length][bytes].
template <class T>
struct text_codec {
    static constexpr std::size_t min_size = 4;
    static constexpr bool fixed = false;
    static constexpr bool infallible = false;
    static constexpr bool checked = true;
    static constexpr std::uint32_t levels = 0;

    static FASTWIRE_INLINE std::size_t size(const T& v) noexcept { return 4 + v.size(); }

    static FASTWIRE_INLINE std::uint8_t* write(std::uint8_t* p, const T& v) noexcept {
        return fastwire::internal::store_text(p, v.data(), v.size());
    }

    static FASTWIRE_INLINE cursor read(reader& r, cursor p, cursor end, std::uint32_t, T& out) {
        const std::size_t n = load_le<std::uint32_t>(p);
        if (n > room(p + 4, end)) return r.fail(errc::truncated);
        fastwire::internal::load_text(out, p + 4, n);
        return p + 4 + n;
    }

    static FASTWIRE_INLINE cursor verify(reader& r, cursor p, cursor end, std::uint32_t) noexcept {
        const std::size_t n = load_le<std::uint32_t>(p);
        if (n > room(p + 4, end)) return r.fail(errc::truncated);
        return p + 4 + n;
    }
};

// The count word of a collection at p (p + 4 <= end), checked: count elements of at least
// Min bytes each must fit in [p + 4, end). Elements of zero wire size cannot be bounded by
// the bytes; they are charged to the message's zero-size allowance instead. False (the
// error recorded) when the count does not fit.
template <std::size_t Min>
FASTWIRE_INLINE bool take_count(reader& r, cursor p, cursor end, std::size_t& count) noexcept {
    count = load_le<std::uint32_t>(p);
    if constexpr (Min == 0) {
        if (count > r.zero_left) {
            r.fail(errc::over_budget);
            return false;
        }
        r.zero_left -= count;
    } else {
        if (count > room(p + 4, end) / Min) {  // a division, so no product to overflow
            r.fail(errc::truncated);
            return false;
        }
    }
    return true;
}

// Reads count elements at p into [first, last), which holds count values. A non-fixed
// element gets room up to `end` minus the minimum size of the elements after it, which the
// count check guaranteed: count x min_size <= end - p.
template <class C, class It>
FASTWIRE_INLINE cursor read_elements(reader& r, cursor p, cursor end, std::uint32_t depth, std::size_t count, It first,
                                     It last) {
    if constexpr (C::fixed) {
        for (; first != last; ++first) {
            p = C::read(r, p, end, depth, *first);
            if constexpr (!C::infallible)
                if (!p) return p;
        }
    } else {
        std::size_t rest = count * C::min_size;
        for (; first != last; ++first) {
            rest -= C::min_size;
            p = C::read(r, p, end - rest, depth, *first);
            if (!p) return p;
        }
    }
    return p;
}

template <class C>
FASTWIRE_INLINE cursor verify_elements(reader& r, cursor p, cursor end, std::uint32_t depth,
                                       std::size_t count) noexcept {
    if constexpr (C::fixed && !C::checked) {
        // Nothing to look at: only the struct levels inside (checked once) and the size.
        if constexpr (C::levels != 0)
            if (count != 0 && depth < C::levels) return r.fail(errc::too_deep);
        return p + count * C::min_size;
    } else if constexpr (C::fixed) {
        for (std::size_t i = 0; i < count; ++i) {
            p = C::verify(r, p, end, depth);
            if (!p) return p;
        }
        return p;
    } else {
        std::size_t rest = count * C::min_size;
        for (std::size_t i = 0; i < count; ++i) {
            rest -= C::min_size;
            p = C::verify(r, p, end - rest, depth);
            if (!p) return p;
        }
        return p;
    }
}

template <class C, class Range>
FASTWIRE_INLINE std::size_t elements_size(const Range& v) noexcept {
    if constexpr (C::fixed) {
        return v.size() * C::min_size;
    } else {
        std::size_t n = 0;
        for (const auto& e : v) n += C::size(e);
        return n;
    }
}

// Vectors, lists and sets: [u32 count][elements inline]. Nothing here may depend on the
// element's codec outside function bodies: a struct may hold a vector of itself.
template <class Seq, class T>
struct sequence_codec {
    using C = codec<T>;
    static constexpr std::size_t min_size = 4;
    static constexpr bool fixed = false;
    static constexpr bool infallible = false;
    static constexpr bool checked = true;
    static constexpr std::uint32_t levels = 0;

    static FASTWIRE_INLINE std::size_t size(const Seq& v) noexcept { return 4 + elements_size<C>(v); }

    static std::uint8_t* write(std::uint8_t* p, const Seq& v) noexcept {
        store_le<std::uint32_t>(p, static_cast<std::uint32_t>(v.size()));
        p += 4;
        if constexpr (fastwire::internal::is_vector<Seq>::value && bulk_copyable<C>::value) {
            return fastwire::internal::store_bulk(p, v);
        } else {
            for (const auto& e : v) p = C::write(p, e);
            return p;
        }
    }

    static cursor read(reader& r, cursor p, cursor end, std::uint32_t depth, Seq& out) {
        std::size_t n = 0;
        if (!take_count<C::min_size>(r, p, end, n)) return nullptr;  // before anything is allocated
        p += 4;
        if constexpr (fastwire::internal::is_set<Seq>::value) {
            std::size_t rest = n * C::min_size;
            fastwire::internal::refill(out, n, [&](T& e) {
                rest -= C::min_size;
                p = C::read(r, p, end - rest, depth, e);
                return p != nullptr;
            });
            return p;
        } else if constexpr (fastwire::internal::is_vector<Seq>::value && bulk_copyable<C>::value) {
            return fastwire::internal::load_bulk(p, n, out);
        } else {
            fastwire::internal::resize_for_read(out, n);  // reuses existing elements (and their capacity)
            return read_elements<C>(r, p, end, depth, n, out.begin(), out.end());
        }
    }

    static cursor verify(reader& r, cursor p, cursor end, std::uint32_t depth) noexcept {
        std::size_t n = 0;
        if (!take_count<C::min_size>(r, p, end, n)) return nullptr;
        return verify_elements<C>(r, p + 4, end, depth, n);
    }
};

// Maps and hashes: [u32 count][key value key value …].
template <class M, class K, class V>
struct map_codec {
    using CK = codec<K>;
    using CV = codec<V>;
    static constexpr std::size_t min_size = 4;
    static constexpr bool fixed = false;
    static constexpr bool infallible = false;
    static constexpr bool checked = true;
    static constexpr std::uint32_t levels = 0;

    static std::size_t size(const M& m) noexcept {
        if constexpr (CK::fixed && CV::fixed) {
            return 4 + m.size() * (CK::min_size + CV::min_size);
        } else {
            std::size_t n = 4;
            for (const auto& kv : m) n += CK::size(kv.first) + CV::size(kv.second);
            return n;
        }
    }

    static std::uint8_t* write(std::uint8_t* p, const M& m) noexcept {
        store_le<std::uint32_t>(p, static_cast<std::uint32_t>(m.size()));
        p += 4;
        for (const auto& kv : m) {
            p = CK::write(p, kv.first);
            p = CV::write(p, kv.second);
        }
        return p;
    }

    static cursor read(reader& r, cursor p, cursor end, std::uint32_t depth, M& out) {
        constexpr std::size_t pair = CK::min_size + CV::min_size;
        std::size_t n = 0;
        if (!take_count<pair>(r, p, end, n)) return nullptr;
        p += 4;
        std::size_t rest = n * pair;
        fastwire::internal::refill(
            out, n,
            [&](K& key) FASTWIRE_INLINE_LAMBDA {
                rest -= pair;
                p = CK::read(r, p, end - rest - CV::min_size, depth, key);
                return p != nullptr;
            },
            [&](V& value) FASTWIRE_INLINE_LAMBDA {
                p = CV::read(r, p, end - rest, depth, value);
                return p != nullptr;
            });
        return p;
    }

    static cursor verify(reader& r, cursor p, cursor end, std::uint32_t depth) noexcept {
        constexpr std::size_t pair = CK::min_size + CV::min_size;
        std::size_t n = 0;
        if (!take_count<pair>(r, p, end, n)) return nullptr;
        p += 4;
        if constexpr (CK::fixed && !CK::checked && CV::fixed && !CV::checked) {
            if constexpr (CK::levels != 0 || CV::levels != 0)
                if (n != 0 && (depth < CK::levels || depth < CV::levels)) return r.fail(errc::too_deep);
            return p + n * pair;
        } else {
            std::size_t rest = n * pair;
            for (std::size_t i = 0; i < n; ++i) {
                rest -= pair;
                p = CK::verify(r, p, end - rest - CV::min_size, depth);
                if (!p) return p;
                p = CV::verify(r, p, end - rest, depth);
                if (!p) return p;
            }
            return p;
        }
    }
};

// ---- structs -----------------------------------------------------------------------------

template <class S, class List>
struct struct_fields;

template <class S, auto... Ms>
struct struct_fields<S, fields<Ms...>> {
    static constexpr std::size_t count = sizeof...(Ms);
    static constexpr std::array<std::size_t, count + 1> mins = {codec<member_type_t<Ms>>::min_size..., 0};

    // after[i]: the minimum size of the fields after field i (the room field i leaves).
    static constexpr std::array<std::size_t, count + 1> compute_after() noexcept {
        std::array<std::size_t, count + 1> a{};
        std::size_t sum = 0;
        for (std::size_t i = count + 1; i-- > 0;) {
            a[i] = sum;
            sum += mins[i];
        }
        return a;
    }
    static constexpr std::array<std::size_t, count + 1> after = compute_after();
    static constexpr std::size_t min_size = (std::size_t{0} + ... + codec<member_type_t<Ms>>::min_size);
    static constexpr bool fixed = (true && ... && codec<member_type_t<Ms>>::fixed);
    static constexpr bool checked = (false || ... || codec<member_type_t<Ms>>::checked);
    static constexpr std::uint32_t max_levels() noexcept {
        std::uint32_t m = 0;
        for (std::uint32_t l : {std::uint32_t{0}, codec<member_type_t<Ms>>::levels...}) m = l > m ? l : m;
        return m;
    }
    static constexpr std::uint32_t levels = 1 + max_levels();

    using indices = std::make_index_sequence<count>;

    // Runs of fields whose C++ values are their wire bytes, copied as one block
    // (internal/runs.h).
    static constexpr std::array<bool, count + 1> raw = {bulk_copyable<codec<member_type_t<Ms>>>::value..., false};
    static constexpr const std::array<std::size_t, count + 1>& bytes = mins;
    template <std::size_t I>
    static constexpr auto member = member_at<I, Ms...>;
    template <std::size_t I>
    using field_type = std::tuple_element_t<I, std::tuple<member_type_t<Ms>...>>;
    using R = runs<struct_fields>;

    static FASTWIRE_INLINE std::size_t size([[maybe_unused]] const S& v) noexcept {
        if constexpr (fixed)
            return min_size;
        else
            return (std::size_t{0} + ... + codec<member_type_t<Ms>>::size(v.*Ms));
    }

    static FASTWIRE_INLINE std::uint8_t* write(std::uint8_t* p, [[maybe_unused]] const S& v) noexcept {
        return write_fields(p, v, indices{});
    }

    template <std::size_t... I>
    static FASTWIRE_INLINE std::uint8_t* write_fields(std::uint8_t* p, [[maybe_unused]] const S& v,
                                                      std::index_sequence<I...>) noexcept {
        ((p = write_field<I>(p, v)), ...);
        return p;
    }

    template <std::size_t I>
    static FASTWIRE_INLINE std::uint8_t* write_field(std::uint8_t* p, const S& v) noexcept {
        if constexpr (raw[I])
            return p + R::template store<I>(p, v);
        else if constexpr (is_struct_v<field_type<I>>)
            return codec<field_type<I>>::L::write(p, v.*member<I>);  // a struct field cannot nest itself
        else
            return codec<field_type<I>>::write(p, v.*member<I>);
    }

    // Field by field, each with room for the fields after it; stops at the first failure
    // (fields that cannot fail are not tested).
    template <std::size_t... I>
    static FASTWIRE_INLINE cursor read([[maybe_unused]] reader& r, cursor p, [[maybe_unused]] cursor end,
                                       [[maybe_unused]] std::uint32_t depth, [[maybe_unused]] S& v,
                                       std::index_sequence<I...>) {
        (void)(((p = read_field<I>(r, p, end, depth, v)), codec<member_type_t<Ms>>::infallible || p != nullptr) && ...);
        return p;
    }

    template <std::size_t I>
    static FASTWIRE_INLINE cursor read_field(reader& r, cursor p, cursor end, std::uint32_t depth, S& v) {
        using C = codec<field_type<I>>;
        if constexpr (raw[I]) {
            static_assert(C::infallible, "a raw field has nothing to check");
            return p + R::template load<I>(p, v);
        } else {
            return C::read(r, p, end - after[I], depth, v.*member<I>);
        }
    }

    template <std::size_t... I>
    static FASTWIRE_INLINE cursor verify([[maybe_unused]] reader& r, cursor p, [[maybe_unused]] cursor end,
                                         [[maybe_unused]] std::uint32_t depth, std::index_sequence<I...>) noexcept {
        (void)(((p = codec<member_type_t<Ms>>::verify(r, p, end - after[I], depth)),
                codec<member_type_t<Ms>>::infallible || p != nullptr) &&
               ...);
        return p;
    }
};

}  // namespace internal

// The layout of struct S in the final format (fields flattened base-first).
template <class S>
using layout = internal::struct_fields<S, all_fields_t<S>>;

// The layout as numbers, for generated code to check the schema compiler's lowered model
// (compiler/fastwire/lower.py) against at compile time: the fewest bytes S's fields take,
// and whether every value of S takes exactly that many.
template <class S>
constexpr std::size_t min_size() noexcept {
    return layout<S>::min_size;
}
template <class S>
constexpr bool is_fixed() noexcept {
    return layout<S>::fixed;
}

// ---- codecs ------------------------------------------------------------------------------

template <class T>
struct codec<T, std::enable_if_t<fastwire::internal::is_fixed_value_v<T>>> : internal::fixed_codec<T> {};

template <>
struct codec<std::string> : internal::text_codec<std::string> {};
// Strings with another allocator (std::pmr::string, `fastwire compile --pmr`).
template <class A>
struct codec<std::basic_string<char, std::char_traits<char>, A>>
    : internal::text_codec<std::basic_string<char, std::char_traits<char>, A>> {};
template <>
struct codec<bytes> : internal::text_codec<bytes> {};

// vector, list, set (fastwire::internal::is_sequence); vector<bool> is specialised below.
template <class Seq>
struct codec<Seq,
             std::enable_if_t<fastwire::internal::is_sequence_v<Seq> && !fastwire::internal::is_bool_vector_v<Seq>>>
    : internal::sequence_codec<Seq, typename Seq::value_type> {};

// std::vector<bool> (any allocator) stores bits, so it gets its own element loop.
template <class A>
struct codec<std::vector<bool, A>> {
    static constexpr std::size_t min_size = 4;
    static constexpr bool fixed = false;
    static constexpr bool infallible = false;
    static constexpr bool checked = true;
    static constexpr std::uint32_t levels = 0;
    static std::size_t size(const std::vector<bool, A>& v) noexcept { return 4 + v.size(); }
    static std::uint8_t* write(std::uint8_t* p, const std::vector<bool, A>& v) noexcept {
        store_le<std::uint32_t>(p, static_cast<std::uint32_t>(v.size()));
        return fastwire::internal::store_bools(p + 4, v);
    }
    static cursor read(reader& r, cursor p, cursor end, std::uint32_t, std::vector<bool, A>& out) {
        std::size_t n = 0;
        if (!internal::take_count<1>(r, p, end, n)) return nullptr;
        fastwire::internal::load_bools(p + 4, n, out);
        return p + 4 + n;
    }
    static cursor verify(reader& r, cursor p, cursor end, std::uint32_t) noexcept {
        std::size_t n = 0;
        if (!internal::take_count<1>(r, p, end, n)) return nullptr;
        return p + 4 + n;
    }
};

// map, hash (fastwire::internal::is_map).
template <class M>
struct codec<M, std::enable_if_t<fastwire::internal::is_map_v<M>>>
    : internal::map_codec<M, typename M::key_type, typename M::mapped_type> {};

// T[N]: N elements inline, no count.
template <class T, std::size_t N>
struct codec<std::array<T, N>> {
    using C = codec<T>;
    static_assert(N > 0, "schema arrays have at least one element");
    static constexpr std::size_t min_size = N * C::min_size;
    static constexpr bool fixed = C::fixed;
    static constexpr bool infallible = C::infallible;
    static constexpr bool checked = C::checked;
    static constexpr std::uint32_t levels = C::levels;
    static constexpr bool memcpy_ok = false;
    static constexpr bool bulk = internal::bulk_copyable<C>::value;

    static std::size_t size(const std::array<T, N>& v) noexcept { return internal::elements_size<C>(v); }

    static std::uint8_t* write(std::uint8_t* p, const std::array<T, N>& v) noexcept {
        if constexpr (bulk) {
            return fastwire::internal::store_bulk(p, v);
        } else {
            for (const auto& e : v) p = C::write(p, e);
            return p;
        }
    }
    static cursor read(reader& r, cursor p, cursor end, std::uint32_t depth, std::array<T, N>& out) {
        if constexpr (bulk) {
            return fastwire::internal::load_bulk(p, N, out);
        } else {
            return internal::read_elements<C>(r, p, end, depth, N, out.begin(), out.end());
        }
    }
    static cursor verify(reader& r, cursor p, cursor end, std::uint32_t depth) noexcept {
        return internal::verify_elements<C>(r, p, end, depth, N);
    }
};

// T?: [u8 flag] then, when the flag is set, the value. Any nonzero flag means present
// (the writer stores 1).
template <class T>
struct codec<std::optional<T>> {
    using C = codec<T>;
    static constexpr std::size_t min_size = 1;
    static constexpr bool fixed = false;
    static constexpr bool infallible = false;
    static constexpr bool checked = true;
    static constexpr std::uint32_t levels = 0;

    static FASTWIRE_INLINE std::size_t size(const std::optional<T>& v) noexcept { return v ? 1 + C::size(*v) : 1; }

    static FASTWIRE_INLINE std::uint8_t* write(std::uint8_t* p, const std::optional<T>& v) noexcept {
        if (v) {
            *p = 1;
            return C::write(p + 1, *v);
        }
        *p = 0;
        return p + 1;
    }

    static FASTWIRE_INLINE cursor read(reader& r, cursor p, cursor end, std::uint32_t depth, std::optional<T>& out) {
        if (*p == 0) {
            out.reset();
            return p + 1;
        }
        if constexpr (C::min_size != 0)
            if (C::min_size > room(p + 1, end)) return r.fail(errc::truncated);
        if (!out) out.emplace();
        return C::read(r, p + 1, end, depth, *out);
    }

    static FASTWIRE_INLINE cursor verify(reader& r, cursor p, cursor end, std::uint32_t depth) noexcept {
        if (*p == 0) return p + 1;
        if constexpr (C::min_size != 0)
            if (C::min_size > room(p + 1, end)) return r.fail(errc::truncated);
        return C::verify(r, p + 1, end, depth);
    }
};

// A struct: its fields inline, the base's first; no size, no type. Each struct entered
// counts one level against limits::max_depth. A struct of fixed-size fields cannot nest
// recursively: it checks its (compile-time) levels once and passes nothing down.
template <class S>
struct codec<S, std::enable_if_t<is_struct_v<S>>> {
    using L = layout<S>;
    static constexpr std::uint32_t type = struct_schema<S>::type;
    static constexpr std::size_t min_size = L::min_size;
    static constexpr bool fixed = L::fixed;
    static constexpr bool infallible = false;
    static constexpr bool checked = L::checked;
    static constexpr std::uint32_t levels = L::levels;

    static std::size_t size(const S& v) noexcept { return L::size(v); }

    static std::uint8_t* write(std::uint8_t* p, const S& v) noexcept { return L::write(p, v); }

    static cursor read(reader& r, cursor p, cursor end, std::uint32_t depth, S& out) {
        return read_inline(r, p, end, depth, out);
    }
    static cursor verify(reader& r, cursor p, cursor end, std::uint32_t depth) noexcept {
        return verify_inline(r, p, end, depth);
    }

    // The same, inlined where called: the root model's (final_model.h), so that a root
    // struct's fields are read in the caller's frame with no call (nested structs still
    // call read/verify, which keeps the code of large schemas small).
    static FASTWIRE_INLINE cursor read_inline(reader& r, cursor p, cursor end, std::uint32_t depth, S& out) {
        if constexpr (fixed) {
            if (depth < levels) return r.fail(errc::too_deep);
        } else {
            if (depth == 0) return r.fail(errc::too_deep);
        }
        return L::read(r, p, end, depth - 1, out, typename L::indices{});
    }

    static FASTWIRE_INLINE cursor verify_inline(reader& r, cursor p, cursor end, std::uint32_t depth) noexcept {
        if constexpr (fixed) {
            if (depth < levels) return r.fail(errc::too_deep);
            if constexpr (!checked) return p + min_size;
        } else {
            if (depth == 0) return r.fail(errc::too_deep);
        }
        return L::verify(r, p, end, depth - 1, typename L::indices{});
    }

    // The root model's write (final_model.h): a struct with no struct field of its own
    // (levels == 1; a collection of structs is a call of its own either way) is written in
    // the caller's frame, as read_inline reads it. One with struct fields calls write(),
    // into which the compiler inlines them: inlined into the caller instead, g++ 12 called
    // them one by one (the seed account: 255 instructions instead of 242).
    static FASTWIRE_INLINE std::uint8_t* write_inline(std::uint8_t* p, const S& v) noexcept {
        if constexpr (levels == 1)
            return L::write(p, v);
        else
            return write(p, v);
    }
};

}  // namespace final
}  // namespace fastwire

#pragma GCC diagnostic pop
