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
// Safety: every view knows where the message ends and checks each offset, length and
// count it follows against that end, so no view reads outside the message, whatever the
// bytes (no verify() needed for that). What it does not check is what verify() adds
// (pointers going forward, shared blocks, type numbers, decimal scales, depth): on bytes
// that fail verify(), a view may show unspecified values. Something that does not fit
// reads as empty (a string, a collection), absent (an optional) or as a struct with no
// fields (every field its default). model::checked_view() = verify(), then view().
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
//   using type = SView; using mutable_type = SMutableView;
template <class S>
struct view_type;

namespace versioned {

template <class T, class = void>
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
class struct_view {
public:
    struct_view() noexcept : body_(internal::empty_body), size_(8), room_(8) {}
    // The body at `body`; one that does not fit before `end` views as empty_body, and so
    // does one more than 4 GiB - 1 bytes before `end` (a model's full_size is 32-bit, so a
    // view of a message never is).
    struct_view(const std::uint8_t* body, const std::uint8_t* end) noexcept {
        const std::size_t room = static_cast<std::size_t>(end - body);
        if (FASTWIRE_LIKELY(room - 8 <= std::size_t{0xFFFFFFFFu - 8})) {  // 8 <= room < 4 GiB
            set(body, static_cast<std::uint32_t>(room));
        } else {
            body_ = internal::empty_body;
            size_ = room_ = 8;
        }
    }
    // The body at `body`, followed by at least `room` readable bytes of the message.
    struct_view(const std::uint8_t* body, std::uint32_t room) noexcept {
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
    struct_view(const std::uint8_t* body, std::uint32_t room, fits) noexcept { set(body, room); }

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
    FASTWIRE_INLINE typename element<T>::type get_(typename element<T>::type fallback = {}) const noexcept {
        if (!FASTWIRE_LIKELY(size_ >= End)) return fallback;
        return element<T>::get(body_ + Offset, body_, body_ + room_);
    }
    template <class T, std::uint32_t Offset, std::uint32_t End, class F,
              std::enable_if_t<std::is_invocable_v<F>, int> = 0>
    FASTWIRE_INLINE typename element<T>::type get_(F make_default) const noexcept {
        if (!FASTWIRE_LIKELY(size_ >= End)) return make_default();
        return element<T>::get(body_ + Offset, body_, body_ + room_);
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
        size_ = stored < room ? stored : room;  // fields beyond the message: defaults
    }

    // 16 bytes, trivially copyable: passed and returned in two registers.
    const std::uint8_t* body_;
    std::uint32_t size_;  // min(stored size, room_)
    std::uint32_t room_;  // bytes from body_ to the end of the message
};

// A run of `count` element slots of type T starting at `first`; offsets inside the
// elements are relative to `base`. The shared part of sequence_view and array_view.
template <class T>
class slots_view {
public:
    using value_type = typename element<T>::type;
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
        value_type operator*() const noexcept { return element<T>::get(p_, base_, end_); }
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
    value_type operator[](std::size_t i) const noexcept { return element<T>::get(first_ + i * stride, base_, end_); }
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
template <class T>
using sequence_view = slots_view<T>;

// T[N]: N slots inline.
template <class T, std::size_t N>
class array_view : public slots_view<T> {
public:
    array_view() noexcept = default;
    array_view(const std::uint8_t* first, const std::uint8_t* base, const std::uint8_t* end) noexcept
        : slots_view<T>(first, N, base, end) {}
};

// map or hash: [u32 count][count x (key slot, value slot)], iterated as pairs in wire order.
template <class K, class V>
class map_view {
public:
    struct entry {
        typename element<K>::type key;
        typename element<V>::type value;
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
            return {element<K>::get(p_, base_, end_), element<V>::get(p_ + codec<K>::slot, base_, end_)};
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
FASTWIRE_INLINE bool block(const std::uint8_t* slot, const std::uint8_t* base, const std::uint8_t* end,
                           std::size_t stride, const std::uint8_t*& first, std::size_t& n) noexcept {
    const std::size_t off = load_le<std::uint32_t>(slot);
    const std::size_t room = static_cast<std::size_t>(end - base);  // >= 4
    if (off - 1 >= room - 4) return false;                          // offset 0 (empty), or no room for the count
    n = load_le<std::uint32_t>(base + off);
    first = base + off + 4;
    return std::uint64_t{n} * stride <= room - off - 4;  // n < 2^32, stride < 2^31: no overflow
}
}  // namespace internal

template <class T>
struct element<T, std::enable_if_t<fastwire::internal::is_fixed_value_v<T>>> {
    using type = T;
    static FASTWIRE_INLINE T get(const std::uint8_t* slot, const std::uint8_t*, const std::uint8_t*) noexcept {
        T v{};
        fastwire::internal::fixed_value<T>::load(slot, v);  // decimal: the scale is verify()'s to check
        return v;
    }
};

template <>
struct element<std::string> {
    using type = std::string_view;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block(slot, base, end, 1, p, n)) return {};
        return {reinterpret_cast<const char*>(p), n};
    }
};

template <>
struct element<bytes> {
    using type = byte_view;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block(slot, base, end, 1, p, n)) return {};
        return {p, n};
    }
};

