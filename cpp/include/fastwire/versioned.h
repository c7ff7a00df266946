// fastwire/versioned.h - codecs of the versioned FBE format (spec §2), one per C++ type.
//
// codec<T> knows how a T sits in the versioned format: the size of its fixed slot, how
// many heap bytes it appends, and how to write, read and verify it. Generated structs
// need no codec code of their own: their struct_schema (schema.h) is enough, and the
// struct codec below expands it at compile time into straight-line stores and loads at
// constant offsets. model (model.h) wraps a root struct in [full_size][8][body].
//
//   using C = fastwire::versioned::codec<std::string>;
//   C::slot;                 // 4: the slot holds an offset to [u32 length][bytes]
//   C::extra("abc");         // 7: bytes the value appends to the heap
//
// The contract every codec<T> meets:
//   static constexpr std::uint32_t slot;   // fixed slot size in bytes (>= 1)
//   static constexpr bool fixed;           // true: no heap data, extra() is always 0
//   static std::size_t extra(const T&) noexcept;
//       exact number of heap bytes write() appends
//   static void write(writer&, std::uint8_t* slot, const std::uint8_t* base, const T&) noexcept;
//       stores every byte of the slot (the buffer is not zero-filled), allocates heap
//       blocks from the writer in the reference's depth-first order (spec §2.1); offsets
//       are stored relative to `base`
//   template <class W> static W read(reader&, std::size_t slot, std::size_t base, W, T& out);
//       positions are relative to the start of the model; the caller guarantees that
//       [slot, slot + codec::slot) lies inside the message; every offset, size and count
//       the slot leads to is checked; returns the walk after this value, failed (left < 0)
//       on malformed input
//   template <class W> static W verify(reader&, std::size_t slot, std::size_t base, W) noexcept;
//       the same checks as read(), nothing stored, nothing allocated
//
// Checks made on every read and verify (see cpp/README.md, "Safety"):
// - an offset leads to a block that lies entirely inside the message, and lies after the
//   slot that holds the offset (pointers only go forward, as every FBE writer produces);
// - a count fits: count x slot(T) <= the bytes left after the count word;
// - every block reached is charged to a budget equal to the message size, so a message
//   whose offsets share blocks cannot make the walk (or the allocations of a read) larger
//   than the message itself;
// - struct nesting is at most limits::max_depth; struct sizes >= 8; type numbers match;
//   decimal scales <= 28.
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
namespace versioned {

// Serialization cursor: heap blocks are carved from `tail`. The model reserves the exact
// total size first, so allocation is a pointer bump with no bounds check.
struct writer {
    std::uint8_t* tail;

    std::uint8_t* alloc(std::size_t n) noexcept {
        std::uint8_t* p = tail;
        tail += n;
        return p;
    }
};

// The state a read or verify walk carries from value to value. It is passed and returned
// by value, so it stays in registers even across calls the compiler does not inline.
// Every read and verify is a template on the walk type, of which there are two:
//
// walk: the budget alone (one register). Used when the schema itself bounds the nesting
// within limits::max_depth: the generator gives each struct_schema a `depth`, the deepest
// struct nesting a value can have, and only a struct that reaches itself through a
// collection has none (depth 0).
struct walk {
    static constexpr bool counts_depth = false;
    std::int64_t left;  // bytes of blocks the walk may still visit; negative: failed

    constexpr bool ok() const noexcept { return left >= 0; }
};

// deep_walk: the budget and the struct levels that may still be entered; for recursive
// types, and for limits below a schema's depth.
struct deep_walk {
    static constexpr bool counts_depth = true;
    std::int64_t left;
    std::uint64_t depth;  // 64 bits: no packing with `left`

    constexpr bool ok() const noexcept { return left >= 0; }
};

// A failed walk of either type (left < 0).
struct failed_walk {
    template <class W>
    constexpr operator W() const noexcept {
        W w{};
        w.left = -1;
        return w;
    }
};

// One message (one root model): bounds for read and verify, and the first error found.
// A failed walk with `error == errc::ok` ran out of budget (errc::over_budget).
class reader {
public:
    // Invariant: n >= min_size (the root check guarantees it).
    reader(const std::uint8_t* bytes, std::size_t n) noexcept : data(bytes), size(n) {}

    static constexpr std::size_t min_size = 16;  // root header + the smallest struct body
    static constexpr failed_walk failed{};

    const std::uint8_t* data;  // first byte of the model
    std::size_t size;          // bytes in the model
    errc error = errc::ok;

    template <class T>
    FASTWIRE_INLINE T load(std::size_t pos) const noexcept {
        return load_le<T>(data + pos);
    }

    // Keeps the first error: a struct's fields are all read before the walk is checked.
    FASTWIRE_COLD void set_error(errc e) noexcept {
        if (error == errc::ok) error = e;
    }
    // Records e; returns false.
    bool reject(errc e) noexcept {
        set_error(e);
        return false;
    }
    // Records e; returns a failed walk.
    failed_walk fail(errc e) noexcept {
        set_error(e);
        return failed;
    }

