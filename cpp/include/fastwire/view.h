// fastwire/view.h - zero-copy views over the versioned FBE format: read one field of a
// message without deserializing the rest, with no allocation and no copy.
//
// The generator writes one view class per struct (in p_models.h) whose accessors read a
// slot at the offset the schema compiler worked out (fastwire.lower); this header is what
// those accessors are made of: element<T> says how a value of C++ type T is viewed in its
// slot, and the collection views hand out element views.
//
//   proto::AccountModel model;                    // (or fastwire::view<Account>(data, size)
//   model.attach(bytes);                          //  without a model, and without verify)
//   if (!model.verify()) return;                  // before trusting the values (Safety)
//   proto::AccountView v = model.view();
//   v.uid();                                      // std::int32_t
//   v.name();                                     // std::string_view into the buffer
//   v.wallet().currency();                        // a nested struct view
//   if (auto a = v.asset()) a->amount();          // optional: std::optional<BalanceView>
//   for (proto::OrderView o : v.orders()) o.price();  // size(), operator[], iteration
//
// How each type is viewed (element<T>::type):
//   numbers, bool, char, enums, flags, decimal, uuid, timestamp -> the value (a copy of a
//   few bytes); string -> std::string_view; bytes -> byte_view; struct S -> S's view
//   class; T? -> std::optional<view of T>; T[] / list / set -> sequence_view<T>;
//   map / hash -> map_view<K, V> (pairs in wire order; keys are not looked up);
//   T[N] -> array_view<T, N>.
//
// Safety: a checked view (SView, from view()) knows where the message ends and checks
// each offset, length and count it follows against that end, so it never reads outside
// the message, whatever the bytes (no verify() needed for that). What it does not check is
// what verify() adds (pointers going forward, shared blocks, type numbers, decimal scales,
// depth): on bytes that fail verify(), it may show unspecified values. Something that does
// not fit reads as empty (a string, a collection), absent (an optional) or as a struct
// with no fields (every field its default).
// A trusted view (STrustedView, from checked_view() or trusted_view()) checks nothing: it
// is for bytes that passed verify() and have not changed since, where every offset and
// count is known to fit (as FlatBuffers' accessors after its Verifier). On other bytes it
// can read outside the message. model::checked_view() = verify(), then a trusted view.
// Both are BasicSView<P> (P = checked or trusted); every view template below takes P.
// A struct written by an older schema (a shorter body) is handled: fields beyond its
// stored size read as their defaults, as deserialize() gives them.
//
// Mutable views (S's MutableView, from model::mutable_view() on the owned buffer, or
// from a view's bytes you own) add set_x() for the fixed-size fields (the values above
// that are copies): the new value is written in place. set_x() returns false, writing
// nothing, when the stored struct is too old to have the field.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>
#include <type_traits>

#include <fastwire/endian.h>
#include <fastwire/internal/scalar.h>
#include <fastwire/schema.h>
#include <fastwire/versioned.h>