template <class S>
struct element<S, std::enable_if_t<is_struct_v<S>>> {
    using type = typename view_type<S>::type;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::size_t room = static_cast<std::size_t>(end - base);  // < 4 GiB (a message's)
        const std::uint32_t off = load_le<std::uint32_t>(slot);
        if (std::uint64_t{off} + 8 > room) return type();  // the header does not fit
        // Truncating a room of 4 GiB or more (a hand-made view) only shortens it.
        return type(base + off, static_cast<std::uint32_t>(room - off), struct_view::fits{});
    }
};

template <class T>
struct element<std::optional<T>> {
    using type = std::optional<typename element<T>::type>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        if (slot[0] == 0) return std::nullopt;
        const std::uint32_t off = load_le<std::uint32_t>(slot + 1);
        const std::size_t room = static_cast<std::size_t>(end - base);
        if (room < codec<T>::slot || off > room - codec<T>::slot) return std::nullopt;
        const std::uint8_t* b = base + off;
        return element<T>::get(b, b, end);  // the value's offsets are relative to its block
    }
};

template <class Seq>
struct element<Seq, std::enable_if_t<fastwire::internal::is_sequence_v<Seq>>> {
    using type = sequence_view<typename Seq::value_type>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block(slot, base, end, type::stride, p, n)) return {};
        return type(p, n, base, end);
    }
};

template <class M>
struct element<M, std::enable_if_t<fastwire::internal::is_map_v<M>>> {
    using type = map_view<typename M::key_type, typename M::mapped_type>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        const std::uint8_t* p = nullptr;
        std::size_t n = 0;
        if (!internal::block(slot, base, end, type::stride, p, n)) return {};
        return type(p, n, base, end);
    }
};

template <class T, std::size_t N>
struct element<std::array<T, N>> {
    using type = array_view<T, N>;
    static FASTWIRE_INLINE type get(const std::uint8_t* slot, const std::uint8_t* base,
                                    const std::uint8_t* end) noexcept {
        return type(slot, base, end);  // inline: inside the struct's slot, already checked
    }
};

// The view of the root model of `size` bytes at `model` ([u32 full_size][u32 offset][body…]):
// bounded by full_size when it fits in `size`, else by `size`.
template <class S>
FASTWIRE_INLINE typename view_type<S>::type root_view(const std::uint8_t* model, std::size_t size) noexcept {
    if (size < 8) return {};
    const std::size_t full = load_le<std::uint32_t>(model);
    return element<S>::get(model + 4, model, model + (full < size ? full : size));
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

}  // namespace fastwire