    // Resolves an offset read from a slot that ends at `slot_end`: the block it points to
    // (base + offset) must start at or after slot_end and hold Need bytes inside the
    // message. An offset of 0 always fails here, since base < slot_end.
    // Invariants: base <= slot_end <= size.
    template <std::size_t Need>
    FASTWIRE_INLINE bool locate(std::size_t base, std::uint32_t offset, std::size_t slot_end,
                                std::size_t& pos) noexcept {
        if constexpr (sizeof(std::size_t) < 8) {  // base + offset could wrap
            if (offset > size - base) return reject(errc::truncated);
        }
        if constexpr (Need > min_size) {
            if (Need > size) return reject(errc::truncated);
        }
        pos = base + offset;
        if (pos < slot_end) return reject(errc::bad_offset);
        if (pos > size - Need) return reject(errc::truncated);
        return true;
    }

    // For strings and collections, where offset 0 means empty: like locate<4>(), but
    // offset 0 gives pos = 0. Offset 0 is told apart only on the (cold) path where the
    // target lies before the slot, so the common case costs two comparisons.
    FASTWIRE_INLINE bool locate_or_empty(std::size_t base, std::uint32_t offset, std::size_t slot_end,
                                         std::size_t& pos) noexcept {
        if constexpr (sizeof(std::size_t) < 8) {
            if (offset > size - base) return reject(errc::truncated);
        }
        pos = base + offset;
        if (pos < slot_end) {
            if (offset != 0) return reject(errc::bad_offset);
            pos = 0;
            return true;
        }
        if (pos > size - 4) return reject(errc::truncated);
        return true;
    }
};

// Charges n bytes of visited blocks to the walk (n < 2^32: no overflow).
template <class W>
FASTWIRE_INLINE W charge(W w, std::size_t n) noexcept {
    w.left -= static_cast<std::int64_t>(n);
    return w;
}

// ---- the canonical read ------------------------------------------------------------------
//
// Every FBE writer of this schema version lays a message out the same way: the root body,
// then each field's heap blocks in field order, depth first, each block starting where the
// previous one ended (spec §2.1), every struct body exactly as long as this schema's.
// deserialize() first reads a message as if it were laid out so (canon_read below): one
// cursor follows the blocks, and each offset must lead exactly to the cursor. Blocks then
// cannot overlap or point backwards, so the walk needs no budget and no per-offset range
// checks; as in the final format, each codec is handed `end`, the message end less the
// fewest heap bytes the values after it take (heap_min), so one comparison per length or
// count keeps every block inside the message. Any other message (an older or newer struct
// version, a foreign writer's layout, damage) makes canon_read return nullptr, having
// recorded nothing; the model then reads it again with the general walk (read()), whose
// values and errors are thus the only ones a caller ever sees. A canonical message passes
// every check of the general walk (its blocks are disjoint, forward and inside the
// message), so both give the same values (cpp/tests: every truncation and byte change of
// the golden vectors, both ways).
//
// Each codec<T> adds:
//   static constexpr std::size_t heap_min;      // fewest heap bytes write() appends
//   static constexpr bool canon_infallible;     // canon_read() cannot fail
//   static cursor canon_read(cursor slot, cursor base, cursor p, cursor end, T& out);
//       slot: T's slot (inside the message); base: what its offsets are relative to;
//       p: where T's first heap block must start; the caller guarantees
//       p + heap_min <= end. Returns the position after T's heap blocks (<= end), or
//       nullptr when the message is not canonical here.
using cursor = const std::uint8_t*;

// The bytes between two positions (first <= last).
FASTWIRE_INLINE std::size_t room(cursor first, cursor last) noexcept { return static_cast<std::size_t>(last - first); }

// True when the offset in the slot leads exactly to p (p >= base).
FASTWIRE_INLINE bool canonical_at(cursor slot, cursor base, cursor p) noexcept {
    return load_le<std::uint32_t>(slot) == static_cast<std::size_t>(p - base);
}

template <class T, class = void>
struct codec;  // specialised below for every type a schema type maps to

namespace internal {

using fastwire::internal::bulk_copyable;
using fastwire::internal::fixed_value;
using fastwire::internal::member_at;
using fastwire::internal::runs;

// Numbers, enums, decimal, uuid: the slot holds the value itself (internal/scalar.h).
template <class T>
struct fixed_codec {
    using V = fixed_value<T>;
    static constexpr std::uint32_t slot = V::size;
    static constexpr bool fixed = true;
    // Bulk copies of arrays are allowed when the C++ representation is the wire one.
    static constexpr bool memcpy_ok = V::memcpy_ok;

    static std::size_t extra(const T&) noexcept { return 0; }

    static void write(writer&, std::uint8_t* slot_ptr, const std::uint8_t*, const T& v) noexcept {
        V::store(slot_ptr, v);
    }

    template <class W>
    static W read(reader& r, std::size_t slot_pos, std::size_t, W w, T& out) noexcept {
        if constexpr (V::checked) {
            const errc e = V::load(r.data + slot_pos, out);
            return e == errc::ok ? w : r.fail(e);
        } else {
            V::load(r.data + slot_pos, out);
            return w;
        }
    }

    template <class W>
    static W verify([[maybe_unused]] reader& r, [[maybe_unused]] std::size_t slot_pos, std::size_t, W w) noexcept {
        if constexpr (V::checked)
            return V::valid(r.data + slot_pos) ? w : r.fail(errc::bad_value);
        else
            return w;
    }

    static constexpr std::size_t heap_min = 0;
    static constexpr bool canon_infallible = !V::checked;