namespace fastwire {

// The view classes of struct S, specialised by generated code:
//   template <class P> using basic = BasicSView<P>;
//   using type = SView; using trusted_type = STrustedView; using mutable_type = SMutableView;
template <class S>
struct view_type;

namespace versioned {

// What a view checks (the P of every view template): checked views check every offset,
// length and count against the end of the message; trusted views check nothing (bytes
// that passed verify()). Either way a view checks each struct's stored size, so fields a
// shorter (older) struct lacks read as their defaults.
struct checked {};
struct trusted {};
template <class P>
inline constexpr bool is_trusted_v = std::is_same_v<P, trusted>;

template <class T, class P = checked, class = void>
struct element;  // how a value of type T is viewed in its slot; specialised below

// The bytes of a `bytes` field, in the buffer.
class byte_view {
public:
    constexpr byte_view() noexcept = default;
    constexpr byte_view(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}
    constexpr const std::uint8_t* data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr const std::uint8_t* begin() const noexcept { return data_; }
    constexpr const std::uint8_t* end() const noexcept { return data_ + size_; }
    constexpr std::uint8_t operator[](std::size_t i) const noexcept { return data_[i]; }

private:
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

namespace internal {
// The body of a struct that has no field (size 8): every field of a view over it reads as
// its default. Default-constructed struct views look at it.
inline constexpr std::uint8_t empty_body[8] = {8, 0, 0, 0, 0, 0, 0, 0};
}  // namespace internal

// What every generated view class derives from: a struct body [u32 size][u32 type][slots],
// whose slots' offsets are relative to the body, inside a message that ends at `end`.
template <class P>
class basic_struct_view {
public:
    basic_struct_view() noexcept : body_(internal::empty_body), size_(8), room_(8) {}
    // The body at `body`; one that does not fit before `end` views as empty_body, and so
    // does one more than 4 GiB - 1 bytes before `end` (a model's full_size is 32-bit, so a
    // view of a message never is).
    basic_struct_view(const std::uint8_t* body, const std::uint8_t* end) noexcept {
        const std::size_t room = static_cast<std::size_t>(end - body);
        if (FASTWIRE_LIKELY(room - 8 <= std::size_t{0xFFFFFFFFu - 8})) {  // 8 <= room < 4 GiB
            set(body, static_cast<std::uint32_t>(room));
        } else {
            body_ = internal::empty_body;
            size_ = room_ = 8;
        }
    }
    // The body at `body`, followed by at least `room` readable bytes of the message.
    basic_struct_view(const std::uint8_t* body, std::uint32_t room) noexcept {
        if (FASTWIRE_LIKELY(room >= 8)) {
            set(body, room);
        } else {
            body_ = internal::empty_body;
            size_ = room_ = 8;
        }
    }

    // The body at `body`, whose 8-byte header the caller checked lies before the end of
    // the message, `room` bytes on (room >= 8 unless a hand-made view of 4 GiB or more was
    // truncated: then the fields read as defaults).
    struct fits {};
    basic_struct_view(const std::uint8_t* body, std::uint32_t room, fits) noexcept { set(body, room); }

    // The first byte of the body; its size as far as the view reads it (the stored size,
    // or less where the message ends first); the end of the message.
    const std::uint8_t* data() const noexcept { return body_; }
    std::size_t size() const noexcept { return size_; }
    const std::uint8_t* message_end() const noexcept { return body_ + room_; }

protected:
    // The field of type T whose slot is [Offset, End) in the body; the field's default when
    // the body is too short to hold it (written by an older schema): `fallback`, or what
    // `make_default` returns (a default computed at construction, e.g. a uuid1).
    template <class T, std::uint32_t Offset, std::uint32_t End>
    FASTWIRE_INLINE typename element<T, P>::type get_(typename element<T, P>::type fallback = {}) const noexcept {
        if (!FASTWIRE_LIKELY(size_ >= End)) return fallback;
        return element<T, P>::get(body_ + Offset, body_, body_ + room_);
    }
    template <class T, std::uint32_t Offset, std::uint32_t End, class F,
              std::enable_if_t<std::is_invocable_v<F>, int> = 0>
    FASTWIRE_INLINE typename element<T, P>::type get_(F make_default) const noexcept {
        if (!FASTWIRE_LIKELY(size_ >= End)) return make_default();
        return element<T, P>::get(body_ + Offset, body_, body_ + room_);
    }

    // Writes a fixed-size field in place; false when the body is too short to hold it.
    template <class T, std::uint32_t Offset, std::uint32_t End>
    FASTWIRE_INLINE bool set_(const T& value) const noexcept {
        static_assert(fastwire::internal::is_fixed_value_v<T>, "only fixed-size fields are written in place");
        if (!FASTWIRE_LIKELY(size_ >= End)) return false;
        fastwire::internal::fixed_value<T>::store(const_cast<std::uint8_t*>(body_) + Offset, value);
        return true;
    }

private:
    FASTWIRE_INLINE void set(const std::uint8_t* body, std::uint32_t room) noexcept {
        const std::uint32_t stored = load_le<std::uint32_t>(body);
        body_ = body;
        room_ = room;
        if constexpr (is_trusted_v<P>)
            size_ = stored;  // verified: the body lies inside the message
        else
            size_ = stored < room ? stored : room;  // fields beyond the message: defaults
    }