    static FASTWIRE_INLINE cursor canon_read(cursor slot, cursor, cursor p, cursor, T& out) noexcept {
        if constexpr (V::checked) {
            return V::load(slot, out) == errc::ok ? p : nullptr;
        } else {
            V::load(slot, out);
            return p;
        }
    }
};

// Strings and bytes: the slot holds an offset to [u32 length][bytes].
template <class T>
struct text_codec {
    static constexpr std::uint32_t slot = 4;
    static constexpr bool fixed = false;

    static std::size_t extra(const T& v) noexcept { return 4 + v.size(); }

    static void write(writer& w, std::uint8_t* slot_ptr, const std::uint8_t* base, const T& v) noexcept {
        const std::size_t n = v.size();
        std::uint8_t* blk = w.alloc(4 + n);
        store_le<std::uint32_t>(slot_ptr, static_cast<std::uint32_t>(blk - base));
        fastwire::internal::store_text(blk, v.data(), n);
    }

    // Finds the [length][bytes] block and charges it; pos = first payload byte. Offset 0
    // (written by no FBE writer) reads as empty: n = 0. On failure pos and n are not
    // changed: read() relies on that (it reads on with pos = n = 0).
    template <class W>
    static FASTWIRE_INLINE W find(reader& r, std::size_t slot_pos, std::size_t base, W w, std::size_t& pos,
                                  std::size_t& n) noexcept {
        std::size_t blk = 0;
        if (!r.locate_or_empty(base, r.load<std::uint32_t>(slot_pos), slot_pos + 4, blk)) return reader::failed;
        if (blk == 0) {
            n = pos = 0;
            return w;
        }
        const std::size_t len = r.load<std::uint32_t>(blk);
        if (len > r.size - blk - 4) return r.fail(errc::truncated);  // pos and n untouched
        n = len;
        pos = blk + 4;
        return charge(w, 4 + len);
    }

    template <class W>
    static W read(reader& r, std::size_t slot_pos, std::size_t base, W w, T& out) {
        std::size_t pos = 0, n = 0;
        // On failure pos = n = 0: an empty value, and the failed walk is returned.
        w = find(r, slot_pos, base, w, pos, n);
        fastwire::internal::load_text(out, r.data + pos, n);
        return w;
    }

    template <class W>
    static W verify(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        std::size_t pos = 0, n = 0;
        return find(r, slot_pos, base, w, pos, n);
    }

    static constexpr std::size_t heap_min = 4;
    static constexpr bool canon_infallible = false;

    static FASTWIRE_INLINE cursor canon_read(cursor slot, cursor base, cursor p, cursor end, T& out) {
        if (!canonical_at(slot, base, p)) return nullptr;
        const std::size_t n = load_le<std::uint32_t>(p);  // p + 4 <= end
        if (n > room(p + 4, end)) return nullptr;
        fastwire::internal::load_text(out, p + 4, n);
        return p + 4 + n;
    }
};

// Finds the [u32 count][count x elem_slot] block of a vector, list, set or map and charges
// it; pos = first element slot. Offset 0 reads as empty: count = 0.
template <class W>
FASTWIRE_INLINE W find_block(reader& r, std::size_t slot_pos, std::size_t base, std::size_t elem_slot, W w,
                             std::size_t& pos, std::size_t& count) noexcept {
    std::size_t blk = 0;
    if (!r.locate_or_empty(base, r.load<std::uint32_t>(slot_pos), slot_pos + 4, blk)) return reader::failed;
    if (blk == 0) {
        count = pos = 0;
        return w;
    }
    count = r.load<std::uint32_t>(blk);
    if (count > (r.size - blk - 4) / elem_slot) return r.fail(errc::truncated);
    pos = blk + 4;
    return charge(w, 4 + count * elem_slot);
}

// The count word at p (p + 4 <= end) of a canonical collection whose elements take at least
// Per bytes each (slot and heap): false unless they fit in [p + 4, end).
template <std::size_t Per>
FASTWIRE_INLINE bool canon_count(cursor p, cursor end, std::size_t& count) noexcept {
    static_assert(Per != 0, "every element has a slot");
    count = load_le<std::uint32_t>(p);
    return count <= room(p + 4, end) / Per;  // a division, so no product to overflow
}

// The canonical read of n elements whose slots start at s, into [first, last); their heap
// blocks start at p. Each gets room up to `end` less the heap_min of the elements after it.
template <class C, class It>
FASTWIRE_INLINE cursor canon_elements(cursor s, cursor base, cursor p, cursor end, std::size_t n, It first, It last) {
    std::size_t rest = n * C::heap_min;
    for (; first != last; ++first, s += C::slot) {
        rest -= C::heap_min;
        p = C::canon_read(s, base, p, end - rest, *first);
        if constexpr (!C::canon_infallible)
            if (!p) return p;
    }
    return p;
}

// Writes [count][slots] and returns the first element slot.
FASTWIRE_INLINE std::uint8_t* write_block(writer& w, std::uint8_t* slot_ptr, const std::uint8_t* base,
                                          std::size_t count, std::size_t elem_slot) noexcept {
    std::uint8_t* blk = w.alloc(4 + count * elem_slot);
    store_le<std::uint32_t>(slot_ptr, static_cast<std::uint32_t>(blk - base));
    store_le<std::uint32_t>(blk, static_cast<std::uint32_t>(count));
    return blk + 4;
}

template <class C, class Range>
inline std::size_t elements_extra(const Range& v) noexcept {
    std::size_t n = 0;
    if constexpr (!C::fixed)
        for (const auto& e : v) n += C::extra(e);
    return n;
}

// Vectors, lists and sets share the wire form: an offset to [u32 count][count x slot(T)].
// Elements' heap data follows the block; their offsets are relative to the same base
// (collections do not move the base).
template <class Seq, class T>
struct sequence_codec {
    using C = codec<T>;
    static constexpr std::uint32_t slot = 4;
    static constexpr bool fixed = false;
    static constexpr bool bulk = fastwire::internal::is_vector<Seq>::value && bulk_copyable<C>::value;