    // 16 bytes, trivially copyable: passed and returned in two registers.
    const std::uint8_t* body_;
    std::uint32_t size_;  // min(stored size, room_)
    std::uint32_t room_;  // bytes from body_ to the end of the message
};

// The checked view every generated SView derives from; and whether V is a struct view.
using struct_view = basic_struct_view<checked>;
template <class V>
inline constexpr bool is_struct_view_v =
    std::is_base_of_v<basic_struct_view<checked>, V> || std::is_base_of_v<basic_struct_view<trusted>, V>;

// A run of `count` element slots of type T starting at `first`; offsets inside the
// elements are relative to `base`. The shared part of sequence_view and array_view.
template <class T, class P = checked>
class slots_view {
public:
    using value_type = typename element<T, P>::type;
    static constexpr std::size_t stride = codec<T>::slot;

    class iterator {
    public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = typename slots_view::value_type;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = value_type;

        iterator() noexcept = default;
        iterator(const std::uint8_t* p, const std::uint8_t* base, const std::uint8_t* end) noexcept
            : p_(p), base_(base), end_(end) {}
        value_type operator*() const noexcept { return element<T, P>::get(p_, base_, end_); }
        value_type operator[](difference_type i) const noexcept { return *(*this + i); }
        iterator& operator++() noexcept {
            p_ += stride;
            return *this;
        }
        iterator operator++(int) noexcept {
            iterator t = *this;
            p_ += stride;
            return t;
        }
        iterator& operator--() noexcept {
            p_ -= stride;
            return *this;
        }
        iterator& operator+=(difference_type n) noexcept {
            p_ += n * static_cast<difference_type>(stride);
            return *this;
        }
        friend iterator operator+(iterator it, difference_type n) noexcept { return it += n; }
        friend difference_type operator-(const iterator& a, const iterator& b) noexcept {
            return (a.p_ - b.p_) / static_cast<difference_type>(stride);
        }
        friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.p_ == b.p_; }
        friend bool operator!=(const iterator& a, const iterator& b) noexcept { return a.p_ != b.p_; }
        friend bool operator<(const iterator& a, const iterator& b) noexcept { return a.p_ < b.p_; }

    private:
        const std::uint8_t* p_ = nullptr;
        const std::uint8_t* base_ = nullptr;
        const std::uint8_t* end_ = nullptr;
    };

    slots_view() noexcept = default;
    // The caller checked that the count slots lie before `end`, and that `end - base >= 4`.
    slots_view(const std::uint8_t* first, std::size_t count, const std::uint8_t* base, const std::uint8_t* end) noexcept
        : first_(first), base_(base), end_(end), count_(count) {}

    std::size_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    // No bounds check (as std::vector's): i < size().
    value_type operator[](std::size_t i) const noexcept { return element<T, P>::get(first_ + i * stride, base_, end_); }
    value_type front() const noexcept { return (*this)[0]; }
    value_type back() const noexcept { return (*this)[count_ - 1]; }
    iterator begin() const noexcept { return {first_, base_, end_}; }
    iterator end() const noexcept { return {first_ + count_ * stride, base_, end_}; }

private:
    const std::uint8_t* first_ = nullptr;
    const std::uint8_t* base_ = nullptr;
    const std::uint8_t* end_ = nullptr;
    std::size_t count_ = 0;
};

// vector, list or set: [u32 count][count x slot]; a set's elements in wire order.
template <class T, class P = checked>
using sequence_view = slots_view<T, P>;

// T[N]: N slots inline.
template <class T, std::size_t N, class P = checked>
class array_view : public slots_view<T, P> {
public:
    array_view() noexcept = default;
    array_view(const std::uint8_t* first, const std::uint8_t* base, const std::uint8_t* end) noexcept
        : slots_view<T, P>(first, N, base, end) {}
};

// map or hash: [u32 count][count x (key slot, value slot)], iterated as pairs in wire order.
template <class K, class V, class P = checked>
class map_view {
public:
    struct entry {
        typename element<K, P>::type key;
        typename element<V, P>::type value;
    };
    static constexpr std::size_t stride = codec<K>::slot + codec<V>::slot;

    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = entry;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = entry;