    static std::size_t extra(const Seq& v) noexcept { return 4 + v.size() * C::slot + elements_extra<C>(v); }

    static void write(writer& w, std::uint8_t* slot_ptr, const std::uint8_t* base, const Seq& v) noexcept {
        std::uint8_t* p = write_block(w, slot_ptr, base, v.size(), C::slot);
        if constexpr (bulk) {
            fastwire::internal::store_bulk(p, v);
        } else {
            for (const auto& e : v) {
                C::write(w, p, base, e);
                p += C::slot;
            }
        }
    }

    template <class W>
    static W read(reader& r, std::size_t slot_pos, std::size_t base, W w, Seq& out) {
        std::size_t pos = 0, n = 0;
        w = find_block(r, slot_pos, base, C::slot, w, pos, n);
        if (!w.ok()) return w;  // before anything is allocated
        if constexpr (fastwire::internal::is_set<Seq>::value) {
            fastwire::internal::refill(out, n, [&](T& e) {
                w = C::read(r, pos, base, w, e);
                pos += C::slot;
                return w.ok();
            });
        } else if constexpr (bulk) {
            fastwire::internal::load_bulk(r.data + pos, n, out);
        } else {
            fastwire::internal::resize_for_read(out, n);  // reuses existing elements (and their capacity)
            for (auto& e : out) {
                w = C::read(r, pos, base, w, e);
                if (!w.ok()) return w;
                pos += C::slot;
            }
        }
        return w;
    }

    template <class W>
    static W verify(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        std::size_t pos = 0, n = 0;
        w = find_block(r, slot_pos, base, C::slot, w, pos, n);
        // For elements whose verify() returns the walk unchanged the loop folds away.
        for (std::size_t i = 0; i < n && w.ok(); ++i, pos += C::slot) w = C::verify(r, pos, base, w);
        return w;
    }

    static constexpr std::size_t heap_min = 4;  // nothing here may name C's: T may be the enclosing struct
    static constexpr bool canon_infallible = false;

    static cursor canon_read(cursor slot, cursor base, cursor p, cursor end, Seq& out) {
        std::size_t n = 0;
        if (!canonical_at(slot, base, p) || !canon_count<C::slot + C::heap_min>(p, end, n)) return nullptr;
        cursor s = p + 4;
        p = s + n * C::slot;
        if constexpr (fastwire::internal::is_set<Seq>::value) {
            std::size_t rest = n * C::heap_min;
            fastwire::internal::refill(out, n, [&](T& e) {
                rest -= C::heap_min;
                p = C::canon_read(s, base, p, end - rest, e);
                s += C::slot;
                return p != nullptr;
            });
            return p;
        } else if constexpr (bulk) {
            fastwire::internal::load_bulk(s, n, out);
            return p;
        } else {
            fastwire::internal::resize_for_read(out, n);
            return canon_elements<C>(s, base, p, end, n, out.begin(), out.end());
        }
    }
};

// Maps and hashes: an offset to [u32 count][count x (slot(K) slot(V))].
template <class M, class K, class V>
struct map_codec {
    using CK = codec<K>;
    using CV = codec<V>;
    static constexpr std::uint32_t pair_slot = CK::slot + CV::slot;
    static constexpr std::uint32_t slot = 4;
    static constexpr bool fixed = false;

    static std::size_t extra(const M& m) noexcept {
        std::size_t n = 4 + m.size() * pair_slot;
        if constexpr (!CK::fixed || !CV::fixed)
            for (const auto& kv : m) n += CK::extra(kv.first) + CV::extra(kv.second);
        return n;
    }

    static void write(writer& w, std::uint8_t* slot_ptr, const std::uint8_t* base, const M& m) noexcept {
        std::uint8_t* p = write_block(w, slot_ptr, base, m.size(), pair_slot);
        for (const auto& kv : m) {
            CK::write(w, p, base, kv.first);
            CV::write(w, p + CK::slot, base, kv.second);
            p += pair_slot;
        }
    }

    template <class W>
    static W read(reader& r, std::size_t slot_pos, std::size_t base, W w, M& out) {
        std::size_t pos = 0, n = 0;
        w = find_block(r, slot_pos, base, pair_slot, w, pos, n);
        if (!w.ok()) return w;
        fastwire::internal::refill(
            out, n,
            [&](K& key) FASTWIRE_INLINE_LAMBDA {
                w = CK::read(r, pos, base, w, key);
                return w.ok();
            },
            [&](V& value) FASTWIRE_INLINE_LAMBDA {
                w = CV::read(r, pos + CK::slot, base, w, value);
                pos += pair_slot;
                return w.ok();
            });
        return w;
    }

    template <class W>
    static W verify(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        std::size_t pos = 0, n = 0;
        w = find_block(r, slot_pos, base, pair_slot, w, pos, n);
        for (std::size_t i = 0; i < n && w.ok(); ++i, pos += pair_slot) {
            w = CK::verify(r, pos, base, w);
            if (w.ok()) w = CV::verify(r, pos + CK::slot, base, w);
        }
        return w;
    }

    static constexpr std::size_t heap_min = 4;
    static constexpr bool canon_infallible = false;

    static cursor canon_read(cursor slot, cursor base, cursor p, cursor end, M& out) {
        constexpr std::size_t pair_heap = CK::heap_min + CV::heap_min;
        std::size_t n = 0;
        if (!canonical_at(slot, base, p) || !canon_count<pair_slot + pair_heap>(p, end, n)) return nullptr;
        cursor s = p + 4;
        p = s + n * pair_slot;
        std::size_t rest = n * pair_heap;
        fastwire::internal::refill(
            out, n,
            [&](K& key) FASTWIRE_INLINE_LAMBDA {
                rest -= pair_heap;
                p = CK::canon_read(s, base, p, end - rest - CV::heap_min, key);
                return p != nullptr;
            },
            [&](V& value) FASTWIRE_INLINE_LAMBDA {
                p = CV::canon_read(s + CK::slot, base, p, end - rest, value);
                s += pair_slot;
                return p != nullptr;
            });
        return p;
    }
};

// ---- structs -----------------------------------------------------------------------------

template <class S, class List>
struct struct_fields;

template <class S, auto... Ms>
struct struct_fields<S, fields<Ms...>> {
    static constexpr std::size_t count = sizeof...(Ms);
    static constexpr std::array<std::uint32_t, count + 1> slots = {codec<member_type_t<Ms>>::slot..., 0};

    // offsets[i]: where field i's slot starts in the body (after the 8-byte header);
    // offsets[count]: the body size, 8 + the sum of the slots.
    static constexpr std::array<std::uint32_t, count + 1> compute_offsets() noexcept {
        std::array<std::uint32_t, count + 1> o{};
        std::uint32_t at = 8;
        for (std::size_t i = 0; i <= count; ++i) {
            o[i] = at;
            at += slots[i];
        }
        return o;
    }
    static constexpr std::array<std::uint32_t, count + 1> offsets = compute_offsets();
    static constexpr std::uint32_t body = offsets[count];

    // The canonical read (see "the canonical read" above): heap_after[i] is the fewest heap
    // bytes the fields after field i append; heap_min, all fields'.
    static constexpr std::array<std::size_t, count + 1> heap_mins = {codec<member_type_t<Ms>>::heap_min..., 0};
    static constexpr std::array<std::size_t, count + 1> compute_heap_after() noexcept {
        std::array<std::size_t, count + 1> a{};
        std::size_t sum = 0;
        for (std::size_t i = count + 1; i-- > 0;) {
            a[i] = sum;
            sum += heap_mins[i];
        }
        return a;
    }
    static constexpr std::array<std::size_t, count + 1> heap_after = compute_heap_after();
    static constexpr std::size_t heap_min = (std::size_t{0} + ... + codec<member_type_t<Ms>>::heap_min);

    using indices = std::make_index_sequence<count>;

    // Runs of fields whose C++ values are their slots' bytes, copied as one block
    // (internal/runs.h); their slots follow each other like every field's.
    static constexpr std::array<bool, count + 1> raw = {bulk_copyable<codec<member_type_t<Ms>>>::value..., false};
    static constexpr const std::array<std::uint32_t, count + 1>& bytes = slots;
    template <std::size_t I>
    static constexpr auto member = member_at<I, Ms...>;
    using R = runs<struct_fields>;

    static std::size_t extra([[maybe_unused]] const S& v) noexcept {
        return (std::size_t{0} + ... + codec<member_type_t<Ms>>::extra(v.*Ms));
    }

    template <std::size_t... I>
    static void write([[maybe_unused]] writer& w, [[maybe_unused]] std::uint8_t* body_ptr, [[maybe_unused]] const S& v,
                      std::index_sequence<I...>) noexcept {
        (write_field<I>(w, body_ptr, v), ...);
    }

    template <std::size_t I>
    static FASTWIRE_INLINE void write_field(writer& w, std::uint8_t* body_ptr, const S& v) noexcept {
        if constexpr (raw[I])
            R::template store<I>(body_ptr + offsets[I], v);
        else
            codec<std::tuple_element_t<I, std::tuple<member_type_t<Ms>...>>>::write(w, body_ptr + offsets[I], body_ptr,
                                                                                    v.*member<I>);
    }

    // Every field is in the buffer (stored size >= ours). The walk is checked once, by the
    // caller, after all of them: a field that fails leaves the walk negative (it only goes
    // down from there), and every codec that allocates or loops checks the walk first, so
    // reading on is bounded and safe, and the common path has one branch less per field.
    template <class W, std::size_t... I>
    static W read_all([[maybe_unused]] reader& r, [[maybe_unused]] std::size_t pos, W w, [[maybe_unused]] S& v,
                      std::index_sequence<I...>) {
        // Per field: the copy of the run it starts (raw[I]), or its codec.
        ((w = raw[I] ? load_run<I>(r, pos, w, v) : codec<member_type_t<Ms>>::read(r, pos + offsets[I], pos, w, v.*Ms)),
         ...);
        return w;
    }