        iterator() noexcept = default;
        iterator(const std::uint8_t* p, const std::uint8_t* base, const std::uint8_t* end) noexcept
            : p_(p), base_(base), end_(end) {}
        entry operator*() const noexcept {
            return {element<K, P>::get(p_, base_, end_), element<V, P>::get(p_ + codec<K>::slot, base_, end_)};
        }
        iterator& operator++() noexcept {
            p_ += stride;
            return *this;
        }
        iterator operator++(int) noexcept {
            iterator t = *this;
            p_ += stride;
            return t;
        }
        friend bool operator==(const iterator& a, const iterator& b) noexcept { return a.p_ == b.p_; }
        friend bool operator!=(const iterator& a, const iterator& b) noexcept { return a.p_ != b.p_; }

    private:
        const std::uint8_t* p_ = nullptr;
        const std::uint8_t* base_ = nullptr;
        const std::uint8_t* end_ = nullptr;
    };

    map_view() noexcept = default;
    map_view(const std::uint8_t* first, std::size_t count, const std::uint8_t* base, const std::uint8_t* end) noexcept
        : first_(first), base_(base), end_(end), count_(count) {}

    std::size_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    // The i-th pair in wire order (i < size()).
    entry operator[](std::size_t i) const noexcept { return *iterator(first_ + i * stride, base_, end_); }
    iterator begin() const noexcept { return {first_, base_, end_}; }
    iterator end() const noexcept { return {first_ + count_ * stride, base_, end_}; }

private:
    const std::uint8_t* first_ = nullptr;
    const std::uint8_t* base_ = nullptr;
    const std::uint8_t* end_ = nullptr;
    std::size_t count_ = 0;
};

// ---- element<T>: get(slot, base, end) views the value in the slot -----------------------
// The slot lies before `end` (the caller checked it); whatever it points to is checked here.

namespace internal {
// The [u32 n][n x stride] block an offset slot leads to (base + offset): true with its
// first element and n when it lies before `end`; false for offset 0 (empty) and for a block
// that does not fit (read as empty).
// `base` is followed by at least 4 bytes (a struct body has 8, an optional's value block
// the value's slot, and only string, bytes and collections, 4-byte slots, come here).
// Trusted (verified bytes): only offset 0 (empty) is told apart.
template <class P>
FASTWIRE_INLINE bool block(const std::uint8_t* slot, const std::uint8_t* base, const std::uint8_t* end,
                           std::size_t stride, const std::uint8_t*& first, std::size_t& n) noexcept {
    const std::size_t off = load_le<std::uint32_t>(slot);
    const std::size_t room = static_cast<std::size_t>(end - base);  // >= 4
    // offset 0 (empty), or (checked) no room for the count
    if (is_trusted_v<P> ? off == 0 : off - 1 >= room - 4) return false;
    n = load_le<std::uint32_t>(base + off);
    first = base + off + 4;
    return is_trusted_v<P> || std::uint64_t{n} * stride <= room - off - 4;  // n < 2^32, stride < 2^31
}
}  // namespace internal

template <class T, class P>
struct element<T, P, std::enable_if_t<fastwire::internal::is_fixed_value_v<T>>> {
    using type = T;
    static FASTWIRE_INLINE T get(const std::uint8_t* slot, const std::uint8_t*, const std::uint8_t*) noexcept {
        T v{};
        fastwire::internal::fixed_value<T>::load(slot, v);  // decimal: the scale is verify()'s to check
        return v;
    }
};

template <class P>
struct element<std::string, P> {
    using type = std::string_view;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block<P>(slot, base, end, 1, p, n)) return {};
        return {reinterpret_cast<const char*>(p), n};
    }
};

template <class P>
struct element<bytes, P> {
    using type = byte_view;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block<P>(slot, base, end, 1, p, n)) return {};
        return {p, n};
    }
};