    template <std::size_t I, class W>
    static FASTWIRE_INLINE W load_run(reader& r, std::size_t pos, W w, S& v) {
        R::template load<I>(r.data + pos + offsets[I], v);
        return w;
    }

    // An older, shorter struct: fields whose slot ends beyond `stored` get their defaults.
    template <class W, std::size_t... I>
    FASTWIRE_NOINLINE static W read_some([[maybe_unused]] reader& r, [[maybe_unused]] std::size_t pos,
                                         [[maybe_unused]] std::size_t stored, W w, [[maybe_unused]] S& v,
                                         std::index_sequence<I...>) {
        [[maybe_unused]] const S defaults{};
        (void)((offsets[I] + slots[I] <= stored
                    ? (w = codec<member_type_t<Ms>>::read(r, pos + offsets[I], pos, w, v.*Ms)).ok()
                    : (v.*Ms = defaults.*Ms, true)) &&
               ...);
        return w;
    }

    // The canonical read of the fields of the body at `body`; their heap blocks start at p
    // (p + heap_min <= end). Stops at the first field that is not canonical.
    template <std::size_t... I>
    static FASTWIRE_INLINE cursor canon_read([[maybe_unused]] cursor body, cursor p, [[maybe_unused]] cursor end,
                                             [[maybe_unused]] S& v, std::index_sequence<I...>) {
        (void)(((p = canon_field<I>(body, p, end, v)), codec<member_type_t<Ms>>::canon_infallible || p != nullptr) &&
               ...);
        return p;
    }

    template <std::size_t I>
    static FASTWIRE_INLINE cursor canon_field(cursor body, cursor p, cursor end, S& v) {
        if constexpr (raw[I]) {
            R::template load<I>(body + offsets[I], v);
            return p;
        } else {
            return codec<std::tuple_element_t<I, std::tuple<member_type_t<Ms>...>>>::canon_read(
                body + offsets[I], body, p, end - heap_after[I], v.*member<I>);
        }
    }

    template <class W, std::size_t... I>
    static W verify_all([[maybe_unused]] reader& r, [[maybe_unused]] std::size_t pos, W w,
                        std::index_sequence<I...>) noexcept {
        ((w = codec<member_type_t<Ms>>::verify(r, pos + offsets[I], pos, w)), ...);
        return w;
    }

    // An older, shorter struct: only the fields whose slot ends within `stored`.
    template <class W, std::size_t... I>
    FASTWIRE_NOINLINE static W verify_some([[maybe_unused]] reader& r, [[maybe_unused]] std::size_t pos,
                                           [[maybe_unused]] std::size_t stored, W w,
                                           std::index_sequence<I...>) noexcept {
        (void)((offsets[I] + slots[I] > stored ||
                (w = codec<member_type_t<Ms>>::verify(r, pos + offsets[I], pos, w)).ok()) &&
               ...);
        return w;
    }
};

}  // namespace internal

// The layout of struct S in the versioned format (fields flattened base-first).
template <class S>
using layout = internal::struct_fields<S, all_fields_t<S>>;

// The layout as numbers, for generated code to check the schema compiler's lowered model
// (compiler/fastwire/lower.py) against at compile time: the body size (header and slots),
// and whether the fields' slots start at `offsets` (from the body's start, base-first).
template <class S>
constexpr std::uint32_t body_size() noexcept {
    return layout<S>::body;
}
template <class S, std::size_t N>
constexpr bool slot_offsets_are(const std::uint32_t (&offsets)[N]) noexcept {
    if (N != layout<S>::count) return false;
    for (std::size_t i = 0; i < N; ++i)
        if (offsets[i] != layout<S>::offsets[i]) return false;
    return true;
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
    static constexpr std::uint32_t slot = 4;
    static constexpr bool fixed = false;
    static std::size_t extra(const std::vector<bool, A>& v) noexcept { return 4 + v.size(); }
    static void write(writer& w, std::uint8_t* slot_ptr, const std::uint8_t* base,
                      const std::vector<bool, A>& v) noexcept {
        fastwire::internal::store_bools(internal::write_block(w, slot_ptr, base, v.size(), 1), v);
    }
    template <class W>
    static W read(reader& r, std::size_t slot_pos, std::size_t base, W w, std::vector<bool, A>& out) {
        std::size_t pos = 0, n = 0;
        w = internal::find_block(r, slot_pos, base, 1, w, pos, n);
        if (!w.ok()) return w;
        fastwire::internal::load_bools(r.data + pos, n, out);
        return w;
    }
    template <class W>
    static W verify(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        std::size_t pos = 0, n = 0;
        return internal::find_block(r, slot_pos, base, 1, w, pos, n);
    }

    static constexpr std::size_t heap_min = 4;
    static constexpr bool canon_infallible = false;
    static cursor canon_read(cursor slot, cursor base, cursor p, cursor end, std::vector<bool, A>& out) {
        std::size_t n = 0;
        if (!canonical_at(slot, base, p) || !internal::canon_count<1>(p, end, n)) return nullptr;
        fastwire::internal::load_bools(p + 4, n, out);
        return p + 4 + n;
    }
};

// map, hash (fastwire::internal::is_map).
template <class M>
struct codec<M, std::enable_if_t<fastwire::internal::is_map_v<M>>>
    : internal::map_codec<M, typename M::key_type, typename M::mapped_type> {};

// T[N]: N element slots inline, no count.
template <class T, std::size_t N>
struct codec<std::array<T, N>> {
    using C = codec<T>;
    static_assert(N > 0, "schema arrays have at least one element");
    static constexpr std::uint32_t slot = static_cast<std::uint32_t>(N) * C::slot;
    static constexpr bool fixed = C::fixed;
    static constexpr bool memcpy_ok = false;

    static std::size_t extra(const std::array<T, N>& v) noexcept { return internal::elements_extra<C>(v); }

    static void write(writer& w, std::uint8_t* p, const std::uint8_t* base, const std::array<T, N>& v) noexcept {
        if constexpr (internal::bulk_copyable<C>::value) {
            fastwire::internal::store_bulk(p, v);
        } else {
            for (const auto& e : v) {
                C::write(w, p, base, e);
                p += C::slot;
            }
        }
    }
    template <class W>
    static W read(reader& r, std::size_t pos, std::size_t base, W w, std::array<T, N>& out) {
        if constexpr (internal::bulk_copyable<C>::value) {
            fastwire::internal::load_bulk(r.data + pos, N, out);
        } else {
            // The walk is checked before each element, as verify() does: a walk that failed
            // earlier (out of budget) reads no further, so both report the same first error.
            for (auto& e : out) {
                if (!w.ok()) return w;
                w = C::read(r, pos, base, w, e);
                pos += C::slot;
            }
        }
        return w;
    }
    template <class W>
    static W verify(reader& r, std::size_t pos, std::size_t base, W w) noexcept {
        for (std::size_t i = 0; i < N && w.ok(); ++i, pos += C::slot) w = C::verify(r, pos, base, w);
        return w;
    }

    static constexpr std::size_t heap_min = N * C::heap_min;
    static constexpr bool canon_infallible = C::canon_infallible;
    static cursor canon_read(cursor slot, cursor base, cursor p, cursor end, std::array<T, N>& out) {
        if constexpr (internal::bulk_copyable<C>::value) {
            fastwire::internal::load_bulk(slot, N, out);
            return p;
        } else {
            return internal::canon_elements<C>(slot, base, p, end, N, out.begin(), out.end());
        }
    }
};

// T?: [u8 has_value][u32 offset] -> a block of slot(T) bytes holding the value, written
// with the base moved to that block. A null optional writes flag 0 and offset 0.
template <class T>
struct codec<std::optional<T>> {
    using C = codec<T>;
    static constexpr std::uint32_t slot = 5;
    static constexpr bool fixed = false;

    static std::size_t extra(const std::optional<T>& v) noexcept { return v ? C::slot + C::extra(*v) : 0; }

    static void write(writer& w, std::uint8_t* p, const std::uint8_t* base, const std::optional<T>& v) noexcept {
        if (v) {
            std::uint8_t* blk = w.alloc(C::slot);
            p[0] = 1;
            store_le<std::uint32_t>(p + 1, static_cast<std::uint32_t>(blk - base));
            C::write(w, blk, blk, *v);
        } else {
            p[0] = 0;
            store_le<std::uint32_t>(p + 1, 0);
        }
    }

    // The value block of a set optional (charged), in pos. A set flag with offset 0 fails
    // in locate(), as the reference's verify rejects it; the offset of a null optional is
    // ignored (the reference leaves it uninitialised, bug B1).
    static FASTWIRE_INLINE bool find(reader& r, std::size_t slot_pos, std::size_t base, std::size_t& pos) noexcept {
        return r.locate<C::slot>(base, r.load<std::uint32_t>(slot_pos + 1), slot_pos + 5, pos);
    }

    template <class W>
    static W read(reader& r, std::size_t slot_pos, std::size_t base, W w, std::optional<T>& out) {
        if (r.data[slot_pos] == 0) {
            out.reset();
            return w;
        }
        std::size_t pos = 0;
        if (!find(r, slot_pos, base, pos)) return reader::failed;
        if (!out) out.emplace();
        return C::read(r, pos, pos, charge(w, C::slot), *out);
    }

    template <class W>
    static W verify(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        if (r.data[slot_pos] == 0) return w;
        std::size_t pos = 0;
        if (!find(r, slot_pos, base, pos)) return reader::failed;
        return C::verify(r, pos, pos, charge(w, C::slot));
    }

    // A set optional's block [slot(T)] starts at p, T's heap after it.
    static constexpr std::size_t heap_min = 0;  // null; nothing here may name C's (T may recur)
    static constexpr bool canon_infallible = false;
    static FASTWIRE_INLINE cursor canon_read(cursor slot, cursor base, cursor p, cursor end, std::optional<T>& out) {
        if (slot[0] == 0) {
            out.reset();
            return p;
        }
        if (!canonical_at(slot + 1, base, p) || C::slot + C::heap_min > room(p, end)) return nullptr;
        if (!out) out.emplace();
        return C::canon_read(p, p, p + C::slot, end, *out);
    }
};

// A struct field: an offset to the body [u32 size][u32 type][field slots…]; the fields
// inside are relative to the body.
template <class S>
struct codec<S, std::enable_if_t<is_struct_v<S>>> {
    using L = layout<S>;
    static constexpr std::uint32_t type = struct_schema<S>::type;
    static constexpr std::uint32_t slot = 4;
    static constexpr bool fixed = false;

    static std::size_t extra(const S& v) noexcept { return L::body + L::extra(v); }