template <class S, class P>
struct element<S, P, std::enable_if_t<is_struct_v<S>>> {
    using type = typename view_type<S>::template basic<P>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::size_t room = static_cast<std::size_t>(end - base);  // < 4 GiB (a message's)
        const std::uint32_t off = load_le<std::uint32_t>(slot);
        if constexpr (!is_trusted_v<P>)
            if (std::uint64_t{off} + 8 > room) return type();  // the header does not fit
        // Truncating a room of 4 GiB or more (a hand-made view) only shortens it.
        return type(base + off, static_cast<std::uint32_t>(room - off), typename basic_struct_view<P>::fits{});
    }
};

// g++ 12 takes the empty payload of a returned std::nullopt for a read of an uninitialised
// value when a trusted view's optional enum is inlined (GCC bug 80635): not a read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
template <class T, class P>
struct element<std::optional<T>, P> {
    using type = std::optional<typename element<T, P>::type>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        if (slot[0] == 0) return std::nullopt;
        const std::uint32_t off = load_le<std::uint32_t>(slot + 1);
        if constexpr (!is_trusted_v<P>) {
            const std::size_t room = static_cast<std::size_t>(end - base);
            if (room < codec<T>::slot || off > room - codec<T>::slot) return std::nullopt;
        }
        const std::uint8_t* b = base + off;
        return element<T, P>::get(b, b, end);  // the value's offsets are relative to its block
    }
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

template <class Seq, class P>
struct element<Seq, P, std::enable_if_t<fastwire::internal::is_sequence_v<Seq>>> {
    using type = sequence_view<typename Seq::value_type, P>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block<P>(slot, base, end, type::stride, p, n)) return {};
        return type(p, n, base, end);
    }
};

template <class M, class P>
struct element<M, P, std::enable_if_t<fastwire::internal::is_map_v<M>>> {
    using type = map_view<typename M::key_type, typename M::mapped_type, P>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block<P>(slot, base, end, type::stride, p, n)) return {};
        return type(p, n, base, end);
    }
};

template <class T, std::size_t N, class P>
struct element<std::array<T, N>, P> {
    using type = array_view<T, N, P>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        return type(slot, base, end);  // inline: inside the struct's slot, already checked
    }
};

// The view of the root model of `size` bytes at `model` ([u32 full_size][u32 offset][body…]):
// bounded by full_size when it fits in `size`, else by `size`. Trusted: the model passed
// verify(), so it fits.
template <class S, class P = checked>
FASTWIRE_INLINE typename view_type<S>::template basic<P> root_view(const std::uint8_t* model,
                                                                   [[maybe_unused]] std::size_t size) noexcept {
    if constexpr (is_trusted_v<P>) {
        return element<S, P>::get(model + 4, model, model + load_le<std::uint32_t>(model));
    } else {
        if (size < 8) return {};
        const std::size_t full = load_le<std::uint32_t>(model);
        return element<S, P>::get(model + 4, model, model + (full < size ? full : size));
    }
}
template <class S>
FASTWIRE_INLINE typename view_type<S>::mutable_type root_mutable_view(std::uint8_t* model, std::size_t size) noexcept {
    return typename view_type<S>::mutable_type(root_view<S>(model, size));
}

}  // namespace versioned

// The view of the root model at the start of `data` ([u32 full_size][u32 offset][body…]),
// without a model object: what model<S>::attach(data, size) + view() give (as FlatBuffers'
// GetRoot<T>()), with the same safety: it never reads outside the `size` bytes, and shows
// unspecified values for bytes that fail verify().
template <class S>
FASTWIRE_INLINE typename view_type<S>::type view(const void* data, std::size_t size) noexcept {
    return versioned::root_view<S>(static_cast<const std::uint8_t*>(data), size);
}

// The same view without any check, for bytes that passed verify() and have not changed
// since (as FlatBuffers' GetRoot<T>() after its Verifier): on other bytes it can read
// outside them. `size` is not read; it is there to keep the call the same as view()'s.
template <class S>
FASTWIRE_INLINE typename view_type<S>::trusted_type trusted_view(const void* data,
                                                                 [[maybe_unused]] std::size_t size) noexcept {
    return versioned::root_view<S, versioned::trusted>(static_cast<const std::uint8_t*>(data), size);
}

}  // namespace fastwire