    static void write(writer& w, std::uint8_t* p, const std::uint8_t* base, const S& v) noexcept {
        std::uint8_t* body = w.alloc(L::body);
        store_le<std::uint32_t>(p, static_cast<std::uint32_t>(body - base));
        store_le<std::uint32_t>(body, L::body);
        store_le<std::uint32_t>(body + 4, type);
        L::write(w, body, v, typename L::indices{});
    }

    // Finds and checks the body (pos; stored = its struct_size) and enters it: the
    // returned walk has the body charged and one level less to go.
    template <class W>
    static FASTWIRE_INLINE W enter(reader& r, std::size_t slot_pos, std::size_t base, W w, std::size_t& pos,
                                   std::size_t& stored) noexcept {
        if (!r.locate<8>(base, r.load<std::uint32_t>(slot_pos), slot_pos + 4, pos)) return reader::failed;
        stored = r.load<std::uint32_t>(pos);
        // 8 <= stored <= size - pos, in one unsigned comparison (size - pos >= 8 here).
        if (stored - 8 > r.size - pos - 8) return r.fail(stored < 8 ? errc::bad_size : errc::truncated);
        if (r.load<std::uint32_t>(pos + 4) != type) return r.fail(errc::bad_type);
        if constexpr (W::counts_depth) {
            if (w.depth == 0) return r.fail(errc::too_deep);
            --w.depth;
        }
        return charge(w, stored);
    }

    // The common case, a body this schema version wrote: the offset points past the slot,
    // the whole body is inside the message, and its header is exactly [body][type]. One
    // 8-byte compare then stands for enter()'s size and type checks. Any other body (older,
    // newer, damaged) goes out of line to enter(), which reports the precise error. Walks
    // that count depth (recursive types) and 32-bit targets (where base + offset could
    // wrap) always take enter(), in line.
    static constexpr std::uint64_t header = (std::uint64_t{type} << 32) | L::body;
    template <class W>
    static constexpr bool fast = !W::counts_depth && sizeof(std::size_t) == 8;

    static FASTWIRE_INLINE bool current(reader& r, std::size_t slot_pos, std::size_t base, std::size_t& pos) noexcept {
        pos = base + r.load<std::uint32_t>(slot_pos);
        return pos >= slot_pos + 4 && pos + L::body <= r.size && r.load<std::uint64_t>(pos) == header;
    }

    template <class W>
    static W read(reader& r, std::size_t slot_pos, std::size_t base, W w, S& out) {
        if constexpr (fast<W>) {
            std::size_t pos = 0;
            if (FASTWIRE_LIKELY(current(r, slot_pos, base, pos))) {
                W in = charge(w, L::body);
                if (!in.ok()) return in;
                w.left = L::read_all(r, pos, in, out, typename L::indices{}).left;
                return w;
            }
            return read_other(r, slot_pos, base, w, out);
        } else {
            return read_any(r, slot_pos, base, w, out);
        }
    }

    // The body (this version's: its header is exactly [body][type]) starts at p, the
    // fields' heap blocks after it.
    static constexpr std::size_t heap_min = L::body + L::heap_min;
    static constexpr bool canon_infallible = false;
    static cursor canon_read(cursor slot, cursor base, cursor p, cursor end, S& out) {
        if (!canonical_at(slot, base, p) || load_le<std::uint64_t>(p) != header) return nullptr;
        return L::canon_read(p, p + L::body, end, out, typename L::indices{});
    }

    template <class W>
    static W verify(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        if constexpr (fast<W>) {
            std::size_t pos = 0;
            if (FASTWIRE_LIKELY(current(r, slot_pos, base, pos))) {
                W in = charge(w, L::body);
                if (!in.ok()) return in;
                w.left = L::verify_all(r, pos, in, typename L::indices{}).left;
                return w;
            }
            return verify_other(r, slot_pos, base, w);
        } else {
            return verify_any(r, slot_pos, base, w);
        }
    }

private:
    template <class W>
    static FASTWIRE_INLINE W read_any(reader& r, std::size_t slot_pos, std::size_t base, W w, S& out) {
        std::size_t pos = 0, stored = 0;
        W in = enter(r, slot_pos, base, w, pos, stored);
        if (!in.ok()) return in;
        in = FASTWIRE_LIKELY(stored >= L::body) ? L::read_all(r, pos, in, out, typename L::indices{})
                                                : L::read_some(r, pos, stored, in, out, typename L::indices{});
        w.left = in.left;  // back at the caller's level
        return w;
    }
    template <class W>
    FASTWIRE_NOINLINE static W read_other(reader& r, std::size_t slot_pos, std::size_t base, W w, S& out) {
        return read_any(r, slot_pos, base, w, out);
    }

    template <class W>
    static FASTWIRE_INLINE W verify_any(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        std::size_t pos = 0, stored = 0;
        W in = enter(r, slot_pos, base, w, pos, stored);
        if (!in.ok()) return in;
        in = FASTWIRE_LIKELY(stored >= L::body) ? L::verify_all(r, pos, in, typename L::indices{})
                                                : L::verify_some(r, pos, stored, in, typename L::indices{});
        w.left = in.left;
        return w;
    }
    template <class W>
    FASTWIRE_NOINLINE static W verify_other(reader& r, std::size_t slot_pos, std::size_t base, W w) noexcept {
        return verify_any(r, slot_pos, base, w);
    }
};

}  // namespace versioned
}  // namespace fastwire

#pragma GCC diagnostic pop
